"""The compiled parts of the package: fcm_env.native._core, the rules engine, and fcm_agents.native._agents, the
native players (C++17, pybind11). Everything else about the
package is in pyproject.toml; setuptools reads this file only for the extension module.

``FCM_PURE_PYTHON=1 pip install .`` leaves the core out (no C++ compiler needed): the package then runs on
the Python engine, and the envs say so once (docs/native.md)."""

import os
from glob import glob

from pybind11.setup_helpers import ParallelCompile, Pybind11Extension, build_ext
from setuptools import setup

PURE_PYTHON = os.environ.get("FCM_PURE_PYTHON", "").strip().lower() in ("1", "true", "yes", "on")

ENGINE = sorted(glob("fcm_env/native/src/*.cpp"))
#: the engine's own Python face: every other source is the rules, which the players' module links a copy of
ENGINE_BINDINGS = {"fcm_env/native/src/module.cpp", "fcm_env/native/src/bind_game.cpp"}

native = Pybind11Extension(
    "fcm_env.native._core",
    ENGINE,
    include_dirs=["fcm_env/native/src"],
    cxx_std=17,
    extra_compile_args=["-O3", "-Wall", "-Wextra"],
)
# the native players (agents/native/src): a layer above the engine, so a module of their own, compiled with
# the engine's rules; it takes the engine's games as they are (pybind11 shares the registered types)
players = Pybind11Extension(
    "fcm_agents.native._agents",
    [s for s in ENGINE if s not in ENGINE_BINDINGS] + sorted(glob("agents/native/src/*.cpp")),
    include_dirs=["fcm_env/native/src", "agents/native/src"],
    cxx_std=17,
    extra_compile_args=["-O3", "-Wall", "-Wextra"],
)

ParallelCompile("FCM_BUILD_JOBS", default=0).install()  # every core compiles (0: as many as there are)

setup(ext_modules=[] if PURE_PYTHON else [native, players], cmdclass={"build_ext": build_ext})

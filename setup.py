"""The compiled parts of the package: fcm_env.native._core, the rules engine, and fcm_agents.native._agents, the
native players (C++17, pybind11). Everything else about the package is in pyproject.toml; setuptools reads
this file only for the two extension modules.

Each source is compiled once: the rules (every engine source but its Python bindings) go into both modules
as the same object files, so the players' module takes the engine's rules without compiling them again (it
did until issue 54: a wheel build compiled 66 sources for 46 files). All of them are compiled in one parallel
batch (``FCM_BUILD_JOBS``, default: every core), then the two modules are linked; the build prints a line
per stage (``pip install -v`` shows them; pip hides a backend's output otherwise).

``FCM_PURE_PYTHON=1 pip install .`` leaves the core out (no C++ compiler needed): the package then runs on
the Python engine, and the envs say so once (docs/native.md)."""

import os
import sys
import time
from glob import glob

from pybind11.setup_helpers import ParallelCompile, Pybind11Extension, build_ext
from setuptools import setup

PURE_PYTHON = os.environ.get("FCM_PURE_PYTHON", "").strip().lower() in ("1", "true", "yes", "on")

ENGINE_SRC, PLAYERS_SRC = "fcm_env/native/src", "agents/native/src"
ENGINE = sorted(glob(f"{ENGINE_SRC}/*.cpp"))
#: the engine's own Python face: every other engine source is the rules, which both modules link
ENGINE_BINDINGS = [f"{ENGINE_SRC}/module.cpp", f"{ENGINE_SRC}/bind_game.cpp"]
RULES = [s for s in ENGINE if s not in ENGINE_BINDINGS]
PLAYERS = sorted(glob(f"{PLAYERS_SRC}/*.cpp"))
HEADERS = sorted(glob(f"{ENGINE_SRC}/*.h") + glob(f"{PLAYERS_SRC}/*.h"))

FLAGS = ["-O3", "-Wall", "-Wextra"]
native = Pybind11Extension("fcm_env.native._core", ENGINE_BINDINGS, include_dirs=[ENGINE_SRC], cxx_std=17,
                           extra_compile_args=FLAGS)
# the native players: a layer above the engine, so a module of their own; they take the engine's games as
# they are (pybind11 shares the registered types between the two modules)
players = Pybind11Extension("fcm_agents.native._agents", PLAYERS, include_dirs=[ENGINE_SRC, PLAYERS_SRC],
                            cxx_std=17, extra_compile_args=FLAGS)

ParallelCompile("FCM_BUILD_JOBS", default=0).install()  # every core compiles (0: as many as there are)


def _say(started: float, line: str) -> None:
    print(f"fcm-magnate build [{time.monotonic() - started:6.1f} s] {line}", flush=True)


class BuildOnce(build_ext):
    """Compiles every source of both modules in one parallel batch (the rules once), then links each
    module from its own objects and the rules' objects."""

    def build_extensions(self) -> None:
        started = time.monotonic()
        for ext in self.extensions:
            if getattr(ext, "_cxx_level", None) == 0:  # pybind11's highest-standard search (not used here)
                from pybind11.setup_helpers import auto_cpp_level
                ext.cxx_std = auto_cpp_level(self.compiler)
        own = {ext.name: list(ext.sources) for ext in self.extensions}
        every = RULES + [s for sources in own.values() for s in sources]
        jobs = os.environ.get("FCM_BUILD_JOBS", "0")
        _say(started, f"compiling {len(every)} C++ sources once ({len(RULES)} of the rules, "
                      f"{len(every) - len(RULES)} of the modules' own; jobs: {jobs if jobs != '0' else os.cpu_count()})")
        objects = self.compiler.compile(
            every, output_dir=self.build_temp, include_dirs=[*native.include_dirs, PLAYERS_SRC], depends=HEADERS,
            macros=native.define_macros, extra_postargs=native.extra_compile_args, debug=self.debug)
        by_source = dict(zip(every, objects, strict=True))
        _say(started, "compiled; linking")
        for ext in self.extensions:
            ext.extra_objects = [by_source[s] for s in own[ext.name] + RULES]
            ext.depends = list(ext.extra_objects)  # relinked whenever an object is newer than the module
            ext.sources = []
            self.build_extension(ext)
            _say(started, f"linked {ext.name}")


if PURE_PYTHON:
    print("fcm-magnate build: FCM_PURE_PYTHON is set, the native core is left out", file=sys.stderr)
setup(ext_modules=[] if PURE_PYTHON else [native, players], cmdclass={"build_ext": BuildOnce})

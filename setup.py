"""The compiled part of the package: fcm_env.native._core (C++17, pybind11). Everything else about the
package is in pyproject.toml; setuptools reads this file only for the extension module.

``FCM_PURE_PYTHON=1 pip install .`` leaves the core out (no C++ compiler needed): the package then runs on
the Python engine, and the envs say so once (docs/native.md)."""

import os
from glob import glob

from pybind11.setup_helpers import Pybind11Extension, build_ext
from setuptools import setup

PURE_PYTHON = os.environ.get("FCM_PURE_PYTHON", "").strip().lower() in ("1", "true", "yes", "on")

native = Pybind11Extension(
    "fcm_env.native._core",
    sorted(glob("fcm_env/native/src/*.cpp")),
    include_dirs=["fcm_env/native/src"],
    cxx_std=17,
    extra_compile_args=["-O3", "-Wall", "-Wextra"],
)

setup(ext_modules=[] if PURE_PYTHON else [native], cmdclass={"build_ext": build_ext})

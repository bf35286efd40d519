"""The compiled part of the package: fcm_env.native._core (C++17, pybind11). Everything else about the
package is in pyproject.toml; setuptools reads this file only for the extension module."""

from glob import glob

from pybind11.setup_helpers import Pybind11Extension, build_ext
from setuptools import setup

native = Pybind11Extension(
    "fcm_env.native._core",
    sorted(glob("fcm_env/native/src/*.cpp")),
    include_dirs=["fcm_env/native/src"],
    cxx_std=17,
    extra_compile_args=["-O2", "-Wall", "-Wextra"],
)

setup(ext_modules=[native], cmdclass={"build_ext": build_ext})

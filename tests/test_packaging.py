"""Packaging facts a user relies on: every package folder ships, lowest pins match the bounds."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
SETUPTOOLS = PYPROJECT["tool"]["setuptools"]


def _folder(package: str) -> Path:
    """The repository folder a package name installs from (setuptools' package-dir, longest prefix)."""
    mapping = SETUPTOOLS.get("package-dir", {})
    parts = package.split(".")
    for cut in range(len(parts), 0, -1):
        prefix = ".".join(parts[:cut])
        if prefix in mapping:
            return ROOT / mapping[prefix] / Path(*parts[cut:])
    return ROOT / Path(*parts)


def test_every_package_folder_is_listed_and_every_listed_package_exists():
    listed = set(SETUPTOOLS["packages"])
    for package in listed:
        assert (_folder(package) / "__init__.py").is_file(), f"{package} -> {_folder(package)} has no __init__.py"
    shipped_folders = {_folder(p) for p in listed}
    for top in ("fcm_env", "agents", "training", "apps"):
        for init in (ROOT / top).rglob("__init__.py"):
            assert init.parent in shipped_folders, f"{init.parent.relative_to(ROOT)} is a package folder not shipped"


def test_no_generic_top_level_names_are_installed():
    tops = {p.split(".")[0] for p in SETUPTOOLS["packages"]}
    assert tops == {"fcm_env", "fcm_agents", "fcm_training", "fcm_apps"}


def test_lowest_constraints_pin_exactly_the_declared_lower_bounds():
    declared = {}
    for dep in PYPROJECT["project"]["dependencies"]:
        name = re.split(r"[<>=!~ \[]", dep, maxsplit=1)[0].lower()
        lower = re.search(r">=\s*([0-9][0-9.]*)", dep)
        assert lower, f"core dependency {dep!r} declares no lower bound"
        declared[name] = lower.group(1)
    pins = {}
    for line in (ROOT / ".ci" / "lowest-constraints.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, version = line.split("==")
            pins[name.lower()] = version
    assert set(pins) == set(declared)
    for name, bound in declared.items():
        # 1.1 == 1.1.0: compare padded release numbers
        pad = lambda v: tuple(int(x) for x in v.split(".")) + (0,) * (3 - len(v.split(".")))
        assert pad(pins[name]) == pad(bound), f"{name}: lowest pin {pins[name]} != declared lower bound {bound}"


def test_torch_is_a_range_not_a_pin():
    torch = [d for d in PYPROJECT["project"]["optional-dependencies"]["train"] if d.startswith("torch")]
    assert torch and "==" not in torch[0] and ">=" in torch[0] and "<" in torch[0].replace("<=", "")


def test_a_users_own_agents_and_training_packages_do_not_shadow_ours(tmp_path):
    import subprocess
    import sys

    for name in ("agents", "training"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text("raise ImportError('the user project package was imported')\n")
    code = ("from fcm_env.env import FcmSingleAgentEnv\n"
            "env = FcmSingleAgentEnv(num_players=2, max_rounds=2)\n"
            "obs, info = env.reset(seed=0)\n"
            "import fcm_training.configs, fcm_agents\n"
            "print(info['learner_id'], type(env.opponents[1]).__name__, fcm_agents.RandomAgent.__module__)\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["0", "RandomLegalPlayer", "fcm_agents.random_agent"]


def test_typed_packages_ship_their_py_typed_marker():
    """PEP 561: without the marker in the wheel, type checkers ignore the packages' annotations. setuptools
    ships py.typed by itself from version 69; below that only package-data does."""
    package_data = SETUPTOOLS.get("package-data", {})
    (setuptools,) = [r for r in PYPROJECT["build-system"]["requires"] if r.startswith("setuptools")]
    floor = re.search(r">=\s*([0-9]+)", setuptools)
    implicit = floor is not None and int(floor.group(1)) >= 69
    for package in ("fcm_env", "fcm_agents", "fcm_training"):
        assert (_folder(package) / "py.typed").is_file(), f"{_folder(package).relative_to(ROOT)} has no py.typed"
        assert implicit or "py.typed" in package_data.get(package, []), (
            f"pyproject.toml does not ship {package}/py.typed: list it in package-data (or require setuptools>=69)"
        )

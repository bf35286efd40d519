"""The dependency direction data -> engine -> encoding -> env -> agents -> training (README, Layout)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
STDLIB = set(sys.stdlib_module_names)

# package folder -> top-level modules (besides the stdlib) it may import
ALLOWED = {
    "fcm_env/data": {"fcm_env"},
    "fcm_env/engine": {"numpy", "fcm_env"},
    "fcm_env/encoding": {"numpy", "fcm_env"},
    "fcm_env/env": {"numpy", "gymnasium", "pettingzoo", "fcm_env"},
}
# fcm_env sub-packages each layer may import
ALLOWED_INTERNAL = {
    "fcm_env/data": {"fcm_env.data"},
    "fcm_env/engine": {"fcm_env.data", "fcm_env.engine"},
    "fcm_env/encoding": {"fcm_env.data", "fcm_env.engine", "fcm_env.encoding"},
    "fcm_env/env": {"fcm_env.data", "fcm_env.engine", "fcm_env.encoding", "fcm_env.env", "fcm_env.picture"},
}
# single modules outside the layer folders: what they may import (stdlib aside)
MODULE_ALLOWED = {
    "fcm_env/picture.py": {"numpy", "PIL", "fcm_env.data", "fcm_env.engine"},  # Pillow drawing, not in the engine
}
# what a layer may import only inside a function, at run time: the single-agent env's
# default opponents are fcm_agents.RandomAgent, a higher layer the env must not load on import;
# the encoder's compiled kernels use numba when it is installed (the optional [fast] extra)
LAZY_ALLOWED = {
    "fcm_env/env": {"fcm_agents"},
    "fcm_env/encoding": {"numba"},
}
RL_LIBRARIES = {"torch", "stable_baselines3", "sb3_contrib", "onnxruntime"}


def _imports(path: Path, module_level_only: bool = False) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    nested = set()
    if module_level_only:
        for fn in ast.walk(tree):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                nested.update(id(n) for n in ast.walk(fn) if isinstance(n, (ast.Import, ast.ImportFrom)))
    for node in ast.walk(tree):
        if id(node) in nested:
            continue
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                names.add(".".join(base + ([node.module] if node.module else [])))
            elif node.module:
                names.add(node.module)
    return names


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_layer_imports_only_what_is_below_it(layer):
    folder = ROOT / layer
    if not folder.exists():
        pytest.skip(f"{layer} does not exist yet")
    for path in sorted(folder.rglob("*.py")):
        module_level = _imports(path, module_level_only=True)
        for name in _imports(path):
            top = name.split(".")[0]
            if top in STDLIB:
                continue
            if name not in module_level and top in LAZY_ALLOWED.get(layer, set()):
                continue
            assert top in ALLOWED[layer], f"{path.relative_to(ROOT)} imports {name}"
            if top == "fcm_env":
                assert any(name == p or name.startswith(p + ".") for p in ALLOWED_INTERNAL[layer]), (
                    f"{path.relative_to(ROOT)} imports {name}, a higher layer"
                )


@pytest.mark.parametrize("module", sorted(MODULE_ALLOWED))
def test_module_imports_only_what_it_may(module):
    allowed = MODULE_ALLOWED[module]
    for name in _imports(ROOT / module):
        if name.split(".")[0] in STDLIB:
            continue
        assert any(name == p or name.startswith(p + ".") for p in allowed), f"{module} imports {name}"


def test_only_agents_and_training_import_torch_or_sb3():
    for path in sorted((ROOT / "fcm_env").rglob("*.py")):
        tops = {n.split(".")[0] for n in _imports(path)}
        assert not tops & RL_LIBRARIES, f"{path.relative_to(ROOT)} imports {tops & RL_LIBRARIES}"


def test_only_env_layer_imports_pettingzoo_or_gymnasium():
    for path in sorted((ROOT / "fcm_env").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith("fcm_env/env/"):
            continue
        if rel == "fcm_env/__init__.py":  # registers the env ids (string entry points, nothing loaded)
            assert not {n for n in _imports(path) if n.startswith("fcm_env.")}, f"{rel} loads a sub-package"
            continue
        tops = {n.split(".")[0] for n in _imports(path)}
        assert not tops & {"pettingzoo", "gymnasium"}, f"{rel} imports {tops & {'pettingzoo', 'gymnasium'}}"

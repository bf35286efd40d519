"""The dependency direction data -> engine -> text -> encoding -> view/env -> agents -> training -> apps
(docs/architecture.md), between packages and between modules, and no import circle anywhere."""

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
    "fcm_env/text": {"numpy", "fcm_env"},
    "fcm_env/view": {"numpy", "fcm_env"},
    "fcm_env/native": {"numpy", "fcm_env"},  # the compiled core and the facts it is handed
    "fcm_env/engines": {"numpy", "fcm_env"},  # the one face of both engines
}
# fcm_env sub-packages each layer may import
ALLOWED_INTERNAL = {
    "fcm_env/data": {"fcm_env.data"},
    "fcm_env/engine": {"fcm_env.data", "fcm_env.engine"},
    "fcm_env/encoding": {"fcm_env.data", "fcm_env.engine", "fcm_env.encoding"},
    "fcm_env/env": {
        "fcm_env.data", "fcm_env.engine", "fcm_env.text", "fcm_env.encoding", "fcm_env.env", "fcm_env.picture",
        "fcm_env.native", "fcm_env.engines",
    },
    "fcm_env/text": {"fcm_env.data", "fcm_env.engine", "fcm_env.text"},
    "fcm_env/view": {"fcm_env.data", "fcm_env.engine", "fcm_env.encoding", "fcm_env.view"},
    # the engine and the encoding once more, in C++: it reads their facts (the codec, the layout) from them
    "fcm_env/native": {"fcm_env.data", "fcm_env.engine", "fcm_env.encoding", "fcm_env.native"},
    # the seam above both engines: the Python engine with the encoding's views, the native core's face
    "fcm_env/engines": {"fcm_env.data", "fcm_env.engine", "fcm_env.encoding", "fcm_env.native", "fcm_env.engines"},
}
# single modules outside the layer folders: what they may import (stdlib aside)
MODULE_ALLOWED = {
    "fcm_env/picture.py": {"numpy", "PIL", "fcm_env.data", "fcm_env.engine"},  # Pillow drawing, not in the engine
    "fcm_env/openspiel.py": {"numpy", "pyspiel", "fcm_env.engine", "fcm_env.encoding", "fcm_env.text", "fcm_env.env",
                             "fcm_env.engines"},
    "fcm_env/tables.py": {"rich"},  # results tables for people (tournaments, fcm bench): rich, nothing of ours
}
# what a layer may import only inside a function, at run time (none now: the encoder's numba kernels went)
LAZY_ALLOWED: dict[str, set[str]] = {}
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
                # ``from fcm_env import engines`` imports the sub-package fcm_env.engines, not the package alone
                folder = ROOT / Path(*node.module.split("."))
                subs = {f"{node.module}.{a.name}" for a in node.names
                        if (folder / a.name).is_dir() or (folder / f"{a.name}.py").is_file()}
                names.update(subs or {node.module})
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


# ------------------------------------------------------------------ the module graph: no circle, no upward import

#: source folder -> the package name it installs as (pyproject.toml, [tool.setuptools.package-dir])
PACKAGE_DIRS = {"fcm_env": "fcm_env", "agents": "fcm_agents", "training": "fcm_training", "apps": "fcm_apps"}
#: layers from the bottom up; a module may import its own layer or a lower one (prefix match, longest wins)
RANKS = {
    "fcm_env.data": 0,
    "fcm_env.engine": 1,
    "fcm_env.text": 2,
    "fcm_env.picture": 2,
    "fcm_env.encoding": 3,
    "fcm_env.native": 3.5,  # the C++ core: the engine and the encoding again, read from them (docs/architecture.md)
    "fcm_env.engines": 3.7,  # the one face of both engines (the Python engine with its encoded views, the core's)
    "fcm_env.tables": 2,  # results tables for people (rich), read by tournaments and fcm bench
    "fcm_env.env": 4,
    "fcm_env.view": 4,  # one player's view and actions as JSON, beside the envs: front ends and prompts read it
    "fcm_env.openspiel": 4,  # the OpenSpiel game: an adapter over the encoding, beside the envs
    "fcm_env.__main__": 4,  # only says where the command line went
    "fcm_agents": 5,
    "fcm_training": 7,
    "fcm_training.common": 7,  # what both training backends share: below them
    "fcm_training.sb3": 8,
    "fcm_training.rllib": 8,
    "fcm_training.selfplay": 9,  # the public entry point of the SB3 trainer (``python -m``, ``fcm train``)
    "fcm_apps": 10,  # the front ends: terminal, web, server, bench; nothing imports them
    "fcm_apps.cli": 11,  # the command line starts every other front end
    "fcm_apps.__main__": 12,
    "fcm_apps.launch": 12,  # the command's first lines (its Ctrl-C handler), above the parser it starts
}
#: packages of one layer that must not import each other (the training backends stand side by side)
APART = (("fcm_training.sb3", "fcm_training.rllib"),)
#: upward imports made on purpose, inside a function only: (importer prefix, imported prefix, why)
UPWARD_LAZY: dict[tuple[str, str], str] = {}  # none today; one added here must say why it cannot be avoided


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    parts[0] = PACKAGE_DIRS[parts[0]]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _project_modules() -> dict[str, Path]:
    modules = {}
    for folder in PACKAGE_DIRS:
        for path in (ROOT / folder).rglob("*.py"):
            modules[_module_name(path)] = path
    return modules


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    """Imports under ``if TYPE_CHECKING:`` are not run, so they make no edge."""
    skip = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                skip.update(id(n) for n in ast.walk(child))
    return skip


def _edges(name: str, path: Path, modules: dict[str, Path]) -> dict[str, bool]:
    """Project modules that ``name`` imports -> whether some import of it runs at module level.

    ``from package import name`` is an edge to the submodule when ``name`` is one, else to the package.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _type_checking_nodes(tree)
    nested = set()
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            nested.update(id(n) for n in ast.walk(fn) if isinstance(n, (ast.Import, ast.ImportFrom)))
    is_package = path.name == "__init__.py"
    edges: dict[str, bool] = {}

    def add(target: str, node: ast.AST) -> None:
        if target in modules and target != name:
            edges[target] = edges.get(target, False) or id(node) not in nested

    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name, node)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[: len(base) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                sub = f"{source}.{alias.name}"
                add(sub if sub in modules else source, node)
    return edges


def _graph() -> dict[str, dict[str, bool]]:
    modules = _project_modules()
    return {name: _edges(name, path, modules) for name, path in sorted(modules.items())}


def _cycles(graph: dict[str, dict[str, bool]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in graph:
        if v not in index:
            visit(v)
    return found


def _rank(name: str) -> int | None:
    best = None
    for prefix, rank in RANKS.items():
        if (name == prefix or name.startswith(prefix + ".")) and (best is None or len(prefix) > len(best[0])):
            best = (prefix, rank)
    return None if best is None else best[1]


def test_the_cycle_finder_finds_a_circle_through_a_lazy_import():
    graph = {"a": {"b": True}, "b": {"c": False}, "c": {"a": True}, "d": {"a": True}}
    assert _cycles(graph) == [["a", "b", "c"]]
    assert _cycles({"a": {"b": True}, "b": {}}) == []


def test_no_import_circle_anywhere():
    # every import counts, those inside functions too (a late import hides a circle, it does not remove it)
    assert _cycles(_graph()) == []


def _package_graph(root: str) -> dict[str, dict[str, bool]]:
    """The module graph folded onto ``root``'s sub-packages (``fcm_agents.heuristic.agent`` ->
    ``fcm_agents.heuristic``; a top-level module stands for itself): the edges between them."""
    depth = root.count(".") + 2

    def fold(name: str) -> str:
        return ".".join(name.split(".")[:depth])

    folded: dict[str, dict[str, bool]] = {}
    for name, edges in _graph().items():
        if name != root and not name.startswith(root + "."):
            continue
        mine = folded.setdefault(fold(name), {})
        for target, at_module_level in edges.items():
            if target.startswith(root + ".") and fold(target) != fold(name):
                mine[fold(target)] = mine.get(fold(target), False) or at_module_level
    for edges in list(folded.values()):
        for target in edges:
            folded.setdefault(target, {})
    return folded


@pytest.mark.parametrize("root", ["fcm_env", "fcm_agents", "fcm_training", "fcm_apps"])
def test_no_import_circle_between_the_sub_packages(root):
    # fcm_agents.heuristic -> fcm_agents.native -> fcm_agents.heuristic once went round through a late import
    # inside a method: between sub-packages, as between modules, every import counts
    assert _cycles(_package_graph(root)) == []


def test_the_package_cycle_finder_sees_the_sub_packages():
    graph = _package_graph("fcm_agents")
    assert "fcm_agents.heuristic" in graph["fcm_agents.native"]  # the native players read the heuristic's tables
    assert "fcm_agents.native" not in graph["fcm_agents.heuristic"]


def test_every_module_has_a_layer():
    assert [name for name in _project_modules() if name != "fcm_env" and _rank(name) is None] == []


def test_the_graph_sees_lazy_and_relative_imports():
    graph = _graph()
    assert graph["fcm_training.sb3.background_eval"]["fcm_training.common.tournament_results"] is False  # in a function
    assert graph["fcm_training.rllib.selfplay"]["fcm_training.rllib.config"] is True  # relative, module level
    assert "fcm_env.engine.game" not in graph["fcm_env.engine.queries"]  # under TYPE_CHECKING: never run


def test_side_by_side_packages_do_not_import_each_other():
    crossing = [f"{name} -> {target}" for name, edges in _graph().items() for target in edges
                for a, b in APART for x, y in ((a, b), (b, a))
                if (name == x or name.startswith(x + ".")) and (target == y or target.startswith(y + "."))]
    assert crossing == []


def test_no_upward_import():
    upward = []
    for name, edges in _graph().items():
        for target, at_module_level in edges.items():
            if name == "fcm_env" or target == "fcm_env" or _rank(target) <= _rank(name):
                continue
            allowed = any(name.startswith(a) and target.startswith(b) for a, b in UPWARD_LAZY)
            if at_module_level or not allowed:
                upward.append(f"{name} -> {target}")
    assert upward == []


def test_the_engine_top_level_holds_only_the_api():
    # docs/engine-api.md, "Where the rules live": everything else sits in a folder named by its concept
    top = sorted(p.stem for p in (ROOT / "fcm_env/engine").glob("*.py") if p.stem != "__init__")
    assert top == ["actions", "events", "game", "queries", "state"]


# ------------------------------------------------------------------ the package graph: every import, lazy ones too

#: package -> the project packages it never imports: not at module level, not inside a function, not under
#: TYPE_CHECKING, not by name through importlib (docs/architecture.md)
FORBIDDEN = {
    "fcm_env": ("fcm_agents", "fcm_training", "fcm_apps"),
    "fcm_agents": ("fcm_training", "fcm_apps"),
    "fcm_training": ("fcm_apps",),
}
#: (file, imported module) -> why it cannot be avoided; none today
PACKAGE_EXCEPTIONS: dict[tuple[str, str], str] = {}
_BY_NAME = {"import_module", "__import__", "run_module", "find_spec"}


def _every_import(path: Path) -> set[str]:
    """The absolute module names a file imports, wherever the import stands, and the literal names it
    hands to ``importlib.import_module``, ``__import__``, ``runpy.run_module`` or ``find_spec``
    (relative imports stay inside their own package, so they cannot cross one)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            called = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if called in _BY_NAME and isinstance(node.args[0].value, str):
                names.add(node.args[0].value)
    return names


def package_violations(root: Path) -> list[str]:
    """``FILE imports NAME`` for every import of a package that its importer must never use."""
    found = []
    for folder, package in PACKAGE_DIRS.items():
        for path in sorted((root / folder).rglob("*.py")):
            rel = path.relative_to(root).as_posix()
            for name in sorted(_every_import(path)):
                if name.split(".")[0] in FORBIDDEN.get(package, ()) and (rel, name) not in PACKAGE_EXCEPTIONS:
                    found.append(f"{rel} imports {name}")
    return found


def test_no_package_imports_one_above_it_anywhere_in_its_code():
    assert package_violations(ROOT) == []


def test_the_package_check_finds_planted_upward_imports(tmp_path):
    for folder in PACKAGE_DIRS:
        (tmp_path / folder).mkdir()
    (tmp_path / "fcm_env" / "late.py").write_text("def f():\n    from fcm_agents.heuristic import HeuristicAgent\n")
    (tmp_path / "agents" / "by_name.py").write_text("import importlib\n\nCLI = importlib.import_module('fcm_apps.cli')\n")
    (tmp_path / "training" / "typed.py").write_text(
        "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    import fcm_apps.server\n")
    (tmp_path / "apps" / "top.py").write_text("import fcm_env\nimport fcm_agents\nimport fcm_training\n")  # allowed
    (tmp_path / "agents" / "down.py").write_text("from fcm_env.engine.game import Game\nfrom . import base\n")
    assert package_violations(tmp_path) == [
        "fcm_env/late.py imports fcm_agents.heuristic",
        "agents/by_name.py imports fcm_apps.cli",
        "training/typed.py imports fcm_apps.server",
    ]

"""``training/`` imports in one direction: ``common`` <- ``sb3`` / ``rllib`` <- the package's entry point.

Every import counts, those inside functions too (a lazy import is still a dependency); only an
``if TYPE_CHECKING:`` block is exempt. ``common`` imports no backend subpackage, the two backends
do not import each other, and no chain of imports among the modules comes back to where it started.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TRAINING = ROOT / "training"
PACKAGE = "fcm_training"
BACKENDS = ("sb3", "rllib")


def _module_name(path: Path) -> str:
    parts = path.relative_to(TRAINING).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join((PACKAGE, *parts))


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    skipped = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If):
            test = node.test
            name = test.id if isinstance(test, ast.Name) else test.attr if isinstance(test, ast.Attribute) else None
            if name == "TYPE_CHECKING":
                skipped.update(id(n) for child in node.body for n in ast.walk(child))
    return skipped


def _imports(path: Path) -> set[str]:
    """The ``fcm_training`` modules ``path`` imports (relative imports resolved, ``from X import m``
    counted as ``X.m`` when that is a module)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = _type_checking_nodes(tree)
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.add(module)
            found.update(f"{module}.{a.name}" for a in node.names)
    return {m for m in found if m == PACKAGE or m.startswith(PACKAGE + ".")}


def _graph() -> dict[str, set[str]]:
    modules = {_module_name(p): p for p in TRAINING.rglob("*.py")}
    return {name: {m for m in _imports(path) if m in modules and m != name} for name, path in modules.items()}


def test_the_scan_sees_lazy_and_relative_imports():
    graph = _graph()
    assert "fcm_training.common.evaluate" in graph["fcm_training.sb3.background_eval"]  # inside a function
    assert "fcm_training.rllib.config" in graph["fcm_training.rllib.selfplay"]  # module level, relative


def test_common_imports_no_backend_and_the_backends_not_each_other():
    for module, imported in _graph().items():
        for other in imported:
            if module.startswith(f"{PACKAGE}.common"):
                assert other.startswith(f"{PACKAGE}.common"), f"{module} imports {other}"
            for backend in BACKENDS:
                if module.startswith(f"{PACKAGE}.{backend}"):
                    assert not any(other.startswith(f"{PACKAGE}.{b}") for b in BACKENDS if b != backend), (
                        f"{module} imports {other}")


def test_no_import_circle():
    graph = _graph()
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(module: str) -> None:
        state[module] = 1
        path.append(module)
        for other in sorted(graph[module]):
            if state.get(other) == 1:
                cycle = path[path.index(other):] + [other]
                raise AssertionError("import circle: " + " -> ".join(cycle))
            if other not in state:
                visit(other)
        path.pop()
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module)

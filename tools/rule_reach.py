"""Which rule functions of the Python engine a set of tests reaches: the lockstep games, the rule tests, or both.

Random play seldom reaches the rare rules, so "the engines agree on every lockstep game" says nothing of a rule
those games never run. This counts, while pytest runs the given tests, every call of every function defined in
the rule modules (``fcm_env/engine/phases/**`` and ``fcm_env/engine/rules/**``), and prints the functions that
were never called: the rules no game and no test of that run reaches.

    python tools/rule_reach.py tests/native/test_native_lockstep.py     # what the lockstep games reach
    python tools/rule_reach.py tests/engine tests/native                 # what the rule tests reach
    python tools/rule_reach.py tests/native --counts                     # every function with its calls

It runs pytest in this process with a profile hook (several times slower than the plain run). Exit status 0;
``--fail-unreached`` makes it 1 when some rule function is never called.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULE_FOLDERS = ("fcm_env/engine/phases", "fcm_env/engine/rules")


def rule_functions(root: Path = ROOT) -> dict[tuple[str, int], str]:
    """(file, first line) -> ``module.function`` of every function (methods and nested ones too) in the rule
    modules: what a call's code object is matched against."""
    found: dict[tuple[str, int], str] = {}
    for folder in RULE_FOLDERS:
        for path in sorted((root / folder).rglob("*.py")):
            module = ".".join(path.relative_to(root).with_suffix("").parts)
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    line = node.decorator_list[0].lineno if node.decorator_list else node.lineno
                    found[(str(path.resolve()), node.lineno)] = f"{module}.{node.name}"
                    found.setdefault((str(path.resolve()), line), f"{module}.{node.name}")
    return found


class Reach:
    """A pytest plugin counting calls of the rule functions while the session runs."""

    def __init__(self, functions: dict[tuple[str, int], str]) -> None:
        self.functions = functions
        self.calls: Counter[str] = Counter()
        self._files = {file for file, _ in functions}

    def _profile(self, frame, event, arg):
        if event == "call":
            code = frame.f_code
            if code.co_filename in self._files:
                name = self.functions.get((code.co_filename, code.co_firstlineno))
                if name is not None:
                    self.calls[name] += 1

    def pytest_sessionstart(self, session) -> None:
        sys.setprofile(self._profile)

    def pytest_sessionfinish(self, session, exitstatus) -> None:
        sys.setprofile(None)

    def unreached(self) -> list[str]:
        return sorted(set(self.functions.values()) - set(self.calls))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tests", nargs="*", default=["tests/native/test_native_lockstep.py"])
    parser.add_argument("--counts", action="store_true", help="print every rule function with its calls")
    parser.add_argument("--fail-unreached", action="store_true", help="exit 1 when a rule function is unreached")
    args = parser.parse_args(argv)
    import pytest

    reach = Reach(rule_functions())
    status = pytest.main(["-q", "--no-header", "-p", "no:cacheprovider", *args.tests], plugins=[reach])
    names = sorted(set(reach.functions.values()))
    if args.counts:
        for name in names:
            print(f"{reach.calls[name]:>10,}  {name}")
    unreached = reach.unreached()
    print(f"\nrule functions reached by {' '.join(args.tests)}: {len(names) - len(unreached)} of {len(names)}"
          f" (pytest exit {int(status)})")
    for name in unreached:
        print(f"  never called: {name}")
    return 1 if (args.fail_unreached and unreached) else 0


if __name__ == "__main__":
    sys.exit(main())

"""Plant a rule change in ONE engine and show that the rule tests fail: the check that the two engines cannot
drift apart unseen (every rule test runs on both engines: tests/engine, the ``engine`` fixture).

Each plant changes one rare rule in the C++ core alone or in the Python engine alone (the CFO share rounded
down instead of up, a third bank break to end the standard game, the recruiting manager's unused-action
discount one short, the First-to-train salary discount cut). The script copies the checkout to a scratch
folder (the work tree itself is never touched), builds the copy's core once, then for each plant: applies it,
rebuilds the core where the plant is C++ (only the changed source compiles), runs the rule tests on the copy
and counts the failures, and takes the plant back. A plant that leaves the tests green is a hole in the net:
the script then exits 1.

    python tools/plant_drift.py                 # every plant, both engines (a few minutes on 2 cores)
    python tools/plant_drift.py --only cfo      # the plants whose name contains "cfo"
    python tools/plant_drift.py --list          # what each plant changes

Ctrl-C stops it at once; the scratch folder is removed either way (``--keep`` keeps it for a look).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: the folders of the repository that install under another name (pyproject.toml's package-dir)
PACKAGE_DIRS = {"fcm_agents": "agents", "fcm_training": "training", "fcm_apps": "apps"}
#: the rule tests: the scenario tests on both engines and the lockstep harness
TESTS = ("tests/engine", "tests/native")


@dataclass(frozen=True)
class Plant:
    name: str
    engine: str  # "python" or "native": the engine whose rules it changes
    path: str  # the source file, from the repository root
    old: str  # the text the plant replaces (found exactly once)
    new: str
    rule: str  # what the rule says, and what the plant makes of it


PLANTS = (
    Plant("cfo-rounding", "native", "fcm_env/native/src/phase_dinnertime.cpp",
          "  return -floor_div;\n", "  return income * rules_data().prices.cfo_bonus_percent / 100 + 0 * floor_div;\n",
          "C22, R37: the CFO adds 50% of the phase's income rounded up; planted: rounded towards zero"),
    Plant("cfo-rounding", "python", "fcm_env/engine/phases/dinnertime.py",
          "    return -((-income * PRICES.cfo_bonus_percent) // 100)\n",
          "    return int(income * PRICES.cfo_bonus_percent / 100)\n",
          "C22, R37: the CFO adds 50% of the phase's income rounded up; planted: rounded towards zero"),
    Plant("second-bank-break", "native", "fcm_env/native/src/bank.cpp",
          'return s.variant == "standard" ? 2 : 1;', 'return s.variant == "standard" ? 3 : 1;',
          "C23, R38: the standard game ends after the Dinnertime of the second break; planted: the third"),
    Plant("second-bank-break", "python", "fcm_env/engine/rules/bank.py",
          'return 2 if state.variant == "standard" else 1', 'return 3 if state.variant == "standard" else 1',
          "C23, R38: the standard game ends after the Dinnertime of the second break; planted: the third"),
    Plant("recruiting-discount", "native", "fcm_env/native/src/phase_payday.cpp",
          "int64_t discount = salary * p.recruit_discounts;",
          "int64_t discount = salary * std::max<int64_t>(0, p.recruit_discounts - 1);",
          "Phase 5, R40: $5 off the salaries per unused recruiting-manager action; planted: one action short"),
    Plant("recruiting-discount", "python", "fcm_env/engine/phases/payday.py",
          "discount = PRICES.salary * p.recruit_discounts",
          "discount = PRICES.salary * max(0, p.recruit_discounts - 1)",
          "Phase 5, R40: $5 off the salaries per unused recruiting-manager action; planted: one action short"),
    Plant("first-train-discount", "native", "fcm_env/native/src/phase_payday.cpp",
          "discount += kTrainDiscount;", "discount += kTrainDiscount / 3;",
          "First to train someone: $15 off the salaries every Payday; planted: $5"),
    Plant("first-train-discount", "python", "fcm_env/engine/phases/payday.py",
          "discount += TRAIN_DISCOUNT", "discount += TRAIN_DISCOUNT // 3",
          "First to train someone: $15 off the salaries every Payday; planted: $5"),
)


def _copy_checkout(scratch: Path) -> Path:
    """The work tree (with its built core and its build objects) copied to ``scratch/repo``, and a folder of
    links under the installed package names, so that the copy is imported instead of the checkout."""
    repo = scratch / "repo"
    shutil.copytree(ROOT, repo, symlinks=True, ignore=shutil.ignore_patterns(
        ".git", ".venv*", "__pycache__", "*.egg-info", "runs", "dist", ".pytest_cache", ".ruff_cache"))
    names = scratch / "names"
    names.mkdir()
    for name, folder in PACKAGE_DIRS.items():
        (names / name).symlink_to(repo / folder, target_is_directory=True)
    return repo


@contextlib.contextmanager
def scratch_folder(keep: bool, prefix: str = "fcm-drift-") -> Iterator[Path]:
    """A scratch folder for a copy of the checkout, removed afterwards (kept, and named, with ``keep``)."""
    scratch = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        yield scratch
    finally:
        if keep:
            print(f"scratch folder kept: {scratch}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)


def _env(scratch: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(scratch / "names"), str(scratch / "repo")])
    env["OMP_NUM_THREADS"] = "1"
    return env


def _build(repo: Path, env: dict[str, str]) -> None:
    done = subprocess.run([sys.executable, str(repo / "tools" / "build_native.py")], cwd=repo, env=env,
                          capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"building the copy's core failed:\n{done.stdout}{done.stderr}")


def _check_imports(repo: Path, env: dict[str, str]) -> None:
    code = "import fcm_env, fcm_agents; print(fcm_env.__file__); print(fcm_agents.__file__)"
    done = subprocess.run([sys.executable, "-c", code], cwd=repo, env=env, capture_output=True, text=True,
                          check=False)
    paths = done.stdout.split()
    if done.returncode or len(paths) != 2 or not all(Path(p).resolve().is_relative_to(repo) for p in paths):
        raise SystemExit(f"the copy is not what Python imports ({done.stdout}{done.stderr}): "
                         "is the package installed in a way that wins over PYTHONPATH?")


def _run_tests(repo: Path, env: dict[str, str], tests: list[str]) -> tuple[int, int, str]:
    """(failed, passed, the last lines) of the rule tests on the copy."""
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "--no-header", "-p", "no:cacheprovider",
                           "-p", "no:randomly", *tests], cwd=repo, env=env, capture_output=True, text=True,
                          check=False)
    tail = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr[-400:]
    counts = {word: int(n) for n, word in re.findall(r"(\d+) (failed|passed|errors?)\b", tail)}
    failed = counts.get("failed", 0) + counts.get("error", 0) + counts.get("errors", 0)
    if done.returncode and not failed:  # no summary line (a crash, a collection error): count it as failed
        failed = 1
    return failed, counts.get("passed", 0), tail


def _apply(repo: Path, plant: Plant, text: str | None = None) -> str:
    path = repo / plant.path
    before = path.read_text(encoding="utf-8")
    if text is not None:  # take the plant back
        path.write_text(text, encoding="utf-8")
        return text
    if before.count(plant.old) != 1:
        raise SystemExit(f"{plant.name} ({plant.engine}): {plant.path} holds the planted text "
                         f"{before.count(plant.old)} times, not once; the rule's code moved: update PLANTS")
    path.write_text(before.replace(plant.old, plant.new), encoding="utf-8")
    return before


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="run the plants whose name contains this")
    parser.add_argument("--engine", choices=("python", "native"), help="only the plants in this engine")
    parser.add_argument("--list", action="store_true", help="print the plants and stop")
    parser.add_argument("--keep", action="store_true", help="keep the scratch folder")
    parser.add_argument("--tests", nargs="+", default=list(TESTS), help=f"the rule tests to run (default: {TESTS})")
    args = parser.parse_args(argv)
    plants = [p for p in PLANTS if args.only in p.name and args.engine in (None, p.engine)]
    if args.list:
        for p in plants:
            print(f"{p.name:22} {p.engine:7} {p.path}\n    {p.rule}")
        return 0
    try:
        with scratch_folder(args.keep) as scratch:
            repo = _copy_checkout(scratch)
            env = _env(scratch)
            _build(repo, env)
            _check_imports(repo, env)
            failed, passed, tail = _run_tests(repo, env, args.tests)
            print(f"unplanted: {tail}", flush=True)
            if failed:
                print("the rule tests fail without a plant: fix them first (the failing ones: pytest "
                      + " ".join(args.tests) + " -q -rf)")
                return 1
            holes = []
            for plant in plants:
                original = _apply(repo, plant)
                try:
                    if plant.engine == "native":
                        _build(repo, env)
                    failed, passed, tail = _run_tests(repo, env, args.tests)
                finally:
                    _apply(repo, plant, original)
                    if plant.engine == "native":
                        _build(repo, env)
                verdict = "caught" if failed else "NOT CAUGHT"
                print(f"{plant.name:22} {plant.engine:7} {verdict}: {failed} failed, {passed} passed ({plant.rule})",
                      flush=True)
                if not failed:
                    holes.append(plant)
            print(f"{len(plants) - len(holes)} of {len(plants)} planted rule changes fail the rule tests")
            return 1 if holes else 0
    except KeyboardInterrupt:
        print("stopped", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())

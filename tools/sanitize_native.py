"""The native suites and a few hundred games under AddressSanitizer and UBSan, on a copy of the checkout.

    python tools/sanitize_native.py [--games 300] [--tests tests/native tests/native_agents]

Copies the work tree (as ``tools/plant_drift.py`` does), builds the copy's two modules with
``tools/build_native.py --sanitize`` (``-O0 -g``, ASan and UBSan with our own flags: no ``-fwrapv`` hides a
signed overflow, UBSan stops at its first report), and runs, with the sanitizer runtimes preloaded, the
native tests and ``--games`` random games on the core checked against the Python engine
(``benchmarks/random_games.py --engine native``). The checkout's own release build is left as it is.
Exits 1 if a run fails or a sanitizer reports; prints each run's last line.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from plant_drift import _check_imports, _copy_checkout, _env, scratch_folder

REPORTS = ("ERROR: AddressSanitizer", "runtime error:", "ERROR: LeakSanitizer", "SUMMARY: UndefinedBehavior")


def _runtimes() -> str:
    paths = [subprocess.run(["gcc", f"-print-file-name={lib}"], capture_output=True, text=True,
                            check=True).stdout.strip() for lib in ("libasan.so", "libubsan.so")]
    return " ".join(paths)


def _run(command: list[str], repo: Path, env: dict[str, str]) -> tuple[bool, str]:
    done = subprocess.run(command, cwd=repo, env=env, capture_output=True, text=True, check=False)
    output = done.stdout + done.stderr
    reported = next((line for line in output.splitlines() if any(r in line for r in REPORTS)), None)
    last = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else output[-300:]
    if reported:
        return False, f"sanitizer: {reported}"
    return done.returncode == 0, last


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="random native games checked (0: none)")
    parser.add_argument("--tests", nargs="+", default=["tests/native", "tests/native_agents"])
    parser.add_argument("--keep", action="store_true", help="keep the scratch folder")
    args = parser.parse_args(argv)
    try:
        return _sanitized(args)
    except KeyboardInterrupt:  # the scratch copy is removed on the way out; a child run stops with the group
        print("stopped", file=sys.stderr)
        return 130


def _sanitized(args: argparse.Namespace) -> int:
    with scratch_folder(args.keep, "fcm-sanitize-") as scratch:
        repo = _copy_checkout(scratch)
        env = _env(scratch)
        built = subprocess.run([sys.executable, "tools/build_native.py", "--sanitize"], cwd=repo, env=env,
                               capture_output=True, text=True, check=False)
        if built.returncode:
            print(built.stdout + built.stderr)
            return 1
        _check_imports(repo, env)
        env = {**env, "LD_PRELOAD": _runtimes(), "ASAN_OPTIONS": "detect_leaks=0", "PYTHONMALLOC": "malloc",
               "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1"}
        runs = [("tests", [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args.tests])]
        if args.games:
            per = max(1, args.games // 8)  # 8 configurations: 2-5 players, both variants
            runs.append(("games", [sys.executable, "benchmarks/random_games.py", "--engine", "native",
                                   "--games-per-config", str(per), "--max-rounds", "20", "--compare-every", "20"]))
        ok = True
        for name, command in runs:
            passed, line = _run(command, repo, env)
            print(f"{name}: {'clean' if passed else 'FAILED'}: {line}", flush=True)
            ok &= passed
        return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

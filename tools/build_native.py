"""Rebuild the native core and the native players in place for development: only the changed sources are
compiled again.

``pip install -e .`` builds both from scratch (every source, a minute or two on 2 cores); while working on the
C++ this rebuilds the objects whose source (or any header) changed and links ``fcm_env/native/_core<suffix>.so``
and ``agents/native/_agents<suffix>.so`` (the engine's rules plus ``agents/native/src``) in place, so
``python -m pytest tests/native tests/native_agents`` runs the new code.

    python tools/build_native.py            # -O2, as the package builds it
    python tools/build_native.py --debug    # -O0 -g with AddressSanitizer and UBSan, in place of the release
                                            # build (--sanitize is the same)

The sanitized run of the native suites (docs/native.md, "Sanitizers"): our own flags, not Python's, so no
``-fwrapv`` hides a signed overflow from UBSan, and UBSan stops at its first report:

    python tools/build_native.py --debug
    ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 \
        LD_PRELOAD="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)" \
        python -m pytest tests/native tests/native_agents -p no:cacheprovider
    python tools/build_native.py            # the release build again
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import sysconfig
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pybind11

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "fcm_env" / "native" / "src"
PLAYERS = ROOT / "agents" / "native" / "src"
#: the engine's own Python face, left out of the players' module (it links its own copy of the rules)
ENGINE_BINDINGS = {"module", "bind_game"}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--debug", "--sanitize", action="store_true", help="-O0 -g with AddressSanitizer and UBSan")
    parser.add_argument("--jobs", type=int, default=2, help="compilers at once")
    args = parser.parse_args(argv)
    flavour = "debug" if args.debug else "release"
    build = ROOT / "build" / f"native-{flavour}"
    build.mkdir(parents=True, exist_ok=True)
    flags = ["-std=c++17", "-fPIC", "-fvisibility=hidden", "-Wall", "-Wextra", f"-I{SRC}", f"-I{PLAYERS}",
             f"-I{pybind11.get_include()}", f"-I{sysconfig.get_paths()['include']}"]
    flags += (["-O0", "-g", "-fsanitize=address,undefined", "-fno-sanitize-recover=undefined",
               "-fno-omit-frame-pointer"] if args.debug else ["-O3"])
    newest_header = max(h.stat().st_mtime for folder in (SRC, PLAYERS) for h in folder.glob("*.h"))
    engine = sorted(SRC.glob("*.cpp"))
    players = sorted(PLAYERS.glob("*.cpp"))
    sources = engine + players
    stale = []
    for source in sources:
        obj = build / (("players_" if source.parent == PLAYERS else "") + source.stem + ".o")
        if not obj.exists() or obj.stat().st_mtime < max(source.stat().st_mtime, newest_header):
            stale.append((source, obj))

    def compile_one(job: tuple[Path, Path]) -> tuple[Path, subprocess.CompletedProcess]:
        source, obj = job
        return source, subprocess.run(["g++", *flags, "-c", str(source), "-o", str(obj)], check=False,
                                      capture_output=True,
                                      text=True)

    failed = False
    with ThreadPoolExecutor(args.jobs) as pool:
        for source, done in pool.map(compile_one, stale):
            print(f"compiled {source.name}" if done.returncode == 0 else f"FAILED {source.name}", flush=True)
            if done.stdout or done.stderr:
                print(done.stdout + done.stderr, file=sys.stderr)
            failed |= done.returncode != 0
    if failed:
        return 1
    # objects of sources that no longer exist are left out of the link
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    core = [build / (s.stem + ".o") for s in engine]
    rules = [build / (s.stem + ".o") for s in engine if s.stem not in ENGINE_BINDINGS]
    agents = [build / ("players_" + s.stem + ".o") for s in players]
    for objects, target in ((core, ROOT / "fcm_env" / "native" / f"_core{suffix}"),
                            (rules + agents, ROOT / "agents" / "native" / f"_agents{suffix}")):
        fresh = target.with_name(target.name + ".new")  # then renamed: a running interpreter keeps its mapped copy
        link = ["g++", "-shared", *map(str, objects), "-o", str(fresh)]
        if args.debug:
            link.insert(2, "-fsanitize=address,undefined")
        done = subprocess.run(link, check=False, capture_output=True, text=True)
        if done.returncode:
            print(done.stdout + done.stderr, file=sys.stderr)
            return 1
        os.replace(fresh, target)
        print(f"linked {target.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

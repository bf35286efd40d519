"""The PettingZoo loop against OpenSpiel chess, for checkouts side by side (a before and an after).

    python benchmarks/aec_vs_chess.py [--rounds 3] [--seconds 3] [--players 4] CHECKOUT [CHECKOUT ...]

Each round runs, for each checkout in turn (so all run under the same load), a fresh interpreter with that
checkout first on ``sys.path``: ``bench_native_env.aec`` (the PettingZoo loop on the native engine) then
``bench_native_env.openspiel_chess``, and prints both rates and their ratio. A checkout of an older commit
needs the native modules built in it (copy the ``.so`` files of this one: their calls are a superset).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
from pathlib import Path

_ONE = """
import sys
root, players, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
sys.path[:0] = [root, root + "/benchmarks"]
import fcm_env, bench_native_env as b
assert fcm_env.__file__.startswith(root), fcm_env.__file__
a = b.aec(players, seconds, 30, "native")
c = b.openspiel_chess(seconds)
print(a, c)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkouts", nargs="+", type=Path)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    ratios: dict[Path, list[float]] = {c: [] for c in args.checkouts}
    for round_ in range(1, args.rounds + 1):
        for checkout in args.checkouts:
            out = subprocess.run([sys.executable, "-c", _ONE, str(checkout.resolve()), str(args.players),
                                  str(args.seconds)], check=True, capture_output=True, text=True).stdout
            aec, chess = (float(x) for x in out.split())
            ratios[checkout].append(aec / chess)
            print(f"round {round_} {checkout}: aec {aec:,.0f}/s, chess {chess:,.0f}/s, ratio {aec / chess:.3f}",
                  flush=True)
    for checkout, values in ratios.items():
        print(f"{checkout}: median ratio {statistics.median(values):.3f} over {len(values)} rounds")


if __name__ == "__main__":
    main()

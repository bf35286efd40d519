"""The search's strength against its thinking budget: a table and a picture from finished cells.

    python benchmarks/search_curve.py \\
        --curve "2 players, vs the shipped policy" runs/curve/2p-policy-i20.jsonl \\
            runs/cells/2p-policy-v0.jsonl+runs/cells/2p-policy-v1.jsonl runs/curve/2p-policy-i400.jsonl \\
        --curve "4 players, vs three heuristics" runs/curve/4p-heuristic-i10.jsonl ... \\
        --png docs/search-budget.png

Each ``--curve`` is a label and its points, one per budget; a point is one cell's result file of
``benchmarks/search_strength.py`` (or several joined by ``+``: the halves of a cell), or, for a cell
whose rows were not kept, its published figures: ``figures:games=50,wins=26,place=1.42,iterations=20,
seconds=0.069,timed=25,clock=clock`` (``seconds``, ``timed`` and ``clock`` may be left out). Per point it
prints the games, the wins with their 95% Wilson interval, the mean place, and the thinking time
per decision (the search's processor time where the rows have it, else its clock time), measured
only on the games whose processor is not ``--exclude-cpu`` (rows played on
another machine, e.g. a lent one, count for the result, which a budget in iterations makes
independent of the machine, but not for the time). The picture (``--png``) puts the budget in
iterations on its x axis and needs matplotlib (the dev extra).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from search_strength import wilson  # the benchmarks are scripts, not a package


def load(point: str) -> list[dict]:
    rows = []
    for part in point.split("+"):
        path = Path(part)
        if not path.exists():
            raise SystemExit(f"search_curve: no result file {path}")
        rows += [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return rows


FIGURES = "figures:"
FIGURE_KEYS = {"games": int, "wins": int, "place": float, "iterations": float, "seconds": float, "timed": int,
               "clock": str}


def figures(spec: str) -> dict:
    """A point from its published figures (``FIGURES`` then ``key=value`` pairs): the same keys as ``measure``."""
    given: dict = {}
    for pair in spec[len(FIGURES):].split(","):
        key, _, value = pair.partition("=")
        if key not in FIGURE_KEYS or not value:
            raise SystemExit(f"search_curve: {pair!r} in {spec!r}: the keys are {', '.join(FIGURE_KEYS)}")
        try:
            given[key] = FIGURE_KEYS[key](value)
        except ValueError:
            kind = "an integer" if FIGURE_KEYS[key] is int else "a number"
            raise SystemExit(f"search_curve: {key}={value!r} is not {kind}") from None
    missing = {"games", "wins", "place", "iterations"} - given.keys()
    if missing:
        raise SystemExit(f"search_curve: {spec!r} lacks {', '.join(sorted(missing))}")
    low, high = wilson(given["wins"], given["games"])
    return {"games": given["games"], "wins": given["wins"], "rate": given["wins"] / given["games"], "low": low,
            "high": high, "place": given["place"], "seconds": given.get("seconds"),
            "clock": given.get("clock", "clock"), "timed_games": given.get("timed", given["games"]),
            "iterations": given["iterations"]}


def point(spec: str, exclude_cpu: str) -> dict:
    """A curve's point: a cell's result files measured, or its figures as given."""
    return figures(spec) if spec.startswith(FIGURES) else measure(load(spec), exclude_cpu)


def measure(rows: list[dict], exclude_cpu: str) -> dict:
    timed = [r for r in rows if exclude_cpu not in r.get("cpu", "")]
    # processor time where the rows have it (a budget in iterations played beside other jobs: its clock
    # time counts the waiting too), else the clock time (a budget in seconds, one job per core)
    on_cpu = [r for r in timed if "search_cpu_seconds" in r]
    if on_cpu:
        timed, key = on_cpu, "search_cpu_seconds"
    else:
        key = "search_seconds"
    decisions = sum(r["decisions"] for r in timed)
    searched = sum(r["searched"] for r in rows)
    wins = sum(r["won"] for r in rows)
    low, high = wilson(wins, len(rows))
    return {"games": len(rows), "wins": wins, "rate": wins / max(len(rows), 1), "low": low, "high": high,
            "place": sum(r["place"] for r in rows) / max(len(rows), 1),
            "seconds": sum(r[key] for r in timed) / decisions if decisions else None,
            "clock": "CPU" if on_cpu else "clock",
            "timed_games": len(timed),
            "iterations": sum(r["iterations"] for r in rows) / max(searched, 1)}


def table(curves: list[tuple[str, list[dict]]]) -> str:
    lines = ["| table | iterations a searched decision | time per decision (games timed) | games | result (95% Wilson interval) | mean place |",
             "|---|---|---|---|---|---|"]
    for label, points in curves:
        for p in points:
            seconds = "-" if p["seconds"] is None else f"{p['seconds']:.3f} s {p['clock']} ({p['timed_games']})"
            lines.append(f"| {label} | {p['iterations']:.0f} | {seconds} | {p['games']} | "
                         f"{p['wins']}/{p['games']} = {p['rate']:.3f} [{p['low']:.3f}, {p['high']:.3f}] | {p['place']:.2f} |")
    return "\n".join(lines)


def picture(curves: list[tuple[str, list[dict]]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    # the x axis is the budget in iterations: a search's cost is its iterations, and a thinking time
    # measured on a shared machine moves with the load (the table gives the time measured here)
    fig, ax = plt.subplots(figsize=(6.4, 4.0), dpi=120)
    for label, points in curves:
        xs = [p["iterations"] for p in points]
        ys = [p["rate"] for p in points]
        errors = [[p["rate"] - p["low"] for p in points], [p["high"] - p["rate"] for p in points]]
        ax.errorbar(xs, ys, yerr=errors, marker="o", capsize=3, label=label)
    ax.set_xscale("log")
    most = max(p["iterations"] for _, points in curves for p in points)
    ticks = [t for t in (5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000) if t <= 1.5 * most]
    ax.set_xticks(ticks, labels=[str(t) for t in ticks])
    ax.minorticks_off()
    ax.set_xlabel("iterations a searched decision (log scale)")
    ax.set_ylabel("win rate (95% Wilson interval)")
    ax.set_ylim(0, 1)
    ax.grid(True, alpha=0.3)
    ax.legend(loc="lower right")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--curve", nargs="+", action="append", required=True, metavar=("LABEL", "POINT"),
                        help="a label, then one result file per budget (halves of a cell joined by +), or figures:KEY=VALUE,...")
    parser.add_argument("--exclude-cpu", default="device machine",
                        help="rows whose processor names this are not timed (default: %(default)r)")
    parser.add_argument("--png", type=Path, default=None, help="write the curve as a picture (needs matplotlib)")
    args = parser.parse_args(argv)
    curves = []
    for label, *points in args.curve:
        if not points:
            parser.error(f"--curve {label!r}: give at least one result file")
        curves.append((label, [point(p, args.exclude_cpu) for p in points]))
    print(table(curves))
    if args.png:
        picture(curves, args.png)
        print(f"written: {args.png}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

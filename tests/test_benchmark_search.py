"""The search benchmarks (``benchmarks/search_strength.py``, ``benchmarks/search_curve.py``): the same
games and rows with several workers, and thinking times kept to the processor that measured them."""

from __future__ import annotations

import json
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import search_curve
import search_strength

SAME = ("game", "seed", "seat", "won", "place", "cash", "rounds", "decisions", "searched", "iterations", "rollout_moves")


def _rows(path: Path) -> list[dict]:
    return sorted((json.loads(line) for line in path.read_text().splitlines()), key=lambda r: r["game"])


def test_two_workers_play_the_same_games_as_one(tmp_path, capsys):
    args = ["--players", "2", "--search", "search:iterations=2,horizon=1", "--games", "3", "--seed", "40",
            "--max-rounds", "2"]
    assert search_strength.main([*args, "--out", str(tmp_path / "one.jsonl")]) == 0
    assert search_strength.main([*args, "--workers", "2", "--out", str(tmp_path / "two.jsonl")]) == 0
    one, two = _rows(tmp_path / "one.jsonl"), _rows(tmp_path / "two.jsonl")
    assert [g["game"] for g in one] == [0, 1, 2] and [g["seat"] for g in one] == [0, 1, 0]  # seats rotated
    assert [{k: r[k] for k in SAME} for r in one] == [{k: r[k] for k in SAME} for r in two]
    assert search_strength.main([*args, "--out", str(tmp_path / "one.jsonl")]) == 0  # resumed: nothing to play
    assert len(_rows(tmp_path / "one.jsonl")) == 3
    assert "vs heuristic x1 (2p)" in capsys.readouterr().out


def test_a_curve_point_times_only_the_games_of_this_machine():
    row = {"won": True, "place": 1, "decisions": 100, "searched": 80, "iterations": 800, "search_seconds": 10.0}
    rows = [{**row, "cpu": "AMD EPYC"}, {**row, "cpu": "Intel (device machine, 16 processes)", "search_seconds": 30.0,
                                          "won": False, "place": 2}]
    point = search_curve.measure(rows, "device machine")
    assert (point["games"], point["wins"], point["place"], point["iterations"]) == (2, 1, 1.5, 10)
    assert point["seconds"] == 0.1 and point["timed_games"] == 1  # 10 s over the 100 decisions timed here
    assert search_curve.measure(rows[1:], "device machine")["seconds"] is None


def test_a_curve_point_prefers_processor_time_where_the_rows_have_it():
    row = {"won": True, "place": 1, "decisions": 100, "searched": 80, "iterations": 800, "cpu": "AMD EPYC"}
    # one game timed by its processor (played beside another job: 10 s of clock for 4 s of work), one not
    rows = [{**row, "search_seconds": 10.0, "search_cpu_seconds": 4.0}, {**row, "search_seconds": 30.0}]
    point = search_curve.measure(rows, "device machine")
    assert (point["seconds"], point["clock"], point["timed_games"]) == (0.04, "CPU", 1)
    assert search_curve.measure(rows[1:], "device machine")["clock"] == "clock"


def test_the_search_keeps_its_processor_time_beside_its_clock_time():
    from fcm_agents.match import play_game
    from fcm_agents.registry import make_agent

    search = make_agent("search:iterations=3,horizon=1", seed=1)
    play_game([search, make_agent("heuristic", seed=2)], seed=5, max_rounds=2)
    assert search.stats.searched > 0
    assert 0 < search.stats.cpu_seconds <= search.stats.seconds * 1.05 + 0.01  # one thread: no more work than time


def test_a_curve_point_given_by_its_figures_reads_as_a_measured_one():
    given = search_curve.point("figures:games=50,wins=26,place=1.42,iterations=20,seconds=0.069,timed=25", "x")
    low, high = search_strength.wilson(26, 50)
    assert given == {"games": 50, "wins": 26, "rate": 0.52, "low": low, "high": high, "place": 1.42, "seconds": 0.069,
                     "clock": "clock", "timed_games": 25, "iterations": 20.0}
    assert round(low, 3) == 0.385 and round(high, 3) == 0.652  # the published interval of that cell
    for bad, named in (("figures:games=50,wins=26,place=1.4", "lacks iterations"),
                       ("figures:games=50,wins=26,place=1.4,iterations=20,speed=3", "'speed=3'"),
                       ("figures:games=fifty,wins=26,place=1.4,iterations=20", "games='fifty' is not an integer")):
        try:
            search_curve.point(bad, "x")
        except SystemExit as error:
            assert named in str(error)
        else:
            raise AssertionError(bad)

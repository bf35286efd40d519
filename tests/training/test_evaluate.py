"""Tournament statistics: Wilson intervals, seat rotation, ratings, result files."""

from __future__ import annotations

import csv
import json

import pytest

from fcm_agents.match import MatchResult
from fcm_training.evaluate import TournamentConfig, run_tournament, seating, summarise, wilson_interval


def test_wilson_interval_matches_hand_computed_values():
    # p = 8/10, z = 1.96: centre (0.8 + 0.19208) / 1.38416 = 0.71668; half = 0.23052
    low, high = wilson_interval(8, 10)
    assert low == pytest.approx(0.4902, abs=1e-4) and high == pytest.approx(0.9433, abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(20, 20)
    assert high == 1.0 and low == pytest.approx(0.8389, abs=1e-4)


def test_seats_rotate_so_every_agent_plays_every_player_id():
    lineup = ("a", "b", "c")
    assert [seating(lineup, g) for g in range(4)] == [
        ["a", "b", "c"], ["b", "c", "a"], ["c", "a", "b"], ["a", "b", "c"],
    ]


def _result(agents, winners, cash, ranks):
    return MatchResult(seed=0, num_players=len(agents), variant="standard", agents=agents, winners=winners,
                       cash=cash, ranks=ranks, rounds=5, ended_by="bank", decisions=10)


def test_summary_counts_wins_cash_ranks_and_rates_the_stronger_agent_higher():
    results = [
        _result(["x", "y"], [0], [100, 20], [1, 2]),
        _result(["y", "x"], [1], [10, 90], [2, 1]),
        _result(["x", "y"], [1], [30, 40], [2, 1]),
    ]
    stats = {s.name: s for s in summarise(results)}
    assert stats["x"].games == 3 and stats["x"].wins == 2
    assert stats["x"].mean_cash == pytest.approx((100 + 90 + 30) / 3)
    assert stats["y"].mean_rank == pytest.approx((2 + 2 + 1) / 3)
    assert stats["x"].rating_ordinal > stats["y"].rating_ordinal


def test_a_lineup_needs_two_to_five_agents():
    with pytest.raises(ValueError, match="2-5 agents"):
        TournamentConfig(lineup=("random",))


def test_tournament_writes_summary_csv_and_replayable_records(tmp_path):
    from fcm_env.engine.records import GameRecord, replay

    config = TournamentConfig(lineup=("heuristic", "random"), games=2, seed=7, max_rounds=10)
    stats, results = run_tournament(config, tmp_path)
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert [a["name"] for a in summary["agents"]] == [s.name for s in stats]
    rows = list(csv.DictReader((tmp_path / "games.csv").open()))
    assert [int(r["seed"]) for r in rows] == [7, 8]
    record = GameRecord.load(tmp_path / "records" / "game_8.json")
    game = replay(record)
    assert list(game.winners) == results[1].winners

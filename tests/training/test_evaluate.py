"""Tournament statistics: Wilson intervals, seat rotation, wins/ties/losses, ratings, result files."""

from __future__ import annotations

import csv
import io
import json
import sys

import pytest

from fcm_agents.match import MatchResult, final_places, final_ranks
from fcm_env.engine.game import Game
from fcm_training.common.evaluate import run_tournament
from fcm_training.common.tournament_games import TournamentConfig, seating
from fcm_training.common.tournament_results import format_table, summarise, wilson_interval


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


def _result(agents, winners, cash, ranks, places=None):
    if places is None:  # no bankrupt chain: equal cash shares a place
        places = [1 + sum(other > c for other in cash) for c in cash]
    return MatchResult(seed=0, num_players=len(agents), variant="standard", agents=agents, winners=winners,
                       cash=cash, ranks=ranks, places=places, rounds=5, ended_by="bank", decisions=10)


def test_summary_counts_wins_cash_ranks_and_rates_the_stronger_agent_higher():
    results = [
        _result(["x", "y"], [0], [100, 20], [1, 2]),
        _result(["y", "x"], [1], [10, 90], [2, 1]),
        _result(["x", "y"], [1], [30, 40], [2, 1]),
    ]
    stats = {s.name: s for s in summarise(results)}
    assert (stats["x"].games, stats["x"].wins, stats["x"].ties, stats["x"].losses) == (3, 2, 0, 1)
    assert stats["x"].mean_cash == pytest.approx((100 + 90 + 30) / 3)
    assert stats["y"].mean_place == pytest.approx((2 + 2 + 1) / 3)
    assert stats["x"].rating_ordinal > stats["y"].rating_ordinal


def test_a_shared_top_is_a_tie_and_everyone_at_zero_is_nobodys_win():
    # the rules name one winner in each game (the earlier seat); the tournament counts ties
    results = [
        _result(["x", "y", "z"], [0], [0, 0, 0], [1, 2, 3]),  # truncated early: everyone at $0
        _result(["x", "y", "z"], [1], [10, 40, 40], [3, 1, 2]),  # y and z share first place
        _result(["z", "x", "y"], [0], [50, 20, 20], [1, 2, 3]),  # z alone
    ]
    stats = {s.name: s for s in summarise(results)}
    assert [(stats[n].wins, stats[n].ties, stats[n].losses) for n in "xyz"] == [(0, 1, 2), (0, 2, 1), (1, 2, 0)]
    assert stats["x"].win_rate == 0.0 and stats["z"].win_rate == pytest.approx(1 / 3)
    assert stats["y"].mean_place == pytest.approx((1 + 1 + 2) / 3)  # ties share the place, no seat order
    assert [r.top for r in results] == [[0, 1, 2], [1, 2], [0]]


def test_an_agent_at_several_seats_counts_each_game_once():
    # a 4-seat table filled from a 2-agent lineup: games are games, seats are seat-games
    results = [
        _result(["h", "r", "h", "r"], [2], [30, 0, 60, 5], [2, 4, 1, 3]),
        _result(["r", "h", "r", "h"], [0], [0, 0, 0, 0], [1, 2, 3, 4]),
        _result(["h", "r", "h", "r"], [1], [9, 12, 9, 12], [3, 1, 4, 2]),  # first place: r's two seats alone
    ]
    stats = {s.name: s for s in summarise(results)}
    h, r = stats["h"], stats["r"]
    assert (h.games, h.seats, h.wins, h.ties, h.losses) == (3, 6, 1, 1, 1)
    # game 2 (all at $0) is a tie; in game 3 only r's own seats share first place: r's win
    assert (r.games, r.seats, r.wins, r.ties, r.losses) == (3, 6, 1, 1, 1)
    assert h.mean_cash == pytest.approx((30 + 60 + 0 + 0 + 9 + 9) / 6)
    assert h.win_rate == pytest.approx(1 / 3)


def test_a_four_player_tournament_reports_games_not_seat_appearances():
    config = TournamentConfig(lineup=("heuristic", "random", "heuristic", "random"), games=2, seed=0, max_rounds=2)
    stats, results = run_tournament(config)
    assert len(results) == 2
    for s in stats:
        assert (s.games, s.seats) == (2, 4)
        assert s.wins + s.ties + s.losses == 2
    lines = format_table(stats, results).splitlines()
    assert any(line.startswith("2 games; ") for line in lines)
    assert sum(line.endswith("seat-games (0.000)") or "sits in 2 seats a game" in line for line in lines) == 2


def test_places_keep_ties_and_follow_the_rules_winner_eligibility():
    game = Game.new(3, seed=0)
    players = game.state.players
    for p, cash in enumerate((5, 5, 0)):
        players[p].cash = cash
    assert final_places(game) == [1, 1, 3]
    first = min((0, 1), key=game.state.turn_order.index)
    assert final_ranks(game)[first] == 1  # the rules' tie-break: the tied player earliest in turn order
    players[0].bankrupt = True  # a bankrupt chain cannot win (D45): it comes after the others
    assert final_places(game) == [3, 1, 2]
    assert final_ranks(game).index(1) == 1
    for p in range(3):
        players[p].cash, players[p].bankrupt = 0, False
    assert final_places(game) == [1, 1, 1]


def test_the_table_prints_long_names_whole_and_aligned():
    long = "onnx:runs/some_long_run_name/best_model.onnx"
    results = [_result([long, "random"], [0], [90, 0], [1, 2]), _result(["random", long], [0], [0, 0], [1, 2])]
    lines = format_table(summarise(results), results).splitlines()
    assert lines[0].split() == ["agent", "games", "seats", "wins", "ties", "losses", "wins/games", "95%", "CI",
                                "mean", "cash", "mean", "place", "rating"]
    assert set(lines[1]) == {"-"}
    assert lines[2].split()[:7] == [long, "2", "2", "1", "1", "0", "0.500"]
    assert lines[3].split()[:7] == ["random", "2", "2", "0", "1", "1", "0.000"]
    # right-aligned figures: every row ends at the same column as the header
    assert len(lines[2]) == len(lines[3]) == len(lines[0])
    assert lines[-1] == "2 games; ended by the bank: 2 (100.0%); truncated by max_rounds: 0 (0.0%); " \
                        "tied for first between agents: 1; mean rounds 5.0"


def test_an_agent_in_two_seats_is_counted_per_game_and_per_seat_and_its_own_shared_first_is_its_win():
    # 3 players: heuristic in seats 0 and 2; game 1 seat 2 wins alone; game 2 seats 0 and 2 share first
    # (one agent's own seats: its win, not a tie); game 3 random wins
    lineup = ["heuristic", "random", "heuristic"]
    results = [_result(lineup, [2], [10, 0, 50], [2, 3, 1]), _result(lineup, [0], [40, 0, 40], [1, 3, 1]),
               _result(lineup, [1], [0, 60, 10], [3, 1, 2])]
    stats = {s.name: s for s in summarise(results)}
    h = stats["heuristic"]
    assert (h.games, h.seats, h.wins, h.ties, h.losses, h.seat_wins) == (3, 6, 2, 0, 1, 1)
    assert (stats["random"].wins, stats["random"].seat_wins) == (1, 1)
    notes = format_table(list(stats.values()), results).splitlines()[-3:]
    assert notes == [
        ("3 games; ended by the bank: 3 (100.0%); truncated by max_rounds: 0 (0.0%); "
        "tied for first between agents: 0; mean rounds 5.0"),
        "first place shared by one agent's own seats: 1 game (counted as its win)",
        ("heuristic sits in 2 seats a game: wins/games counts a game any of its seats won; "
        "per seat it won 1 of 6 seat-games (0.167)")]


def test_without_openskill_the_table_has_no_ratings_and_says_why(monkeypatch):
    monkeypatch.setitem(sys.modules, "openskill", None)  # importing openskill now fails
    results = [_result(["x", "y"], [0], [10, 0], [1, 2])]
    stats = summarise(results)
    assert [(s.name, s.rating_ordinal) for s in stats] == [("x", None), ("y", None)]
    lines = format_table(stats, results).splitlines()
    assert lines[2].split()[-1] == "-"
    assert lines[-1] == "ratings: not computed, openskill is not installed (pip install openskill)"


def test_a_lineup_needs_two_to_five_agents():
    with pytest.raises(ValueError, match="2-5 agents"):
        TournamentConfig(lineup=("random",))


def test_tournament_writes_summary_csv_and_replayable_records(tmp_path):
    from fcm_env.engine.persistence.records import GameRecord, replay

    config = TournamentConfig(lineup=("heuristic", "random"), games=2, seed=7, max_rounds=10)
    stats, results = run_tournament(config, tmp_path)
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert [a["name"] for a in summary["agents"]] == [s.name for s in stats]
    assert summary["agents"][0]["games"] == 2 and summary["games"][0]["places"] == results[0].places
    rows = list(csv.DictReader(io.StringIO((tmp_path / "games.csv").read_text())))
    assert [int(r["seed"]) for r in rows] == [7, 8]
    assert [r["first_place"] for r in rows] == [" ".join(map(str, r.top)) for r in results]
    record = GameRecord.load(tmp_path / "records" / "game_8.json")
    game = replay(record)
    assert game.winners == results[1].winners

"""The training-time evaluation counts a shared first place as a tie, never as the learner's win."""

from __future__ import annotations

from types import SimpleNamespace

import fcm_agents.match
from fcm_training.sb3.background_eval import evaluate_agent


def test_shared_first_place_is_a_tie_and_a_sole_first_place_a_win(monkeypatch):
    # seat = game % 2; the stub's outcomes per game: all at $0, learner alone first, opponent alone first
    outcomes = [([0, 0], [1, 1]), ([0, 50], [2, 1]), ([30, 10], [1, 2]), ([20, 20], [1, 1])]

    def fake_play_game(lineup, seed, variant, max_rounds, engine="python"):
        cash, places = outcomes[seed - 100]
        # the engine's rule names one winner even on a cash tie (the earlier seat): it must not count
        winner = min(p for p, place in enumerate(places) if place == 1)
        return SimpleNamespace(cash=cash, places=places, winners=[winner], ended_by="max_rounds",
                               top=[p for p, place in enumerate(places) if place == 1])

    monkeypatch.setattr(fcm_agents.match, "play_game", fake_play_game)
    row = evaluate_agent(object(), opponent="random", games=4, first_seed=100, num_players=2,
                         variant="standard", max_rounds=5)
    # game 0: seat 0, tie at $0; game 1: seat 1 alone first (win); game 2: seat 0 alone first (win);
    # game 3: seat 1, tie at $20
    assert (row["wins"], row["ties"], row["games"]) == (2, 2, 4)
    assert row["win_rate"] == 0.5
    assert row["mean_cash"] == (0 + 50 + 30 + 20) / 4

"""Whole random games with every invariant checked after every action (few games here; the full
200-game run is ``benchmarks/random_games.py``, figures in the closing note).

``FCM_RANDOM_GAMES`` sets the games per configuration (default 1).
"""

from __future__ import annotations

import os

import pytest

from fcm_env.engine.random_sim import simulate

GAMES = int(os.environ.get("FCM_RANDOM_GAMES", "1"))


@pytest.mark.parametrize("variant", ["standard", "introductory"])
@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_random_games_keep_every_invariant(num_players, variant):
    for seed in range(GAMES):
        result = simulate(num_players, seed, variant, max_rounds=12, roundtrip_every=25)
        assert result.winners and result.actions > 0
        assert result.rounds <= 12

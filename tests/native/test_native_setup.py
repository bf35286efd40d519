"""A native new game is Python's new game: the same state document for the same player count, seed, variant
and round cap (the map and turn order drawn from numpy's generator, the bank, the piles with the 1x types
reduced, the marketing tiles and houses of the player count, the first restaurant asked of the last seat;
rules: Setting up; C2, C7, R05), and bad arguments are ValueErrors in Python's words. The hand-checked setups
run on both engines in tests/engine/test_setup.py."""

from __future__ import annotations

import pytest

from fcm_env.engine.game import Game
from fcm_env.native import new_game


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_setup_is_pythons_document_for_document(players):
    for seed in (0, 1, 2, 3, 17, 99, 12345, 2**40 + 3):
        for variant in ("standard", "introductory"):
            for max_rounds in (None, 1, 20):
                ours = new_game(players, seed, variant, max_rounds).to_dict()
                theirs = Game.new(players, seed=seed, variant=variant, max_rounds=max_rounds).to_dict()
                assert ours == theirs, (players, seed, variant, max_rounds)
                assert list(ours) == list(theirs)  # the keys in the same order too: the same file when saved


@pytest.mark.parametrize(("args", "message"), [
    ((6, 0), "num_players: expected 2 to 5 players, got 6"),
    ((2, 0, "deluxe"), "variant must be one of ('standard', 'introductory'), got 'deluxe'"),
    ((2, 0, "standard", 0), "max_rounds must be None (no cap: the rules end the game) or at least 1, got 0"),
    ((2, -1), "seed must be an integer 0 <= seed < 2**64, got -1"),
])
def test_bad_arguments_are_value_errors(args, message):
    import re

    with pytest.raises(ValueError, match=re.escape(message)):
        new_game(*args)

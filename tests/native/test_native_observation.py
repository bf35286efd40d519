"""The native observation is fcm_env.encoding's, byte for byte: every player's flat observation at decision
points of real games at 2-5 players in both variants (hidden Restructuring and firing, reserve cards, campaigns,
houses, the pending piece), written into a caller's float32 buffer; bad buffers and players are refused."""

from __future__ import annotations

import numpy as np
import pytest
from lockstep import positions

from fcm_env import native
from fcm_env.encoding.observation import Observer


def test_every_players_observation_is_the_encoders():
    observer = Observer()
    buffer = np.zeros(observer.flat_size, dtype=np.float32)
    games = positions()[::5]
    checked = 0
    for game in games:
        ours = native.Game.from_checked_dict(game.to_dict())
        for player in range(game.num_players):
            theirs = observer.observe_flat(game, player)
            ours.observe_flat(player, buffer)
            assert buffer.tobytes() == theirs.tobytes(), (game.pending, player)
            checked += 1
    assert checked > 1000


def test_the_buffer_is_written_in_place_and_bad_ones_are_refused():
    game = native.Game.new(3, 4, "standard", None)
    size = Observer().flat_size
    out = np.full(size, 7.0, dtype=np.float32)
    assert game.observe_flat(0, out) is out and out[0] == 1.0  # the valid plane's first square: no copy made
    with pytest.raises(ValueError, match=rf"out must be a float32 array of shape \({size},\)"):
        game.observe_flat(0, np.zeros(size - 1, dtype=np.float32))
    with pytest.raises(TypeError):
        game.observe_flat(0, np.zeros(size, dtype=np.float64))  # no silent conversion into a copy
    with pytest.raises(ValueError, match="player must be 0..2, got 3"):
        game.observe_flat(3, out)

"""The exact legal-action mask over the flat action space.

The mask is built from ``Game.legal_actions()`` through the codec, never guessed
from the state, so it is exact by construction: an id is set if and only if it
encodes a legal action. The encoded ids are kept in the game's per-position cache
(``Game.position_cache``, emptied by every move), so asking for the mask of every
agent after every step costs one encoding pass per position.
"""

from __future__ import annotations

import numpy as np

from fcm_env.engine.game import Game

from .action_codec import CODEC


def legal_action_ids(game: Game) -> np.ndarray:
    """Sorted flat ids (int64) of the legal actions of the pending decision; empty when none.

    Treat the result as read-only: it is kept in the game's per-position cache.
    """
    cache = game.position_cache
    ids = cache.get("legal_ids")
    if ids is None:
        ids = np.array(sorted(CODEC.encode_many(game.legal_actions_view())), dtype=np.int64)
        ids.setflags(write=False)
        cache["legal_ids"] = ids
    return ids


def legal_action_mask(game: Game, player: int, out: np.ndarray | None = None) -> np.ndarray:
    """``int8[N]``: 1 for every legal action id of ``player``; all zero when ``player`` is not to move.

    ``out`` (an ``int8`` array of length N) is filled in place and returned, for
    preallocated observation buffers.
    """
    if out is None:
        out = np.zeros(CODEC.n, dtype=np.int8)
    else:
        if out.shape != (CODEC.n,) or out.dtype != np.int8:
            raise ValueError(f"out must be an int8 array of shape ({CODEC.n},), got {out.dtype} {out.shape}")
        out[:] = 0
    if not 0 <= int(player) < game.num_players:
        raise ValueError(f"player must be 0..{game.num_players - 1}, got {player}")
    if game.current_player == player:
        out[legal_action_ids(game)] = 1
    return out

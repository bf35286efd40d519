"""The exact legal-action mask over the flat action space.

The mask is built from ``Game.legal_actions()`` through the codec, never guessed
from the state, so it is exact by construction: an id is set if and only if it
encodes a legal action. The encoded ids are kept in the game's per-position cache
(``Game.position_cache``, emptied by every move), so asking for the mask of every
agent after every step costs one encoding pass per position.
"""

from __future__ import annotations

import numpy as np

from fcm_env.engine.actions import Action
from fcm_env.engine.game import Game

from .action_codec import CODEC


def legal_action_ids(game: Game) -> np.ndarray:
    """Sorted flat ids (int64) of the legal actions of the pending decision; empty when none.

    Treat the result as read-only: it is kept in the game's per-position cache.
    """
    ids = game.position_cache.get("legal_ids")
    if ids is None:
        ids = _encode_legal(game)[0]
    return ids


def legal_actions_by_id(game: Game) -> dict[int, Action]:
    """The legal actions of the pending decision by flat id (what ``CODEC.decode`` gives for each).

    The envs look a stepped id up here: one dict lookup checks and decodes it. Treat the
    result as read-only: it is kept in the game's per-position cache.
    """
    by_id = game.position_cache.get("legal_by_id")
    if by_id is None:
        by_id = _encode_legal(game)[1]
    return by_id


def _encode_legal(game: Game) -> tuple[np.ndarray, dict[int, Action]]:
    """Encode the position's legal actions once: the sorted ids and the actions by id, both cached."""
    actions = game.legal_actions_view()
    encoded = CODEC.encode_many(actions)
    ids = np.array(sorted(encoded), dtype=np.int64)
    ids.setflags(write=False)
    by_id = dict(zip(encoded, actions, strict=True))
    game.position_cache["legal_ids"] = ids
    game.position_cache["legal_by_id"] = by_id
    return ids, by_id


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

"""The observation encoder: one player's view of a position as fixed-shape float32 arrays.

An observation is board planes ``C x 20 x 25`` (every map padded to the largest
one; the ``valid`` plane marks real squares) plus a flat vector, with the same
shape for every player count and variant (names in ``layout.observation_layout``).
Players appear relative to the observer in turn order. Hidden information goes
through ``visibility`` only, so what another player chose in secret never reaches
the arrays. Everything is written into preallocated buffers.

Speed (``benchmarks/bench_step.py``): most of an observation changes rarely, so
its parts are cached under keys made of exactly the state they are drawn from,
and a step redraws only what it changed: the static map planes (by board), the
houses, restaurants and campaigns (their nonzero entries, scattered into the
zeroed planes), the table part of the vector (round, bank, tiles, milestones),
the employee piles, and each player's block (by everything it shows but
``to_move`` and the reserve card, written afterwards). A key is compared, never
trusted: a hand-edited state gets the same bytes as a played one
(``tests/encoding/test_step_golden.py`` pins them).

The envs keep each agent's observation in place: on the native engine in C++, redrawn
where the game changed; on this readable reference through these caches alone
(``fcm_env.engines.factory.PythonRows``).

The work is split by job: ``board_planes`` draws the board planes, ``vector_head`` the
vector before the player blocks (decision, table, piles, turn, pending context),
``player_blocks`` the player blocks, all caching through ``key_cache.KeyCache``; this
module holds ``Observer``, which seats the players and drives the three.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from fcm_env.engine.state import GameState

from .board_planes import BoardPlanes
from .layout import ObservationLayout, observation_layout
from .player_blocks import PlayerBlocks
from .vector_head import VectorHead

_LAYOUT = observation_layout()
BOARD_SHAPE: tuple[int, int, int] = _LAYOUT.board_shape
VECTOR_SIZE: int = _LAYOUT.vector_size
FLAT_SIZE: int = _LAYOUT.flat_size


class Observation(NamedTuple):
    board: np.ndarray  # float32 [C, 20, 25]
    vector: np.ndarray  # float32 [V]


class Observer:
    """Encodes positions for any observing player into fixed-shape float32 arrays.

    One instance per env (it caches the static planes of the last few boards).
    ``observe`` fills (or allocates) an :class:`Observation`; ``observe_flat`` fills
    one flat ``float32[flat_size]`` vector (the board planes in C order, then the
    vector), as a Box for an MLP.
    """

    def __init__(self) -> None:
        self.layout: ObservationLayout = observation_layout()
        lay = self.layout
        self.board_shape = lay.board_shape
        self.vector_size = lay.vector_size
        self.flat_size = lay.flat_size
        self._board_size = lay.board_size
        self.planes = BoardPlanes(lay)  # the board planes
        self.vector_head = VectorHead(lay)  # the vector before the player blocks
        self.player_blocks = PlayerBlocks(lay)  # the player blocks

    # ------------------------------------------------------------------ public API

    def new_observation(self) -> Observation:
        return Observation(
            np.zeros(self.board_shape, dtype=np.float32), np.zeros(self.vector_size, dtype=np.float32)
        )

    def observe(self, game: object, player: int, out: Observation | None = None) -> Observation:
        """``player``'s observation of ``game`` (a ``Game`` or ``GameState``), written into ``out``."""
        if out is None:
            out = self.new_observation()
        elif (out.board.shape != self.board_shape or out.vector.shape != (self.vector_size,)
              or out.board.dtype != np.float32 or out.vector.dtype != np.float32):
            raise ValueError(f"out must hold float32 arrays of shapes {self.board_shape} and ({self.vector_size},)")
        if out.board.flags.c_contiguous:
            self._write(_state_of(game), player, out.board, out.vector)
        else:  # the map layers are written through a flat view of the planes
            board = np.zeros(self.board_shape, dtype=np.float32)
            self._write(_state_of(game), player, board, out.vector)
            out.board[...] = board
        return out

    def observe_flat(self, game: object, player: int, out: np.ndarray | None = None) -> np.ndarray:
        """The observation as one flat float32 vector: board planes (C order), then the vector."""
        if out is None:
            out = np.zeros(self.flat_size, dtype=np.float32)
        elif out.shape != (self.flat_size,) or out.dtype != np.float32:
            raise ValueError(f"out must be a float32 array of shape ({self.flat_size},)")
        split = self._board_size
        self._write(_state_of(game), player, out[:split].reshape(self.board_shape), out[split:])
        return out

    def seats(self, state: GameState, observer: int) -> tuple[int, list[int], list[int]]:
        """The observer's seat, the player id in each relative slot (0 = the observer), each player's slot."""
        n = state.num_players
        if not 0 <= int(observer) < n:
            raise ValueError(f"player must be 0..{n - 1}, got {observer}")
        observer = int(observer)
        # players who left the turn order (bankrupt, C21/D45) follow it, by id, so that they can
        # still observe the end of the game
        order = state.turn_order
        if len(order) < n:
            order = order + [p for p in range(n) if p not in order]
        me = order.index(observer)
        by_slot = order[me:] + order[:me]  # player id in each relative slot (0 = the observer)
        rel = [0] * n
        for slot, player in enumerate(by_slot):
            rel[player] = slot
        return me, by_slot, rel

    # ------------------------------------------------------------------ writing

    def _write(self, state: GameState, observer: int, board: np.ndarray, vec: np.ndarray) -> None:
        me, by_slot, rel = self.seats(state, observer)
        self.planes.write(state, board, rel)
        vec[...] = 0.0
        head = self.vector_head
        head.write(state, observer, vec, rel)
        head.write_context(state, observer, board, vec)
        self.player_blocks.write_all(state, observer, by_slot, me, vec)


def _state_of(game: object) -> GameState:
    state = getattr(game, "state", game)
    if not isinstance(state, GameState):
        snapshot = getattr(game, "snapshot", None)  # a game whose state is a summary (the native engine's)
        if callable(snapshot):
            return snapshot().state
        raise TypeError(f"expected a Game or GameState, got {type(game).__name__}")
    return state

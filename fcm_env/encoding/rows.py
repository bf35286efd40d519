"""One flat observation per player, kept in place and redrawn only where the game changed.

The envs observe the same players of the same game step after step, and a step
changes little: one player's cards, the table, the pending decision. ``Observer``
alone redraws everything and finds what it can reuse by comparing keys built from
the state, which costs as much Python work as a small redraw. ``ObservationRows``
keeps each player's last observation and asks the engine's move stamps
(``Game.changes``, ``fcm_env.engine.changes``) which parts may have changed since:
the player blocks of the players stamped, the map's pieces if a piece may have moved
or the observer's seats changed, every block after a step the engine ran alone; the
pending decision, the table and the turn are written every time. The result is byte
for byte what a fresh ``Observer.observe_flat`` gives (the encoder tests compare them
at every decision of random games).

The stamps see only moves made through ``Game.apply``; a game whose state is edited
by hand between two observations must be observed with ``Observer`` (or after
``forget``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from fcm_env.data import Milestone
from fcm_env.engine.changes import ChangeLog
from fcm_env.engine.game import Game
from fcm_env.engine.state import GameState

from .action_codec import MAX_PLAYERS
from .board_planes import Layer
from .key_cache import KeyCache
from .observation import Observer


class _RowViews(NamedTuple):
    flat: np.ndarray  # the board planes, flat
    board: np.ndarray  # ... as [channel, row, col]
    vec: np.ndarray  # the vector
    blocks: list[np.ndarray]  # the player blocks in the vector, by slot
    pending_plane: np.ndarray  # the pending decision's piece
    head: np.ndarray  # the vector before the player blocks: decision, table, turn


class _Mark:
    """What one row shows: which game (its change log and state), as of which move, and how it was drawn."""

    __slots__ = ("changes", "moves", "pieces", "seats", "sees_reserves", "state")

    def __init__(self, changes: ChangeLog, state: GameState, seats: tuple[int, list[int], list[int]],
                 pieces: Layer, sees_reserves: bool):
        self.changes = changes
        self.state = state
        self.moves = changes.moves
        self.seats = seats
        self.pieces = pieces  # the map entries scattered into the row
        self.sees_reserves = sees_reserves  # the observer holds First to have $20 (C26)


class ObservationRows:
    """``rows[p]`` is player ``p``'s flat observation (``Observer.observe_flat``) of the game last observed.

    ``observe(game, p)`` brings row ``p`` up to date and returns it (a view: copy it to keep it
    past the next ``observe`` of ``p``). ``rows`` may be given (a ``float32[num_players, flat_size]``
    array, e.g. in shared memory); it is filled in place.

    Besides skipping what did not change, the rows share work between observers through
    caches keyed by the move stamps: the map's pieces are drawn once per map stamp, by player
    id, and moved to each observer's slots; without the compiled kernels (no numba) a changed
    player block is drawn by the first observer and copied by the others.
    """

    def __init__(self, num_players: int, observer: Observer | None = None, rows: np.ndarray | None = None):
        self.observer = observer or Observer()
        ob = self.observer
        if rows is None:
            rows = np.zeros((num_players, ob.flat_size), dtype=np.float32)
        elif rows.shape != (num_players, ob.flat_size) or rows.dtype != np.float32:
            raise ValueError(f"rows must be a float32 array of shape ({num_players}, {ob.flat_size}), "
                             f"got {rows.dtype} {rows.shape}")
        self.rows = rows
        self._num_static = ob.planes.num_static
        self._pending_plane = ob.layout.channel("pending_piece")
        self._players_at = ob.layout.slice("player0").start
        self._views = self._row_views()
        self._marks: list[_Mark | None] = [None] * num_players
        self._pieces = KeyCache(_PIECES_CACHE_SIZE)  # the map's pieces by (game, map stamp, seats)
        self._owned = KeyCache(_PIECES_CACHE_SIZE)  # ... drawn by player id, by (game, map stamp)
        self._plane_size = ob.board_shape[1] * ob.board_shape[2]
        self._shifts: dict[tuple[int, ...], np.ndarray] = {}  # by seats: at most 5 rotations per player count

    def _row_views(self) -> list[_RowViews]:
        """Each row's parts as views of ``rows`` (made once: a view costs about as much as a small write)."""
        ob = self.observer
        split, shape = ob.layout.board_size, ob.board_shape
        pending_plane, players_at = self._pending_plane, self._players_at
        views = []
        for row in self.rows:
            flat, vec = row[:split], row[split:]
            board = flat.reshape(shape)
            blocks = ob.player_blocks.views(vec)
            views.append(_RowViews(flat, board, vec, list(blocks), board[pending_plane], vec[:players_at]))
        return views

    def __getstate__(self) -> dict:
        """Copies and pickles keep the rows; the views are made again (a copied view is no view)."""
        state = dict(self.__dict__)
        del state["_views"]
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._views = self._row_views()

    def observe(self, game: Game, player: int) -> np.ndarray:
        """``player``'s observation of ``game``, redrawn where the game changed since this row was drawn."""
        state = game.state
        changes = game.changes
        mark = self._marks[player]
        if mark is None or mark.changes is not changes or mark.state is not state:
            self._draw(game, player)
        elif changes.moves != mark.moves:
            self._redraw(game, player, mark)
        return self.rows[player]

    def forget(self) -> None:
        """Drop what the rows show and what is cached by move stamp: the next ``observe`` redraws everything.

        For a game whose state was edited by hand since it was last observed.
        """
        self._marks = [None] * len(self._marks)
        self._pieces.clear()
        self._owned.clear()
        self.observer.player_blocks.forget_versions()

    # ------------------------------------------------------------------ drawing

    def _draw(self, game: Game, player: int) -> None:
        """Everything, as ``Observer.observe_flat`` draws it (a new game, or a row never drawn)."""
        ob, state, changes = self.observer, game.state, game.changes
        flat, board, vec, blocks, _, _ = self._views[player]
        seats = ob.seats(state, player)
        me, by_slot, rel = seats
        num_static = self._num_static
        board[:num_static] = ob.planes.static(state.board)
        board[num_static:] = 0.0
        pieces = self._map_pieces(state, changes, rel)
        flat[pieces.index] = pieces.values
        vec[...] = 0.0
        ob.vector_head.write(state, player, vec, rel)
        ob.vector_head.write_context(state, player, board, vec)
        versions = None if ob.player_blocks.compiled else [_version(changes, q) for q in range(state.num_players)]
        ob.player_blocks.write(state, player, by_slot, rel, me, blocks, versions)
        self._marks[player] = _Mark(changes, state, seats, pieces, _sees_reserves(state, player))

    def _redraw(self, game: Game, player: int, mark: _Mark) -> None:
        """What the move stamps since ``mark`` say may have changed (``fcm_env.engine.changes``)."""
        ob, state, changes = self.observer, game.state, game.changes
        flat, board, vec, blocks, pending_plane, head = self._views[player]
        since = mark.moves
        everything = changes.all_at > since
        rel_before = mark.seats[2]
        if everything:  # the turn order may have changed
            mark.seats = ob.seats(state, player)
        me, _, rel = mark.seats
        if changes.map_at > since or (everything and mark.seats[2] != rel_before):
            pieces = self._map_pieces(state, changes, rel)
            if pieces is not mark.pieces:
                flat[mark.pieces.index] = 0.0
                flat[pieces.index] = pieces.values
                mark.pieces = pieces
        pending_plane[...] = 0.0
        head[...] = 0.0
        ob.vector_head.write(state, player, vec, rel)
        ob.vector_head.write_context(state, player, board, vec)
        sees = _sees_reserves(state, player)  # what the observer may see of every reserve card
        every_block = everything or sees != mark.sees_reserves
        stamped = [q for q, at in enumerate(changes.player_at) if every_block or at > since]
        if stamped:
            versions = None if ob.player_blocks.compiled else [_version(changes, q) for q in range(state.num_players)]
            ob.player_blocks.write(state, player, stamped, rel, me, blocks, versions)
        mark.moves = changes.moves
        mark.sees_reserves = sees

    def _map_pieces(self, state: GameState, changes: ChangeLog, rel: list[int]) -> Layer:
        key = (changes.uid, changes.map_at, tuple(rel))
        return self._pieces.get(key, self._seen_from, state, changes, rel)

    def _seen_from(self, state: GameState, changes: ChangeLog, rel: list[int]) -> Layer:
        """The map's pieces with their owners in the observer's slots, moved from the pieces drawn by player id.

        Only the owner channels (restaurant, entrance, campaign owner) depend on the observer;
        drawing the map once per map stamp and moving those entries serves every observer.
        """
        owned = self._owned.get((changes.uid, changes.map_at), self.observer.owned_pieces, state)
        key = tuple(rel)
        shift = self._shifts.get(key)
        if shift is None:  # index offset of each owner's entries; the last entry: pieces no player owns
            shift = np.zeros(MAX_PLAYERS + 1, dtype=np.intp)
            shift[:len(rel)] = (np.array(rel, dtype=np.intp) - np.arange(len(rel))) * self._plane_size
            self._shifts[key] = shift
        return Layer(owned.index + shift[owned.owner], owned.values)


_PIECES_CACHE_SIZE = 8


def _version(changes: ChangeLog, player: int) -> tuple[int, int, int]:
    """The stamp under which ``player``'s block is shared between observers: game, player, last change."""
    return changes.uid, player, max(changes.player_at[player], changes.all_at)


def _sees_reserves(state: GameState, observer: int) -> bool:
    return Milestone.FIRST_HAVE_20 in state.players[observer].milestones

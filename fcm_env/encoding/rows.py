"""One flat observation per player, kept in place and redrawn only where the game changed.

The envs observe the same players of the same game step after step, and a step
changes little: one player's cards, the table, the pending decision. ``Observer``
alone redraws everything and finds what it can reuse by comparing keys built from
the state, which costs as much Python work as a small redraw. ``ObservationRows``
keeps each player's last observation and asks the engine's move stamps
(``Game.changes``, ``fcm_env.engine.changes``) which parts may have changed since:
the player blocks of the players stamped, the map layers if a piece may have moved,
everything after a step the engine ran alone. The result is byte for byte what a
fresh ``Observer.observe_flat`` gives (the encoder tests compare them at every
decision of random games).

The stamps see only moves made through ``Game.apply``; a game whose state is edited
by hand between two observations must be observed with ``Observer`` (or after
``forget``).
"""

from __future__ import annotations

import numpy as np

from fcm_env.engine.changes import ChangeLog
from fcm_env.engine.game import Game
from fcm_env.engine.state import GameState

from .observation import Observer


class _Mark:
    """What one row shows: which game (its change log and state), as of which move, and the seats."""

    __slots__ = ("changes", "moves", "seats", "state")

    def __init__(self, changes: ChangeLog, state: GameState, moves: int, seats: tuple[int, list[int], list[int]]):
        self.changes = changes
        self.state = state
        self.moves = moves
        self.seats = seats


class ObservationRows:
    """``rows[p]`` is player ``p``'s flat observation (``Observer.observe_flat``) of the game last observed.

    ``observe(game, p)`` brings row ``p`` up to date and returns it (a view: copy it to keep it
    past the next ``observe`` of ``p``). ``rows`` may be given (a ``float32[num_players, flat_size]``
    array, e.g. in shared memory); it is filled in place.
    """

    def __init__(self, num_players: int, observer: Observer | None = None, rows: np.ndarray | None = None):
        self.observer = observer or Observer()
        flat_size = self.observer.flat_size
        if rows is None:
            rows = np.zeros((num_players, flat_size), dtype=np.float32)
        elif rows.shape != (num_players, flat_size) or rows.dtype != np.float32:
            raise ValueError(f"rows must be a float32 array of shape ({num_players}, {flat_size}), "
                             f"got {rows.dtype} {rows.shape}")
        self.rows = rows
        split = self.observer._board_size
        shape = self.observer.board_shape
        self._views = [(row[:split].reshape(shape), row[split:]) for row in rows]
        self._marks: list[_Mark | None] = [None] * num_players

    def observe(self, game: Game, player: int) -> np.ndarray:
        """``player``'s observation of ``game``, redrawn where the game changed since this row was drawn."""
        state = game.state
        changes = game.changes
        mark = self._marks[player]
        observer = self.observer
        board, vec = self._views[player]
        if mark is None or mark.changes is not changes or mark.state is not state or changes.all_at > mark.moves:
            seats = observer.seats(state, player)
            observer._write(state, player, board, vec, seats)
            self._marks[player] = _Mark(changes, state, changes.moves, seats)
        elif changes.moves != mark.moves:
            since = mark.moves
            players = [q for q, at in enumerate(changes.player_at) if at > since]
            observer.write_changed(state, player, board, vec, mark.seats, players, changes.map_at > since)
            mark.moves = changes.moves
        return self.rows[player]

    def forget(self) -> None:
        """Drop what the rows show: the next ``observe`` of each player redraws everything."""
        self._marks = [None] * len(self._marks)

"""``GameLike``: the one face of a game that both engines implement in full.

Why: the envs, agents, search, training and front ends play games of either engine (the Python reference,
``PythonGame``; the C++ core, ``NativeGame``). They reach a game only through this face, so none of them
asks which engine it is: a consumer that can use the C++ core asks for the capability (``native_core``:
the core game, or None), one that reads the whole Python state asks for ``snapshot()``.

``state`` on the face promises only the table facts (``TableFacts``): what the rewards, infos and
standings read every step. ``snapshot()`` is the full Python-readable position (a ``fcm_env.engine.Game``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

from fcm_env.engine.actions import Action, Pending
from fcm_env.engine.game import Game
from fcm_env.engine.state import Phase


class PlayerFacts(Protocol):
    """What the face promises of each player in ``state.players``."""

    player: int
    cash: int
    bankrupt: bool


class TableFacts(Protocol):
    """What the face promises of ``game.state`` on either engine (the Python engine's is the whole
    ``GameState``; the native one's only these, the rest through ``snapshot()``)."""

    num_players: int
    variant: str
    round: int
    phase: Phase
    turn_order: Sequence[int]
    truncated: bool
    seed: int
    max_rounds: int | None
    players: Sequence[PlayerFacts]


@runtime_checkable
class GameLike(Protocol):
    """A game of either engine (player ids 0..n-1 never change; seats do)."""

    #: the engine's name, for reports and records only: never branch on it (use ``native_core``)
    engine: str
    #: opt-in action log: set it to ``[]`` and every move appends its action
    history: list[Action] | None
    #: per-position scratch space of the layers above; emptied on every move
    position_cache: dict[str, Any]

    # ------------------------------------------------------------------ the table
    @property
    def num_players(self) -> int: ...
    @property
    def phase(self) -> Phase: ...
    @property
    def pending(self) -> Pending | None: ...
    @property
    def current_player(self) -> int | None: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def winners(self) -> tuple[int, ...]: ...
    @property
    def state(self) -> TableFacts: ...
    def info_facts(self) -> tuple[int, int, int, int, list[int]]:
        """(phase, pending decision or -1, round, player to move or -1, cash by player): the envs' infos."""
        ...

    # ------------------------------------------------------------------ capabilities
    @property
    def native_core(self) -> Any | None:
        """The C++ core game to hand a native player or search (None: this game has none)."""
        ...

    def snapshot(self) -> Game:
        """The full position as a Python ``Game`` to read (renderers, events, the reference agents): on the
        Python engine the game itself, on the native one a decoded copy. ``clone()`` it to play on."""
        ...

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self) -> list[Action]: ...
    def legal_actions_view(self) -> list[Action]: ...
    def legal_ids(self) -> np.ndarray:
        """Sorted flat ids (int64, read-only) of the legal actions."""
        ...
    def is_legal_id(self, index: int) -> bool: ...

    # ------------------------------------------------------------------ moves
    def apply(self, action: Action) -> None: ...
    def apply_id(self, index: int) -> None: ...
    def apply_legal(self, action: Action | int) -> None:
        """``apply`` of an action or flat id already checked legal here (the envs' hot path)."""
        ...
    def play_id(self, index: int) -> tuple[int, int, int, int, list[int], int] | None:
        """Play the flat id when it is legal and return the new position's ``info_facts`` plus the legal count
        of the player to move (0 once the game is over); None, and nothing changed, when it is not legal (the
        AEC env's step in one call: the caller says why)."""
        ...
    def advance(self) -> GameLike: ...

    # ------------------------------------------------------------------ search
    def clone(self) -> GameLike: ...
    def determinize(self, observer: int, rng: np.random.Generator, model: Any = None) -> GameLike: ...
    def seat_view(self, player: int) -> Game: ...
    def observed_action(self, action: Action, observer: int) -> Any: ...

    # ------------------------------------------------------------------ observing and saving
    def observe_flat(self, player: int, out: np.ndarray) -> np.ndarray:
        """``player``'s flat observation written into ``out`` (float32[FLAT_SIZE]); returns ``out``."""
        ...
    def to_dict(self) -> dict[str, Any]: ...


#: the face's members, which a test checks both engines for
FACE_MEMBERS: tuple[str, ...] = tuple(sorted(
    name for name in set(GameLike.__dict__) | set(getattr(GameLike, "__annotations__", {}))
    if not name.startswith("_")))

"""``PythonGame``: the Python reference engine's ``Game`` with the rest of the face (``face.GameLike``).

Why a subclass: ``fcm_env.engine.Game`` is the rules and nothing else; the flat ids and the observation are
the encoding's, a layer above it. This class adds them, so that a Python game and a native one answer the same
calls. Its clones and determinized worlds are ``PythonGame`` too (``Game`` builds them with ``type(self)``).

A plain ``Game`` made elsewhere (a hand-built scenario, a replayed record) joins the face through
``face_of`` (``fcm_env.engines``): the same object, its class raised to this one (it adds methods only).
"""

from __future__ import annotations

import numpy as np

from fcm_env.encoding import CODEC, Observer, legal_action_ids
from fcm_env.encoding.mask import legal_actions_by_id
from fcm_env.engine.actions import Action, IllegalActionError
from fcm_env.engine.game import Game

_OBSERVER: list[Observer] = []  # one shared encoder for the face's observe_flat (its caches compare keys)


def _observer() -> Observer:
    if not _OBSERVER:
        _OBSERVER.append(Observer())
    return _OBSERVER[0]


class PythonGame(Game):
    """A game on the Python engine with the whole face: see the module docstring."""

    engine = "python"
    native_core = None

    def snapshot(self) -> Game:
        """The game itself: it is the full Python position already (``clone()`` it to play on a copy)."""
        return self

    def legal_ids(self) -> np.ndarray:
        """Sorted flat ids (int64) of the legal actions, kept per position (treat as read-only)."""
        return legal_action_ids(self)

    def is_legal_id(self, index: int) -> bool:
        return index in legal_actions_by_id(self)

    def apply_id(self, index: int) -> None:
        """Play the flat id ``index`` (``IllegalActionError`` naming it when it is not legal: nothing changes)."""
        pending = self.pending
        if pending is None:
            raise IllegalActionError(f"no decision is pending (phase {self.phase.name}); got action id {index}")
        action = legal_actions_by_id(self).get(index)
        if action is None:
            raise IllegalActionError(f"action id {index} ({CODEC.action_to_string(index, pending)}) is not legal "
                                     f"for {pending.decision.name} of player {pending.player}")
        self._move(pending, action)

    def apply_legal(self, action: Action | int) -> None:
        """``apply`` of an action, or a flat id, already checked against this position's legal ones."""
        if not isinstance(action, Action):
            action = legal_actions_by_id(self)[int(action)]
        self._move(self.pending, action)

    def play_id(self, index: int) -> tuple[int, int, int, int, list[int], int] | None:
        """Play the flat id when it is legal: the new position's ``info_facts`` and the mover's legal count;
        None, and nothing changed, when it is not legal."""
        action = legal_actions_by_id(self).get(index) if self.pending is not None else None
        if action is None:
            return None
        self._move(self.pending, action)
        facts = self.info_facts()
        return (*facts, 0 if facts[3] < 0 else int(legal_action_ids(self).size))

    def observe_flat(self, player: int, out: np.ndarray) -> np.ndarray:
        """``player``'s flat observation written into ``out`` (``Observer.observe_flat``'s bytes)."""
        return _observer().observe_flat(self, player, out=out)

    def info_facts(self) -> tuple[int, int, int, int, list[int]]:
        """(phase, pending decision or -1, round, player to move or -1, cash by player)."""
        state = self.state
        pending = self.pending
        return (int(state.phase), -1 if pending is None else int(pending.decision), int(state.round),
                -1 if pending is None else int(pending.player), [int(p.cash) for p in state.players])

    @classmethod
    def adopt(cls, game: Game) -> PythonGame:
        """``game`` itself with the face (its class raised to this one; state, caches and logs untouched)."""
        if not isinstance(game, Game):
            raise TypeError(f"expected a fcm_env.engine.Game, got {type(game).__name__}")
        if not isinstance(game, cls):
            if type(game) is not Game:
                raise TypeError(f"a {type(game).__name__} cannot join the game face (only a plain Game can): "
                                "clone() it first")
            game.__class__ = cls
        return game  # type: ignore[return-value]

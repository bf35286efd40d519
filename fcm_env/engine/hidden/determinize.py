"""A world the observer cannot tell from the real one: every fact hidden from it redrawn.

A search that clones the real game sees what its player may not: another player's kept
reserve card, another player's face-down Restructuring, another player's secret firing
marks (D50-D52). ``determinize`` first *erases* those facts in a copy (the reserve card
unkept, the cards put to work back in hand, the firing marks cleared), so that nothing of
the truth is left, and only then *redraws* them, player by player in id order, from
``model`` and ``rng``. Two real games that differ only in what the observer cannot see
therefore give the same world for the same rng state (tests/engine/test_determinize.py).

What is redrawn, and from what:

* a reserve card another player kept while it is hidden from the observer (C26: First to
  have $20 shows it): ``model.reserve(state, player, values, rng)`` over the values the player
  was dealt (``reserve_offer``);
* another player's face-down Restructuring already chosen this phase: the cards go back to
  hand as the observer sees them (only the CEO at work) and the choice is made again, one
  card at a time, by ``model.choose(state, pending, legal, rng)``; a player choosing right now
  starts the choice again when the world plays on;
* another player's firing marks already made this Payday: cleared and chosen again the same way.

After the redraw the world is a legal, playable position: the engine draws no randomness
after setup, so it plays on deterministically; the move history and the event log (which
hold the true hidden moves) are not carried over.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from fcm_env.engine.actions import Action, Decision, Pending
from fcm_env.engine.hidden.visibility import erase, hidden_from
from fcm_env.engine.phases import payday, restructuring
from fcm_env.engine.state import GameState, Phase


class HiddenChoiceModel(Protocol):
    """What a determinization asks to redraw a hidden fact. It sees the world with every hidden
    fact erased (or already redrawn for the players before), never the truth."""

    def reserve(self, state: GameState, player: int, values: tuple[int, ...], rng: np.random.Generator) -> int:
        """The reserve card value ``player`` keeps, one of ``values``."""
        ...

    def choose(self, state: GameState, pending: Pending, legal: list[Action], rng: np.random.Generator) -> Action:
        """One atomic choice of a face-down decision (``RESTRUCTURE`` or ``FIRE``), one of ``legal``."""
        ...


class UniformModel:
    """The default prior: any value the player was dealt, any legal choice, equally likely."""

    def reserve(self, state: GameState, player: int, values: tuple[int, ...], rng: np.random.Generator) -> int:
        return values[int(rng.integers(len(values)))]

    def choose(self, state: GameState, pending: Pending, legal: list[Action], rng: np.random.Generator) -> Action:
        return legal[int(rng.integers(len(legal)))]


def checked_observer(observer: object, num_players: int) -> int:
    """``observer`` as a player id 0..num_players-1 (an int or numpy integer, not a bool), else ValueError."""
    if isinstance(observer, (bool, np.bool_)) or not hasattr(observer, "__index__") \
            or not 0 <= observer.__index__() < num_players:  # type: ignore[attr-defined]
        raise ValueError(f"observer must be a player id 0..{num_players - 1}, got {observer!r}")
    return int(observer.__index__())  # type: ignore[attr-defined]


def determinize(real: GameState, observer: int, rng: np.random.Generator,
                model: HiddenChoiceModel | None = None) -> GameState:
    """A copy of ``real`` with every fact hidden from ``observer`` erased, then redrawn (module docstring)."""
    observer = checked_observer(observer, real.num_players)
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy Generator (np.random.default_rng), got {type(rng).__name__}")
    model = UniformModel() if model is None else model
    state = real.clone()
    # 1. erase: nothing of the truth may reach the redraw
    hidden = hidden_from(state, observer)
    for p in hidden.players():
        erase(state.players[p], hidden)
    reserves, structures, firings = hidden
    # 2. redraw, player by player
    for p in reserves:
        state.players[p].reserve = int(model.reserve(state, p, state.players[p].reserve_offer, rng))
    if state.phase == Phase.RESTRUCTURING:
        for p in structures:
            if _has_chosen(state, p):
                _choose_again(state, p, Decision.RESTRUCTURE, model, rng)
    if state.phase == Phase.PAYDAY:
        for p in firings:
            if _has_chosen(state, p):
                _choose_again(state, p, Decision.FIRE, model, rng)
    return state


def _has_chosen(state: GameState, player: int) -> bool:
    """Whether ``player`` has finished this phase's face-down choice (no longer queued, not choosing)."""
    return player not in state.queue


_LEGAL = {Decision.RESTRUCTURE: restructuring.legal_restructure, Decision.FIRE: payday.legal_fire}
_CAN_CHOOSE = {Decision.RESTRUCTURE: restructuring.can_choose, Decision.FIRE: payday.can_choose}
_TAKE = {Decision.RESTRUCTURE: restructuring.put_to_work, Decision.FIRE: payday.mark_fired}


def _choose_again(state: GameState, player: int, decision: Decision, model: HiddenChoiceModel,
                  rng: np.random.Generator) -> None:
    """Make ``player``'s face-down choice again, one atomic choice at a time, as the phase would ask it."""
    if not _CAN_CHOOSE[decision](state, player):
        return  # the phase would not have asked this player (public: D53)
    pending = Pending(decision, player)
    while True:
        legal = sorted(_LEGAL[decision](state, pending))
        action = model.choose(state, pending, legal, rng)
        if action not in legal:
            raise ValueError(f"the model chose {action}, not legal for {decision.name} of player {player}")
        if not action.args or not _TAKE[decision](state, player, action.args[0]):
            return

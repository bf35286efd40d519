"""The heuristic's answers that the legal actions alone decide (``FROM_LEGAL``), given without a seat view.

Some answers do not depend on the position beyond its legal actions: ``act_on_game`` gives them without
building a seat view (which costs more than the answer). Each function returns exactly what its decision's
handler would, or None where the handler needs to read the position; a change to a handler must be made
to its function here too (the golden games catch a mismatch), and a subclass that overrides a handler
should drop its decision from ``FROM_LEGAL``.
"""

from __future__ import annotations

from fcm_env.engine.actions import Action, ActionKind, Decision

from .plan import MANAGER_SLOTS, PLAY_PRIORITY, TRAIN_RESERVE


def _turn_order_from_legal(legal: list[Action]) -> Action:
    return min(legal, key=lambda a: a.args[0])


def _duration_from_legal(legal: list[Action]) -> Action:
    return max(legal, key=lambda a: a.args[0] if a.kind == ActionKind.CHOOSE_DURATION else -1)


def _fire_from_legal(legal: list[Action]) -> Action | None:
    return Action.pass_() if Action.pass_() in legal else None  # ``_fire``: only when salaries cannot be paid


def _restructure_from_legal(legal: list[Action]) -> Action | None:
    """``_restructure`` reads the player's cards, cash and structure only to choose between a manager and
    staff (a manager can be put to work) or to keep a trainee on the beach (the card it would put to work
    first is one ``_train_reserve`` may keep): otherwise its answer is the first card of ``PLAY_PRIORITY``
    that may be put to work (nothing to put to work: the first legal action)."""
    puts = {a.args[0]: a for a in legal if a.kind == ActionKind.PUT_TO_WORK}
    if not puts:
        return legal[0]
    if any(t in MANAGER_SLOTS for t in puts):
        return None
    first = next((t for t in PLAY_PRIORITY if t in puts), None)
    if first is None or first in TRAIN_RESERVE:
        return None
    return puts[first]


def _produce_from_legal(legal: list[Action]) -> Action | None:
    """``_produce`` scores every production at least 2 and every haul at least 1, against 0 for passing:
    a single one of them is the answer whatever the wanted goods."""
    moves = [a for a in legal if a.kind in (ActionKind.PRODUCE, ActionKind.HAUL)]
    return moves[0] if len(moves) == 1 else None


def _freezer_from_legal(legal: list[Action]) -> Action | None:
    """``_freezer`` keeps the best of the goods it may keep: a single one is the answer."""
    keeps = [a for a in legal if a.kind == ActionKind.KEEP]
    return keeps[0] if len(keeps) == 1 else None


FROM_LEGAL = {
    Decision.TURN_ORDER: _turn_order_from_legal,
    Decision.PRODUCE: _produce_from_legal,
    Decision.FREEZER: _freezer_from_legal,
    Decision.CAMPAIGN_DURATION: _duration_from_legal,
    Decision.FIRE: _fire_from_legal,
    Decision.RESTRUCTURE: _restructure_from_legal,
}

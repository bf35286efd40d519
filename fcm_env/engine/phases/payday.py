"""Phase 5 Payday: fire cards (hidden, revealed together), then pay salaries to the bank.

rules: Phase 5; C27, C30; R39-R41, R43. The introductory game skips this phase.

Each active player in turn order marks cards to fire one at a time
(``Decision.FIRE``; choices sit in ``player.fired`` and stay hidden while
``state.firing_revealed`` is False), then says done. Any card at work (never the
CEO) or on the beach may be fired. Done is legal only when the player can pay
what remains due after the marked firings, and, once they hold "First to have
$100", only when their CFO is marked (C27). A busy marketeer may be marked only
when every other salaried card is marked and the salary still cannot be paid
(C30); the marketeer of an eternal campaign left the game with it and is never
in ``busy``. A player whose only move would be done is not asked (D46). At the
reveal fired cards return to the supply
(a fired busy marketeer's campaign stays), salaries go to the bank, and "First to
pay $20 or more in salaries" goes to whoever actually paid $20 or more (R41).
"""

from __future__ import annotations

import numpy as np

from fcm_env.data import EMPLOYEES, MILESTONES, PRICES, EmployeeType, Milestone
from fcm_env.engine import events
from fcm_env.engine.actions import Action, ActionKind, Decision, Pending
from fcm_env.engine.rules import bank, milestones
from fcm_env.engine.state import NUM_TYPES, GameState, Phase, PlayerState

CEO = int(EmployeeType.CEO)
SALARIED = np.array([spec.salary for spec in EMPLOYEES], dtype=bool)
MARKETEER = np.array([spec.is_marketeer for spec in EMPLOYEES], dtype=bool)
TRAIN_DISCOUNT = int(MILESTONES[Milestone.FIRST_TRAIN].effect_params["salary_discount_per_payday"])
PAY_20 = 20
#: 0/1 weights of the salaried types, without and with "First billboard placed" (dot products count
#: cards; int16 like the card vectors: a dot product of one dtype is the cheapest)
_PAID_WEIGHTS = SALARIED.astype(np.int16)
_PAID_WEIGHTS_NO_MARKETEERS = (SALARIED & ~MARKETEER).astype(np.int16)
_PASS = Action.pass_()
#: ``Action.fire(t)`` for every type (actions are immutable: built once)
_FIRE = tuple(Action.fire(t) for t in range(NUM_TYPES))


# ------------------------------------------------------------------ salary arithmetic


def paid_types(state: GameState, player: int) -> np.ndarray:
    """Bool per type: cards of this type cost a salary for ``player``.

    rules: First billboard placed — no salaries for marketeers.
    """
    return _paid_weights(state, player).astype(bool)


def _paid_weights(state: GameState, player: int) -> np.ndarray:
    """``paid_types`` as shared 0/1 int64 weights (read only), for counting with one dot product."""
    if milestones.has(state, player, Milestone.FIRST_BILLBOARD):
        return _PAID_WEIGHTS_NO_MARKETEERS
    return _PAID_WEIGHTS


def salary_due(state: GameState, player: int, fired: np.ndarray | None = None) -> int:
    """$5 per salaried card at work, on the beach or busy (less ``fired``), after discounts, >= 0.

    Discounts (all mandatory): $5 per unused recruiting action (R40), $15 with First
    to train someone.
    """
    p = state.players[player]
    fired = p.fired if fired is None else fired
    held = p.work + p.beach + p.busy - fired
    return _after_discounts(state, p, int(held.dot(_paid_weights(state, player))))


def _after_discounts(state: GameState, p: PlayerState, salaried_cards: int) -> int:
    gross = PRICES.salary * salaried_cards
    discount = PRICES.salary * p.recruit_discounts
    if milestones.has(state, p.player, Milestone.FIRST_TRAIN):
        discount += TRAIN_DISCOUNT
    return max(0, gross - discount)


def _must_fire_cfo(state: GameState, p: PlayerState) -> bool:
    """C27: holding "First to have $100" and a CFO not yet marked."""
    if not milestones.has(state, p.player, Milestone.FIRST_HAVE_100):
        return False
    cfo = EmployeeType.CFO
    return int(p.fired[cfo]) < int(p.work[cfo] + p.beach[cfo])


def _fire_options(state: GameState, p: PlayerState) -> tuple[bool, np.ndarray]:
    """Whether ``p`` may stop marking cards now, and the types of which one more card may be marked (bool)."""
    weights = _paid_weights(state, p.player)
    free = p.work + p.beach
    due = _after_discounts(state, p, int((free + p.busy - p.fired).dot(weights)))  # salary_due
    can_pass = due <= p.cash and not _must_fire_cfo(state, p)
    limits = free
    if due > p.cash and int((free - np.minimum(p.fired, free)).dot(weights)) == 0:
        # C30: every salaried card outside campaigns is marked and the salary still cannot be
        # paid: the busy marketeers may be marked too
        limits = free + p.busy * weights
    limits[CEO] = 0  # rules: Payday — the CEO is never fired
    return can_pass, p.fired < limits


def legal_fire(state: GameState, pending: Pending) -> list[Action]:
    p = state.players[pending.player]
    can_pass, markable = _fire_options(state, p)
    actions = [_PASS] if can_pass else []
    actions.extend(_FIRE[t] for t in markable.nonzero()[0].tolist())
    return actions


def _only_done(state: GameState, player: int) -> bool:
    """``legal_fire`` would offer only "done" (asked for every chain: cheaper than building the list)."""
    can_pass, markable = _fire_options(state, state.players[player])
    return can_pass and not np.count_nonzero(markable)


# ------------------------------------------------------------------ flow


def start(state: GameState) -> None:
    """Open Payday: ask every chain still in the game this turn, in turn order (the introductory game skips it)."""
    state.phase = Phase.PAYDAY
    state.pending = []
    if state.variant != "standard":
        return
    state.firing_revealed = False
    state.queue = list(state.turn_order)  # D41: chains bankrupt this turn too (out at its end, C21)
    _ask_next(state)


def _ask_next(state: GameState) -> None:
    while state.queue and _only_done(state, state.queue[0]):
        state.queue.pop(0)
    if state.queue:
        state.pending = [Pending(Decision.FIRE, state.queue[0])]
    else:
        reveal(state)


def apply_fire(state: GameState, pending: Pending, action: Action) -> None:
    if action.kind == ActionKind.FIRE and mark_fired(state, pending.player, action.args[0]):
        return
    state.queue.pop(0)
    _ask_next(state)


def can_choose(state: GameState, player: int) -> bool:
    """Whether ``player`` is asked at all this Payday (firing is more than "done")."""
    return not _only_done(state, player)


def mark_fired(state: GameState, player: int, etype: int) -> bool:
    """Mark one card to fire; True while the player has more to choose than "done".

    ``apply_fire`` and the redraw of a secret firing choice (``fcm_env.engine.hidden``) share it.
    """
    state.players[player].fired[etype] += 1
    return not _only_done(state, player)


def reveal(state: GameState) -> None:
    """All choices are opened: fired cards leave, salaries are paid (R39: at the same time)."""
    state.pending = []
    state.firing_revealed = True
    for player in state.turn_order:
        p = state.players[player]
        due = salary_due(state, player)
        if np.count_nonzero(p.fired):  # (dismissing nothing changes nothing)
            if events.enabled(state):
                events.emit(state, "fired", player=int(player), cards=events.cards(p.fired))
            _dismiss(state, p)
        paid = bank.collect(state, player, due)
        if due:
            events.emit(state, "salaries", player=int(player), due=int(due), paid=int(paid), cash=-int(paid))
        if paid >= PAY_20:
            milestones.claim(state, player, Milestone.FIRST_PAY_20_SALARIES)
    for p in state.players:
        p.fired[:] = 0


def _dismiss(state: GameState, p: PlayerState) -> None:
    """Marked cards go back to the supply: beach first, then work, then busy (their campaigns stay)."""
    for etype in p.fired.nonzero()[0].tolist():  # the few marked types, on Python ints
        left = int(p.fired[etype])
        for pool in (p.beach, p.work, p.busy):
            take = min(left, int(pool[etype]))
            pool[etype] -= take
            state.supply[etype] += take
            left -= take


ROUTES = {
    Decision.FIRE: (legal_fire, apply_fire),
}

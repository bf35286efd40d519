"""Phase 1 Restructuring and phase 2 Order of Business.

rules: Phase 1 (cards chosen secretly, revealed together; CEO always at work; the
CEO's slots hold staff or managers, managers' slots hold staff only; R09, R10);
Phase 2 (most open slots chooses first, +2 with First airplane campaign, ties by
the previous turn order; R11: any free spot).

A structure is feasible when managers fit in the CEO's slots and every card fits
somewhere: with C CEO slots, M managers with S manager slots in all and N other
cards, ``M <= C`` and ``M + N <= C + S``. The engine only offers cards that keep
the structure feasible, so the "too many cards: everything to the beach" penalty
can never arise (D10). Any feasible set can be reached one card at a time by
playing managers first.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from fcm_env.data import EMPLOYEES, SETUP, EmployeeType, Milestone
from fcm_env.engine import events
from fcm_env.engine.actions import Action, Decision, Pending
from fcm_env.engine.rules import milestones
from fcm_env.engine.state import NUM_TYPES, GameState, Phase

CEO = int(EmployeeType.CEO)
IS_MANAGER = np.array([spec.is_manager for spec in EMPLOYEES], dtype=bool)
MANAGER_SLOTS = np.array([spec.manager_slots if spec.is_manager else 0 for spec in EMPLOYEES], dtype=np.int16)
IS_MANAGER[CEO] = False
MANAGER_SLOTS[CEO] = 0
#: the same tables as Python values: the legal-move loop reads them one type at a time
_IS_MANAGER = tuple(bool(m) for m in IS_MANAGER)
_MANAGER_SLOTS = tuple(int(s) for s in MANAGER_SLOTS)
_PASS = Action.pass_()
#: ``Action.put_to_work(t)`` for every type (actions are immutable: built once)
_PUT_TO_WORK = tuple(Action.put_to_work(t) for t in range(NUM_TYPES))
_TURN_SPOT = tuple(Action.turn_spot(s) for s in range(max(SETUP)))


def is_feasible(work: np.ndarray, ceo_slots: int) -> bool:
    """Whether the cards at ``work`` (CEO excluded from the count) fit one company structure."""
    return _fits(*_structure(work), ceo_slots)


def _structure(work: np.ndarray) -> tuple[int, int, int]:
    """(managers, other cards without the CEO, manager slots) of the cards at ``work``."""
    counts = work.tolist()
    managers = others = slots = 0
    for etype in work.nonzero()[0].tolist():  # the few types at work, on Python ints
        count = counts[etype]
        if _IS_MANAGER[etype]:
            managers += count
            slots += count * _MANAGER_SLOTS[etype]
        elif etype != CEO:
            others += count
    return managers, others, slots


def _fits(managers: int, others: int, manager_slots: int, ceo_slots: int) -> bool:
    return managers <= ceo_slots and managers + others <= ceo_slots + manager_slots


def open_slots(work: np.ndarray, ceo_slots: int) -> int:
    """Slots on the CEO and managers not used by a card (busy marketeers use none, R10)."""
    managers, others, slots = _structure(work)
    return ceo_slots + slots - (managers + others)


# ------------------------------------------------------------------ phase 1


def start_restructuring(state: GameState) -> None:
    state.phase = Phase.RESTRUCTURING
    if state.round == 1:  # rules: Phase 1 — in the first turn the CEO is the only card played
        reveal(state)
        return
    state.structure_revealed = False
    state.queue = list(state.turn_order)
    _ask_restructure(state)


def _ask_restructure(state: GameState) -> None:
    """Ask the next player in the queue; a player who can put no card to work is not asked
    (nothing is revealed: hands are public before phase 1, D53); reveal when all are done."""
    while state.queue:
        player = state.queue[0]
        if _can_put_to_work(state, player):
            state.pending = [Pending(Decision.RESTRUCTURE, player)]
            return
        state.queue.pop(0)
    reveal(state)


def legal_restructure(state: GameState, pending: Pending) -> list[Action]:
    return [_PASS] + [_PUT_TO_WORK[etype] for etype in _fitting_types(state, pending.player)]


def _can_put_to_work(state: GameState, player: int) -> bool:
    """``legal_restructure`` offers more than "done" (stops at the first card that fits)."""
    return next(_fitting_types(state, player), None) is not None


def _fitting_types(state: GameState, player: int) -> Iterator[int]:
    """Types in hand of which one more card at work keeps the structure feasible, ascending (lazily)."""
    p = state.players[player]
    managers, others, slots = _structure(p.work)
    ceo_slots = state.ceo_slots
    for etype in (p.hand > 0).nonzero()[0].tolist():
        # the structure with one more card of this type at work (is_feasible of that trial)
        if _IS_MANAGER[etype]:
            fits = _fits(managers + 1, others, slots + _MANAGER_SLOTS[etype], ceo_slots)
        else:
            fits = _fits(managers, others + (etype != CEO), slots, ceo_slots)
        if fits:
            yield etype


def apply_restructure(state: GameState, pending: Pending, action: Action) -> None:
    if action.args and put_to_work(state, pending.player, action.args[0]):
        return
    state.queue.pop(0)  # done (or nothing more fits)
    _ask_restructure(state)


def can_choose(state: GameState, player: int) -> bool:
    """Whether ``player`` is asked at all this phase (a card of the hand fits; public: D53)."""
    return _can_put_to_work(state, player)


def put_to_work(state: GameState, player: int, etype: int) -> bool:
    """One card from hand to work; True while another card still fits (the choice goes on).

    ``apply_restructure`` and the redraw of a face-down choice (``fcm_env.engine.hidden``) share it.
    """
    p = state.players[player]
    p.hand[etype] -= 1
    p.work[etype] += 1
    return _can_put_to_work(state, player)


def reveal(state: GameState) -> None:
    """All structures are opened: the rest of the hand goes to the beach; play milestones."""
    state.structure_revealed = True
    state.pending = []
    for player in state.turn_order if events.enabled(state) else ():
        events.emit(state, "structure_revealed", player=int(player), work=events.cards(state.players[player].work))
    for p in state.players:
        p.beach += p.hand
        p.hand[:] = 0
        work = p.work.tolist()
        # rules: milestones First waitress / errand boy / cart operator played; First to lower prices
        if work[EmployeeType.WAITRESS]:
            milestones.claim(state, p.player, Milestone.FIRST_WAITRESS)
        if work[EmployeeType.ERRAND_BOY]:
            milestones.claim(state, p.player, Milestone.FIRST_ERRAND_BOY)
        if work[EmployeeType.CART_OPERATOR]:
            milestones.claim(state, p.player, Milestone.FIRST_CART_OPERATOR)
        if work[EmployeeType.PRICING_MANAGER] or work[EmployeeType.DISCOUNT_MANAGER]:
            milestones.claim(state, p.player, Milestone.FIRST_LOWER_PRICES)
    start_order_of_business(state)


# ------------------------------------------------------------------ phase 2


def order_of_choosing(state: GameState) -> list[int]:
    """Players by open slots (descending; +2 for First airplane campaign), ties by old seat."""

    def key(player: int) -> tuple[int, int]:
        p = state.players[player]
        slots = open_slots(p.work, state.ceo_slots)
        if Milestone.FIRST_AIRPLANE in p.milestones:
            slots += 2
        return (-slots, state.seat_of(player))

    return sorted(state.turn_order, key=key)


def start_order_of_business(state: GameState) -> None:
    state.phase = Phase.ORDER_OF_BUSINESS
    state.queue = order_of_choosing(state)
    state.spots = [-1] * state.num_players
    _ask_turn_spot(state)


def _ask_turn_spot(state: GameState) -> None:
    """The next chooser picks; the last one is not asked and takes the spot that is left."""
    if len(state.queue) == 1:
        (spot,) = [s for s in range(len(state.turn_order)) if s not in state.spots]
        state.spots[state.queue.pop(0)] = spot
    if state.queue:
        state.pending = [Pending(Decision.TURN_ORDER, state.queue[0])]
        return
    state.turn_order = sorted(state.turn_order, key=lambda p: state.spots[p])
    state.pending = []


def legal_turn_spot(state: GameState, pending: Pending) -> list[Action]:
    # one spot per player still in the game (bankrupt players left the turn order: C21)
    return [_TURN_SPOT[s] for s in range(len(state.turn_order)) if s not in state.spots]


def apply_turn_spot(state: GameState, pending: Pending, action: Action) -> None:
    state.spots[pending.player] = action.args[0]
    state.queue.pop(0)
    _ask_turn_spot(state)


ROUTES = {
    Decision.RESTRUCTURE: (legal_restructure, apply_restructure),
    Decision.TURN_ORDER: (legal_turn_spot, apply_turn_spot),
}

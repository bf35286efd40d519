"""Phase 7 Clean-up: the freezer, cards back to hand, restaurants open, next round.

rules: Phase 7; First to throw away drink/food; C21, C29. Steps:

1. Freezer (D43): a player who held "First to throw away" before this turn, has
   any stock and is not bankrupt is asked by ``Decision.FREEZER`` for one token to
   keep at a time (``keep(good)``) until 10 are kept, the whole stock is kept, or
   the player says done; the pending ``context`` carries the tokens kept so far.
2. Everybody else discards all food and drinks; a player who discarded at least one
   token claims "First to throw away", a chain bankrupt this turn too: it is in the
   game until the end of the turn (C21, D33, D43).
3. Cards at work (except the CEO) and on the beach go back to hand; "coming soon"
   restaurants open; milestones claimed this turn are gone for the others.
4. Bankrupt players are out (C21): they leave the turn order and keep their cards,
   cash, restaurants and campaigns. Then the next round starts, unless a
   ``max_rounds`` cap is reached (truncated end) or nobody is left (D45).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from fcm_env.data import PRICES, EmployeeType, Good, Milestone
from fcm_env.engine import events
from fcm_env.engine.actions import Action, ActionKind, Decision, Pending
from fcm_env.engine.phases import restructuring
from fcm_env.engine.rules import milestones
from fcm_env.engine.state import NUM_GOODS, GameState, Phase, TurnScratch

CEO = int(EmployeeType.CEO)


def has_freezer(state: GameState, player: int) -> bool:
    """Held since an earlier turn: a freezer won this turn stores nothing yet."""
    return milestones.has(state, player, Milestone.FIRST_THROW_AWAY) \
        and Milestone.FIRST_THROW_AWAY not in state.milestones_this_turn


def start(state: GameState) -> None:
    state.phase = Phase.CLEANUP
    state.pending = []
    state.queue = [
        p for p in state.turn_order
        if not state.players[p].bankrupt and has_freezer(state, p) and state.players[p].stock.any()
    ]
    _ask_next(state)


def _ask_next(state: GameState) -> None:
    if state.queue:
        state.pending = [Pending(Decision.FREEZER, state.queue[0], (0,) * NUM_GOODS)]
    else:
        state.pending = []


def legal_keep(state: GameState, pending: Pending) -> list[Action]:
    stock = state.players[pending.player].stock
    kept = pending.context
    actions = [Action.pass_()]
    if sum(kept) < PRICES.freezer_capacity:
        actions.extend(Action.keep(g) for g in Good if kept[g] < int(stock[g]))
    return actions


def apply_keep(state: GameState, pending: Pending, action: Action) -> None:
    kept = list(pending.context)
    if action.kind == ActionKind.KEEP:
        kept[action.args[0]] += 1
        stock = state.players[pending.player].stock
        if sum(kept) < PRICES.freezer_capacity and kept != stock.tolist():  # something left to choose
            state.pending = [Pending(Decision.FREEZER, pending.player, tuple(kept))]
            return
    p = state.players[pending.player]
    thrown = p.stock - np.asarray(kept, dtype=np.int16)
    events.emit(state, "freezer", player=int(p.player), kept=events.stock(kept), thrown_away=events.stock(thrown))
    p.stock[:] = np.asarray(kept, dtype=np.int16)  # the rest is thrown away
    state.queue.pop(0)
    _ask_next(state)


def finish(state: GameState) -> None:
    """Everything after the freezer choices; then the next round (or the end)."""
    for player in state.turn_order:
        p = state.players[player]
        if has_freezer(state, player) and not p.bankrupt:
            continue  # chose in the freezer decision (or had nothing); a bankrupt chain keeps nothing (D43)
        if not np.count_nonzero(p.stock):
            continue  # nothing to throw away
        if events.enabled(state):
            events.emit(state, "thrown_away", player=int(player), goods=events.stock(p.stock))
        milestones.claim(state, player, Milestone.FIRST_THROW_AWAY)  # bankrupt this turn too (C21, D43)
        p.stock[:] = 0
    for p in state.players:
        ceo = p.work[CEO]
        p.hand += p.work + p.beach
        p.hand[CEO] -= ceo
        p.work[:] = 0
        p.work[CEO] = ceo
        p.beach[:] = 0
        opened = sum(r.coming_soon for r in p.restaurants)
        if opened:
            events.emit(state, "restaurants_opened", player=int(p.player), count=int(opened))
        if opened:
            p.restaurants = [replace(r, coming_soon=False) if r.coming_soon else r for r in p.restaurants]
        p.recruit_discounts = 0
        p.income = 0
        p.fired[:] = 0
    milestones.close_turn(state)
    state.turn = TurnScratch()
    state.queue = []
    active = [p for p in state.turn_order if not state.players[p].bankrupt]
    if not active:  # D45: nobody is left to play; the turn order stays for the tie-break
        state.phase = Phase.GAME_OVER
        return
    state.turn_order = active
    if state.max_rounds is not None and state.round >= state.max_rounds:  # a cap (not a rule): truncated end
        state.truncated = True
        state.phase = Phase.GAME_OVER
        return
    state.round += 1
    restructuring.start_restructuring(state)


ROUTES = {
    Decision.FREEZER: (legal_keep, apply_keep),
}

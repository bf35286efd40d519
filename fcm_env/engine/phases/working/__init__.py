"""Phase 3 Working 9-5: one player's turn, sub-step by sub-step.

rules: Phase 3 — each player does all their actions before the next (R12), in the
rulebook order. Each sub-step is a module of this package:

    recruit, train                       recruit_train
    initiate marketing campaigns         marketing_launch
    get food & drinks                    production
    place houses and gardens;
    place or move restaurants            expansion

A sub-step's decisions leave ``state.pending`` empty when the sub-step is over; this
module then asks the next sub-step with something to do (``continue_turn``), or hands
the turn to the next player. The sub-steps never import this module: the order of the
turn is written here once, and the import graph has no circle.
"""

from __future__ import annotations

from fcm_env.engine.actions import Action, Decision, Pending
from fcm_env.engine.phases.api import Apply, Legal
from fcm_env.engine.phases.working import expansion, marketing_launch, production, recruit_train
from fcm_env.engine.phases.working.recruit_train import RECRUITS, TRAINER_STEPS
from fcm_env.engine.state import GameState, Phase, TurnScratch


def start(state: GameState) -> None:
    state.phase = Phase.WORKING
    state.queue = list(state.turn_order)
    _start_player(state)


def _start_player(state: GameState) -> None:
    if not state.queue:
        state.pending = []
        return
    player = state.players[state.queue[0]]
    recruits = int(player.work.dot(RECRUITS))
    work = player.work.tolist()
    trainers = [(t, steps) for t, steps in TRAINER_STEPS for _ in range(work[t])]
    state.turn = TurnScratch(recruits_left=recruits, trainers=trainers)
    state.pending = [Pending(Decision.RECRUIT, player.player)]


TRAINING_DONE = -1
#: the sub-steps after training, in rulebook order; each ``begin(state, player)`` asks its
#: first decision and returns True, or returns False when the player has nothing to do there
LATER_STEPS = (
    marketing_launch.begin,  # STEP 0: initiate marketing campaigns
    production.begin,  # STEP 1: get food & drinks
    expansion.begin_houses,  # STEP 2: place new houses and gardens
    expansion.begin_restaurants,  # STEP 3: place or move restaurants
)


def continue_turn(state: GameState, player: int, done: int) -> None:
    """Sub-step ``done`` of ``player`` is over: ask the next sub-step with something to do,
    or hand the turn to the next player (the last player leaves ``pending`` empty)."""
    for begin in LATER_STEPS[done + 1:]:
        if begin(state, player):
            return
    state.queue.pop(0)
    _start_player(state)


def _then_continue(apply: Apply, step: int) -> Apply:
    """``apply`` of a sub-step's decision, followed by the next sub-step once that one is over."""

    def apply_and_continue(state: GameState, pending: Pending, action: Action) -> None:
        apply(state, pending, action)
        if not state.pending:
            continue_turn(state, pending.player, step)

    return apply_and_continue


#: which sub-step each decision of the turn belongs to (its position in ``LATER_STEPS``)
STEP_OF: dict[Decision, int] = {
    Decision.RECRUIT: TRAINING_DONE,
    Decision.TRAIN: TRAINING_DONE,
    **{decision: marketing_launch.STEP for decision in marketing_launch.ROUTES},
    **{decision: production.STEP for decision in production.ROUTES},
    Decision.NEW_BUSINESS: expansion.HOUSES_STEP,
    Decision.HOUSE_PLACE: expansion.HOUSES_STEP,
    Decision.RESTAURANT_MANAGER: expansion.RESTAURANTS_STEP,
    Decision.RESTAURANT_PLACE: expansion.RESTAURANTS_STEP,
}
#: every decision of the turn: the sub-step's own ``legal``, and its ``apply`` chained to the rest of the turn
ROUTES: dict[Decision, tuple[Legal, Apply]] = {
    decision: (legal, _then_continue(apply, STEP_OF[decision]))
    for module in (recruit_train, marketing_launch, production, expansion)
    for decision, (legal, apply) in module.ROUTES.items()
}

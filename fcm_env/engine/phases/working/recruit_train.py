"""Phase 3 Working 9-5, the first two sub-steps: recruit and train.

Recruit: one hire per recruiting action (CEO 1, recruiting girl 1, recruiting
manager 2, HR director 4), entry-level cards only. A card whose pile is empty may
be hired only if it is trained at once (R15): it becomes a *phantom* that the
training step must train; the engine offers such a hire, and any training move,
only while every phantom can still be trained.

A phantom may not become a card that training returned to the stock this turn
(official FAQ: not "Train your Junior VP into a VP, then ... a Phantom Trainee ...
into the returned Junior VP"): its target must come from the stock less
``turn.returned``.

Train: a move trains one card one or more steps along the career tree, using one
trainer card (trainer 1 step, coach up to 2, guru up to 3; a card trained this turn
cannot be trained again), or, with "First to pay $20 or more in salaries", any
mix of training actions on one card (the move then names ``POOLED``). Only the
final card must be available; intermediate cards need not be (rules: Train). The
choice of trainer type is part of the action because it changes what the rest of
the turn can do (a coach and a guru leave {2,2} or {1,3} steps); among trainers of
one type the engine uses the one with the fewest actions left that suffices, which
never loses an option.

Both decisions leave ``state.pending`` empty when the player's training is over; the
Working turn (``fcm_env.engine.phases.working``) then asks the later sub-steps.
"""

from __future__ import annotations

import numpy as np

from fcm_env.data import EMPLOYEES, EmployeeType, Milestone
from fcm_env.engine.actions import Action, ActionKind, Decision, IllegalActionError, Pending
from fcm_env.engine.rules import milestones
from fcm_env.engine.state import NUM_TYPES, GameState, PlayerState

POOLED = int(EmployeeType.CEO)  # trainer field of a pooled training move ("First to pay $20")
ENTRY_LEVEL = tuple(spec.type for spec in EMPLOYEES if spec.entry_level)
TRAINER_TYPES = tuple(spec.type for spec in EMPLOYEES if spec.train)
#: recruiting actions per card at work: all of them, and those whose unused actions give a discount (R40)
#: (int16 like the card vectors: a dot product of one dtype is the cheapest)
RECRUITS = np.array([spec.recruit for spec in EMPLOYEES], dtype=np.int16)
DISCOUNT_RECRUITS = np.array([spec.recruit if spec.recruit_unused_discount else 0 for spec in EMPLOYEES],
                             dtype=np.int16)
_PASS = Action.pass_()
#: ``Action.recruit(t)`` of every entry-level type (actions are immutable: built once)
_RECRUIT = {int(t): Action.recruit(t) for t in ENTRY_LEVEL}
#: (type, training steps) of every trainer type
TRAINER_STEPS = tuple((int(t), EMPLOYEES[t].train) for t in TRAINER_TYPES)


def _descendants() -> dict[int, dict[int, int]]:
    out: dict[int, dict[int, int]] = {}
    for spec in EMPLOYEES:
        found: dict[int, int] = {}
        frontier = [(int(t), 1) for t in spec.trains_to]
        while frontier:
            t, k = frontier.pop()
            found[t] = k
            frontier.extend((int(u), k + 1) for u in EMPLOYEES[t].trains_to)
        out[int(spec.type)] = found
    return out


#: source type -> {target type: training steps}
TRAIN_STEPS: dict[int, dict[int, int]] = _descendants()


# ------------------------------------------------------------------ recruit


def legal_recruit(state: GameState, pending: Pending) -> list[Action]:
    actions = [_PASS]
    if state.turn.recruits_left <= 0:
        return actions
    supply = state.supply.tolist()
    for etype, recruit in _RECRUIT.items():
        if supply[etype] > 0 or _phantom_hire_ok(state, pending.player, etype):
            actions.append(recruit)
    return actions


def _phantom_hire_ok(state: GameState, player: int, etype: int) -> bool:
    phantoms = state.turn.phantoms.copy()
    phantoms[etype] += 1
    return _phantoms_trainable(state, state.players[player], phantoms, state.turn.trainers, state.supply)


def apply_recruit(state: GameState, pending: Pending, action: Action) -> None:
    player = state.players[pending.player]
    turn = state.turn
    if action.kind == ActionKind.PASS:
        _start_training(state, player)
        return
    etype = action.args[0]
    if state.supply[etype] > 0:
        state.supply[etype] -= 1
        player.beach[etype] += 1
    else:
        turn.phantoms[etype] += 1  # R15: never taken from the pile; must be trained this turn
    turn.recruits_left -= 1
    turn.hires += 1
    if turn.hires == 3 and milestones.claim(state, player.player, Milestone.FIRST_HIRE_3):
        # rules: First to hire three people in one turn; R44 — onto the beach before training
        gained = min(2, int(state.supply[EmployeeType.MANAGEMENT_TRAINEE]))
        state.supply[EmployeeType.MANAGEMENT_TRAINEE] -= gained
        player.beach[EmployeeType.MANAGEMENT_TRAINEE] += gained
    if turn.recruits_left == 0:
        _start_training(state, player)


def _start_training(state: GameState, player: PlayerState) -> None:
    _close_recruiting(state, player)
    if _train_moves(state, player) or np.count_nonzero(state.turn.phantoms):
        state.pending = [Pending(Decision.TRAIN, player.player)]
    else:
        _finish_player(state)


def _finish_player(state: GameState) -> None:
    """Training is over: the turn goes on with the later sub-steps (``working.continue_turn``, R12)."""
    state.pending = []


def _close_recruiting(state: GameState, player: PlayerState) -> None:
    """R40: unused recruiting-manager / HR-director actions give a $5 salary discount each."""
    discount_actions = int(player.work.dot(DISCOUNT_RECRUITS))
    free_actions = int(player.work.dot(RECRUITS)) - discount_actions
    excess = max(0, state.turn.hires - free_actions)
    player.recruit_discounts = max(0, discount_actions - excess)


# ------------------------------------------------------------------ train


def _pooled(state: GameState, player: int) -> bool:
    return milestones.has(state, player, Milestone.FIRST_PAY_20_SALARIES)


def _target_ok(state: GameState, player: PlayerState, target: int, supply: np.ndarray | list[int],
               owned: np.ndarray | list[int]) -> bool:
    if supply[target] <= 0:
        return False
    spec = EMPLOYEES[target]
    if spec.unique and owned[target] > 0:  # rules: Train — one copy of each 1x card
        return False
    # C27: no CFO after First to have $100
    return not (target == EmployeeType.CFO and Milestone.FIRST_HAVE_100 in player.milestones)


def _pick_trainer(trainers: list[tuple[int, int]], trainer_type: int, steps: int, pooled: bool) -> int | None:
    """Index of the trainer card to use (best fit within the type), or None."""
    if pooled:
        return -1 if sum(left for _, left in trainers) >= steps else None
    best = None
    for i, (t, left) in enumerate(trainers):
        if t == trainer_type and left >= steps and (best is None or left < trainers[best][1]):
            best = i
    return best


def _consume(trainers: list[tuple[int, int]], index: int, steps: int) -> list[tuple[int, int]]:
    out = list(trainers)
    if index >= 0:
        t, left = out[index]
        out[index] = (t, left - steps)
        return out
    for i, (t, left) in enumerate(out):  # pooled: any actions
        use = min(left, steps)
        out[i] = (t, left - use)
        steps -= use
    return out


def _trainable(state: GameState, player: PlayerState, pooled: bool) -> np.ndarray:
    """Cards of each type that a training move may start from: phantoms, and beach cards not yet trained
    this turn (any beach card when pooled)."""
    real = player.beach if pooled else player.beach - state.turn.locked
    return state.turn.phantoms + real


def _train_moves(state: GameState, player: PlayerState) -> list[Action]:
    pooled = _pooled(state, player.player)
    trainers = state.turn.trainers
    if not any(left > 0 for _, left in trainers):
        return []  # no training action left (every move takes at least one)
    supply = state.supply.tolist()  # plain ints: cheaper to index in the loops below
    owned = state.owned_cards(player.player).tolist()  # eternal marketeers count for 1x
    moves = []
    trainer_kinds = (POOLED,) if pooled else tuple(sorted({t for t, left in trainers if left > 0}))
    phantom_supply = (state.supply - state.turn.returned).tolist()  # FAQ: not into a returned card
    for source in np.flatnonzero(_trainable(state, player, pooled) > 0).tolist():
        # a move from a type with a phantom trains the phantom (``_do_train``)
        stock = phantom_supply if state.turn.phantoms[source] > 0 else supply
        for target, steps in TRAIN_STEPS[source].items():
            if not _target_ok(state, player, target, stock, owned):
                continue
            for kind in trainer_kinds:
                if _pick_trainer(trainers, kind, steps, pooled) is not None:
                    moves.append(Action.train(kind, source, target))
    return moves


def legal_train(state: GameState, pending: Pending) -> list[Action]:
    player = state.players[pending.player]
    actions = [] if state.turn.phantoms.any() else [Action.pass_()]
    for move in _train_moves(state, player):
        if not state.turn.phantoms.any():
            actions.append(move)
            continue
        trial = state.clone()
        _do_train(trial, trial.players[player.player], move)
        if _phantoms_trainable(trial, trial.players[player.player], trial.turn.phantoms, trial.turn.trainers,
                               trial.supply):
            actions.append(move)
    return sorted(actions)


def apply_train(state: GameState, pending: Pending, action: Action) -> None:
    player = state.players[pending.player]
    if action.kind == ActionKind.PASS:
        _finish_player(state)
        return
    _do_train(state, player, action)
    if not _train_moves(state, player) and not state.turn.phantoms.any():
        _finish_player(state)


def _do_train(state: GameState, player: PlayerState, action: Action) -> None:
    trainer_type, source, target = action.args
    steps = TRAIN_STEPS[source].get(target)
    pooled = _pooled(state, player.player)
    if steps is None:
        raise IllegalActionError(f"{EmployeeType(target).key} is not a training target of {EmployeeType(source).key}")
    index = _pick_trainer(state.turn.trainers, trainer_type, steps, pooled)
    if index is None:
        raise IllegalActionError(f"no trainer can train {steps} step(s) with {action}")
    state.turn.trainers = _consume(state.turn.trainers, index, steps)
    if state.turn.phantoms[source] > 0:
        state.turn.phantoms[source] -= 1  # the phantom never existed: nothing returns to the pile
    else:
        player.beach[source] -= 1
        state.supply[source] += 1  # rules: Train — the trained card returns to the stock
        state.turn.returned[source] += 1
    state.supply[target] -= 1
    player.beach[target] += 1
    if not pooled:
        state.turn.locked[target] += 1  # may not be trained again this turn
    milestones.claim(state, player.player, Milestone.FIRST_TRAIN)


def _phantoms_trainable(
    state: GameState, player: PlayerState, phantoms: np.ndarray, trainers: list[tuple[int, int]], supply: np.ndarray
) -> bool:
    """Whether every phantom hire can still get a training move (small exhaustive search)."""
    todo = [t for t in range(NUM_TYPES) for _ in range(int(phantoms[t]))]
    pooled = _pooled(state, player.player)
    owned = state.owned_cards(player.player)

    def search(i: int, trainers: list[tuple[int, int]], supply: np.ndarray, owned: np.ndarray) -> bool:
        if i == len(todo):
            return True
        source = todo[i]
        kinds = (POOLED,) if pooled else tuple(sorted({t for t, left in trainers if left > 0}))
        for target, steps in TRAIN_STEPS[source].items():
            if not _target_ok(state, player, target, supply, owned):
                continue
            for kind in kinds:
                index = _pick_trainer(trainers, kind, steps, pooled)
                if index is None:
                    continue
                s2 = supply.copy()
                s2[target] -= 1
                o2 = owned.copy()
                o2[target] += 1
                if search(i + 1, _consume(trainers, index, steps), s2, o2):
                    return True
        return False

    return search(0, list(trainers), supply - state.turn.returned, owned.copy())  # FAQ: not returned cards


ROUTES = {
    Decision.RECRUIT: (legal_recruit, apply_recruit),
    Decision.TRAIN: (legal_train, apply_train),
}

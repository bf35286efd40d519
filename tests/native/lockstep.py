"""The lockstep harness: positions of real games played by the Python engine, and the checks that the native
core answers each the same way.

* ``positions()``: every decision point of a few games per player count and variant (random legal play that
  prefers acting over passing, a player that trains towards managers, drivers and developers, and in half
  the games a heuristic player too, so campaigns, houses, restaurants, hauls and bank breaks all occur), as Python games; cached for the session.
* ``check_decision(game)``: the native game loaded from the position's document lists the same legal
  actions, and applying a sample of them (the decision's own apply and the working turn's chaining, no
  engine step) leaves the same state document as the Python engine's apply.
* ``check_step(document)``: one engine step (``flow.advance``'s loop body: Dinnertime, Payday's start,
  Marketing, Clean-up, the next round) from a position with nothing pending gives the same document.
* ``play_lockstep(...)``: a whole game in both engines with the same actions, compared at every step.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator

from fcm_env import native
from fcm_env.data import EmployeeType
from fcm_env.engine.actions import Action, ActionKind, Decision
from fcm_env.engine.game import ROUTES, Game
from fcm_env.engine.invariants.random_sim import pick
from fcm_env.engine.persistence.serialize import state_from_dict
from fcm_env.engine.phases import flow
from fcm_env.engine.state import Phase

CONFIGS = [(n, variant) for n in (2, 3, 4, 5) for variant in ("standard", "introductory")]


def as_tuples(actions: list[Action]) -> list[tuple[int, tuple[int, ...]]]:
    return [(int(a.kind), tuple(int(x) for x in a.args)) for a in actions]


def native_of(game: Game) -> native.Game:
    return native.Game.from_checked_dict(game.to_dict())


#: cards random play rarely reaches that open the rarer decisions (houses, restaurants, hauls, campaigns)
_WANTED = {int(t) for t in (EmployeeType.LOCAL_MANAGER, EmployeeType.REGIONAL_MANAGER,
                            EmployeeType.NEW_BUSINESS_DEVELOPER, EmployeeType.TRUCK_DRIVER,
                            EmployeeType.ZEPPELIN_PILOT, EmployeeType.BRAND_MANAGER, EmployeeType.JUNIOR_VICE_PRESIDENT,
                            EmployeeType.MANAGEMENT_TRAINEE, EmployeeType.CART_OPERATOR)}


def _builder_pick(rng: random.Random, legal: list[Action]) -> Action:
    """Random play that trains towards the cards of ``_WANTED`` and puts them to work when it can."""
    wanted = [a for a in legal if (a.kind == ActionKind.TRAIN and a.args[2] in _WANTED)
              or (a.kind in (ActionKind.PUT_TO_WORK, ActionKind.RECRUIT) and a.args[0] in _WANTED)
              or a.kind in (ActionKind.SELECT_RESTAURANT, ActionKind.CHOOSE_HOUSE, ActionKind.HAUL)]
    return rng.choice(wanted) if wanted and rng.random() < 0.8 else pick(rng, legal)


def _play(num_players: int, variant: str, seed: int, max_rounds: int, heuristic: bool) -> Iterator[Game]:
    """Every decision point of one game, as an independent Python game each (clones)."""
    rng = random.Random(f"lockstep/{num_players}/{variant}/{seed}")
    game = Game.new(num_players, seed=seed, variant=variant, max_rounds=max_rounds)
    agent = None
    if heuristic:
        from fcm_agents.registry import make_agent

        agent = make_agent("heuristic", seed=seed)
    while not game.is_over:
        yield game.clone()
        legal = game.legal_actions()
        if agent is not None and game.current_player == 0:
            action = agent.act_on_game(game, 0)
        elif game.current_player == num_players - 1:
            action = _builder_pick(rng, legal)
        else:
            action = pick(rng, legal)
        game.apply(action)


@functools.cache
def positions(games_per_config: int = 3, max_rounds: int = 20) -> tuple[Game, ...]:
    out = []
    for n, variant in CONFIGS:
        for seed in range(games_per_config):
            out.extend(_play(n, variant, 1000 + seed, max_rounds, heuristic=seed % 2 == 1))
    return tuple(out)


def positions_of(decision: Decision, limit: int = 150) -> list[Game]:
    found = [g for g in positions() if g.pending is not None and g.pending.decision == decision]
    if len(found) > limit:
        found = random.Random(int(decision)).sample(found, limit)
    return found


def check_decision(game: Game, actions_per_position: int = 8) -> None:
    """The native core's legal actions and applies at this position are the Python engine's."""
    ours = native_of(game)
    legal = game.legal_actions()
    assert ours.legal_actions() == as_tuples(legal), f"legal actions differ at {game.pending}"
    rng = random.Random(len(legal))
    sample = legal if len(legal) <= actions_per_position else rng.sample(legal, actions_per_position)
    for action in sample:
        theirs = Game(state_from_dict(game.to_dict()))
        pending = theirs.pending
        _, apply = ROUTES[pending.decision]
        apply(theirs.state, pending, action)
        mine = native_of(game)
        mine.apply_no_advance(int(action.kind), list(action.args))
        assert mine.to_dict() == theirs.to_dict(), f"{action} for {pending} leaves another state"


def python_step(game: Game) -> None:
    """One of the Python engine's own steps (``flow.step``, the body of ``flow.advance``'s loop)."""
    flow.step(game.state)


@functools.cache
def step_positions(limit_per_phase: int = 60) -> dict[str, list[dict]]:
    """Positions with nothing pending (right after a decision ended a phase), by phase name."""
    by_phase: dict[str, list[dict]] = {}
    for game in positions():
        pending = game.pending
        legal = game.legal_actions()
        for action in legal[:1] + legal[-1:]:  # pass (or the first choice) and the last: both end steps
            g = Game(state_from_dict(game.to_dict()))
            _, apply = ROUTES[pending.decision]
            apply(g.state, g.pending, action)
            if g.state.pending or g.state.phase == Phase.GAME_OVER:
                continue
            found = by_phase.setdefault(g.state.phase.name, [])
            if len(found) < limit_per_phase:
                found.append(g.to_dict())
    return by_phase


def check_step(document: dict) -> None:
    theirs = Game(state_from_dict(document))
    python_step(theirs)
    ours = native.Game.from_checked_dict(document)
    assert ours.advance_one()
    assert ours.to_dict() == theirs.to_dict(), f"the engine step from {document['phase']} differs"


def play_lockstep(num_players: int, seed: int, variant: str = "standard", max_rounds: int | None = 15,
                  compare_every: int = 1) -> int:
    """A whole random game in both engines; returns the number of decisions."""
    rng = random.Random(f"play/{num_players}/{variant}/{seed}")
    theirs = Game.new(num_players, seed=seed, variant=variant, max_rounds=max_rounds)
    ours = native.Game.new(num_players, seed, variant, max_rounds)
    steps = 0
    while not theirs.is_over:
        legal = theirs.legal_actions()
        assert ours.legal_actions() == as_tuples(legal), f"step {steps}: legal actions differ"
        if steps % compare_every == 0:
            assert ours.to_dict() == theirs.to_dict(), f"step {steps}: states differ"
        action = pick(rng, legal)
        theirs.apply(action)
        ours.apply(int(action.kind), list(action.args))
        steps += 1
    assert ours.is_over and ours.to_dict() == theirs.to_dict()
    assert tuple(ours.winners) == theirs.winners
    return steps


__all__ = ["ActionKind", "check_decision", "check_step", "play_lockstep", "positions", "positions_of",
           "step_positions"]

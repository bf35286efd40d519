"""Random-simulation check of whole games (as OpenSpiel's RandomSimTest), reusable by tests and benchmarks.

``simulate(...)`` plays one seeded game with random legal actions (preferring to
act over passing, so that games get somewhere) and checks, after every action,
the invariants of :mod:`invariants`; every ``roundtrip_every`` actions that the
state survives ``to_dict -> from_dict -> to_dict`` unchanged and that the loaded
game continues identically, and that a clone shares nothing mutable with the
game, leaves it unchanged when played on, and continues bit for bit like it;
at the end that replaying the game's record reproduces the final state. ``tests/test_random_games.py`` runs a few games;
``benchmarks/random_games.py`` runs 200+ and prints the figures.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

from fcm_env.engine.actions import Action, ActionKind
from fcm_env.engine.game import Game
from fcm_env.engine.invariants.clones import shared_mutables
from fcm_env.engine.invariants.state_checks import InvariantError, check_state
from fcm_env.engine.persistence.records import GameRecord, new_recorded_game, replay
from fcm_env.engine.persistence.serialize import state_to_dict


@dataclass
class SimResult:
    num_players: int
    variant: str
    seed: int
    actions: int
    rounds: int
    ended_by: str  # "bank" or "max_rounds"
    winners: tuple[int, ...]
    roundtrips: int
    clones: int = 0


def pick(rng: random.Random, legal: list[Action], act_bias: float = 0.85) -> Action:
    """A random legal action; with probability ``act_bias`` one that is not "pass"."""
    acting = [a for a in legal if a.kind != ActionKind.PASS]
    return rng.choice(acting) if acting and rng.random() < act_bias else rng.choice(legal)


def _dump(game: Game) -> str:
    return json.dumps(state_to_dict(game.state), sort_keys=True)


def simulate(num_players: int, seed: int, variant: str = "standard", max_rounds: int = 20, *,
             roundtrip_every: int = 50, max_actions: int = 50_000) -> SimResult:
    """Play and check one game; raises ``InvariantError`` (or the engine's error) on a violation."""
    rng = random.Random(f"{num_players}/{variant}/{seed}")
    game = new_recorded_game(num_players, seed=seed, variant=variant, max_rounds=max_rounds)
    start = game.state.bank
    actions = roundtrips = 0
    while not game.is_over:
        legal = game.legal_actions()
        if not legal:
            raise InvariantError(f"no legal action while {game.pending} is pending")
        action = pick(rng, legal)
        check_roundtrip = roundtrip_every and rng.randrange(roundtrip_every) == 0
        if check_roundtrip:
            before = _dump(game)
            loaded = Game.from_dict(json.loads(json.dumps(game.to_dict())))
            if _dump(loaded) != before:
                raise InvariantError(f"to_dict -> from_dict changed the state at action {actions}")
            loaded.apply(action)
            twin = game.clone()
            shared = shared_mutables(game.state, twin.state)
            if shared:
                raise InvariantError(f"a clone shares {', '.join(shared)} with its game at action {actions}")
            twin.apply(action)
            if _dump(game) != before:
                raise InvariantError(f"playing a clone on changed its original at action {actions}")
        game.apply(action)
        actions += 1
        check_state(game.state, start)
        if check_roundtrip:
            if _dump(loaded) != _dump(game):
                raise InvariantError(f"a loaded game continued differently after action {actions}")
            if _dump(twin) != _dump(game) or twin.legal_actions() != game.legal_actions():
                raise InvariantError(f"a clone continued differently after action {actions}")
            roundtrips += 1
        if actions > max_actions:
            raise InvariantError(f"no end after {max_actions} actions")
    record = GameRecord.from_json(GameRecord.from_game(game).to_json())
    if _dump(replay(record)) != _dump(game):
        raise InvariantError("replaying the game's record does not reproduce its final state")
    state = game.state
    return SimResult(num_players, variant, seed, actions, int(state.round),
                     "max_rounds" if state.truncated else "bank", tuple(game.winners), roundtrips, clones=roundtrips)

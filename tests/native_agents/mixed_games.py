"""The mixed games the native players are checked on (a helper of this folder's tests, not a test file).

A mixed game is played on the Python engine: a seeded coin plays the agent's answer about half the time and
a random legal move otherwise, and at the start of round 2's Restructuring every player is handed
``gifts`` (a position edited by hand, then ``Game.advance()``), so that rules all-agent play never reaches
come up (new houses and gardens, drive-ins, moving restaurants, firing). At every decision the native
player is asked on a native copy of the position and its answer compared with the Python agent's (or with
a recorded answer).
"""

from __future__ import annotations

import random
from typing import Any

from fcm_env.engine.actions import Action
from fcm_env.engine.game import Game
from fcm_env.engine.invariants.random_sim import pick
from fcm_env.engine.state import Phase
from fcm_env.engines import on_engine


def spelled(action: Action) -> str:
    """tests/agents/heuristic_games.json's spelling of an action: kind number and arguments, dot-separated."""
    return ".".join(str(int(x)) for x in (action.kind, *action.args))


def hand_out(game: Game, gifts: tuple[int, ...]) -> None:
    """Every player takes one card of each of ``gifts`` from the supply (while there is one), then the engine
    moves on from the edited position."""
    state = game.state
    for p in state.players:
        for t in gifts:
            if state.supply[t] > 0:
                state.supply[t] -= 1
                p.hand[t] += 1
    game.advance()


def mixed_game(python: Any, native: Any, players: int, seed: int, rounds: int, gifts: tuple[int, ...],
               variant: str = "standard", expected: list[str] | None = None) -> int:
    """One mixed game (module docstring); returns the decisions compared. With ``expected`` (a record's
    answers, spelled) the native answers are compared with it and the Python agent is not asked."""
    game = Game.new(players, seed=seed, variant=variant, max_rounds=rounds)
    rng = random.Random(seed)
    gifted, index = False, 0
    while not game.is_over:
        if not gifted and game.state.round == 2 and game.state.phase == Phase.RESTRUCTURING:
            gifted = True
            hand_out(game, gifts)
        player = game.current_player
        got = native.act_on_game(on_engine(game, "native"), player)
        want = expected[index] if expected is not None else spelled(python.act_on_game(game, player))
        assert spelled(got) == want, (f"decision {index} (round {game.state.round}, {game.pending.decision.name}, "
                                      f"player {player}): native {spelled(got)}, wanted {want}")
        game.apply(got if rng.random() < 0.5 else pick(rng, game.legal_actions()))
        index += 1
    return index

"""Shared helpers of the env tests: seeded random legal play, a finished heuristic game, fingerprints."""

from __future__ import annotations

import json
from functools import cache

import numpy as np

from fcm_env.encoding import CODEC
from fcm_env.engine.game import Game


def random_legal(mask: np.ndarray, rng: np.random.Generator) -> int:
    ids = np.flatnonzero(mask)
    assert ids.size, "the agent to move has an empty mask"
    return int(ids[rng.integers(ids.size)])


def fingerprint(game: Game) -> str:
    """The whole game state as canonical JSON (equal iff nothing changed)."""
    return json.dumps(game.to_dict(), sort_keys=True)


@cache
def heuristic_game_ids(num_players: int, seed: int, variant: str) -> tuple[int, ...]:
    """Flat action ids of a whole game played by HeuristicAgents (seed i for player i).

    The heuristic sells food, so its games end by the rules (the bank breaks), unlike
    random play, which is always cut off by ``max_rounds``.
    """
    from fcm_agents import HeuristicAgent

    game = Game.new(num_players, seed, variant, 30)
    players = [HeuristicAgent(seed=p) for p in range(num_players)]
    ids = []
    while not game.is_over:
        p = game.current_player
        action = players[p].act_on_game(game, p)
        ids.append(CODEC.encode(action))
        game.apply(action)
    return tuple(ids)

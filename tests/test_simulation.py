"""Random-simulation harness (as OpenSpiel's RandomSimTest) over whole games.

Games mix the heuristic agent (which plays real economies, so that sales, bank
breaks, freezers and eternal campaigns happen) with random players (which wander
into every corner of the decision space). After every action: legal actions are
non-empty, sorted and unique; at sampled steps: rejected illegal actions leave
the state byte-identical, a clone is independent of its original, and a saved
and loaded state continues exactly like the original. At the end the rules' winner
holds first place as the tournaments count it (``fcm_agents.match``).
"""

from __future__ import annotations

import json
import random

import pytest

from fcm_agents import HeuristicAgent, RandomAgent
from fcm_agents.match import final_places, final_ranks
from fcm_env.engine.actions import Action, ActionKind, IllegalActionError
from fcm_env.engine.game import Game
from fcm_env.engine.persistence.serialize import state_to_dict


def snapshot(game: Game) -> str:
    return json.dumps(state_to_dict(game.state), sort_keys=True)


def random_illegal(rng: random.Random, legal: set[Action]) -> Action:
    while True:
        kind = rng.choice(list(ActionKind))
        action = Action(kind, tuple(rng.randrange(0, 33) for _ in range(rng.randrange(0, 5))))
        if action not in legal:
            return action


LINEUPS = {
    2: ("heuristic", "random"),
    3: ("random", "heuristic", "heuristic"),
    4: ("heuristic", "random", "heuristic", "random"),
    5: ("heuristic", "heuristic", "random", "heuristic", "random"),
}


@pytest.mark.parametrize("variant", ["standard", "introductory"])
@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_whole_games_keep_the_engine_contract(num_players, variant):
    seed = 7 * num_players + (variant == "introductory")
    rng = random.Random(seed)
    agents = [
        HeuristicAgent() if kind == "heuristic" else RandomAgent(seed=seed + i)
        for i, kind in enumerate(LINEUPS[num_players])
    ]
    game = Game.new(num_players, seed=seed, variant=variant, max_rounds=20)
    steps = 0
    while not game.is_over:
        legal = game.legal_actions()
        assert legal, f"no legal action for {game.pending}"
        assert legal == sorted(legal) and len(set(legal)) == len(legal)
        player = game.current_player
        action = agents[player].act_on_game(game, player)
        if steps % 7 == 0:
            before = snapshot(game)
            with pytest.raises(IllegalActionError):
                game.apply(random_illegal(rng, set(legal)))
            assert snapshot(game) == before, "a rejected action changed the state"
            trial = game.clone()
            trial.apply(rng.choice(legal))
            assert snapshot(game) == before, "a clone shares state with its original"
            loaded = Game.from_dict(json.loads(json.dumps(game.to_dict())))
            assert loaded.legal_actions() == legal
            loaded.apply(action)
        game.apply(action)
        if steps % 7 == 0:
            assert snapshot(loaded) == snapshot(game), "a loaded state continues differently"
        steps += 1
        assert steps < 20_000
    assert game.winners and game.pending is None
    # the tournament's counting agrees with the rules' winner: rank 1, and first place (alone or shared)
    (winner,) = game.winners
    assert final_ranks(game)[winner] == 1 and final_places(game)[winner] == 1
    cash = [p.cash for p in game.state.players]
    shared = [p for p, place in enumerate(final_places(game)) if place == 1]
    assert all(cash[p] == cash[winner] for p in shared)

"""The information-set MCTS agent (docs/search.md): legal play, parameters, determinism, no peeking."""

from __future__ import annotations

import random

import numpy as np
import pytest

from fcm_agents import make_agent
from fcm_agents.base import agent_move
from fcm_agents.heuristic import HeuristicAgent
from fcm_agents.search import SearchAgent, SearchConfig, parse_params, score
from fcm_env.engine.game import Game
from fcm_env.engine.invariants import check_state
from fcm_env.engine.invariants.random_sim import pick
from fcm_env.engine.state import Phase

FAST = "iterations=6,horizon=0"


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_the_search_plays_whole_games_legally(num_players):
    game = Game.new(num_players, seed=num_players, max_rounds=4)
    search = make_agent(f"search:{FAST}", seed=1)
    others = [HeuristicAgent(seed=p) for p in range(num_players)]
    start = game.state.bank  # the money at setup (the reserve cards join at the first break)
    while not game.is_over:
        player = game.current_player
        agent = search if player == 0 else others[player]
        action = agent.act_on_game(game, player)
        assert action in game.legal_actions()
        game.apply(action)
        check_state(game.state, start)
    assert search.stats.searched > 5 and search.stats.iterations == 6 * search.stats.searched


def test_parameters_are_parsed_and_bad_ones_named():
    assert parse_params("") == SearchConfig()
    assert parse_params("iterations=400") == SearchConfig(iterations=400, seconds=0.0)  # iterations alone: no clock
    assert parse_params("seconds=0.5, horizon=2,rollout=random").horizon == 2
    for spec, message in [
        ("search:depth=3", "unknown parameter 'depth'"),
        ("search:horizon=two", "horizon='two' is not an integer"),
        ("search:seconds=fast", "seconds='fast' is not a number"),
        ("search:rollout=oracle", "rollout='oracle' is not allowed: rollout is one of heuristic, random, policy"),
        ("search:prior=best", "prior='best' is not allowed: prior is one of auto, heuristic, uniform, policy"),
        ("search:others=x", "others='x' is not allowed: others is one of infer, heuristic, policy, same"),
        ("search:policy_rounds=-1", "policy_rounds=-1 is not allowed: policy_rounds is an integer >= 0"),
        ("search:iterations=-1", "iterations=-1 is not allowed"),
        ("search:iterations=0,seconds=0", "set iterations or seconds"),
        ("search:horizon", "horizon needs a value"),
        ("search:opening=0.5", "opening=0.5 is not allowed: opening is a number >= 1"),
        ("search:policy_model=net.pt", "policy_model='net.pt' is not allowed: policy_model is a path to an .onnx file"),
    ]:
        with pytest.raises(ValueError, match=message):
            make_agent(spec)


def test_a_policy_rolls_out_and_gives_the_priors():
    game = _middle(2, seed=8)
    player = game.current_player
    agent = SearchAgent(parse_params("iterations=12,horizon=1,rollout=policy,prior=policy"), seed=2)
    action = agent.act_on_game(game, player)
    assert action in game.legal_actions()
    root = agent.last_root
    assert root.visits == 12 and sum(e.visits for e in root.edges.values()) == 12
    priors = root.priors  # asked once for the root, one per observed action, summing to 1
    assert len(priors) == len(game.legal_actions()) and abs(sum(priors.values()) - 1) < 1e-6
    policy = make_agent("policy")
    from fcm_env.encoding import CODEC, Observer, legal_action_mask

    favourite = CODEC.decode(policy.act(Observer().observe_flat(game, player), legal_action_mask(game, player)), game)
    assert max(priors, key=priors.get) == game.observed_action(favourite, player)


def test_the_automatic_prior_is_the_policy_against_a_policy_where_one_is_shipped_for_the_table(monkeypatch):
    from fcm_agents import models
    from fcm_agents.search.policy_model import resolve_prior

    against_policy = ["same", "policy"]
    assert [resolve_prior("auto", n, against_policy) for n in (2, 3, 4, 5)] == ["policy"] * 4  # one per size
    monkeypatch.delitem(models.MODEL_FILES, 5)  # a size without a model of its own: the heuristic's priors
    assert resolve_prior("auto", 5, against_policy) == "heuristic"
    assert resolve_prior("auto", 2, ["same", "heuristic"]) == "heuristic"  # the others play like the heuristic
    assert resolve_prior("uniform", 2, against_policy) == "uniform"
    game = _middle(2, seed=8)
    agent = SearchAgent(parse_params("iterations=3,horizon=0,others=policy"), seed=1)
    agent.act_on_game(game, game.current_player)
    assert agent.last_root.priors is not None  # the policy gave the root's priors
    agent = SearchAgent(parse_params("iterations=3,horizon=0,others=heuristic"), seed=1)
    agent.act_on_game(game, game.current_player)
    assert agent.last_root.priors is None  # the heuristic's priors are not kept on the node


def _middle(num_players: int, seed: int, rounds: int = 3) -> Game:
    game = Game.new(num_players, seed=seed, max_rounds=10)
    heuristic = HeuristicAgent(seed=0)
    rng = random.Random(seed)
    while game.state.round < rounds:
        player = game.current_player
        game.apply(heuristic.act_on_game(game, player) if rng.random() < 0.8 else pick(rng, game.legal_actions()))
    while len(game.legal_actions()) < 2:
        game.apply(game.legal_actions()[0])
    return game


def test_the_first_restaurant_gets_the_opening_budget():
    # rules: Setup (each player places its first restaurant, in turn order): the one decision that
    # fixes which houses a chain can ever reach; opening=4 gives it four times the iterations
    game = Game.new(2, seed=3)
    searcher = make_agent(f"search:{FAST},opening=4", seed=0)
    heuristic = HeuristicAgent(seed=1)

    def next_choice_of_seat_0() -> None:
        while game.pending.player != 0 or len(game.legal_actions()) == 1:
            mover = game.current_player
            game.apply((searcher if mover == 0 else heuristic).act_on_game(game, mover))

    next_choice_of_seat_0()
    assert game.pending.decision.name == "INITIAL_RESTAURANT"
    game.apply(searcher.act_on_game(game, 0))
    assert searcher.stats.iterations == 24
    next_choice_of_seat_0()
    assert game.pending.decision.name != "INITIAL_RESTAURANT"
    game.apply(searcher.act_on_game(game, 0))
    assert searcher.stats.iterations == 24 + 6  # every other decision: the budget


def test_the_same_seed_and_iterations_give_the_same_choices():
    game = _middle(3, seed=5)
    player = game.current_player
    first = [SearchAgent(parse_params("iterations=20"), seed=9).act_on_game(game, player) for _ in range(2)]
    assert first[0] == first[1]
    a, b = SearchAgent(parse_params("iterations=20"), seed=9), SearchAgent(parse_params("iterations=20"), seed=9)
    twin = game.clone()
    for _ in range(8):  # a run of decisions: the generators stay in step
        if game.is_over:
            break
        p = game.current_player
        choice = a.act_on_game(game, p)
        assert choice == b.act_on_game(twin, p)
        game.apply(choice)
        twin.apply(choice)


def _tree(node, depth: int = 3) -> list:
    """A node's statistics down to ``depth`` levels, comparable with ``==``."""
    if node is None or depth == 0:
        return []
    return [(repr(key), e.visits, e.available, e.value, _tree(e.child, depth - 1)) for key, e in node.edges.items()]


def _face_down(num_players: int, seed: int) -> Game | None:
    """A Restructuring position after another player has put cards to work face down (D50)."""
    game = Game.new(num_players, seed=seed, max_rounds=10)
    heuristic = HeuristicAgent(seed=0)
    while not game.is_over:
        state, player = game.state, game.current_player
        if state.phase == Phase.RESTRUCTURING and state.round >= 4 and len(game.legal_actions()) > 1 and any(
                q != player and q not in state.queue and state.players[q].work.sum() > 1
                for q in range(num_players)):
            return game
        game.apply(heuristic.act_on_game(game, player))
    return None


@pytest.mark.parametrize("params", ["iterations=15,horizon=1", "iterations=6,horizon=1,rollout=policy,prior=policy"])
def test_the_search_does_not_peek(params):
    # rules: the hidden facts of D50-D52; the same seed and budget from two games that differ only in
    # facts hidden from the searcher's seat give the same choice and the very same tree
    compared = 0
    for seed in range(8):
        game = _face_down(2 + seed % 3, seed=40 + seed)
        if game is None:
            continue
        player = game.current_player
        other = next(w for s in range(50) if any(  # another truth, the same for the seat: others' work differs
            (w := game.determinize(player, np.random.default_rng(s))).state.players[q].work.tobytes()
            != game.state.players[q].work.tobytes() for q in range(game.state.num_players)))
        config = parse_params(params)
        a, b = SearchAgent(config, seed=3), SearchAgent(config, seed=3)
        assert a.act_on_game(game, player) == b.act_on_game(other, player)
        assert _tree(a.last_root) == _tree(b.last_root)  # every visit and every backed-up value alike
        compared += 1
    assert compared >= 4


def test_the_value_of_a_position_is_the_cash_lead_squashed_and_a_win_at_the_end():
    game = Game.new(2, seed=1)
    game.state.players[0].cash, game.state.players[1].cash = 100, 40
    lead = score(game, scale=60.0)
    assert lead[0] == pytest.approx(0.5 * (1 + np.tanh(1.0))) and lead[1] == pytest.approx(0.5 * (1 + np.tanh(-1.0)))
    assert lead[0] + lead[1] == pytest.approx(1.0)


def test_a_search_agent_needs_the_engine():
    with pytest.raises(TypeError, match="act_on_game"):
        SearchAgent().act(None, np.ones(3))


def test_the_flat_search_plays_legally_and_deterministically():
    game = Game.new(3, seed=11, max_rounds=3)
    flat = make_agent("flat:candidates=3,rollouts=2,horizon=0", seed=4)
    twin = make_agent("flat:candidates=3,rollouts=2,horizon=0", seed=4)
    others = HeuristicAgent(seed=0)
    copy = game.clone()
    while not game.is_over:
        player = game.current_player
        if player == 1:
            action = flat.act_on_game(game, player)
            assert action in game.legal_actions() and action == twin.act_on_game(copy, player)
        else:
            action = others.act_on_game(game, player)
        game.apply(action)
        copy.apply(action)
    # every searched decision tried up to 3 candidates in 2 worlds each
    assert flat.stats.searched > 5 and flat.stats.iterations <= 6 * flat.stats.searched


def test_the_flat_search_names_a_bad_parameter():
    for spec, message in [("flat:depth=2", "flat: unknown parameter 'depth'"),
                          ("flat:rollouts=0", "flat: rollouts=0 is not allowed"),
                          ("flat:horizon=x", "flat: horizon='x' is not an integer")]:
        with pytest.raises(ValueError, match=message):
            make_agent(spec)


def test_the_flat_search_prefers_the_candidate_its_rollouts_score_best():
    # one rollout world, horizon 0: the candidates are scored on the position right after them;
    # from a Working 9-5 choice, whichever candidate it plays must score no worse than the heuristic's
    game = _middle(2, seed=3)
    player = game.current_player
    agent = make_agent("flat:candidates=4,rollouts=1,horizon=0", seed=1)
    choice = agent.act_on_game(game, player)
    favourite = HeuristicAgent(seed=0).act_on_game(game, player)

    def after(action):
        world = game.clone()
        world.apply(action)
        return score(world)[player]

    assert after(choice) >= after(favourite)


@pytest.mark.parametrize("opponent", ["heuristic", "policy", "strategist:cfo", "strategist:drinks"])
def test_the_search_tells_what_the_other_player_plays_like(opponent):
    # others=infer: after a few rounds of a recorded game the likelier model of the other seat is
    # the agent that actually plays it
    from fcm_env.engine.persistence.records import new_recorded_game

    game = new_recorded_game(2, 21, max_rounds=8)
    search = SearchAgent(parse_params("iterations=2,horizon=0"), seed=1)
    # the strategist models play without seeded variation: the opponent too, so one model is exact
    spec = f"strategist:archetype={opponent.partition(':')[2]},variation=0" if ":" in opponent and \
        opponent.startswith("strategist") else opponent
    other = make_agent(spec, seed=0)
    while not game.is_over and game.state.round < 6:
        player = game.current_player
        game.apply(agent_move(search if player == 0 else other, game, player))
    types = search.opponents
    assert types.compared[1] >= 10
    assert types.model_of(1) == opponent
    assert types.loglik[1][opponent] > max(v for k, v in types.loglik[1].items() if k != opponent)


def test_the_others_model_names_the_strategist_family_and_infer_from_narrows_it():
    config = parse_params("others=strategist:luxury,iterations=2")
    assert config.others == "strategist:luxury" and config.infer_from == "family"
    with pytest.raises(ValueError, match="infer_from='all' is not allowed: infer_from is one of family, classic"):
        parse_params("infer_from=all")
    from fcm_env.engine.persistence.records import new_recorded_game

    game = new_recorded_game(2, 5, max_rounds=3)
    for infer_from, models in (("family", 9), ("classic", 2)):
        search = SearchAgent(parse_params(f"iterations=2,horizon=0,infer_from={infer_from}"), seed=1)
        while game.current_player != 0:
            game.apply(agent_move(make_agent("heuristic", seed=0), game, game.current_player))
        game.apply(agent_move(search, game, 0))
        assert len(search.opponents.loglik[1]) == models
    # a seat modelled as an archetype is played by it in the rollouts and the tree
    search = SearchAgent(parse_params("iterations=3,horizon=1,others=strategist:discount"), seed=2)
    fresh = new_recorded_game(2, 6, max_rounds=3)
    action = search.act_on_game(fresh, fresh.current_player)
    assert action in fresh.legal_actions()

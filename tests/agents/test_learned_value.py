"""The search's learned value (``value=learned``): how a network's win probabilities become the value
vector, which network a table size gets, and the errors that name what is missing."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from fcm_agents import make_agent
from fcm_agents.search import SearchConfig, parse_params
from fcm_agents.search.learned_value import LearnedValue, learned_or_cash
from fcm_env.encoding import Observer
from fcm_env.engine.game import Game


def _value_graph(path, weight: np.ndarray, bias: float = 0.0):
    """An ONNX value network ``value_logit = observation @ weight + bias`` with a free batch."""
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["observation", "w"], ["z"]), helper.make_node("Add", ["z", "b"], ["y"]),
         helper.make_node("Squeeze", ["y", "axis"], ["value_logit"])],
        "value",
        [helper.make_tensor_value_info("observation", TensorProto.FLOAT, ["batch", weight.shape[0]])],
        [helper.make_tensor_value_info("value_logit", TensorProto.FLOAT, ["batch"])],
        [helper.make_tensor("w", TensorProto.FLOAT, [weight.shape[0], 1], weight.astype(np.float32).ravel()),
         helper.make_tensor("b", TensorProto.FLOAT, [1], [bias]),
         helper.make_tensor("axis", TensorProto.INT64, [1], [1])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, path)
    return path


def _flat_size() -> int:
    return Observer().flat_size


def test_a_network_that_cannot_tell_the_seats_apart_values_every_seat_equally(tmp_path):
    path = _value_graph(tmp_path / "v.onnx", np.zeros(_flat_size()), bias=1.3)
    value = LearnedValue(path)
    assert value(Game.new(2, seed=1)) == pytest.approx([0.5, 0.5])
    assert value(Game.new(3, seed=1)) == pytest.approx([1 / 3] * 3)


def test_two_seats_views_are_averaged_and_the_values_sum_to_one(tmp_path):
    # a logit that reads the observation: each seat's view differs (its own hand is marked), so the
    # probabilities differ, and the 2-player value is (p0 + 1 - p1) / 2 of the two views
    rng = np.random.default_rng(0)
    weight = rng.normal(0.0, 0.05, _flat_size())
    value = LearnedValue(_value_graph(tmp_path / "v.onnx", weight))
    game = Game.new(2, seed=3)
    p0, p1 = value.win_probabilities(game)
    observer, obs = Observer(), np.zeros((2, _flat_size()), dtype=np.float32)
    for p in range(2):
        observer.observe_flat(game, p, out=obs[p])
    expected = 1.0 / (1.0 + np.exp(-(obs.astype(np.float64) @ weight)))
    assert [p0, p1] == pytest.approx(expected, rel=1e-4)
    v0, v1 = value(game)
    assert v0 == pytest.approx((p0 + 1.0 - p1) / 2) and v0 + v1 == pytest.approx(1.0)


def test_a_finished_game_is_worth_its_result_whatever_the_network_says(tmp_path):
    value = LearnedValue(_value_graph(tmp_path / "v.onnx", np.zeros(_flat_size()), bias=-5.0))
    game = Game.new(2, seed=2, max_rounds=2)
    agent = make_agent("heuristic", seed=0)
    while not game.is_over:
        game.apply(agent.act_on_game(game, game.current_player))
    winner = game.winners[0]
    assert value(game) == [1.0 if p == winner else 0.0 for p in range(2)]


def test_the_value_parameters_are_checked_and_a_missing_network_is_named(tmp_path):
    assert parse_params("value=learned,iterations=2").value == "learned"
    with pytest.raises(ValueError, match=r"value='deep' is not allowed: value is one of auto, cash, learned"):
        parse_params("value=deep")
    with pytest.raises(ValueError, match=r"value_model='net.pt' is not allowed"):
        parse_params("value_model=net.pt")
    missing = str(tmp_path / "none.onnx")
    with pytest.raises(ValueError, match="value=learned needs a value network: .*none.onnx"):
        learned_or_cash(SearchConfig(value="learned", value_model=missing), 2)
    # auto falls back to the cash lead where no value network is shipped for the size
    cash = learned_or_cash(SearchConfig(value="auto"), 5)
    assert not isinstance(cash, LearnedValue)


def test_learned_reads_the_shipped_policys_value_head_where_no_value_network_is_shipped(monkeypatch):
    from fcm_agents import models
    from fcm_agents.search.learned_value import policy_value_head

    for players in (3, 4, 5):  # their policy files are policy-value/1 (docs/models.md, "The value heads")
        value = learned_or_cash(SearchConfig(value="learned"), players)
        assert isinstance(value, LearnedValue) and policy_value_head(players) == models.shipped_model_path(players)
        assert len(value(Game.new(players, seed=1))) == players
        # auto does not take a head: no measurement says it helps the search yet (cash, as before)
        assert not isinstance(learned_or_cash(SearchConfig(value="auto"), players, ["same", "policy"]), LearnedValue)
    monkeypatch.setattr(models, "MODEL_FILES", {2: models.MODEL_FILES[2]})  # a size with neither
    assert policy_value_head(5) is None
    with pytest.raises(ValueError, match="no value network is shipped for 5 players"):
        learned_or_cash(SearchConfig(value="learned"), 5)


def test_auto_takes_the_shipped_network_only_against_a_player_modelled_as_the_policy():
    # rules of thumb measured in docs/search.md: the cash lead with heuristic rollouts models a heuristic
    # opponent exactly; against the policy the network trained on its games judges better
    auto = SearchConfig(value="auto")
    assert isinstance(learned_or_cash(auto, 2, ["same", "policy"]), LearnedValue)
    assert not isinstance(learned_or_cash(auto, 2, ["same", "heuristic"]), LearnedValue)
    assert isinstance(learned_or_cash(SearchConfig(value="learned"), 2, ["same", "heuristic"]), LearnedValue)
    assert not isinstance(learned_or_cash(SearchConfig(value="cash"), 2, ["same", "policy"]), LearnedValue)


def test_the_search_rolls_out_learned_horizon_rounds_with_a_learned_value(tmp_path):
    path = _value_graph(tmp_path / "v.onnx", np.zeros(_flat_size()))
    game = Game.new(2, seed=4)
    agent = make_agent("heuristic", seed=1)
    while game.current_player != 0 or len(game.legal_actions()) < 2:
        game.apply(agent.act_on_game(game, game.current_player))
    moves = {}
    for value in ("cash", "learned"):
        search = make_agent(f"search:iterations=4,horizon=3,learned_horizon=1,value={value},value_model={path},"
                            "others=heuristic", seed=0)
        search.act_on_game(game, 0)
        moves[value] = search.stats.rollout_moves
    assert 0 < moves["learned"] < moves["cash"]  # one round a rollout against three


def test_the_search_plays_with_a_given_value_network(tmp_path):
    path = _value_graph(tmp_path / "v.onnx", np.zeros(_flat_size()))
    search = make_agent(f"search:iterations=4,horizon=1,value=learned,value_model={path}", seed=0)
    game = Game.new(2, seed=4, max_rounds=2)
    other = make_agent("heuristic", seed=1)
    while not game.is_over:
        player = game.current_player
        action = (search if player == 0 else other).act_on_game(game, player)
        assert action in game.legal_actions()
        game.apply(action)
    assert search.stats.searched > 3


def test_the_shipped_network_is_the_file_its_card_names_and_sees_a_runaway_lead():
    import hashlib
    import json

    from fcm_agents.models import shipped_value_path

    path = shipped_value_path(2)
    card = json.loads(path.with_suffix(".json").read_text())
    assert card["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest() and card["num_players"] == 2
    # the heuristic against random for eight rounds: the heuristic's seat is far ahead, and the network says so
    game = Game.new(2, seed=9)
    heuristic, random_agent = make_agent("heuristic", seed=0), make_agent("random", seed=0)
    while game.state.round < 9:
        player = game.current_player
        game.apply((heuristic if player == 0 else random_agent).act_on_game(game, player))
    assert game.state.players[0].cash > game.state.players[1].cash + 40
    v0, v1 = LearnedValue(path)(game)
    assert v0 > 0.8 and v1 < 0.2


def test_prior_policy_by_name_takes_the_network_as_prior_and_value():
    from fcm_agents.models import shipped_model_path
    from fcm_agents.search.policy_model import _session

    for players in (2, 3, 4, 5):
        value = learned_or_cash(SearchConfig(prior="policy"), players, ["same"] + ["heuristic"] * (players - 1))
        # the policy file's own head, even against heuristics (at 2 players not value_2p.onnx)
        assert isinstance(value, LearnedValue) and value.session is _session(str(shipped_model_path(players)))
    assert not isinstance(learned_or_cash(SearchConfig(prior="policy", value="cash"), 4), LearnedValue)
    # prior=auto keeps the measured rule: cash against heuristics
    assert not isinstance(learned_or_cash(SearchConfig(prior="auto"), 4, ["same", "heuristic"]), LearnedValue)

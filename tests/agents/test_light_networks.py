"""The shipped light networks (fcm_agents.models.LIGHT_FILES): files of the family the native pass runs, distilled
from the shipped policy and value, and what the search's ``policy_model=light`` reads."""

from __future__ import annotations

import hashlib
import json

import pytest

from fcm_agents.models import LIGHT_FILES, shipped_light_path
from fcm_agents.search.policy_model import own_policy_path


@pytest.mark.parametrize("players", sorted(LIGHT_FILES))
def test_a_light_file_is_the_distilled_one_its_card_describes(players):
    path = shipped_light_path(players)
    card = json.loads(path.with_suffix(".json").read_text())
    assert card["num_players"] == players and card["format"] == "policy-value/1"
    assert card["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
    pytest.importorskip("fcm_agents.native._agents", reason="the native players are not built")
    from fcm_agents.native.network import load_network
    from fcm_training.distill.student import agreement, label, play_positions

    _, _, shape = load_network(path)
    sizes = card["sizes"]
    assert (shape["mix"], shape["conv1"], shape["conv2"], shape["board_features"], shape["vector_hidden"]) == (
        sizes["mix"], sizes["channels"], 2 * sizes["channels"], sizes["board_features"], sizes["vector_hidden"])
    # on a game of seeds it never learned from, it still picks the teacher's move almost always
    data = label(*play_positions(9_000_000, 1, players), players)
    from fcm_agents.onnx_agent import _session

    light = _session(str(path), "native")
    logits, values = light.run(["masked_logits", "value_logit"],
                               {"observation": data.observations, "action_mask": data.masks.astype("float32")})
    measured = agreement(logits, values.reshape(-1), data)
    assert measured["greedy_agreement"] > 0.85 and measured["value_gap"] < 0.1


def test_policy_model_light_names_the_file_of_the_tables_size():
    assert own_policy_path("light", 2) == str(shipped_light_path(2))
    assert own_policy_path("light", 4) == str(shipped_light_path(4))
    assert own_policy_path("mine.onnx", 3) == "mine.onnx"
    with pytest.raises(ValueError, match="no light network is shipped for 3 players"):
        own_policy_path("light", 3)


def test_a_search_with_the_light_network_plays_a_legal_move():
    pytest.importorskip("fcm_agents.native._agents", reason="the native players are not built")
    from fcm_agents.search import parse_params, search_agent
    from fcm_env.engines import new_game

    agent = search_agent(parse_params("iterations=24,engine=native,prior=policy,policy_model=light"), seed=2)
    game = new_game("native", 2, 17)
    assert agent.act_on_game(game, game.current_player) in game.legal_actions()
    with pytest.raises(ValueError, match="policy_model"):
        parse_params("policy_model=heavy")

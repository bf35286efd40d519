"""The light networks kept with the benchmarks (benchmarks/results/light): files of the family the native pass
runs, distilled from the shipped policy and value, that the search reads with ``policy_model=PATH``."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

LIGHT = Path(__file__).resolve().parents[2] / "benchmarks" / "results" / "light"


@pytest.mark.parametrize("players", [2, 4])
def test_a_light_file_is_the_distilled_one_its_card_describes(players):
    path = LIGHT / f"light_{players}p.onnx"
    card = json.loads(path.with_suffix(".json").read_text())
    assert card["num_players"] == players and card["format"] == "policy-value/1" and card["file"] == path.name
    assert card["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
    pytest.importorskip("fcm_agents.native._agents", reason="the native players are not built")
    from fcm_agents.native.network import load_network
    from fcm_agents.onnx_agent import _session
    from fcm_training.distill.student import agreement, label, play_positions

    _, _, shape = load_network(path)
    sizes = card["sizes"]
    assert (shape["mix"], shape["conv1"], shape["conv2"], shape["board_features"], shape["vector_hidden"]) == (
        sizes["mix"], sizes["channels"], 2 * sizes["channels"], sizes["board_features"], sizes["vector_hidden"])
    # on a game of seeds it never learned from, it still picks the teacher's move almost always
    data = label(*play_positions(9_000_000, 1, players), players)
    light = _session(str(path), "native")  # checked against onnxruntime when loaded
    logits, values = light.run(["masked_logits", "value_logit"],
                               {"observation": data.observations, "action_mask": data.masks.astype("float32")})
    measured = agreement(logits, values.reshape(-1), data)
    assert measured["greedy_agreement"] > 0.85 and measured["value_gap"] < 0.1


def test_a_search_reads_a_light_network_as_its_prior_and_value():
    pytest.importorskip("fcm_agents.native._agents", reason="the native players are not built")
    from fcm_agents.search import parse_params, search_agent
    from fcm_env.engines import new_game

    spec = f"iterations=24,engine=native,prior=policy,policy_model={LIGHT / 'light_2p.onnx'}"
    agent = search_agent(parse_params(spec), seed=2)
    game = new_game("native", 2, 17)
    assert agent.act_on_game(game, game.current_player) in game.legal_actions()

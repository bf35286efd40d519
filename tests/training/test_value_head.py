"""A value head on a shipped policy's trunk: fitted on positions, written into the policy's graph."""

from __future__ import annotations

import numpy as np
import onnxruntime as ort
import pytest
import torch
from stop_helpers import HANG_S

from fcm_agents.models import graph_format, shipped_model_path
from fcm_agents.search.learned_value import LearnedValue
from fcm_agents.search.policy_model import PolicyModel
from fcm_env.encoding import NUM_ACTIONS, Observer, legal_action_mask
from fcm_env.engine.game import Game
from fcm_training.value.fit import Positions
from fcm_training.value.head import ValueHead, attach, features_name, fit_head, policy_only, trunk_features
from fcm_training.value.positions import generate


@pytest.fixture(scope="module")
def plain(tmp_path_factory):
    """The shipped 3-player policy without its value head (``policy/1``)."""
    path = shipped_model_path(3)
    if graph_format(_session(path)) == "policy/1":
        return path
    return policy_only(path, tmp_path_factory.mktemp("plain") / "policy_3p.onnx")


@pytest.fixture(scope="module")
def positions(tmp_path_factory):
    path = tmp_path_factory.mktemp("head") / "pos.npz"
    generate(30, 4, path, chunk=2, num_players=3)  # seed 30 is held out (seed % 10 == 0)
    return path


def _session(path):
    return ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])


def test_positions_record_their_table_size_and_sizes_do_not_mix(positions, tmp_path):
    data = Positions.load([positions])
    assert data.players == 3
    assert set(data.meta[:, 1]) == {0, 1, 2}  # every seat of the 3-player games
    two = tmp_path / "two.npz"
    generate(5, 1, two)
    with pytest.raises(ValueError, match=r"different table sizes: .*pos.npz \(3 players\), .*two.npz \(2 players\)"):
        Positions.load([positions, two])


def test_the_attached_head_keeps_the_policy_bit_for_bit_and_adds_the_fitted_value(positions, plain, tmp_path):
    policy = plain
    data = Positions.load([positions])
    features = trunk_features(policy, data)
    assert features.shape == (len(data.label), 256) and (features >= 0).all()  # the trunk ends in ReLUs
    head, figures = fit_head(features, data, epochs=1, batch=32, log=lambda line: None)
    assert 0.0 <= figures["accuracy"] <= 1.0 and figures["loss"] > 0
    out = attach(policy, head, tmp_path / "pv.onnx")

    plain, both = _session(policy), _session(out)
    assert graph_format(plain) == "policy/1" and graph_format(both) == "policy-value/1"
    game = Game.new(3, seed=8)
    for _ in range(40):  # positions of a real game, the seat to move each time
        seat = game.current_player
        obs = Observer().observe_flat(game, seat)[None].astype(np.float32)
        mask = legal_action_mask(game, seat).astype(np.float32)[None]
        feeds = {"observation": obs, "action_mask": mask}
        action, logits = plain.run(["action", "masked_logits"], feeds)
        action2, logits2, value = both.run(["action", "masked_logits", "value_logit"], feeds)
        assert np.array_equal(action, action2) and np.array_equal(logits, logits2)
        position = Positions(*_one_row(obs[0]), label=np.zeros(1, np.float32), meta=np.zeros((1, 5), np.int64))
        with torch.no_grad():
            expected = head(torch.from_numpy(trunk_features(policy, position))).numpy()
        assert value.shape == (1,) and value == pytest.approx(expected, abs=1e-5)
        game.apply(PolicyModel(policy).act_on_game(game, seat))


def _one_row(obs: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    idx = np.flatnonzero(obs).astype(np.int32)
    return idx, obs[idx].astype(np.float32), np.array([0, len(idx)], dtype=np.int64)


def test_the_search_reads_the_value_of_the_combined_file(tmp_path):
    head = ValueHead(256)
    with torch.no_grad():
        head.out.weight.zero_()
        head.out.bias.fill_(2.0)  # every seat's logit is 2
    out = attach(shipped_model_path(4), head, tmp_path / "pv.onnx")
    value = LearnedValue(out)
    game = Game.new(4, seed=2)
    assert value.win_probabilities(game) == pytest.approx([1 / (1 + np.exp(-2.0))] * 4)
    assert value(game) == pytest.approx([0.25] * 4)  # p_i / sum(p) at more than 2 players


def test_a_graph_without_an_sb3_trunk_or_with_a_value_of_its_own_is_refused_and_a_head_is_replaced(plain, tmp_path):
    import onnx

    value_graph = onnx.load(str(shipped_model_path(2)).replace("policy_2p", "value_2p"))
    with pytest.raises(ValueError, match="not an exported SB3 policy"):
        features_name(value_graph.graph)
    first, second = ValueHead(256), ValueHead(256)
    once = attach(plain, first, tmp_path / "once.onnx")
    twice = attach(once, second, tmp_path / "twice.onnx")  # the second head replaces the first
    assert sum(o.name == "value_logit" for o in onnx.load(str(twice)).graph.output) == 1
    assert policy_only(twice, tmp_path / "back.onnx").read_bytes() == policy_only(once, tmp_path / "b2.onnx").read_bytes()
    assert graph_format(_session(tmp_path / "back.onnx")) == "policy/1"
    # a policy-value graph whose value is not such a head (here: one renamed output of the policy) is refused
    foreign = onnx.load(str(plain))
    foreign.graph.node.append(onnx.helper.make_node("ReduceMax", ["masked_logits"], ["value_logit"], keepdims=0))
    foreign.graph.output.append(onnx.helper.make_tensor_value_info("value_logit", onnx.TensorProto.FLOAT, None))
    onnx.save(foreign, str(tmp_path / "foreign.onnx"))
    with pytest.raises(ValueError, match="has a value_logit output of its own"):
        attach(tmp_path / "foreign.onnx", first, tmp_path / "out.onnx")
    assert NUM_ACTIONS == _session(once).get_inputs()[1].shape[1]


def test_the_command_writes_the_file_and_rewrites_its_card(positions, tmp_path, capsys):
    import hashlib
    import json
    import shutil

    from fcm_agents.models import metadata_path
    from fcm_training.value.__main__ import main

    model, card = tmp_path / "policy_3p.onnx", tmp_path / "policy_3p.json"
    shutil.copy(shipped_model_path(3), model)
    shutil.copy(metadata_path(3), card)
    assert main(["head", str(positions), "--policy", str(model), "--epochs", "1", "--batch", "32", "--out", str(model),
                 "--card", str(card)]) == 0
    written = json.loads(card.read_text())
    assert written["format"] == "policy-value/1" == graph_format(_session(model))
    assert written["sha256"] == hashlib.sha256(model.read_bytes()).hexdigest()
    assert (written["value"]["players"], written["value"]["data"], written["value"]["epochs"]) == (3, ["pos.npz"], 1)
    assert written["num_timesteps"] == json.loads(metadata_path(3).read_text())["num_timesteps"]  # the rest is kept
    # a card of another table size is refused by name, and the error is one line
    shutil.copy(metadata_path(4), tmp_path / "policy_4p.json")
    shutil.copy(shipped_model_path(4), tmp_path / "policy_4p.onnx")
    capsys.readouterr()
    assert main(["head", str(positions), "--policy", str(tmp_path / "policy_4p.onnx"), "--epochs", "1",
                 "--batch", "32", "--out", str(tmp_path / "policy_4p.onnx"), "--card", str(tmp_path / "policy_4p.json")]) == 2
    assert "is a 4-player model; the positions are of 3 players" in capsys.readouterr().err
    assert (tmp_path / "policy_4p.onnx").read_bytes() == shipped_model_path(4).read_bytes()  # nothing written


def test_ctrl_c_stops_the_command_at_once_and_leaves_the_file_as_it_was(positions, tmp_path):
    import os
    import shutil
    import signal
    import subprocess
    import sys
    import time

    model = tmp_path / "policy_3p.onnx"
    shutil.copy(shipped_model_path(3), model)
    before = model.read_bytes()
    process = subprocess.Popen([sys.executable, "-m", "fcm_training.value", "head", str(positions), "--policy", str(model),
                                "--epochs", "100000", "--batch", "32", "--out", str(model)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert "to train on" in process.stdout.readline()  # the features are computed: the head is learning
    sent = time.monotonic()
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=HANG_S + 30)
    # about 0.5-1.3 s on a free core (docs/benchmarks.md); the bound is a hang check: 100000 epochs would take hours
    assert process.returncode == 130 and time.monotonic() - sent < HANG_S
    line = f"fcm_training.value head: interrupted; {model} is as it was (it is written whole at the end)"
    assert err.strip().splitlines() == [line]
    assert model.read_bytes() == before and not list(tmp_path.glob("*.partial"))

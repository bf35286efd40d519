"""The policy shipped in the package (``agents/models/policy_2p.onnx``) plays out of the box.

It needs onnxruntime only (no torch), answers only legal actions in both modes,
and chooses what the torch checkpoint it was exported from chose on the saved
reference positions (``policy_2p_reference.npz``, written by ``fcm_training.sb3.ship``).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from fcm_agents import OnnxAgent, RandomAgent, load_agent, make_agent, shipped_model_path
from fcm_agents.models import FORMATS, graph_format, metadata_path, reference_path, shipped_value_path
from fcm_env.encoding import FLAT_SIZE, NUM_ACTIONS, Observer, legal_action_mask
from fcm_env.engine.game import Game

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def agent() -> OnnxAgent:
    return make_agent("policy")


@pytest.fixture(scope="module")
def positions() -> tuple[np.ndarray, np.ndarray]:
    """Observations and masks of real positions: a few seeded games advanced by random play."""
    observer, observations, masks = Observer(), [], []
    for seed in range(3):
        game = Game.new(2, seed=seed, max_rounds=6)
        players = [RandomAgent(seed=seed * 10 + p) for p in range(2)]
        decision = 0
        while not game.is_over and decision < 60:
            player = game.current_player
            if decision % 6 == 0:
                observations.append(observer.observe_flat(game, player))
                masks.append(legal_action_mask(game, player))
            game.apply(players[player].act_on_game(game, player))
            decision += 1
    return np.stack(observations), np.stack(masks)


def test_the_shipped_file_exists_is_small_and_loads_with_onnxruntime():
    import onnxruntime

    path = shipped_model_path()
    assert path == shipped_model_path(2) and path.name == "policy_2p.onnx" and path.is_file()
    assert path.stat().st_size <= 10 * 1024 * 1024
    session = onnxruntime.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    assert {i.name: i.shape[1] for i in session.get_inputs()} == {"observation": FLAT_SIZE,
                                                                  "action_mask": NUM_ACTIONS}
    assert [o.name for o in session.get_outputs()] == ["action", "masked_logits", "value_logit"]
    meta = json.loads(metadata_path().read_text())
    assert meta["file"] == path.name and meta["num_players"] == 2
    assert (meta["flat_size"], meta["num_actions"]) == (FLAT_SIZE, NUM_ACTIONS)
    assert meta["format"] == graph_format(session) == "policy-value/1"  # the card and the graph agree


def test_every_shipped_file_says_its_format_and_a_foreign_graph_is_named(tmp_path):
    import onnxruntime

    value = shipped_value_path(2)
    session = onnxruntime.InferenceSession(str(value), providers=["CPUExecutionProvider"])
    assert graph_format(session) == json.loads(value.with_suffix(".json").read_text())["format"] == "value/1"
    assert set(FORMATS) == {"policy/1", "value/1", "policy-value/1"}
    foreign = tmp_path / "foreign.onnx"
    _identity_graph(foreign)
    with pytest.raises(ValueError, match=r"not an fcm-magnate model: inputs \['x'\], outputs \['y'\]"):
        graph_format(onnxruntime.InferenceSession(str(foreign), providers=["CPUExecutionProvider"]))


def _identity_graph(path: Path) -> None:
    import onnx
    from onnx import TensorProto, helper

    graph = helper.make_graph([helper.make_node("Identity", ["x"], ["y"])], "g",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, str(path))


def test_a_player_count_without_a_shipped_model_is_a_clear_error():
    with pytest.raises(FileNotFoundError, match="no shipped policy for 6 players"):
        shipped_model_path(6)


def test_the_shipped_policy_plays_without_torch():
    code = """
import sys
sys.modules["torch"] = None  # any import of torch now fails
from fcm_agents.match import play_game
from fcm_agents.registry import make_agent
from fcm_agents.onnx_agent import OnnxAgent
agent = make_agent("policy")
assert isinstance(agent, OnnxAgent) and agent.name == "policy"  # ShippedPolicy: the model per table size
result = play_game([agent, make_agent("heuristic", seed=1)], seed=7, max_rounds=3)
assert result.decisions > 0 and result.agents == ["policy", "heuristic"]
result = play_game([make_agent("random", seed=2), make_agent("policy:" + sys.argv[1])], seed=8, max_rounds=3)
print("ok", result.decisions)
"""
    done = subprocess.run([sys.executable, "-c", code, str(shipped_model_path())], check=False, cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.startswith("ok")


def test_only_legal_actions_in_both_modes(agent, positions):
    observations, masks = positions
    assert len(observations) >= 20
    sampler = OnnxAgent(shipped_model_path(), deterministic=False, seed=3)
    for obs, mask in zip(observations, masks, strict=True):
        assert mask[agent.act(obs, mask)] == 1
        for _ in range(3):
            assert mask[sampler.act(obs, mask)] == 1
    for chooser in (agent, sampler):
        batch = chooser.act_batch(observations, masks)
        assert batch.dtype == np.int64 and batch.shape == (len(observations),)
        assert masks[np.arange(len(batch)), batch].all()


def test_batched_and_single_decisions_agree(agent, positions):
    observations, masks = positions
    single = [agent.act(obs, mask) for obs, mask in zip(observations, masks, strict=True)]
    assert agent.act_batch(observations, masks).tolist() == single


def test_sampling_is_seeded_and_reset_rewinds_it(positions):
    observations, masks = positions
    obs, mask = observations[0], masks[0]  # the first restaurant: many legal places
    assert mask.sum() > 10
    a = OnnxAgent(shipped_model_path(), deterministic=False, seed=11)
    b = OnnxAgent(shipped_model_path().read_bytes(), deterministic=False, seed=11)
    picks = [a.act(obs, mask) for _ in range(20)]
    assert picks == [b.act(obs, mask) for _ in range(20)]
    assert len(set(picks)) > 1  # it samples (the placeholder's logits are nearly flat; a trained one may not be)
    a.reset()
    assert [a.act(obs, mask) for _ in range(20)] == picks


def test_sampling_never_picks_an_illegal_id_even_when_it_is_the_favourite(agent, positions):
    observations, masks = positions
    obs, mask = observations[0], masks[0].copy()
    favourite = agent.act(obs, mask)
    mask[favourite] = 0  # the graph masks it to -1e9; the sampler must not pick it either
    sampler = OnnxAgent(shipped_model_path(), deterministic=False, seed=0)
    assert all(sampler.act(obs, mask) != favourite for _ in range(50))
    assert agent.act(obs, mask) != favourite


def test_onnx_chooses_what_the_torch_checkpoint_chose():
    path = reference_path()
    if not path.exists():
        pytest.skip(f"no torch reference at {path}")
    data = np.load(path)
    observations, masks, actions = data["observations"], data["masks"], data["actions"]
    assert observations.shape == (len(actions), FLAT_SIZE) and masks.shape == (len(actions), NUM_ACTIONS)
    assert masks[np.arange(len(actions)), actions].all()
    chosen = OnnxAgent(shipped_model_path()).act_batch(observations, masks)
    assert chosen.tolist() == actions.tolist()


def test_specs_for_the_shipped_and_exported_policies(tmp_path):
    shipped = make_agent("policy")
    assert isinstance(shipped, OnnxAgent) and shipped.name == "policy"
    assert isinstance(load_agent(), OnnxAgent) and load_agent("policy").name == "policy"
    copy = tmp_path / "x.onnx"
    copy.write_bytes(shipped_model_path().read_bytes())
    for spec in (f"policy:{copy}", f"onnx:{copy}"):
        agent = make_agent(spec)
        assert isinstance(agent, OnnxAgent) and agent.name == spec
    with pytest.raises(FileNotFoundError, match="no ONNX model"):
        make_agent(f"policy:{tmp_path / 'missing.onnx'}")
    with pytest.raises(ValueError, match="unknown agent 'polcy'"):
        make_agent("polcy")
    with pytest.raises(ValueError, match="needs a path"):
        make_agent("policy:")


def test_a_file_that_is_not_a_policy_is_refused(tmp_path):
    with pytest.raises(TypeError, match="path or the model bytes"):
        OnnxAgent(3)
    with pytest.raises(Exception):  # noqa: B017 - onnxruntime's own error for a broken file
        OnnxAgent(b"not an onnx model")


def test_the_two_part_observation_is_flattened_like_observe_flat(agent):
    from fcm_apps.server import bot_move  # what `fcm play` and `fcm serve` ask bots with

    observer, game = Observer(), Game.new(2, seed=5)
    player = game.current_player
    mask = legal_action_mask(game, player)
    flat = agent.act(observer.observe_flat(game, player), mask)
    assert agent.act(observer.observe(game, player), mask) == flat
    assert bot_move(agent, game, player) in game.legal_actions()


def test_cli_play_and_evaluate_take_the_policy_spec(tmp_path, monkeypatch, capsys):
    import io

    from fcm_apps import cli

    monkeypatch.chdir(tmp_path)  # the game's record is saved under runs/ here
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\ny\n" * 3000))  # the first choice, confirmed when asked
    assert cli.main(["play", "--opponents", "policy", "--seat", "1", "--max-rounds", "2"]) == 0
    out = capsys.readouterr().out
    assert "player 0: policy" in out and "game over" in out
    assert cli.main(["evaluate", "--lineup", "policy,heuristic", "--games", "2", "--max-rounds", "3",
                     "--out", str(tmp_path / "eval"), "--no-progress"]) == 0
    summary = json.loads((tmp_path / "eval" / "summary.json").read_text())
    assert "policy" in json.dumps(summary)


def test_the_shipped_policy_asks_the_model_of_the_table_it_sits_at(monkeypatch):
    from fcm_agents import models

    monkeypatch.setitem(models.MODEL_FILES, 4, "policy_2p.onnx")  # a 4-player file (the 2-player one's bytes)
    monkeypatch.delitem(models.MODEL_FILES, 3, raising=False)  # and none for 3 players
    agent = make_agent("policy")
    observer, observations, masks = Observer(), [], []
    for n in (2, 3, 4):
        game = Game.new(n, seed=1)
        observations.append(observer.observe_flat(game, game.current_player))
        masks.append(legal_action_mask(game, game.current_player))
    assert [agent.player_count(o) for o in observations] == [2, 3, 4]
    assert agent.session_for(3) is agent.session_for(2)  # none shipped for 3 players: the 2-player model
    four = agent.session_for(4)
    assert four is not agent.session_for(2) and agent.session_for(4) is four  # loaded once, on first use
    # one batch of three tables: every row asked of its own table's model, as one by one
    batch = agent.act_batch(np.stack(observations), np.stack(masks))
    assert batch.tolist() == [agent.act(o, m) for o, m in zip(observations, masks, strict=True)]

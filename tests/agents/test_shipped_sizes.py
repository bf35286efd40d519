"""Every shipped policy (``fcm_agents.models.MODEL_FILES``: one per table size) is whole: small, its card
agrees with its graph, it chooses what its torch checkpoint chose, and it plays legal moves at its own
table size, where the spec ``policy`` picks it."""

from __future__ import annotations

import json

import numpy as np
import onnxruntime
import pytest

from fcm_agents import OnnxAgent, make_agent
from fcm_agents.match import play_game
from fcm_agents.models import MODEL_FILES, graph_format, metadata_path, reference_path, shipped_model_path
from fcm_env.encoding import FLAT_SIZE, NUM_ACTIONS

SIZES = sorted(MODEL_FILES)


@pytest.mark.parametrize("players", SIZES)
def test_the_file_is_small_and_its_card_describes_it(players):
    path = shipped_model_path(players)
    assert path.name == f"policy_{players}p.onnx" and path.stat().st_size <= 10 * 1024 * 1024
    session = onnxruntime.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    card = json.loads(metadata_path(players).read_text())
    assert (card["file"], card["num_players"], card["format"]) == (path.name, players, graph_format(session))
    assert card["format"] in ("policy/1", "policy-value/1") and not card["placeholder"] and card["num_timesteps"] > 0
    assert (card["flat_size"], card["num_actions"]) == (FLAT_SIZE, NUM_ACTIONS)
    import hashlib

    assert card["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("players", SIZES)
def test_onnx_chooses_what_its_torch_checkpoint_chose(players):
    data = np.load(reference_path(players))
    observations, masks, actions = data["observations"], data["masks"], data["actions"]
    assert len(actions) >= 10 and masks[np.arange(len(actions)), actions].all()
    assert OnnxAgent(shipped_model_path(players)).act_batch(observations, masks).tolist() == actions.tolist()


@pytest.mark.parametrize("players", SIZES)
def test_the_policy_spec_plays_its_own_model_at_its_table(players):
    agent = make_agent("policy")
    others = [make_agent("heuristic", seed=p) for p in range(1, players)]
    result = play_game([agent, *others], seed=17, max_rounds=2)
    assert result.decisions > 0  # every move legal: an illegal one raises
    # at its table the spec asks this file: the same logits as the file itself, position by position
    from fcm_env.encoding import Observer, legal_action_mask
    from fcm_env.engine.game import Game

    own = onnxruntime.InferenceSession(str(shipped_model_path(players)), providers=["CPUExecutionProvider"])
    game = Game.new(players, seed=23)
    obs = Observer().observe_flat(game, game.current_player)[None]
    mask = legal_action_mask(game, game.current_player).astype(np.float32)[None]
    feed = {"observation": obs, "action_mask": mask}
    assert agent.player_count(obs[0]) == players
    (action, logits, *_), (own_action, own_logits, *_) = agent.session_for(players).run(None, feed), own.run(None, feed)
    assert action.tolist() == own_action.tolist()  # the native pass (the default backend) to float32 rounding
    np.testing.assert_allclose(logits, own_logits, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("players", [n for n in SIZES if json.loads(metadata_path(n).read_text())["format"] == "policy-value/1"])
def test_a_file_with_a_value_head_gives_each_seat_a_win_logit_beside_the_policy(players):
    # the head's held-out figures are on the card; the graph gives one finite logit per observation
    card = json.loads(metadata_path(players).read_text())
    assert card["value"]["players"] == players and card["value"]["held_out"]["loss"] > 0
    from fcm_env.encoding import Observer, legal_action_mask
    from fcm_env.engine.game import Game

    session = onnxruntime.InferenceSession(str(shipped_model_path(players)), providers=["CPUExecutionProvider"])
    game = Game.new(players, seed=31)
    obs = np.stack([Observer().observe_flat(game, p) for p in range(players)]).astype(np.float32)
    mask = np.stack([legal_action_mask(game, p) for p in range(players)]).astype(np.float32)
    action, logits, value = session.run(["action", "masked_logits", "value_logit"],
                                        {"observation": obs, "action_mask": mask})
    assert value.shape == (players,) and np.isfinite(value).all() and logits.shape == (players, NUM_ACTIONS)
    mover = game.current_player  # the policy outputs are still there: the seat to move gets a legal action
    assert mask[mover, action[mover]] == 1

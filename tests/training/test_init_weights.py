"""``init_from``: a run starts from a trained policy (the actor copied exactly, the critic fresh), a
mismatch is named before anything is written, and the critic warm-up leaves the actor as it was."""

from __future__ import annotations

import numpy as np
import pytest
import torch
import yaml

from fcm_env.encoding import Observer, legal_action_mask
from fcm_env.engine.game import Game
from fcm_env.env.single_agent import FcmSingleAgentEnv
from fcm_training.common.config import ConfigError
from fcm_training.common.export import MaskedPolicy, export_onnx
from fcm_training.sb3.init_weights import ACTOR_PREFIXES, load_weights
from fcm_training.sb3.selfplay import build_model, load_config, main

TINY = {"name": "tiny", "num_players": 2, "max_rounds": 3, "n_envs": 2, "n_steps": 64, "batch_size": 64,
        "n_epochs": 1, "total_timesteps": 128, "eval_every": 10_000, "eval_games": 2, "eval_opponents": ["random"],
        "eval_async": False, "checkpoint_every": 10_000, "snapshot_every": 10_000, "progress_bar": False,
        "board_channels": 4, "board_features": 16, "vector_hidden": 16, "net_arch": [16]}


def _model(seed: int, **overrides):
    config = load_config("quick", **{**TINY, "seed": seed, **overrides})
    torch.manual_seed(seed)
    return build_model(config, FcmSingleAgentEnv(num_players=2))


def _trained_like(seed: int):
    """A model whose every weight differs (as a trained one's do): the ONNX exporter shares initializers of
    equal value, such as a fresh network's zero biases, under one name."""
    model = _model(seed)
    with torch.no_grad():
        for param in model.policy.parameters():
            param.add_(torch.randn_like(param) * 0.01)
    return model


def _split(policy) -> tuple[dict, dict]:
    state = {k: v.clone() for k, v in policy.state_dict().items()}
    actor = {k: v for k, v in state.items() if k.startswith(ACTOR_PREFIXES)}
    return actor, {k: v for k, v in state.items() if k not in actor}


def test_an_exported_policy_gives_the_actor_exactly_and_leaves_the_critic(tmp_path):
    source, target = _trained_like(1), _model(2)
    path = export_onnx(source, tmp_path / "source.onnx")
    src_actor, _ = _split(source.policy)
    _, tgt_critic = _split(target.policy)
    copied = load_weights(target.policy, str(path))
    actor, critic = _split(target.policy)
    assert set(copied) >= {k for k in actor if not k.startswith("pi_")}
    assert all(torch.equal(actor[k], src_actor[k]) for k in actor)
    assert all(torch.equal(critic[k], tgt_critic[k]) for k in critic if not k.startswith("vf_features"))
    assert not torch.equal(critic["value_net.weight"], source.policy.state_dict()["value_net.weight"])


def test_shipped_starts_the_beat_heuristic_network_as_the_shipped_policy():
    import onnxruntime as ort

    from fcm_agents.models import shipped_model_path

    config = load_config("beat_heuristic_2p", n_envs=2, env_workers=1)
    model = build_model(config, FcmSingleAgentEnv(num_players=2))
    load_weights(model.policy, "shipped")
    game = Game.new(2, seed=3)
    obs = Observer().observe_flat(game, game.current_player)[None].astype(np.float32)
    mask = legal_action_mask(game, game.current_player)[None].astype(np.float32)
    session = ort.InferenceSession(str(shipped_model_path(2)), providers=["CPUExecutionProvider"])
    (expected,) = session.run(["masked_logits"], {"observation": obs, "action_mask": mask})
    with torch.no_grad():
        _, logits = MaskedPolicy(model.policy).eval()(torch.as_tensor(obs), torch.as_tensor(mask))
    legal = mask[0] > 0
    np.testing.assert_allclose(logits.numpy()[0][legal], expected[0][legal], rtol=1e-4, atol=1e-4)


def test_a_policy_of_another_network_is_named_before_the_run_folder_is_touched(tmp_path):
    path = export_onnx(_trained_like(1), tmp_path / "small.onnx")
    config = tmp_path / "run.yaml"
    config.write_text(yaml.safe_dump({**TINY, "vector_hidden": 32, "init_from": str(path),
                                      "out_dir": str(tmp_path / "run")}))
    with pytest.raises(ConfigError, match=r"init_from: .*small.onnx: features_extractor.vector_head.0.weight is"):
        main(config)
    assert not (tmp_path / "run").exists()
    with pytest.raises(ConfigError, match="critic_warmup_steps needs init_from"):
        load_config("quick", critic_warmup_steps=10)
    with pytest.raises(ConfigError, match="init_from: no such file nowhere.onnx"):
        load_config("quick", init_from="nowhere.onnx")


def test_the_critic_warm_up_trains_the_critic_alone(tmp_path):
    source = _trained_like(1)
    path = export_onnx(source, tmp_path / "source.onnx")
    src_actor, _ = _split(source.policy)
    config = tmp_path / "run.yaml"
    # 128 learner steps, all inside the warm-up: two PPO updates that may move the critic only
    config.write_text(yaml.safe_dump({**TINY, "init_from": str(path), "critic_warmup_steps": 128,
                                      "out_dir": str(tmp_path / "run")}))
    main(config)
    from sb3_contrib import MaskablePPO

    trained = MaskablePPO.load(str(tmp_path / "run" / "final_model.zip"), device="cpu")
    actor, critic = _split(trained.policy)
    assert all(torch.equal(actor[k], src_actor[k]) for k in actor)
    fresh = _split(_model(0).policy)[1]  # the run's seed is 0: its critic started as this one
    assert not torch.equal(critic["value_net.weight"], fresh["value_net.weight"])  # the critic learned
    assert all(p.requires_grad for p in trained.policy.parameters())

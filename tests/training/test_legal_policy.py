"""The legal-actions policy gives sb3-contrib's masked log-probabilities, entropy and choices."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from gymnasium import spaces
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

from fcm_training.sb3.legal_policy import LegalActionsPolicy, legal_log_probs


def _pair():
    obs_space, act_space = spaces.Box(-1, 1, (6,), np.float32), spaces.Discrete(9)
    kwargs = {"observation_space": obs_space, "action_space": act_space, "lr_schedule": lambda _: 1e-3,
              "net_arch": [8]}
    torch.manual_seed(0)
    ours = LegalActionsPolicy(**kwargs)
    ref = MaskableActorCriticPolicy(**kwargs)
    ref.load_state_dict(ours.state_dict())
    return ours, ref


def test_log_probs_entropy_and_values_equal_the_masked_distribution():
    ours, ref = _pair()
    rng = np.random.default_rng(1)
    obs = torch.as_tensor(rng.normal(size=(5, 6)).astype(np.float32))
    masks = rng.random((5, 9)) < 0.4
    masks[:, 2] = True  # every row has a legal action
    masks[4] = False
    masks[4, 7] = True  # a single choice: log-prob 0, entropy 0
    actions = torch.as_tensor([np.flatnonzero(m)[-1] for m in masks])
    v1, lp1, e1 = ours.evaluate_actions(obs, actions, action_masks=masks)
    v2, lp2, e2 = ref.evaluate_actions(obs, actions, action_masks=masks)
    torch.testing.assert_close(v1, v2)
    torch.testing.assert_close(lp1, lp2)
    torch.testing.assert_close(e1, e2, atol=1e-5, rtol=1e-5)
    assert lp1[4].item() == 0 and e1[4].item() == pytest.approx(0, abs=1e-6)
    # deterministic choices and sampled choices are legal; deterministic = the masked argmax
    a1, _, _ = ours(obs, deterministic=True, action_masks=masks)
    a2, _, _ = ref(obs, deterministic=True, action_masks=masks)
    assert a1.tolist() == a2.tolist()
    for _ in range(20):
        sampled, _, log_prob = ours(obs, action_masks=masks)
        assert all(masks[i, a] for i, a in enumerate(sampled.tolist()))
        _, want, _ = ref.evaluate_actions(obs, sampled, action_masks=masks)
        torch.testing.assert_close(log_prob, want)


def test_gradients_match_too():
    ours, ref = _pair()
    obs = torch.ones(3, 6)
    masks = np.array([[1, 0, 1, 0, 0, 0, 0, 0, 1]] * 3, dtype=bool)
    actions = torch.as_tensor([0, 2, 8])
    for policy in (ours, ref):
        _, lp, ent = policy.evaluate_actions(obs, actions, action_masks=masks)
        (lp.sum() + 0.1 * ent.sum()).backward()
    for (name, p1), p2 in zip(ours.named_parameters(), ref.parameters(), strict=True):
        torch.testing.assert_close(p1.grad, p2.grad, atol=1e-6, rtol=1e-5, msg=name)


def test_illegal_actions_and_empty_masks_are_refused():
    ours, _ = _pair()
    obs = torch.zeros(1, 6)
    with pytest.raises(ValueError, match="not legal"):
        ours.evaluate_actions(obs, torch.as_tensor([1]), action_masks=np.array([[True] + [False] * 8]))
    with pytest.raises(ValueError, match="no legal action"):
        legal_log_probs(torch.zeros(1, 9), np.zeros((1, 9), bool))


def test_spatial_policy_runs_the_placement_head_only_where_it_matters_with_the_same_result():
    from sb3_contrib import MaskablePPO

    from fcm_env.encoding import CODEC, FLAT_SIZE, NUM_ACTIONS, Observer, legal_action_mask
    from fcm_env.engine.game import Game
    from fcm_env.env.single_agent import FcmSingleAgentEnv
    from fcm_training.sb3.features import SpatialExtractor
    from fcm_training.sb3.legal_policy import SpatialPolicy

    torch.manual_seed(0)
    policy = MaskablePPO(SpatialPolicy, FcmSingleAgentEnv(num_players=2), seed=0, policy_kwargs={
        "features_extractor_class": SpatialExtractor, "net_arch": [16]}).policy
    # the first decisions of a game place the first restaurants: a mix of placement and other rows
    game = Game.new(2, 3)
    observer = Observer()
    obs, masks = np.zeros((2, FLAT_SIZE), np.float32), np.zeros((2, NUM_ACTIONS), bool)
    player = game.current_player
    obs[0], masks[0] = observer.observe_flat(game, player), legal_action_mask(game, player).astype(bool)
    place = CODEC.segment("place").start
    assert masks[0, place:].any()  # a restaurant placement
    masks[1, :place] = masks[0, :place]
    masks[1, 0] = True  # a row with no placement id
    obs[1] = obs[0]
    obs_t = torch.as_tensor(obs)
    with torch.no_grad():
        full = policy.action_logits(obs_t)
        subset, _ = policy._heads(obs_t, masks)
    torch.testing.assert_close(subset[0], full[0])  # placement rows: the head ran
    torch.testing.assert_close(subset[1, :place], full[1, :place])  # elsewhere only masked ids differ
    # the ONNX graph (full head) chooses what the torch policy chooses
    from fcm_agents.onnx_agent import OnnxAgent
    from fcm_training.common.export import onnx_bytes

    agent = OnnxAgent(onnx_bytes(policy))
    with torch.no_grad():
        want, _, _ = policy(obs_t[:1], deterministic=True, action_masks=masks[:1])
    assert agent.act(obs[0], masks[0].astype(np.int8)) == int(want[0])

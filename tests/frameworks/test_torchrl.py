"""TorchRL's stock PettingZoo wrapper on the AEC env: it builds (numeric infos) and rolls out legally.

Skipped without torchrl. TorchRL turns every info value into a tensor with a spec fixed at reset,
so the infos must hold numbers under the same keys on every step (docs/frameworks.md).
"""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("torchrl")

import torch
from framework_helpers import run_snippet
from torchrl.envs.libs.pettingzoo import PettingZooWrapper

import fcm_env
from fcm_env.encoding import BOARD_SHAPE, NUM_ACTIONS, VECTOR_SIZE

INFO_KEYS = {"phase_id", "decision_id", "round", "to_move_id", "legal_action_count", "cash", "rank", "winner",
             "truncated_by_max_rounds"}


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "PettingZoo in TorchRL is tested using version == 1.24.3"
        yield


def _legal_when_moved(rollout, group: str) -> bool:
    moved = rollout[group, "mask"]
    chosen = rollout[group, "action"].unsqueeze(-1)
    legal = rollout[group, "action_mask"].gather(-1, chosen).squeeze(-1)
    return bool(legal[moved].all())


def test_the_wrapper_builds_on_the_plain_env_and_random_rollouts_stay_legal():
    # the construction of the issue report, which failed with "new(): invalid data type 'str'"
    env = PettingZooWrapper(fcm_env.env(num_players=3, max_rounds=2), use_mask=True, categorical_actions=True,
                            seed=0)
    assert env.group_map == {f"player_{p}": [f"player_{p}"] for p in range(3)}
    for group in env.group_map:
        assert set(env.observation_spec[group, "info"].keys()) == INFO_KEYS
        assert env.observation_spec[group, "action_mask"].shape == (1, NUM_ACTIONS)
    # env.rand_action draws from the action spec, whose mask follows the env's action_mask; the env
    # raises IllegalActionError on any other id, so a finished rollout is a legal one
    rollout = env.rollout(300, break_when_any_done=False)
    assert rollout.shape == (300,)
    moved = torch.stack([rollout[g, "mask"].squeeze(-1) for g in env.group_map], dim=-1)
    assert moved.sum(-1).eq(1).all()  # exactly one player moves per step
    assert all(_legal_when_moved(rollout, g) for g in env.group_map)
    finished = rollout["next", "done"].squeeze(-1)
    assert finished.sum() >= 2  # two-round games: several end and restart
    winners = sum(rollout["next", g, "info", "winner"].squeeze(-1)[finished] for g in env.group_map)
    assert winners.ge(1).all()  # each finished game names its winner in the numeric infos
    ranks = torch.stack([rollout["next", g, "info", "rank"].squeeze(-1)[finished] for g in env.group_map], -1)
    assert ranks.sort(-1).values.eq(torch.arange(3.0)).all()
    env.close()


def test_the_dict_observation_arrives_with_the_board_shape():
    env = PettingZooWrapper(fcm_env.env(num_players=2, max_rounds=1, observation_format="dict"), use_mask=True,
                            seed=1)
    rollout = env.rollout(40, break_when_any_done=False)
    board = rollout["player_0", "observation", "observation", "board"]
    assert board.shape == (40, 1, *BOARD_SHAPE)
    assert rollout["player_0", "observation", "observation", "vector"].shape == (40, 1, VECTOR_SIZE)
    assert _legal_when_moved(rollout, "player_0") and _legal_when_moved(rollout, "player_1")


def test_the_docs_snippet_shares_one_masked_policy(capsys):
    scope = run_snippet("torchrl")
    rollout = scope["rollout"]
    assert rollout.shape == (300,) and scope["env"].group_map == {"agents": ["player_0", "player_1"]}
    assert "games finished" in capsys.readouterr().out

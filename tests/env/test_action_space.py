"""The env's action space: a Discrete whose masked sample draws exactly what Gymnasium's would."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import fcm_env
from fcm_env.encoding import NUM_ACTIONS
from fcm_env.env.action_space import ActionSpace


def test_is_a_discrete_of_every_action_id():
    env = fcm_env.env(num_players=2)
    space = env.action_space("player_0")
    assert isinstance(space, gymnasium.spaces.Discrete)
    assert space.n == NUM_ACTIONS and space.start == 0
    assert space == gymnasium.spaces.Discrete(NUM_ACTIONS)


def test_masked_draws_equal_gymnasium_draws_for_the_same_seed():
    ours, theirs = ActionSpace(NUM_ACTIONS), gymnasium.spaces.Discrete(NUM_ACTIONS)
    ours.seed(7)
    theirs.seed(7)
    rng = np.random.default_rng(0)
    for density in (0.0005, 0.002, 0.05, 0.5, 1.0):
        for _ in range(200):
            mask = (rng.random(NUM_ACTIONS) < density).astype(np.int8)
            a, b = ours.sample(mask), theirs.sample(mask)
            assert a == b and type(a) is type(b)
            if mask.any():
                assert mask[a] == 1
    assert ours.sample() == theirs.sample()  # the generators are still in step


def test_an_empty_mask_gives_start_like_gymnasium():
    space = ActionSpace(5, start=3)
    assert space.sample(np.zeros(5, dtype=np.int8)) == 3


@pytest.mark.parametrize(
    "mask",
    [np.full(NUM_ACTIONS, 2, dtype=np.int8), np.zeros(NUM_ACTIONS, dtype=np.int64), np.zeros(3, dtype=np.int8),
     [0, 1]],
)
def test_a_bad_mask_gets_gymnasiums_error(mask):
    with pytest.raises(AssertionError):
        ActionSpace(NUM_ACTIONS).sample(mask)
    with pytest.raises(AssertionError):
        gymnasium.spaces.Discrete(NUM_ACTIONS).sample(mask)


def test_a_negative_value_is_refused():
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    mask[4] = -1
    with pytest.raises(AssertionError, match="0 or 1"):
        ActionSpace(NUM_ACTIONS).sample(mask)

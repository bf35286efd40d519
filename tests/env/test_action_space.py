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


def test_the_native_look_at_the_mask_finds_the_set_entries_or_declines():
    """``mask_ids`` (the sample's one pass in the core) finds what ``np.flatnonzero`` finds, tails of odd
    lengths included, and declines (None: Gymnasium's own path takes over) anything but a plain 0/1 mask."""
    core = pytest.importorskip("fcm_env.native._core")
    rng = np.random.default_rng(1)
    for n in (1, 7, 8, 9, 63, 64, 65, NUM_ACTIONS):
        for density in (0.0, 0.01, 0.3, 1.0):
            mask = (rng.random(n) < density).astype(np.int8)
            ids = core.mask_ids(mask, n)
            assert ids.dtype == np.int64 and ids.tolist() == np.flatnonzero(mask).tolist()
    mask = np.zeros(16, np.int8)
    for bad in (2, -1, 127):
        mask[11] = bad
        assert core.mask_ids(mask, 16) is None
    mask[11] = 1
    assert core.mask_ids(mask, 15) is None  # another length
    assert core.mask_ids(mask.astype(np.int64), 16) is None
    assert core.mask_ids(np.zeros(32, np.int8)[::2], 16) is None  # not contiguous
    assert core.mask_ids(mask.reshape(4, 4), 16) is None
    assert core.mask_ids([0, 1], 2) is None


def test_the_draws_are_gymnasiums_with_and_without_the_native_look(monkeypatch):
    from fcm_env.env import action_space

    def draws() -> list[int]:
        space = ActionSpace(NUM_ACTIONS, start=2)
        space.seed(5)
        rng = np.random.default_rng(9)
        return [int(space.sample((rng.random(NUM_ACTIONS) < 0.01).astype(np.int8))) for _ in range(300)]

    reference = gymnasium.spaces.Discrete(NUM_ACTIONS, start=2)
    reference.seed(5)
    rng = np.random.default_rng(9)
    expected = [int(reference.sample((rng.random(NUM_ACTIONS) < 0.01).astype(np.int8))) for _ in range(300)]
    assert draws() == expected
    monkeypatch.setattr(action_space, "_mask_ids", None)  # an install without the core: numpy's views
    assert draws() == expected
    strided = np.zeros(2 * NUM_ACTIONS, np.int8)[::2]  # not contiguous: Gymnasium's own path, its draw
    strided[[4, 9]] = 1
    ours, theirs = ActionSpace(NUM_ACTIONS), gymnasium.spaces.Discrete(NUM_ACTIONS)
    ours.seed(1)
    theirs.seed(1)
    assert [ours.sample(strided) for _ in range(20)] == [theirs.sample(strided) for _ in range(20)]

"""The parallel SB3 vec env plays exactly the games of the in-process one, and reports worker errors."""

from __future__ import annotations

import numpy as np
import pytest

from fcm_env.engine.actions import IllegalActionError
from fcm_training.sb3.parallel_vec_env import ParallelSb3FcmVecEnv, split_sizes
from fcm_training.sb3.selfplay import Config, LearnerEnvs
from fcm_training.sb3.vec_env import Sb3FcmVecEnv


def _factory() -> LearnerEnvs:
    # random and heuristic opponents draw only from their env's generator: no state shared between games
    return LearnerEnvs(Config(num_players=2, max_rounds=3, n_envs=5, shaping="cash_lead",
                              opponents={"random": 0.5, "heuristic": 0.5}, bc_rounds=0))


def _first_legal(masks: np.ndarray) -> np.ndarray:
    return np.array([int(np.flatnonzero(row)[0]) for row in masks])


def test_split_sizes_put_the_remainder_on_the_workers():
    assert split_sizes(16, 2) == [8, 8]
    assert split_sizes(5, 2) == [2, 3]
    assert split_sizes(7, 3) == [2, 2, 3]
    assert sum(split_sizes(9, 4)) == 9


def test_same_games_as_the_in_process_vec_env():
    reference = Sb3FcmVecEnv(5, _factory())
    parallel = ParallelSb3FcmVecEnv(5, _factory(), workers=2)
    try:
        for venv in (reference, parallel):
            venv.seed(11)
        obs_a, obs_b = reference.reset(), parallel.reset()
        np.testing.assert_array_equal(obs_a, obs_b)
        assert parallel.reset_infos == reference.reset_infos
        finished = 0
        for _ in range(120):  # three-round games: several end and restart in the same step
            masks_a = np.stack(reference.env_method("action_masks"))
            masks_b = np.stack(parallel.env_method("action_masks"))
            np.testing.assert_array_equal(masks_a, masks_b)
            actions = _first_legal(masks_a)
            obs_a, rew_a, done_a, info_a = reference.step(actions)
            obs_b, rew_b, done_b, info_b = parallel.step(actions)
            np.testing.assert_array_equal(obs_a, obs_b)
            np.testing.assert_array_equal(rew_a, rew_b)
            np.testing.assert_array_equal(done_a, done_b)
            for a, b in zip(info_a, info_b, strict=True):
                assert a.keys() == b.keys()
                if "terminal_observation" in a:
                    finished += 1
                    np.testing.assert_array_equal(a.pop("terminal_observation"), b.pop("terminal_observation"))
                    assert a == b
        assert finished >= 5
        # attributes and methods reach the sub-envs in either process, in index order
        assert parallel.get_attr("learner") == reference.get_attr("learner")
        assert parallel.env_method("action_to_string", 0, indices=[1, 4]) == \
            reference.env_method("action_to_string", 0, indices=[1, 4])
        parallel.set_attr("max_rounds", 9, indices=[3])
        assert parallel.get_attr("max_rounds") == [3, 3, 3, 9, 3]
        assert parallel.has_attr("action_masks") and not parallel.has_attr("no_such_thing")
        # env_fn's methods run in every process: the opponents' timings of each one
        timings = parallel.call_factory("timings")
        assert len(timings) == 2 and all(isinstance(t, dict) for t in timings)
        assert any(t.get("opponent/heuristic", 0) > 0 for t in timings)
    finally:
        reference.close()
        parallel.close()


def test_an_illegal_action_in_a_worker_is_raised_here_with_its_message():
    parallel = ParallelSb3FcmVecEnv(2, _factory(), workers=2)
    try:
        parallel.seed(3)
        parallel.reset()
        masks = np.stack(parallel.env_method("action_masks"))
        actions = _first_legal(masks)
        actions[1] = int(np.flatnonzero(~masks[1])[0])  # sub-env 1 lives in the worker
        with pytest.raises(IllegalActionError, match=r"player_\d: action id \d+ .* is not legal"):
            parallel.step(actions)
    finally:
        parallel.close()


@pytest.mark.parametrize("workers", [0, 3, True, 1.5])
def test_worker_counts_outside_one_to_num_envs_are_refused(workers):
    with pytest.raises(ValueError, match="workers must be"):
        ParallelSb3FcmVecEnv(2, _factory(), workers=workers)


def test_the_worker_processes_ignore_sigint_and_the_factory_is_still_reached():
    # a Ctrl-C at a terminal reaches the whole process group: the trainer decides what stops
    import multiprocessing
    import os
    import signal
    import time

    before = set(multiprocessing.active_children())
    venv = ParallelSb3FcmVecEnv(4, _factory(), workers=2)
    try:
        (worker,) = set(multiprocessing.active_children()) - before
        venv.reset()
        os.kill(worker.pid, signal.SIGINT)
        time.sleep(0.3)
        assert worker.is_alive()
        venv.step_async(_first_legal(np.stack(venv.env_method("action_masks"))))
        venv.step_wait()  # the worker still answers
        assert venv.call_factory("timings")[1] is not None  # LearnerEnvs.timings, through the signal wrapper
    finally:
        venv.close()
    assert not worker.is_alive()

"""Behaviour cloning of the heuristic: labels, returns, and a policy that imitates better than chance."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from fcm_env.encoding import CODEC, FLAT_SIZE, NUM_ACTIONS, Observer, legal_action_ids
from fcm_env.engine.game import Game
from fcm_env.env.rewards import final_rewards
from fcm_training.sb3.imitation import Demonstrations, collect, imitation_accuracy, train_epochs

SETTINGS = {"num_players": 2, "variant": "standard", "max_rounds": 3, "reward": "win", "shaping": "cash_lead"}


def test_every_decision_is_labelled_with_the_heuristics_answer_and_its_legal_ids():
    from fcm_agents import HeuristicAgent

    data = collect([5], **SETTINGS, gamma=0.99)
    # replay the same pure-heuristic game and compare row by row
    game = Game.new(2, 5, "standard", 3)
    teachers = [HeuristicAgent(seed=50 + p) for p in range(2)]
    obs = np.zeros((1, FLAT_SIZE), np.float32)
    masks = np.zeros((1, NUM_ACTIONS), bool)
    k = 0
    while not game.is_over:
        player = game.current_player
        data.densify(np.array([k]), obs, masks)
        np.testing.assert_array_equal(obs[0], Observer().observe_flat(game, player))
        np.testing.assert_array_equal(np.flatnonzero(masks[0]), legal_action_ids(game))
        action = teachers[player].act_on_game(game, player)
        assert data.actions[k] == CODEC.encode(action)
        game.apply(action)
        k += 1
    assert k == len(data)


def test_undiscounted_return_of_a_first_decision_is_the_final_reward_plus_the_final_lead():
    # rules: Setting up — every chain starts with $0, so the lead starts at 0; with gamma = 1 the
    # shaping telescopes to (final cash - the other's final cash) / 100, on top of the win reward
    data = collect([11], **SETTINGS, gamma=1.0)
    game = Game.new(2, 11, "standard", 3)
    from fcm_agents import HeuristicAgent

    teachers = [HeuristicAgent() for _ in range(2)]
    first: dict[int, int] = {}
    k = 0
    while not game.is_over:
        first.setdefault(game.current_player, k)
        game.apply(teachers[game.current_player].act_on_game(game, game.current_player))
        k += 1
    cash = [p.cash for p in game.state.players]
    win = final_rewards(game.state, "win")
    for player, row in first.items():
        lead = cash[player] - cash[1 - player]
        assert data.returns[row] == pytest.approx(win[player] + lead / 100, abs=1e-5)


def test_concat_keeps_every_row():
    a, b = collect([1], **SETTINGS, gamma=0.9), collect([2], **SETTINGS, gamma=0.9)
    both = Demonstrations.concat([a, b])
    assert len(both) == len(a) + len(b)
    obs_a, obs_b = np.zeros((1, FLAT_SIZE), np.float32), np.zeros((1, FLAT_SIZE), np.float32)
    masks = np.zeros((1, NUM_ACTIONS), bool)
    b.densify(np.array([3]), obs_a, masks)
    both.densify(np.array([len(a) + 3]), obs_b, masks)
    np.testing.assert_array_equal(obs_a, obs_b)
    assert both.actions[len(a) + 3] == b.actions[3]


def test_a_cloned_policy_imitates_the_heuristic_far_better_than_chance_on_held_out_games():
    from sb3_contrib import MaskablePPO

    from fcm_env.env.single_agent import FcmSingleAgentEnv
    from fcm_training.sb3.features import CompactExtractor

    torch.manual_seed(0)
    settings = {**SETTINGS, "max_rounds": 4}
    train = collect(range(6), **settings, gamma=0.99)
    held_out = collect(range(100, 102), **settings, gamma=0.99)
    model = MaskablePPO("MlpPolicy", FcmSingleAgentEnv(num_players=2), seed=0, policy_kwargs={
        "features_extractor_class": CompactExtractor, "net_arch": [64]})
    before = imitation_accuracy(model.policy, held_out)
    optimizer = torch.optim.Adam(model.policy.parameters(), lr=1e-3)
    train_epochs(model.policy, train, epochs=4, batch_size=128, optimizer=optimizer, value_coef=0.5,
                 rng=np.random.default_rng(0))
    after = imitation_accuracy(model.policy, held_out)
    assert after["chance"] < 0.5
    assert after["accuracy"] > max(0.75, after["chance"] + 0.3)
    assert after["accuracy"] > before["accuracy"] + 0.2
    assert after["value_mse"] < before["value_mse"]


def _student_graph() -> bytes:
    from sb3_contrib import MaskablePPO

    from fcm_env.env.single_agent import FcmSingleAgentEnv
    from fcm_training.common.export import onnx_bytes

    torch.manual_seed(0)
    model = MaskablePPO("MlpPolicy", FcmSingleAgentEnv(num_players=2), seed=0, device="cpu",
                        policy_kwargs={"net_arch": [8]})
    return onnx_bytes(model.policy)


def _same(a: Demonstrations, b: Demonstrations) -> None:
    for field in ("indptr", "indices", "values", "legal_indptr", "legal_ids", "actions", "returns"):
        np.testing.assert_array_equal(getattr(a, field), getattr(b, field), err_msg=field)


def test_parallel_collection_gives_the_same_rows_with_one_or_two_workers():
    from fcm_training.sb3.parallel_collect import parallel_collect

    graph = _student_graph()
    kw = {**SETTINGS, "gamma": 0.99, "beta": 0.5, "student": graph, "stream": [3, 77, 1], "chunk": 2}
    one = parallel_collect([11, 12, 13], workers=1, **kw)
    two = parallel_collect([11, 12, 13], workers=2, **kw)
    _same(one, two)
    # beta 0.5: some moves were the student's, so the games left the heuristic's line: another stream
    # gives other games (the labels stay the heuristic's answers in each)
    other = parallel_collect([11, 12, 13], workers=1, **{**kw, "stream": [4, 77, 1]})
    assert len(other) != len(one) or not np.array_equal(other.actions, one.actions)


def test_a_pure_heuristic_lock_step_chunk_holds_the_sequential_games_rows():
    from fcm_training.sb3.parallel_collect import parallel_collect

    # beta 1: no roll-ins, so the lock-step games are the sequential ones, their rows interleaved
    sequential = collect([21, 22], **SETTINGS, gamma=0.95)
    lockstep = parallel_collect([21, 22], workers=1, chunk=2, **SETTINGS, gamma=0.95)
    assert len(sequential) == len(lockstep)

    def rows(d: Demonstrations) -> list[tuple]:
        return sorted((int(d.actions[k]), round(float(d.returns[k]), 6),
                       tuple(d.indices[d.indptr[k]:d.indptr[k + 1]])) for k in range(len(d)))

    assert rows(sequential) == rows(lockstep)


def test_parallel_collection_refuses_bad_settings_by_name():
    from fcm_training.sb3.parallel_collect import parallel_collect

    with pytest.raises(ValueError, match="needs a student"):
        parallel_collect([1], **SETTINGS, gamma=0.9, beta=0.5)
    with pytest.raises(ValueError, match="workers and chunk must be at least 1"):
        parallel_collect([1], workers=0, **SETTINGS, gamma=0.9)
    with pytest.raises(ValueError, match="no seeds"):
        parallel_collect([], **SETTINGS, gamma=0.9)


def test_behaviour_cloning_with_one_or_two_collection_workers_trains_the_same_policy(tmp_path):
    from sb3_contrib import MaskablePPO

    from fcm_env.env.single_agent import FcmSingleAgentEnv
    from fcm_training.common.config import Config
    from fcm_training.sb3.imitation import behaviour_cloning

    results = []
    for workers in (1, 2):
        config = Config(num_players=2, max_rounds=3, bc_rounds=2, bc_games=3, bc_holdout_games=2, bc_epochs=1,
                        bc_workers=workers, progress_bar=False, shaping="cash_lead")
        torch.manual_seed(0)
        model = MaskablePPO("MlpPolicy", FcmSingleAgentEnv(num_players=2), seed=0, device="cpu",
                            policy_kwargs={"net_arch": [8]})
        out = tmp_path / f"w{workers}"
        out.mkdir()
        rows = behaviour_cloning(model.policy, config, out)
        results.append((rows, [p.detach().clone() for p in model.policy.parameters()]))
    (rows1, params1), (rows2, params2) = results
    assert rows1 == rows2 and rows1[1]["beta"] == 0.5  # round 2 rolled in with the (ONNX) student
    assert all(torch.equal(a, b) for a, b in zip(params1, params2, strict=True))

"""A lighter student of the shipped family (fcm_training.distill.student): its measures, computed by hand, and a
tiny distillation whose file the native pass and the search read."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from fcm_env.encoding import FLAT_SIZE, NUM_ACTIONS
from fcm_training.distill.student import Positions, agreement


def _positions(teacher: list[list[float]], legal: list[list[int]], values: list[float]) -> Positions:
    n = len(teacher)
    masks = np.zeros((n, NUM_ACTIONS), bool)
    logits = np.full((n, NUM_ACTIONS), -1e9, np.float32)
    for i, (row, ids) in enumerate(zip(teacher, legal, strict=True)):
        masks[i, ids] = True
        logits[i, ids] = row
    return Positions(np.zeros((n, FLAT_SIZE), np.float32), masks, logits, np.array(values, np.float32))


def test_agreement_counts_the_greedy_match_the_kl_and_the_win_probability_gap_by_hand():
    data = _positions([[0.0, math.log(3.0)], [1.0, 0.0], [5.0]], [[3, 7], [1, 2], [4]], [0.0, 0.0, 0.0])
    student = np.zeros((3, NUM_ACTIONS), np.float32)
    student[0, [3, 7]] = [0.0, 0.0]       # uniform: greedy ties to the first id (3), the teacher's is 7
    student[1, [1, 2]] = [2.0, 0.0]       # the same greedy choice as the teacher's
    got = agreement(student, np.array([0.0, math.log(3.0), 9.0], np.float32), data)
    # the forced position (one legal action) is left out of the policy's measures
    assert got["positions"] == 3 and got["with_a_choice"] == 2
    assert got["greedy_agreement"] == pytest.approx(0.5)
    # KL(teacher || student): position 0: teacher (1/4, 3/4), student (1/2, 1/2); position 1: teacher softmax(1, 0),
    # student softmax(2, 0)
    kl0 = 0.25 * math.log(0.25 / 0.5) + 0.75 * math.log(0.75 / 0.5)
    t1 = [math.exp(1) / (math.exp(1) + 1), 1 / (math.exp(1) + 1)]
    s1 = [math.exp(2) / (math.exp(2) + 1), 1 / (math.exp(2) + 1)]
    kl1 = sum(p * math.log(p / q) for p, q in zip(t1, s1, strict=True))
    assert got["kl"] == pytest.approx((kl0 + kl1) / 2, rel=1e-6)
    # win probabilities: teacher 0.5 everywhere; student 0.5, 0.75, sigmoid(9)
    assert got["value_gap"] == pytest.approx((0 + 0.25 + (1 / (1 + math.exp(-9)) - 0.5)) / 3, rel=1e-6)


def test_a_tiny_student_is_a_file_of_the_family_the_native_pass_and_the_search_read(tmp_path):
    pytest.importorskip("fcm_agents.native._agents", reason="the native players are not built")
    from fcm_agents.onnx_agent import _session
    from fcm_training.distill.__main__ import main

    out = tmp_path / "student"
    sizes = "mix=2,channels=2,board_features=8,vector_hidden=8,head=8"
    assert main(["student", "--games", "1", "--held-out", "1", "--epochs", "1", "--sizes", sizes,
                 "--out", str(out)]) == 0
    report = json.loads((out / "report.json").read_text())
    assert report["sizes"] == {"mix": 2, "channels": 2, "board_features": 8, "vector_hidden": 8, "head": 8}
    assert report["train_positions"] > 50 and report["held_out_positions"] > 50
    assert 0.0 <= report["held_out"]["greedy_agreement"] <= 1.0 and report["held_out"]["kl"] >= 0.0
    session = _session(str(out / "student_2p.onnx"), "native")  # checked against onnxruntime when loaded
    assert session.network.has_policy and session.network.has_value

    from fcm_agents.search import parse_params, search_agent
    from fcm_env.engines import new_game

    agent = search_agent(parse_params(f"iterations=16,engine=native,prior=policy,policy_model={out}/student_2p.onnx"),
                         seed=1)
    game = new_game("native", 2, 3)
    assert agent.act_on_game(game, game.current_player) in game.legal_actions()


def test_bad_student_sizes_are_named():
    from fcm_training.distill.__main__ import main

    assert main(["student", "--sizes", "mix=0", "--out", "unused"]) == 2
    assert main(["student", "--sizes", "depth=3", "--out", "unused"]) == 2

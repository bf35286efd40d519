"""The search's value network: positions from games, training, export, and the search reading it."""

from __future__ import annotations

import numpy as np
import pytest
from stop_helpers import HANG_S

from fcm_agents.models import shipped_model_path
from fcm_agents.search.learned_value import LearnedValue
from fcm_env.engine.game import Game
from fcm_training.value.fit import Positions, fit, targets
from fcm_training.value.positions import generate, play_positions


def test_every_seat_is_kept_at_every_round_start_labelled_with_the_result():
    rows = play_positions(11)
    seeds, seats, rounds, leads, last = zip(*rows["meta"], strict=True)
    assert set(seeds) == {11}
    assert seats == tuple(s for _ in range(len(seats) // 2) for s in (0, 1))  # both seats, seat 0 first
    assert sorted(set(rounds)) == list(range(last[0] + 1))  # the setup (round 0) and every round, to the end
    winner = [s for s, label in zip(seats, rows["label"], strict=True) if label == 1.0]
    assert len(set(winner)) == 1 and len(winner) == len(seats) // 2  # one winner, labelled at every round
    # the winner's final lead is positive (the rules' winner has the most cash, or a tie it wins)
    assert all(lead >= 0 for s, lead in zip(seats, leads, strict=True) if s == winner[0])
    assert all(len(i) == len(v) for i, v in zip(rows["idx"], rows["val"], strict=True))


def test_the_target_mixes_the_win_with_the_squashed_final_lead(tmp_path):
    generate(5, 2, tmp_path / "pos.npz")
    data = Positions.load([tmp_path / "pos.npz"])
    lead = data.meta[:, 3]
    expected = 0.5 * data.label + 0.5 * (1 + np.tanh(lead / 60.0)) / 2
    assert targets(data, 0.5) == pytest.approx(expected)
    assert np.array_equal(targets(data, 0.0), data.label)


def test_a_fitted_network_is_exported_and_read_by_the_search(tmp_path):
    generate(20, 3, tmp_path / "pos.npz", workers=2, chunk=1)  # seed 20 is held out (seed % 10 == 0)
    figures = fit([tmp_path / "pos.npz"], tmp_path / "value.onnx", shipped_model_path(2), epochs=1, batch=16,
                  log=lambda line: None)
    assert 0.0 <= figures["accuracy"] <= 1.0 and figures["loss"] > 0
    value = LearnedValue(tmp_path / "value.onnx")
    v = value(Game.new(2, seed=3))
    assert len(v) == 2 and sum(v) == pytest.approx(1.0) and 0.0 < v[0] < 1.0


def test_a_file_that_is_not_positions_is_named(tmp_path):
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a zip")
    with pytest.raises(ValueError, match="bad.npz: not a positions file"):
        Positions.load([bad])


def test_an_interrupted_positions_run_stops_at_once_with_one_line_and_writes_nothing(tmp_path):
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "pos.npz"
    process = subprocess.Popen([sys.executable, "-m", "fcm_training.value", "positions", "--games", "5000", "--seed", "1",
                                "--workers", "2", "--out", str(out)], stderr=subprocess.PIPE, text=True)
    time.sleep(4)  # past the start-up: the workers are playing
    sent = time.monotonic()
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=HANG_S + 30)
    assert time.monotonic() - sent < HANG_S  # a hang check: benchmarks/bench_stop.py times the stop
    assert process.returncode == 130
    assert err.strip().splitlines() == [("fcm_training.value positions: interrupted by SIGINT; nothing written "
                                        "(the file is written whole at the end): run the same command again")]
    assert not out.exists()

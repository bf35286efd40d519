"""Whole random games with every invariant checked after every action (few games here; the full
200-game run is ``benchmarks/random_games.py``, figures in the closing note).

``FCM_RANDOM_GAMES`` sets the games per configuration (default 1).
"""

from __future__ import annotations

import os

import pytest

from fcm_env.engine.invariants.random_sim import simulate

GAMES = int(os.environ.get("FCM_RANDOM_GAMES", "1"))


@pytest.mark.parametrize("variant", ["standard", "introductory"])
@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_random_games_keep_every_invariant(num_players, variant):
    for seed in range(GAMES):
        result = simulate(num_players, seed, variant, max_rounds=12, roundtrip_every=25)
        assert result.winners and result.actions > 0
        assert result.rounds <= 12


def test_the_soak_script_plays_every_configuration_in_workers_and_reports_zero_failures():
    # the 10,000-game soak is `benchmarks/random_games.py --games 10000 --workers 2` (docs/benchmarks.md)
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[1] / "benchmarks" / "random_games.py"
    done = subprocess.run([sys.executable, str(script), "--games", "16", "--workers", "2", "--max-rounds", "3"],
                          capture_output=True, text=True, check=False, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert sum(line.split(":")[0].endswith("p") and " 2 games" in line for line in lines) == 8  # 8 configs x 2
    assert "all: 16 games (2 worker(s))" in done.stdout
    assert "crashes: 0, invariant violations: 0" in done.stdout


def test_the_soak_script_counts_invariant_violations_and_crashes_apart(monkeypatch):
    import importlib.util
    import sys
    from pathlib import Path

    from fcm_env.engine.invariants import InvariantError

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "random_games.py"
    spec = importlib.util.spec_from_file_location("soak_script", path)
    soak = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "soak_script", soak)  # dataclasses look their module up
    spec.loader.exec_module(soak)

    def broken(players, seed, variant, max_rounds):
        raise InvariantError("bank went negative") if players == 2 else KeyError("oops")

    monkeypatch.setattr(soak, "simulate", broken)
    first, second = soak.play(0, 7, 5), soak.play(1, 7, 5)  # configurations 0 and 1: standard 2p and 3p
    assert (first.failure, first.players, first.seed, first.message) == ("invariant", 2, 7, "bank went negative")
    assert (second.failure, second.players, second.message) == ("crash", 3, "KeyError: 'oops'")


def test_the_observation_check_script_compares_every_configuration_and_finds_no_mismatch():
    pytest.importorskip("fcm_env.native")  # it checks the native engine's kept rows
    # the large run is `benchmarks/check_observations.py --seeds 12` (docs/benchmarks.md)
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[1] / "benchmarks" / "check_observations.py"
    done = subprocess.run([sys.executable, str(script), "--seeds", "1", "--max-rounds", "2"],
                          capture_output=True, text=True, check=False, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "vs the reference encoder:" in done.stdout and ", 0 mismatches," in done.stdout
    decisions = int(done.stdout.split("encoder: ")[1].split(" decisions")[0])
    assert decisions > 100  # 8 configurations x 2 rounds

"""The native core in lockstep with the Python engine (the reference): at every decision point of real games
at 2-5 players in both variants, the same legal actions and the same state after each sampled action; the
same state after every kind of engine step; whole games played in both engines with the same actions.
tests/native/lockstep.py holds the harness."""

from __future__ import annotations

import pytest
from lockstep import check_decision, check_step, play_lockstep, positions_of, step_positions

from fcm_env.engine.actions import Decision


@pytest.mark.parametrize("decision", list(Decision), ids=lambda d: d.name.lower())
def test_every_decision_lists_and_applies_as_the_python_engine(decision):
    games = positions_of(decision)
    if not games:
        pytest.skip(f"no {decision.name} in the sample games")
    for game in games:
        check_decision(game)


@pytest.mark.parametrize("phase", ["SETUP_RESERVE", "SETUP_RESTAURANTS", "ORDER_OF_BUSINESS", "WORKING",
                                   "PAYDAY", "CLEANUP"])
def test_every_engine_step_runs_as_the_python_engine(phase):
    documents = step_positions().get(phase, [])
    if not documents:
        pytest.skip(f"no step from {phase} in the sample games")
    for document in documents:
        check_step(document)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("variant", ["standard", "introductory"])
def test_whole_games_in_lockstep(players, variant):
    for seed in range(2):
        assert play_lockstep(players, seed, variant) > 50

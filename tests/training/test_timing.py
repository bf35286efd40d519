"""The stage timer: nested stages are not counted twice, and the split adds up to the wall time."""

from __future__ import annotations

import pytest

from fcm_training.sb3.timing import StageTimer, TimedAgent, format_split


class FakeClock:
    """A clock that moves only when the test says: the figures do not depend on the machine's load."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_nested_stages_are_subtracted_from_the_stage_around_them():
    clock = FakeClock()
    timer = StageTimer(clock=clock)
    with timer.stage("env"):
        clock.now += 0.02
        with timer.stage("opponent/heuristic"):
            clock.now += 0.03
    assert timer.seconds["opponent/heuristic"] == pytest.approx(0.03)
    assert timer.seconds["env"] == pytest.approx(0.02)  # 0.05 in all, less the nested 0.03
    timer.add("update", 1.5)
    split = timer.split(wall=2.0)
    assert split["update"]["share"] == pytest.approx(0.75)
    assert sum(r["seconds"] for k, r in split.items() if k != "wall") == pytest.approx(2.0)
    assert "update" in format_split(split, steps=1000)


def test_timed_agent_answers_like_the_agent_and_times_it():
    class Echo:
        name = "echo"

        def act(self, observation, action_mask):
            return 7

    timer = StageTimer()
    agent = TimedAgent(Echo(), "snapshot", timer)
    assert agent.act(None, None) == 7 and agent.name == "echo"
    assert timer.calls["opponent/snapshot"] == 1
    assert not hasattr(agent, "act_on_game")


def test_a_timed_opponent_says_what_its_agent_reads():
    from fcm_agents import HeuristicAgent, RandomAgent, make_agent
    from fcm_training.sb3.timing import StageTimer, TimedAgent

    timer = StageTimer()
    twinned = make_agent("heuristic")  # the registry pairs the reference with its C++ twin where built
    assert TimedAgent(twinned, "heuristic", timer).plays_native == hasattr(twinned, "twin")
    assert not getattr(TimedAgent(HeuristicAgent(), "heuristic", timer), "plays_native", False)  # the reference
    assert TimedAgent(RandomAgent(), "random", timer).reads_legal_actions_only

    class Plain:
        def act(self, observation, mask):
            return 0

    timed = TimedAgent(Plain(), "snapshot", timer)
    assert not timed.plays_native and not timed.reads_legal_actions_only

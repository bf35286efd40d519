"""A match on the native core plays its native seats' runs of moves in one core call (fcm_agents.match): a
deterministic policy on the native pass, the heuristic's and the strategists' twins. The games are the very
games of the per-decision path, records included, and a policy seat costs no Python call per decision."""

from __future__ import annotations

import pytest

pytest.importorskip("fcm_agents.native._agents", reason="the native players are not built")

from fcm_agents import RandomAgent
from fcm_agents.match import native_seats, play_game
from fcm_agents.native import NativeHeuristicAgent, NativeStrategistAgent
from fcm_agents.onnx_agent import OnnxAgent
from fcm_agents.shipped_policy import ShippedPolicy
from fcm_env.engines import new_game


def _table(players: int) -> list:
    field = [ShippedPolicy(), NativeStrategistAgent(seed=5), NativeHeuristicAgent(), RandomAgent(seed=9),
             NativeStrategistAgent("marketing", seed=6)]
    return field[:players]


@pytest.mark.parametrize("players", [2, 4, 5])
def test_native_seats_play_the_games_of_the_per_decision_path(players):
    for seed in (3, 4):
        per_decision = play_game(_table(players), seed=seed, engine="python", max_rounds=12)
        in_core = play_game(_table(players), seed=seed, engine="native", max_rounds=12)
        assert in_core.record.to_dict() == per_decision.record.to_dict()
        assert (in_core.winners, in_core.cash, in_core.decisions) == (
            per_decision.winners, per_decision.cash, per_decision.decisions)


def test_a_policy_seat_on_the_native_core_is_never_asked_in_python(monkeypatch):
    asked = []
    monkeypatch.setattr(OnnxAgent, "act_on_game", lambda self, game, player: asked.append(player))
    monkeypatch.setattr(OnnxAgent, "act", lambda self, obs, mask: asked.append(-1))
    result = play_game([ShippedPolicy(), NativeHeuristicAgent()], seed=8, engine="native", max_rounds=10)
    assert result.decisions > 50 and asked == []


def test_only_native_games_and_native_players_get_native_seats():
    agents = [ShippedPolicy(), RandomAgent(seed=1), ShippedPolicy(deterministic=False)]
    seats = native_seats(agents, new_game("native", 3, 1))
    assert seats[0] is not None and seats[1] is None and seats[2] is None  # a sampling policy stays in Python
    assert native_seats(agents, new_game("python", 3, 1)) is None
    assert native_seats([RandomAgent(seed=1), RandomAgent(seed=2)], new_game("native", 2, 1)) is None


def test_a_game_cut_short_by_the_decision_cap_is_an_error_on_either_path():
    for engine in ("python", "native"):
        with pytest.raises(RuntimeError, match="no end after 40 decisions"):
            play_game([ShippedPolicy(), NativeHeuristicAgent()], seed=2, engine=engine, max_decisions=40)

"""Tournament games on the native core are the Python engine's games: ``play_game(engine="native")`` gives the
same result and the same replayable record for random agents (which read only the legal actions), for an
agent that reads observations and masks, and for the heuristic (asked on a Python game at the position);
``fcm simulate --engine native`` prints the same table as ``--engine python``."""

from __future__ import annotations

import re

import numpy as np
import pytest

from fcm_agents.match import play_game
from fcm_agents.registry import make_agent
from fcm_apps import cli
from fcm_env.engine.persistence.records import replay


class _FirstLegal:
    """An observation-based agent: the lowest legal id, after checking that it was shown an observation."""

    name = "first-legal"

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        assert observation.shape == (24880,) and observation[0] == 1.0  # the valid plane's first square
        return int(np.flatnonzero(action_mask)[0])


@pytest.mark.parametrize("specs", [("random", "random", "random"), ("heuristic", "random"), ("obs", "random")])
def test_a_native_match_is_the_python_match(specs):
    def agents():
        return [_FirstLegal() if s == "obs" else make_agent(s, seed=10 + i) for i, s in enumerate(specs)]

    theirs = play_game(agents(), seed=5, max_rounds=6, engine="python")
    ours = play_game(agents(), seed=5, max_rounds=6, engine="native")
    assert ours.to_json() == theirs.to_json()
    assert ours.record.to_dict() == theirs.record.to_dict()
    assert replay(ours.record).to_dict() == replay(theirs.record).to_dict()  # the record replays to the end


def test_fcm_simulate_prints_the_same_table_on_both_engines(capsys):
    tables = {}
    for engine in ("python", "native"):
        assert cli.main(["simulate", "--agents", "random,random", "--games", "3", "--max-rounds", "4",
                         "--no-progress", "--engine", engine]) == 0
        # the wall time in the header ("4 rounds; 0.1 s") is the one thing that may differ
        tables[engine] = re.sub(r"; [0-9.]+ s\b", "; (time) s", capsys.readouterr().out)
    assert "; (time) s" in tables["python"]
    assert tables["native"] == tables["python"] and "random" in tables["python"]

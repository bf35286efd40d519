"""docs/openspiel.md's recipe runs as printed and prints what its comments say (an outside audit found a
"the same, as a string" line that loaded another game and returns that the recipe did not print)."""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")

DOC = (Path(__file__).resolve().parents[2] / "docs" / "openspiel.md").read_text()
RECIPE = re.search(r"## Recipe\n\n```python\n(.*?)```", DOC, flags=re.DOTALL).group(1)


def test_the_recipe_prints_what_its_comments_say():
    promised = re.findall(r"^print\(.*\)\s+# (\[[^\]]*\])", RECIPE, flags=re.MULTILINE)
    assert len(promised) == 1  # the seeded random game; the IS-MCTS game is only an example ("e.g.")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(RECIPE, {})  # noqa: S102 - our own documentation
    first, bots = out.getvalue().splitlines()
    assert first == promised[0]
    returns = json.loads(bots)  # one winner of three, whichever it is this time
    assert sorted(returns) == [0.0, 0.0, 1.0]


def test_the_three_ways_to_load_the_game_give_the_same_game():
    import pyspiel

    import fcm_env.openspiel

    lines = [line for line in RECIPE.splitlines() if line.startswith("game = ")]
    games = [eval(line.removeprefix("game = ").split("#")[0], {"pyspiel": pyspiel, "fcm_env": fcm_env})
             for line in lines]
    assert len(games) == 3
    assert all(g.get_parameters() == games[0].get_parameters() for g in games)

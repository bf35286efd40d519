"""The rule-net tools: ``tools/rule_reach.py`` (which rule functions a test run reaches) and
``tools/plant_drift.py`` (a rule changed in one engine must fail the rule tests; its full run is a command,
docs/native.md; here its plants are checked to still point at the rule code they change)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from fcm_env.engine.phases import dinnertime

ROOT = Path(__file__).resolve().parents[1]


def _tool(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_the_reach_counter_counts_the_rule_functions_called_and_lists_the_others():
    reach_tool = _tool("rule_reach")
    functions = reach_tool.rule_functions()
    names = set(functions.values())
    assert "fcm_env.engine.phases.dinnertime.cfo_bonus" in names
    assert "fcm_env.engine.rules.bank.final_breaks" in names
    reach = reach_tool.Reach(functions)
    previous = sys.getprofile()
    reach.pytest_sessionstart(None)
    try:
        assert dinnertime.cfo_bonus(33) == 17  # C22: half of $33 rounded up
        assert dinnertime.cfo_bonus(-7) == -3
    finally:
        reach.pytest_sessionfinish(None, 0)
        sys.setprofile(previous)
    assert reach.calls["fcm_env.engine.phases.dinnertime.cfo_bonus"] == 2
    assert "fcm_env.engine.rules.bank.final_breaks" in reach.unreached()
    assert "fcm_env.engine.phases.dinnertime.cfo_bonus" not in reach.unreached()


@pytest.mark.parametrize("index", range(len(_tool("plant_drift").PLANTS)))
def test_every_plant_finds_the_rule_code_it_changes_exactly_once(index):
    plant = _tool("plant_drift").PLANTS[index]
    text = (ROOT / plant.path).read_text(encoding="utf-8")
    assert text.count(plant.old) == 1, f"{plant.name} ({plant.engine}): the rule's code moved; update PLANTS"
    assert plant.old != plant.new and plant.engine in ("python", "native")

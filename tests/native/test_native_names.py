"""The enums' names and the face-down decisions have one home, the Python engine; the core is handed them at
import and refuses a table whose size disagrees with its own enums (a member added on one side only)."""

from __future__ import annotations

from enum import IntEnum

import pytest

from fcm_env.engine.actions import ActionKind, Decision
from fcm_env.engine.events import HIDDEN_DECISIONS
from fcm_env.engine.state import Phase

native = pytest.importorskip("fcm_env.native")


def test_the_core_holds_the_python_engines_names():
    held = native._core.names()
    assert held["phases"] == [p.name for p in sorted(Phase, key=int)]
    assert held["decisions"] == [d.name for d in sorted(Decision, key=int)]
    assert held["action_kinds"] == [k.name for k in sorted(ActionKind, key=int)]
    assert held["hidden"] == sorted(int(d) for d in HIDDEN_DECISIONS)


@pytest.mark.parametrize("table", ["phases", "decisions", "action_kinds"])
def test_a_table_that_disagrees_with_the_core_is_refused_by_name(table):
    good = native._names()
    bad = dict(good, **{table: good[table] + ["ADDED_ON_ONE_SIDE"]})
    try:
        with pytest.raises(ValueError, match=f"set_names: {table} has"):
            native._core.set_names(bad)
        assert native._core.names()["phases"] == good["phases"]  # the refused table changed nothing
    finally:
        native._core.set_names(good)


def test_a_gap_in_an_enum_fails_the_hand_over():
    gapped = IntEnum("Gapped", {"A": 0, "C": 2})
    with pytest.raises(ImportError, match="Gapped is not numbered 0..1"):
        native._by_value(gapped)

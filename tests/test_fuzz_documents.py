"""A small sample of the state-document fuzzer (tools/fuzz_documents.py; the full set runs from the command
line): hostile edits of real documents at 2-5 players, each in a forked child, give a clean refusal or a
document both engines accept and play on alike, never a crash, an unclear error or a split."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("fcm_env.native")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))

import fuzz_documents


def test_a_sample_of_hostile_documents_finds_nothing():
    outcomes = fuzz_documents.fuzz(150, seed=7, moves=8, show=5)
    assert sum(outcomes.values()) == 150
    assert {k: outcomes[k] for k in fuzz_documents.FINDINGS} == dict.fromkeys(fuzz_documents.FINDINGS, 0)
    assert outcomes["refused"] > 100 and outcomes["accepted"] > 0  # both kinds of clean answer were seen


def test_the_edits_reach_every_kind_and_a_deep_edit_is_refused_in_words():
    docs = fuzz_documents.documents(0)
    assert {d["num_players"] for d in docs} == {2, 3, 4, 5} and len(docs) == 40
    deep = fuzz_documents.edited(docs[3], ("players", 0, "cash"), "deep")
    assert fuzz_documents._play_on(deep, 0, 0) == "refused"
    assert fuzz_documents.edited(docs[0], (), "none") is None

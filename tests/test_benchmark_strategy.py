"""``benchmarks/strategy_report.py``: what an agent builds, read off real games."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import strategy_report


def test_the_report_reads_what_each_seat_built(tmp_path, capsys):
    out = tmp_path / "rows.jsonl"
    assert strategy_report.main(["--agent", "heuristic", "--games", "2", "--max-rounds", "4", "--seed", "9",
                                 "--out", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["game"], r["seat"], r["agent"]) for r in rows] == [(0, 0, True), (0, 1, False), (1, 0, False),
                                                                  (1, 1, True)]
    for r in rows:
        assert r["restaurants"] >= 1 and r["rounds"] == 4 and r["unit_price"] > 0  # rules: Setup (one each)
        assert "ceo" not in r["staff"] and all(n > 0 for n in r["staff"].values())
        assert r["first_sale"] is None or 1 <= r["first_sale"] <= 4
    text = capsys.readouterr().out
    assert "| restaurants |" in text and "different staffs at the end in 2 games" in text
    sold = sum(any(r["first_sale"] is not None for r in rows if r["game"] == g) for g in (0, 1))
    assert f"games in which a seat sold food or drink: {sold}/2" in text

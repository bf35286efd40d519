"""``fcm_training.distill loop``: rounds of labelling and fitting, each round's search reading the network of
the round before, a curve line per round, resumable, one run per folder."""

from __future__ import annotations

import json

import onnxruntime
import pytest
from stop_helpers import HANG_S, interrupt_once_kept

from fcm_agents.models import graph_format
from fcm_training.distill import __main__ as distill_cli
from fcm_training.distill.loop import LoopConfig, run_loop

TINY = ["--games", "3", "--seed", "30", "--search", "search:iterations=2", "--opponents", "heuristic=1",
        "--max-rounds", "1", "--chunk", "3", "--epochs", "1", "--eval-games", "2", "--eval-seed", "1000"]


def _curve(out) -> list[dict]:
    return [json.loads(line) for line in (out / "curve.jsonl").read_text().splitlines()]


def test_each_round_labels_with_the_last_network_and_learns_from_every_round_so_far(tmp_path, capsys):
    out = tmp_path / "loop"
    # batches of 4: a tiny run has a dozen positions a round (the seed 30 game is held out: every tenth seed)
    config = LoopConfig(out=out, rounds=2, games=3, seed=30, search="search:iterations=2", opponents={"heuristic": 1.0},
                        max_rounds=1, chunk=3, epochs=1, batch=4, eval_games=2, eval_seed=1000)
    lines = run_loop(config, log=lambda _line: None)
    assert [line["round"] for line in lines] == [0, 1] and _curve(out) == lines
    assert lines[0]["search"] == "search:iterations=2"  # round 0: the shipped policy as the search's prior
    assert lines[1]["search"] == f"search:iterations=2,policy_model={out / 'round-0' / 'pv.onnx'}"
    assert lines[0]["trained_on_rounds"] == [0] and lines[1]["trained_on_rounds"] == [0, 1]
    for line in lines:  # the network alone played 2 games against the heuristic, seats rotated
        assert line["eval_games"] == 2 and 0 <= line["eval_wins"] <= 2 and line["eval_low"] <= line["eval_rate"]
        assert 0 <= line["held_out_agreement"] <= 1
    # round r played seeds 30 + 3r ..: one chunk file each, every round's network a policy-value file
    assert sorted(p.name for p in (out / "round-0" / "positions").iterdir()) == ["seeds-30.npz"]
    assert sorted(p.name for p in (out / "round-1" / "positions").iterdir()) == ["seeds-33.npz"]
    for r in (0, 1):
        assert graph_format(onnxruntime.InferenceSession(str(out / f"round-{r}" / "pv.onnx"))) == "policy-value/1"

    # the same run again: nothing to play; with one more round: only that round
    mtime = (out / "round-1" / "pv.onnx").stat().st_mtime_ns
    assert run_loop(config, log=lambda _line: None) == lines
    assert (out / "round-1" / "pv.onnx").stat().st_mtime_ns == mtime
    more = LoopConfig(**{**config.__dict__, "rounds": 3, "workers": 2})  # workers: the same games
    assert [line["round"] for line in run_loop(more, log=lambda _line: None)] == [0, 1, 2]
    assert _curve(out)[:2] == lines

    # a folder holds one run: other settings are refused by name, before anything is played
    with pytest.raises(ValueError, match=r"other settings \(games\)"):
        run_loop(LoopConfig(**{**config.__dict__, "games": 4}))


def test_the_command_line_runs_a_round_and_names_bad_settings(tmp_path, capsys):
    out = tmp_path / "cli"
    assert distill_cli.main(["loop", "--rounds", "1", *TINY, "--out", str(out)]) == 2  # batches of 256: too few
    assert "too few for batches of 256" in capsys.readouterr().err
    assert distill_cli.main(["loop", "--rounds", "1", *TINY[:-4], "--eval-games", "2", "--eval-seed", "31",
                             "--out", str(tmp_path / "x")]) == 2
    assert "evaluation seeds 31..32 overlap the training seeds 30..32" in capsys.readouterr().err
    assert distill_cli.main(["loop", "--rounds", "1", *TINY[:4], "--search", "search:iterations=2,policy_model=a.onnx",
                             *TINY[6:],
                             "--out", str(tmp_path / "y")]) == 2
    assert "policy_model is set by the loop" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        distill_cli.main(["loop", "--rounds", "0", *TINY, "--out", str(tmp_path / "z")])
    assert "--rounds must be at least 1, got 0" in capsys.readouterr().err


def test_an_interrupted_loop_stops_at_once_and_keeps_its_finished_chunks(tmp_path):
    out = tmp_path / "loop"
    code, err, seconds = interrupt_once_kept(
        ["fcm_training.distill", "loop", "--rounds", "2", "--games", "5000", "--seed", "1", "--search",
         "search:iterations=2", "--opponents", "heuristic=1", "--max-rounds", "1", "--chunk", "1", "--eval-seed",
         "100000", "--out", str(out)], out / "round-0" / "positions", "seeds-*[0-9].npz")
    assert seconds < HANG_S and code == 130  # a hang check: benchmarks/bench_stop.py times it
    assert err[-1] == (f"fcm_training.distill loop: interrupted by SIGINT; finished chunks and "
                       f"rounds are kept in {out}: run the same command to go on")
    assert list((out / "round-0" / "positions").glob("seeds-*[0-9].npz"))
    assert not (out / "curve.jsonl").exists()


def test_the_league_names_are_the_loops_own_past_networks_and_the_strategist_family(tmp_path):
    from fcm_agents.strategist import ARCHETYPES

    config = LoopConfig(out=tmp_path, rounds=3, games=4, seed=93_000_000,
                        opponents={"past": 0.4, "family": 0.35, "heuristic": 0.25})
    family = ["strategist", *(f"strategist:archetype={a}" for a in ARCHETYPES)]
    first = config.opponents_of(0)  # no network of its own yet: the shipped policy stands for the league
    assert first == pytest.approx({"policy": 0.4, "heuristic": 0.25, **{f: 0.35 / len(family) for f in family}})
    third = config.opponents_of(2)
    assert third[f"onnx:{tmp_path / 'round-0' / 'pv.onnx'}"] == pytest.approx(0.2)
    assert third[f"onnx:{tmp_path / 'round-1' / 'pv.onnx'}"] == pytest.approx(0.2)
    assert "policy" not in third and sum(third.values()) == pytest.approx(1.0)

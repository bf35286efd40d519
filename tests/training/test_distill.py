"""Search distillation (``fcm_training.distill``): the search's labelled positions, the policy-value
network that starts as the shipped policy, its export, and the search reading it as prior and value."""

from __future__ import annotations

import numpy as np
import onnxruntime
import pytest
from stop_helpers import HANG_S, interrupt_once_kept

from fcm_agents import make_agent
from fcm_agents.match import play_game
from fcm_agents.models import graph_format, shipped_model_path, shipped_value_path
from fcm_agents.search.learned_value import LearnedValue
from fcm_env.encoding import Observer, legal_action_mask
from fcm_env.engine.game import Game
from fcm_training.distill import __main__ as distill_cli
from fcm_training.distill.fit import fit
from fcm_training.distill.network import export_onnx, from_shipped
from fcm_training.distill.positions import generate, load, play_positions

ITERATIONS = 4


def _positions(game: Game, seats: int = 2) -> tuple[np.ndarray, np.ndarray]:
    observer = Observer()
    obs = np.stack([observer.observe_flat(game, game.current_player) for _ in range(seats)])
    mask = np.stack([legal_action_mask(game, game.current_player).astype(np.float32)] * seats)
    return obs, mask


def test_the_network_starts_as_the_shipped_policy(tmp_path):
    export_onnx(from_shipped(shipped_model_path(2), shipped_value_path(2)), tmp_path / "pv.onnx")
    ours = onnxruntime.InferenceSession(str(tmp_path / "pv.onnx"))
    shipped = onnxruntime.InferenceSession(str(shipped_model_path(2)))
    assert [o.name for o in ours.get_outputs()] == ["action", "masked_logits", "value_logit"]
    assert graph_format(ours) == "policy-value/1" and ours.get_modelmeta().custom_metadata_map == {
        "fcm_format": "policy-value/1"}  # the file names its format
    game = Game.new(2, seed=11)
    heuristic = make_agent("heuristic", seed=0)
    for _ in range(40):  # a position with a real choice, some rounds in
        game.apply(heuristic.act_on_game(game, game.current_player))
    obs, mask = _positions(game)
    action, logits, value = ours.run(None, {"observation": obs, "action_mask": mask})
    want_action, want_logits = shipped.run(["action", "masked_logits"], {"observation": obs, "action_mask": mask})
    assert (action == want_action).all()
    legal = mask[0] > 0.5
    np.testing.assert_allclose(logits[:, legal], want_logits[:, legal], atol=1e-4)
    assert value.shape == (2,)
    # the next round starts from this file: every weight read back by name, the same graph
    export_onnx(from_shipped(tmp_path / "pv.onnx", None), tmp_path / "again.onnx")
    again = onnxruntime.InferenceSession(str(tmp_path / "again.onnx")).run(None, {"observation": obs, "action_mask": mask})
    np.testing.assert_array_equal(again[1], logits)
    np.testing.assert_array_equal(again[2], value)


def test_positions_keep_every_searched_decision_with_its_visits_and_the_result():
    rows = play_positions(5, f"search:iterations={ITERATIONS}", {"heuristic": 1.0}, max_rounds=2)
    assert rows["label"], "the search made no searched decision in two rounds"
    winners = None
    for legal, visits, label, meta in zip(rows["legal"], rows["visits"], rows["label"], rows["meta"], strict=True):
        assert visits.sum() == ITERATIONS  # each iteration leaves the root by one edge
        assert len(legal) == len(visits) >= 2 and len(set(legal.tolist())) == len(legal)
        seed, seat, _round, _lead, last_round, players = meta
        assert (seed, players, last_round) == (5, 2, 2)
        winners = winners or {}
        winners[seat] = label
    assert len(winners) == 1  # one search seat against the heuristic: its rows alone


@pytest.mark.parametrize("opponents", [{"heuristic": 1.0}, {"self": 1.0}, {"policy": 1.0}])
def test_positions_are_the_same_on_either_engine(opponents):
    """The native core plays the same games, the same observation bytes and the native search the same trees:
    labelling on the Python engine with the Python search gives the very positions of the native run."""
    python = play_positions(7, f"search:iterations={ITERATIONS},engine=python", opponents, max_rounds=3,
                            engine="python")
    native = play_positions(7, f"search:iterations={ITERATIONS},engine=native", opponents, max_rounds=3,
                            engine="native")
    assert python["label"] and python.keys() == native.keys()
    for key in python:
        assert len(python[key]) == len(native[key]), key
        for a, b in zip(python[key], native[key], strict=True):
            np.testing.assert_array_equal(np.asarray(a), np.asarray(b), err_msg=key)


def test_positions_are_written_per_chunk_and_a_second_run_plays_only_the_missing_ones(tmp_path):
    search = f"search:iterations={ITERATIONS}"
    assert generate(20, 3, tmp_path, search, {"heuristic": 1.0, "self": 1.0}, chunk=2, max_rounds=1)[0] == 2
    (tmp_path / "seeds-22.npz").unlink()  # as if the run had stopped before the last chunk ended
    chunks, positions = generate(20, 3, tmp_path, search, {"heuristic": 1.0, "self": 1.0}, chunk=2, max_rounds=1)
    assert chunks == 1 and positions > 0
    data = load([tmp_path])
    assert data["off"][-1] == len(data["idx"]) and data["legal_off"][-1] == len(data["legal"])
    assert sorted(set(data["meta"][:, 0].tolist())) == [20, 21, 22]


def test_bad_settings_are_named(tmp_path):
    with pytest.raises(ValueError, match="'heuristic' is not a search agent spec"):
        generate(0, 1, tmp_path, "heuristic", {"heuristic": 1.0})
    with pytest.raises(ValueError, match="unknown agent"):
        generate(0, 1, tmp_path, "search:iterations=2", {"nobody": 1.0})
    with pytest.raises(ValueError, match="positive weights"):
        generate(0, 1, tmp_path, "search:iterations=2", {"heuristic": 0.0})
    with pytest.raises(ValueError, match="policy_model=nowhere.onnx: no such file"):
        play_game([make_agent("search:iterations=2,policy_model=nowhere.onnx", seed=0), make_agent("heuristic")],
                  seed=0, max_rounds=1)


def test_a_fitted_network_plays_and_the_search_reads_it_as_prior_and_value(tmp_path, capsys):
    assert distill_cli.main(["positions", "--games", "10", "--seed", "30", "--search", f"search:iterations={ITERATIONS}",
                             "--opponents", "heuristic=1", "--chunk", "5", "--max-rounds", "2", "--out", str(tmp_path / "pos")]) == 0
    out = tmp_path / "pv.onnx"
    best = fit([tmp_path / "pos"], out, shipped_model_path(2), shipped_value_path(2), epochs=1, batch=16,
               log=lambda _line: None)
    assert set(best) == {"loss", "policy", "value", "agreement", "accuracy"} and 0 <= best["agreement"] <= 1
    result = play_game([make_agent(f"onnx:{out}", seed=0), make_agent("heuristic", seed=1)], seed=3, max_rounds=2)
    assert result.rounds == 2  # the exported graph plays whole rounds with the policy's interface
    search = make_agent(f"search:iterations={ITERATIONS},policy_model={out}", seed=0)
    play_game([search, make_agent("heuristic", seed=1)], seed=4, max_rounds=1)
    assert search.stats.searched > 0
    assert isinstance(search._value, LearnedValue) and search._prior == "policy"
    assert search._own_policy is not None and search._own_policy is not search._policy
    assert distill_cli.main(["fit", str(tmp_path / "nothing"), "--out", str(out)]) == 2
    assert "nothing: no such positions file or folder" in capsys.readouterr().err


def test_an_interrupted_positions_run_stops_at_once_keeping_its_finished_chunks(tmp_path):
    out = tmp_path / "pos"
    code, err, seconds = interrupt_once_kept(
        ["fcm_training.distill", "positions", "--games", "5000", "--seed", "1", "--search", "search:iterations=2",
         "--opponents", "heuristic=1", "--max-rounds", "1", "--chunk", "1", "--workers", "2", "--out", str(out)],
        out, "seeds-*[0-9].npz")
    assert seconds < HANG_S and code == 130  # a hang check: benchmarks/bench_stop.py times it
    assert err == [(f"fcm_training.distill positions: interrupted by SIGINT; the finished chunks "
                    f"are kept in {out}: run the same command to play the rest")]
    kept = load([out])
    assert len(set(kept["meta"][:, 0].tolist())) >= 1  # whole chunks only: every kept file loads


def test_opponent_weights_read_specs_with_a_parameter():
    import argparse

    from fcm_training.distill.__main__ import _weights

    assert _weights("heuristic=0.5,strategist:archetype=cfo=0.25,strategist") == {
        "heuristic": 0.5, "strategist:archetype=cfo": 0.25, "strategist": 1.0}
    assert _weights("strategist:archetype=drinks") == {"strategist:archetype=drinks": 1.0}
    with pytest.raises(argparse.ArgumentTypeError, match="a weight is a number"):
        _weights("heuristic=lots")

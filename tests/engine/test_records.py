"""Game records: capture while playing, save, load, replay exactly, and report where a replay breaks.

docs/state-format.md: a game record (seed, players, variant, actions) replays exactly.
"""

# python-only (every test of this file): records replay on the Python engine (fcm_env.engine.persistence.records); a native game's record equals the Python one's in tests/native/test_native_matches.py

from __future__ import annotations

import json
import random
import re

import pytest

from fcm_env.data import EmployeeType as E
from fcm_env.engine.actions import Action, Decision, Pending
from fcm_env.engine.game import Game
from fcm_env.engine.persistence.records import (
    FORMAT,
    GameRecord,
    GameResult,
    RecordFormatError,
    ReplayError,
    new_recorded_game,
    replay,
    result_of,
    start_recording,
)
from fcm_env.engine.persistence.serialize import state_diff
from fcm_env.engine.state import Restaurant

STEP_LIMIT = 120


def _play(num_players: int, seed: int, variant: str = "standard") -> tuple[Game, list[str]]:
    """A recorded random game and its state document (as JSON text) after every action."""
    rng = random.Random(seed)
    game = new_recorded_game(num_players, seed=seed, variant=variant)
    docs = [json.dumps(game.to_dict())]
    while game.pending is not None and len(docs) <= STEP_LIMIT:
        game.apply(rng.choice(game.legal_actions()))
        docs.append(json.dumps(game.to_dict()))
    return game, docs


@pytest.mark.parametrize("variant", ["standard", "introductory"])
@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_a_record_saves_loads_and_replays_to_the_same_final_state(tmp_path, num_players, variant):
    game, docs = _play(num_players, seed=num_players, variant=variant)
    record = GameRecord.from_game(game, agents=[f"random-{p}" for p in range(num_players)], meta={"note": "test"})
    assert len(record.actions) == len(docs) - 1 == len(game.history)
    path = tmp_path / "game.record.json"
    record.save(path)
    loaded = GameRecord.load(path)
    assert loaded == record
    again = replay(loaded)
    assert json.dumps(again.to_dict()) == docs[-1]
    assert state_diff(again.state, game.state) == []
    assert again.history == record.actions  # a replayed game keeps recording
    for upto in (0, 1, len(docs) // 2, len(docs) - 1):
        assert json.dumps(replay(loaded, upto=upto).to_dict()) == docs[upto]


def test_record_document_hand_checked():
    game = new_recorded_game(2, seed=0)
    # seed 0, 2 players: player 1 places first (setup goes in reverse turn order)
    assert game.pending.decision == Decision.INITIAL_RESTAURANT and game.pending.player == 1
    game.apply(Action.place_restaurant(0, 0, 3))
    doc = GameRecord.from_game(game, agents=["alice", "bob"]).to_dict()
    assert doc == {
        "format": "fcm-magnate/record",
        "version": 1,
        "num_players": 2,
        "seed": 0,
        "variant": "standard",
        "max_rounds": None,  # Game.new plays by the rules: no round cap
        "board": [["K2", "I2", "H3"], ["P1", "D3", "E2"], ["B0", "A1", "S3"]],
        "actions": [["PLACE_RESTAURANT", [0, 0, 3]]],
        "result": None,
        "agents": ["alice", "bob"],
        "meta": {},
        "events": None,
    }
    assert json.loads(GameRecord.from_game(game).to_json())["format"] == FORMAT


def test_a_hand_written_minimal_record_replays():
    # board, max_rounds, result, agents and meta may be left out
    text = json.dumps({
        "format": "fcm-magnate/record",
        "version": 1,
        "num_players": 2,
        "seed": 0,
        "actions": [["PLACE_RESTAURANT", [0, 0, 3]], ["PLACE_RESTAURANT", [0, 7, 2]]],
    })
    record = GameRecord.from_json(text)
    assert record.board is None and record.variant == "standard" and record.result is None
    game = replay(record)
    assert game.state.players[1].restaurants == [Restaurant(0, 0, 3)]
    assert game.state.players[0].restaurants == [Restaurant(0, 7, 2)]


def test_a_record_with_a_wrong_action_names_the_step():
    game, _ = _play(3, seed=8)
    record = GameRecord.from_game(game)
    assert len(record.actions) > 10
    record.actions[6] = Action.fire(E.CEO)  # never legal: the CEO cannot be fired
    with pytest.raises(ReplayError, match=re.escape('step 6: ["FIRE", [0]] (fire ceo) does not replay')) as info:
        replay(record)
    assert info.value.step == 6 and info.value.action == Action.fire(E.CEO)
    assert replay(record, upto=6).to_dict() == replay(GameRecord.from_game(game), upto=6).to_dict()


def test_a_record_that_ends_early_is_reported():
    game = new_recorded_game(2, seed=1)
    game.apply(game.legal_actions()[0])
    record = GameRecord.from_game(game)
    record.result = GameResult(winners=[0], cash=[50, 20], rounds=3)
    with pytest.raises(ReplayError, match=r"step 1: the record says the game ended, but after 1 actions"):
        replay(record)
    replay(record, upto=1)  # a partial replay does not check the result


def test_replay_upto_must_be_within_the_record():
    record = GameRecord(num_players=2, seed=0, actions=[Action.place_restaurant(0, 0, 3)])
    for bad in (-1, 2):
        with pytest.raises(ValueError, match="upto must be between 0 and 1"):
            replay(record, upto=bad)


def test_history_is_opt_in_copied_by_clone_and_not_saved():
    game = Game.new(2, seed=0)
    assert game.history is None
    first = game.legal_actions()[0]
    game.apply(first)
    assert game.history is None  # not recording
    with pytest.raises(ValueError, match="not recorded"):
        GameRecord.from_game(game)
    start_recording(game)
    second = game.legal_actions()[0]
    game.apply(second)
    assert game.history == [second]
    twin = game.clone()
    twin.apply(twin.legal_actions()[0])
    assert len(twin.history) == 2 and game.history == [second]  # the clone's log is its own
    assert Game.from_dict(game.to_dict()).history is None
    assert "history" not in game.to_dict()


def test_result_of_a_running_game_is_none():
    assert result_of(Game.new(3, seed=2)) is None


def test_meta_and_agents_survive_a_round_trip():
    record = GameRecord(num_players=3, seed=9, variant="introductory", max_rounds=12, agents=["a", "b", "c"],
                        meta={"date": "2024-05-01", "elo": [1200, 1250.5, None], "nested": {"ok": True}},
                        result=GameResult(winners=[2], cash=[10, 20, 30], rounds=12),
                        actions=[Action.turn_spot(1), Action.haul(E.TRUCK_DRIVER, 1, 0, 2)])
    again = GameRecord.from_json(record.to_json())
    assert again == record
    assert again.actions[1] == Action.haul(E.TRUCK_DRIVER, 1, 0, 2)


def _record_doc() -> dict:
    return GameRecord(num_players=2, seed=0, actions=[Action.place_restaurant(0, 0, 3)]).to_dict()


BAD_RECORDS = [
    (lambda d: d.update(format="fcm-magnate/state"), "format: expected 'fcm-magnate/record'"),
    (lambda d: d.update(version=3), "version: unsupported version 3"),
    (lambda d: d.update(seeds=1), "unknown field 'seeds' (did you mean 'seed'?)"),
    (lambda d: d.pop("seed"), "missing field 'seed'"),
    (lambda d: d.update(seed="0"), 'seed: expected an integer, got "0"'),
    (lambda d: d.update(num_players=7), "num_players: expected 2 to 5, got 7"),
    (lambda d: d.update(variant="advanced"), "variant: expected one of ['standard', 'introductory']"),
    (lambda d: d.update(max_rounds=0), "max_rounds: must be null (no cap) or at least 1, got 0"),
    (lambda d: d["actions"].append(["PLACE_RESTAURNT", [1, 2, 3]]), "actions[1][0]: unknown ActionKind"),
    (lambda d: d["actions"].append(["PASS"]), "actions[1]: expected [kind, [args]]"),
    (lambda d: d["actions"].append(["TRAIN", [17, "x", 2]]), 'actions[1][1][1]: expected an integer, got "x"'),
    (lambda d: d.update(agents=["a"]), "agents: expected 2 names, got 1"),
    (lambda d: d.update(agents=["a", 5]), "agents[1]: expected a str, got 5"),
    (lambda d: d.update(board=[["A0", "A1", "B0"]]), "board: bad tile layout: board layout uses a map tile twice"),
    (lambda d: d.update(result={"winners": [0], "cash": [1], "rounds": 2}), "result.cash: expected 2 amounts"),
    (lambda d: d.update(result={"winners": [4], "cash": [1, 2], "rounds": 2}), "result.winners: not player ids"),
    (lambda d: d.update(result={"winners": [0], "cash": [1, 2]}), "result: missing field 'rounds'"),
    (lambda d: d.update(meta=[1]), "meta: expected an object, got [1]"),
]


@pytest.mark.parametrize("mutate,message", BAD_RECORDS, ids=[m for _, m in BAD_RECORDS])
def test_malformed_records_name_the_field(mutate, message):
    doc = _record_doc()
    mutate(doc)
    with pytest.raises(RecordFormatError, match=re.escape(message)):
        GameRecord.from_dict(doc)


def test_a_record_file_that_is_not_json_is_reported(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("[1, 2", encoding="utf-8")
    with pytest.raises(RecordFormatError, match="bad.json: not valid JSON"):
        GameRecord.load(path)
    with pytest.raises(RecordFormatError, match="a record document is a JSON object, got list"):
        GameRecord.from_json("[]")


def test_pending_in_state_is_unaffected_by_recording():
    game = new_recorded_game(2, seed=0)
    plain = Game.new(2, seed=0)
    assert game.pending == plain.pending == Pending(Decision.INITIAL_RESTAURANT, 1, game.pending.context)
    assert game.to_dict() == plain.to_dict()


def _finished_game(num_players: int, seed: int) -> Game:
    rng = random.Random(seed)
    game = new_recorded_game(num_players, seed=seed, max_rounds=2)
    steps = 0
    while game.pending is not None and steps < 3000:
        game.apply(rng.choice(game.legal_actions()))
        steps += 1
    return game


@pytest.mark.parametrize("num_players", [2, 4])
def test_a_finished_game_records_its_result_and_the_replay_checks_it(num_players):
    game = _finished_game(num_players, seed=num_players)
    if not game.is_over:
        pytest.skip("random play did not finish a 2-round game in 3000 actions")
    record = GameRecord.from_game(game)
    result = record.result
    assert result == GameResult(winners=list(game.winners), cash=[p.cash for p in game.state.players],
                                rounds=result.rounds, truncated=game.state.truncated)
    assert 1 <= result.rounds <= 2  # max_rounds=2: at most two rounds are played
    assert GameRecord.from_json(record.to_json()) == record
    assert replay(record).to_dict() == game.to_dict()
    record.result = GameResult(winners=result.winners, cash=[c + 1 for c in result.cash], rounds=result.rounds,
                               truncated=result.truncated)
    with pytest.raises(ReplayError, match=rf"step {len(record.actions)}: the replay ends with"):
        replay(record)

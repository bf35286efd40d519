"""Files are read with the one strict JSON reader: a record, a saved state or a tournament line nested 100,000
levels deep is refused with one line, never a RecursionError traceback (fcm_env/engine/persistence/strict_json.py)."""

from __future__ import annotations

import pytest
from cli_helpers import run_fcm

from fcm_apps import cli
from fcm_env.engine.persistence.records import GameRecord, new_recorded_game
from fcm_env.engine.persistence.strict_json import JsonRefused, loads_strict

DEEP = "[" * 100_000 + "]" * 100_000
REFUSED = "not accepted: JSON nested deeper than 32 levels"


@pytest.fixture
def deep_record(tmp_path):
    game = new_recorded_game(2, seed=1)
    text = GameRecord.from_game(game, agents=["a", "b"]).to_json().replace('"meta": {}', '"meta": {"x": DEEP}')
    path = tmp_path / "deep.json"
    path.write_text(text.replace("DEEP", DEEP), encoding="utf-8")
    assert "DEEP" not in path.read_text() and len(path.read_text()) > 200_000
    return path


def test_the_reader_refuses_deep_json_without_recursing():
    with pytest.raises(JsonRefused, match=REFUSED):
        loads_strict(DEEP)
    with pytest.raises(JsonRefused, match="the key 'a' appears twice"):
        loads_strict('{"a": 1, "a": 2}')
    assert len(loads_strict("[" * 32 + "]" * 32)) == 1  # 32 levels are fine, 33 are not
    with pytest.raises(JsonRefused, match=REFUSED):
        loads_strict("[" * 33 + "]" * 33)


@pytest.mark.parametrize("args", [["replay", "{path}"], ["replay", "{path}", "--events"]])
def test_fcm_replay_refuses_a_deep_record_in_one_line(deep_record, capsys, args):
    code = cli.main([a.format(path=deep_record) for a in args])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and err[0].endswith(REFUSED), err


def test_fcm_play_resume_refuses_a_deep_record_in_one_line(deep_record):
    done = run_fcm("play", "--resume", str(deep_record), stdin="q\n")
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == [f"fcm play: error: {deep_record}: {REFUSED}"]
    assert "Traceback" not in done.stderr


def test_fcm_evaluate_resume_refuses_a_deep_games_line(tmp_path, capsys):
    out = tmp_path / "run"
    args = ["evaluate", "--lineup", "random,random", "--games", "2", "--max-rounds", "2", "--no-records",
            "--no-progress", "--out", str(out)]
    assert cli.main(args) == 0
    games = out / "games.jsonl"
    games.write_text(games.read_text().splitlines()[0] + "\n" + DEEP + "\n")
    capsys.readouterr()
    code = cli.main([*args[:-2], "--resume", str(out)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and REFUSED in err[0] and f"{games}:2" in err[0], err


def test_fcm_web_refuses_a_deep_replay_file_at_start_in_one_line(deep_record):
    done = run_fcm("web", "--replay", str(deep_record), "--port", "0")
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.strip().splitlines() == [f"fcm web: error: replay: cannot read {deep_record}: {REFUSED}"]

"""Bad options fail at once with an error that names the option; replay checks its options and its
file before printing anything; counts of one read in the singular."""

from __future__ import annotations

import pytest
from cli_helpers import png_size

from fcm_agents.match import play_game
from fcm_agents.registry import make_agent
from fcm_apps import cli
from fcm_env.engine.persistence.records import replay
from fcm_env.picture import layout
from fcm_env.tables import plural


def _usage_error(argv: list[str], capsys) -> str:
    """The stderr of an argparse refusal (exit 2, nothing on stdout)."""
    with pytest.raises(SystemExit) as stop:
        cli.main(argv)
    assert stop.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    return err


# ------------------------------------------------------------------ option values


@pytest.mark.parametrize("command", ["map", "simulate", "evaluate", "play", "bench", "leaderboard"])
def test_a_negative_seed_names_the_option(command, capsys):
    err = _usage_error([command, "--seed", "-1"], capsys)
    assert f"fcm {command}: error: argument --seed: expected a non-negative integer, got -1" in err


@pytest.mark.parametrize(("command", "option"), [
    ("simulate", "--workers"), ("evaluate", "--workers"), ("leaderboard", "--workers"),
    ("simulate", "--games"), ("evaluate", "--games"), ("bench", "--games"), ("leaderboard", "--games"),
    ("simulate", "--max-rounds"), ("play", "--max-rounds"), ("leaderboard", "--max-rounds"),
    ("bench", "--positions"), ("bench", "--reps"),
])
def test_a_count_below_one_names_the_option(command, option, capsys):
    err = _usage_error([command, option, "0"], capsys)
    assert f"fcm {command}: error: argument {option}: expected an integer of at least 1, got 0" in err


def test_a_seed_that_is_not_a_number_names_the_option(capsys):
    err = _usage_error(["map", "--seed", "x"], capsys)
    assert "argument --seed: expected an integer, got 'x'" in err


# ------------------------------------------------------------------ replay


@pytest.fixture(scope="module")
def record_file(tmp_path_factory):
    result = play_game([make_agent("heuristic", 1), make_agent("random", 2)], seed=5, max_rounds=3)
    path = tmp_path_factory.mktemp("rec") / "game.json"
    result.record.save(path)
    return path, result


def _refused(argv: list[str], capsys) -> str:
    """The one-line error of a refused replay: exit 2 and nothing printed on stdout."""
    assert cli.main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("fcm replay: error: ")
    return err


@pytest.mark.parametrize("scale", ["4", "15", "129"])
def test_replay_refuses_a_bad_scale_before_printing_the_board(scale, record_file, tmp_path, capsys):
    png = tmp_path / "x.png"
    err = _refused(["replay", str(record_file[0]), "--png", str(png), "--scale", scale], capsys)
    assert f"--scale must be 16..128 pixels per map square, got {scale}" in err
    assert not png.exists()


def test_replay_scale_without_png_is_refused(record_file, capsys):
    err = _refused(["replay", str(record_file[0]), "--scale", "32"], capsys)
    assert "--scale sizes the --png picture" in err


def test_replay_writes_a_picture_at_the_smallest_scale(record_file, tmp_path, capsys):
    path, result = record_file
    png = tmp_path / "small.png"
    assert cli.main(["replay", str(path), "--png", str(png), "--scale", "16"]) == 0
    height, width = replay(result.record).state.board.shape
    lay = layout(height, width, 16)
    assert png_size(png.read_bytes()) == (lay.width, lay.height)


def test_replay_refuses_a_png_in_a_missing_folder(record_file, tmp_path, capsys):
    err = _refused(["replay", str(record_file[0]), "--png", str(tmp_path / "nope" / "x.png")], capsys)
    assert f"the folder {tmp_path / 'nope'} does not exist" in err


@pytest.mark.parametrize("option", ["--round", "--player"])
def test_replay_filters_need_events(option, record_file, capsys):
    err = _refused(["replay", str(record_file[0]), option, "1"], capsys)
    assert f"{option} filters the --events account: add --events" in err


@pytest.mark.parametrize(("argv", "expected"), [
    (["--events", "--list"], "--events and --list are two different printouts"),
    (["--events", "--step", "3"], "--events covers the whole record: it does not go with --step"),
    (["--list", "--final"], "--list covers the whole record: it does not go with --final"),
])
def test_replay_refuses_options_it_would_ignore(argv, expected, record_file, capsys):
    assert expected in _refused(["replay", str(record_file[0]), *argv], capsys)


def test_replay_events_round_outside_the_game_is_refused(record_file, capsys):
    path, result = record_file
    rounds = replay(result.record).state.round
    err = _refused(["replay", str(path), "--events", "--round", str(rounds + 1)], capsys)
    assert f"--round must be 0..{rounds} (0: the setup, then the rounds of this game), got {rounds + 1}" in err
    assert "got -1" in _refused(["replay", str(path), "--events", "--round", "-1"], capsys)
    assert cli.main(["replay", str(path), "--events", "--round", str(rounds)]) == 0


def test_replay_events_round_0_is_the_setup(record_file, capsys):
    # --list shows the setup's moves first; --events --round 0 tells them, under the setup's headings
    path, _result = record_file
    assert cli.main(["replay", str(path), "--events", "--round", "0"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "setup: first restaurants" and "setup: reserve cards" in lines
    assert not any(line.startswith("round ") for line in lines)
    assert any(line.startswith("  player 0: keep the $") for line in lines)


def test_replay_names_a_binary_file_and_what_is_wrong(tmp_path, capsys):
    binary = tmp_path / "picture.json"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\xff")
    err = _refused(["replay", str(binary)], capsys)
    assert f"fcm replay: error: {binary}: not a game record: not UTF-8 text (byte 0)" in err


@pytest.mark.parametrize(("name", "content", "expected"), [
    ("missing.json", None, "no such file"),
    ("folder", "DIR", "is a folder, not a game record"),
    ("list.json", "[1, 2]", "a record document is a JSON object, got list"),
    ("cut.json", '{"format": ', "not valid JSON"),
])
def test_replay_names_an_unreadable_file(name, content, expected, tmp_path, capsys):
    path = tmp_path / name
    if content == "DIR":
        path.mkdir()
    elif content is not None:
        path.write_text(content)
    err = _refused(["replay", str(path)], capsys)
    assert err.startswith(f"fcm replay: error: {path}: ") and expected in err
    assert str(path) not in err.split(f"{path}: ", 1)[1]  # named once


# ------------------------------------------------------------------ counts


def test_plural():
    assert [plural(n, "game") for n in (0, 1, 2)] == ["0 games", "1 game", "2 games"]
    assert plural(3, "match", "matches") == "3 matches"


def test_one_game_reads_in_the_singular(capsys):
    assert cli.main(["simulate", "--agents", "heuristic,random", "--games", "1", "--max-rounds", "1",
                     "--no-progress"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("1 game of 2 players (heuristic, random), seed 0, standard, max 1 round; ")

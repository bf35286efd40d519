"""``fcm play``: a human seat driven by scripted stdin, from setup to the winner."""

from __future__ import annotations

import itertools
import re

from cli_helpers import run_fcm

from fcm_env import cli
from fcm_env.engine.records import GameRecord, replay

# input policy: a few bad answers and commands first, then always the first choice (pass whenever
# passing is allowed); max rounds end the game, so "1" forever finishes it
SCRIPT = "x\n0\n999\n\n?\nb\nl\n" + "1\n" * 3000


def test_a_whole_game_with_scripted_input_ends_with_a_winner(tmp_path):
    path = tmp_path / "game.json"
    done = run_fcm("play", "--players", "2", "--seat", "0", "--opponents", "heuristic", "--seed", "3",
                   "--max-rounds", "3", "--save-record", str(path), stdin=SCRIPT)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "'x' is not a choice: type a number from 1 to" in out
    assert "'0' is not a choice" in out and "'999' is not a choice" in out
    assert "'(empty line)' is not a choice" in out
    assert "commands: a number picks that choice" in out  # ?
    assert "== game over after round 3 (max rounds reached) ==" in out
    winner = int(re.search(r"^winner: player (\d)", out, re.MULTILINE).group(1))
    record = GameRecord.load(path)
    game = replay(record)  # the saved record replays to its result
    assert game.is_over and list(game.winners) == [winner] == record.result.winners
    assert record.agents == ["human", "heuristic"]
    assert "you: pass" in out


def test_the_board_shows_once_per_phase_and_on_request():
    done = run_fcm("play", "--players", "2", "--seed", "3", "--max-rounds", "2", stdin=SCRIPT)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    phases = [line for line in lines if line.startswith("== round ")]
    boards = [i for i, line in enumerate(lines) if line.startswith("legend:")]
    assert len(boards) <= len(phases) + 1 + 1  # one per phase at most, + the "b" request, + the final board
    # between two boards a phase header or the "b" request always comes
    for a, b in itertools.pairwise(boards):
        between = lines[a:b]
        assert any(line.startswith("== round ") for line in between) or any(
            line.endswith(": b") for line in between
        )


def test_bot_secret_choices_are_not_shown():
    done = run_fcm("play", "--players", "3", "--seed", "2", "--opponents", "heuristic,random",
                   "--max-rounds", "3", stdin=SCRIPT)
    assert done.returncode == 0, done.stderr
    bot_lines = [line for line in done.stdout.splitlines() if re.match(r"  player [12] \(", line)]
    assert any("chooses in secret (RESTRUCTURE)" in line for line in bot_lines)  # rules: Phase 1
    assert any("chooses in secret (RESERVE_CARD)" in line for line in bot_lines)  # rules: Setting goals
    assert not any("put to work" in line or "keep reserve card" in line or "fire " in line for line in bot_lines)


def test_input_ending_early_leaves_the_game_unfinished(tmp_path):
    path = tmp_path / "partial.json"
    done = run_fcm("play", "--players", "2", "--max-rounds", "3", "--save-record", str(path), stdin="1\n")
    assert done.returncode == 1
    assert "input ended before the game did" in done.stdout
    record = GameRecord.load(path)
    assert record.result is None and record.actions  # the record so far, which still replays
    assert not replay(record).is_over


def test_quit():
    done = run_fcm("play", "--players", "2", stdin="q\n")
    assert done.returncode == 1
    assert "quit: the game is unfinished" in done.stdout


def test_bad_play_options_exit_2(capsys):
    assert cli.main(["play", "--seat", "2"]) == 2
    assert "--seat must be a player id 0..1, got 2" in capsys.readouterr().err
    assert cli.main(["play", "--players", "3", "--opponents", "a,b,c"]) == 2
    assert "give one spec or 2 (one per other player), got 3" in capsys.readouterr().err

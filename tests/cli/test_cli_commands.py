"""``fcm`` subcommands run as subprocesses: exit codes, printed tables, files written."""

from __future__ import annotations

import csv
import json
import sys
import types

import pytest
from cli_helpers import ROOT, png_size, run_fcm

from fcm_agents.match import play_game
from fcm_agents.registry import make_agent
from fcm_apps import cli
from fcm_apps.cli import batches
from fcm_env.engine.persistence.records import GameRecord, replay
from fcm_env.picture import layout
from fcm_env.text.words import decision_name, move_now_text, phase_title

SUBCOMMANDS = ("map", "simulate", "evaluate", "play", "replay", "bench", "serve", "train")


def test_fcm_help_lists_every_subcommand():
    done = run_fcm("--help")
    assert done.returncode == 0, done.stderr
    for command in SUBCOMMANDS:
        assert f"    {command} " in done.stdout


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_every_subcommand_has_help(command, capsys):
    # in-process (argparse prints the help and exits 0): one interpreter start per command is slow
    with pytest.raises(SystemExit) as exit_info:
        cli.main([command, "--help"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.startswith(f"usage: fcm {command}")


HELP_DEFAULTS = {  # one option's shown default per subcommand that has options with values
    "map": "(default: 4)", "simulate": "(default: 50)", "evaluate": "(default: 200)", "play": "(default: 2)",
    "bench": "(default: 2,3,4,5)",
}


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_help_shows_defaults_but_not_empty_ones(command, capsys):
    with pytest.raises(SystemExit):
        cli.main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())  # argparse wraps lines
    if command in HELP_DEFAULTS:
        assert HELP_DEFAULTS[command] in text
    assert "(default: None)" not in text and "(default: False)" not in text


@pytest.mark.parametrize("command", ["simulate", "evaluate", "play"])
def test_the_agent_options_list_every_kind_of_spec(command, capsys):
    with pytest.raises(SystemExit):
        cli.main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for kind in ("random", "heuristic", "policy", "onnx:PATH", "search", "flat:KEY=VALUE", "llm:base_url=URL,model=NAME"):
        assert kind in text, kind


def test_version_prints_the_installed_version(capsys):
    from importlib.metadata import version

    with pytest.raises(SystemExit) as exit_info:
        cli.main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out == f"fcm-magnate {version('fcm-magnate')}\n"


def test_no_subcommand_is_a_usage_error():
    done = run_fcm()
    assert done.returncode == 2
    assert "usage: fcm" in done.stderr


def test_models_lists_every_shipped_file_with_its_real_path_and_digest(capsys):
    """A bare onnxruntime front end needs the file's path: ``fcm models`` says where each one lies."""
    import hashlib
    from pathlib import Path

    assert cli.main(["models", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert [(m["kind"], m["num_players"]) for m in found] == [("policy", 2), ("policy", 3), ("policy", 4),
                                                               ("policy", 5), ("value", 2)]
    for m in found:
        path = Path(m["path"])
        assert path.name == m["file"] and path.stat().st_size == m["bytes"]
        assert hashlib.sha256(path.read_bytes()).hexdigest() == m["sha256"]
    assert {m["format"] for m in found} == {"policy-value/1", "value/1"}
    assert cli.main(["models"]) == 0
    table = capsys.readouterr().out
    assert all(m["path"] in table for m in found)


def test_map_prints_the_layout():
    done = run_fcm("map", "--players", "2", "--seed", "1")
    assert done.returncode == 0
    assert done.stdout.startswith("3x3 tiles: ")  # rules: Setting up (2 players: 3x3 tiles)


def test_map_without_a_seed_draws_a_new_map_and_says_the_seed_that_draws_it_again():
    first, second = run_fcm("map", "--players", "3"), run_fcm("map", "--players", "3")
    seeds = []
    for done in (first, second):
        *board, last = done.stdout.strip().splitlines()
        seed = int(last.split()[2].rstrip(":"))
        assert last == f"map seed {seed}: fcm map --players 3 --seed {seed} draws it again"
        again = run_fcm("map", "--players", "3", "--seed", str(seed))
        assert again.stdout.strip().splitlines() == board  # the same map, no seed line when it was given
        seeds.append(seed)
    assert seeds[0] != seeds[1]  # 2**32 seeds: the same twice would be a broken draw


# ------------------------------------------------------------------ simulate / evaluate


def table_rows(stdout: str) -> dict[str, list[str]]:
    """The results table's agent rows, by agent name."""
    lines = stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.split()[:3] == ["agent", "games", "seats"])
    assert set(lines[start + 1]) == {"-"}  # the rule under the header
    rows = {}
    for line in lines[start + 2:]:
        if "; ended by the bank" in line:
            break
        cells = line.split()
        rows[cells[0]] = cells[1:]
    return rows


def test_simulate_prints_the_table_and_writes_results_and_records(tmp_path):
    out = tmp_path / "sim"
    done = run_fcm("simulate", "--agents", "heuristic,random", "--games", "2", "--max-rounds", "4",
                   "--out", str(out), "--records", "--no-progress")
    assert done.returncode == 0, done.stderr
    rows = table_rows(done.stdout)
    assert sorted(rows) == ["heuristic", "random"]
    assert rows["heuristic"][:2] == ["2", "2"] and rows["random"][:2] == ["2", "2"]  # games, seats
    for cells in rows.values():
        assert int(cells[2]) + int(cells[3]) + int(cells[4]) == 2  # wins + ties + losses = games
    assert "2 games; ended by the bank: 0 (0.0%); truncated by max_rounds: 2 (100.0%)" in done.stdout  # 4 rounds
    summary = json.loads((out / "summary.json").read_text())
    assert summary["config"]["lineup"] == ["heuristic", "random"]
    assert summary["config"]["max_rounds"] == 4
    assert [g["seed"] for g in summary["games"]] == [0, 1]
    with (out / "games.csv").open() as f:
        assert len(list(csv.reader(f))) == 3  # header + 2 games
    for game in summary["games"]:
        record = GameRecord.load(out / "records" / f"game_{game['seed']}.json")
        replayed = replay(record)  # checks the record's result too
        assert replayed.is_over
        assert list(replayed.winners) == game["winners"]
        assert [int(p.cash) for p in replayed.state.players] == game["cash"]


def test_simulate_shows_progress_on_stderr():
    done = run_fcm("simulate", "--agents", "random,random", "--games", "2", "--max-rounds", "2")
    assert done.returncode == 0
    assert "2/2" in done.stderr  # the plain counter (stderr is a pipe)


def test_simulate_rejects_records_without_out_and_bad_agents(capsys):
    # error paths in-process (the subprocess runs above cover the wiring)
    assert cli.main(["simulate", "--games", "1", "--records"]) == 2
    assert "--records needs --out" in capsys.readouterr().err
    assert cli.main(["simulate", "--agents", "heuristic,nobody", "--games", "1"]) == 2
    assert "unknown agent 'nobody'" in capsys.readouterr().err


def test_evaluate_fills_the_table_from_the_lineup_and_saves_by_default(tmp_path):
    done = run_fcm("evaluate", "--lineup", "heuristic,random", "--players", "3", "--games", "3",
                   "--max-rounds", "3", "--no-progress", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    (run_dir,) = (tmp_path / "runs").iterdir()
    assert run_dir.name.startswith("eval-")
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["config"]["lineup"] == ["heuristic", "random", "heuristic"]
    assert len(list((run_dir / "records").iterdir())) == 3
    rows = table_rows(done.stdout)
    assert rows["heuristic"][:2] == ["3", "6"] and rows["random"][:2] == ["3", "3"]  # games; seats: 2x3, 1x3


def test_evaluate_counts_games_once_however_many_seats_an_agent_has(tmp_path):
    # a 4-seat table from a 2-agent lineup used to report 2x the games (seat appearances)
    done = run_fcm("evaluate", "--lineup", "heuristic,random", "--players", "4", "--games", "2",
                   "--max-rounds", "2", "--no-progress", "--no-records", "--out", str(tmp_path / "ev"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("2 games of 4 players (heuristic, random, heuristic, random)")
    rows = table_rows(done.stdout)
    assert rows["heuristic"][:2] == ["2", "4"] and rows["random"][:2] == ["2", "4"]
    assert "\n2 games; ended by the bank: 0 (0.0%)" in done.stdout
    summary = json.loads((tmp_path / "ev" / "summary.json").read_text())
    for agent in summary["agents"]:
        assert agent["wins"] + agent["ties"] + agent["losses"] == agent["games"] == 2
        assert agent["ties"] >= 1  # the game below
    # seed 1: everyone ends at $0 in 2 rounds: the rules still name a winner (the earliest seat),
    # the tournament counts a tie for both agents
    (at_zero,) = [g for g in summary["games"] if g["cash"] == [0, 0, 0, 0]]
    assert at_zero["places"] == [1, 1, 1, 1] and len(at_zero["winners"]) == 1


def test_simulate_without_openskill_prints_the_table_and_a_one_line_note(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "openskill", None)  # importing openskill now fails
    assert cli.main(["simulate", "--agents", "random,random,heuristic", "--games", "1", "--max-rounds", "1",
                     "--no-progress"]) == 0
    out = capsys.readouterr().out
    rows = table_rows(out)
    assert sorted(rows) == ["heuristic", "random"] and rows["random"][-1] == "-"  # no rating
    assert out.splitlines()[-1] == "ratings: not computed, openskill is not installed (pip install openskill)"


def test_evaluate_without_records(tmp_path):
    done = run_fcm("evaluate", "--lineup", "random,random", "--games", "1", "--max-rounds", "2",
                   "--out", str(tmp_path / "ev"), "--no-records", "--no-progress")
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in (tmp_path / "ev").iterdir()) == ["games.csv", "games.jsonl", "summary.json"]


# ------------------------------------------------------------------ replay


@pytest.fixture(scope="module")
def record_file(tmp_path_factory):
    result = play_game([make_agent("heuristic", 1), make_agent("random", 2)], seed=5, max_rounds=5)
    path = tmp_path_factory.mktemp("rec") / "game.json"
    result.record.save(path)
    return path, result


def test_replay_to_a_step_prints_the_position_and_writes_a_png(record_file, tmp_path):
    path, result = record_file
    png = tmp_path / "pos.png"
    done = run_fcm("replay", str(path), "--step", "10", "--png", str(png))
    assert done.returncode == 0, done.stderr
    game = replay(result.record, upto=10)
    pending = game.pending
    assert f"step 10/{len(result.record.actions)}: round {game.state.round}" in done.stdout
    assert f"player {pending.player} to decide: {decision_name(pending.decision)}" in done.stdout
    assert f"round {game.state.round}/5  {phase_title(game.phase)}" in done.stdout  # the state text
    text = done.stdout.split("legend:")[1].split("picture written")[0]
    assert "_" not in text and "PAYDAY" not in text  # no internal key (kitchen_trainee, PAYDAY) in the text
    height, width = game.state.board.shape
    lay = layout(height, width, 24)  # the default --scale
    assert png_size(png.read_bytes()) == (lay.width, lay.height)
    assert lay.width == (width + 2) * 24 + 11 * 24  # the map with a 1-square margin, then the player panel


def test_replay_to_the_end_names_the_winner(record_file):
    path, result = record_file
    done = run_fcm("replay", str(path), "--final")
    assert done.returncode == 0, done.stderr
    winner = result.winners[0]
    assert f"winner: player {winner}" in done.stdout
    assert f"player {winner} ({result.agents[winner]}): ${result.cash[winner]}  winner" in done.stdout
    assert "legend:" not in done.stdout  # --final prints no board


def test_replay_list_prints_every_action_with_its_step(record_file):
    path, result = record_file
    done = run_fcm("replay", str(path), "--list")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    actions = result.record.actions
    assert lines[-1] == f"{len(actions)} actions"
    assert len(lines) == len(actions) + 1
    game = replay(result.record, upto=0)
    for step, action in enumerate(actions):  # each move in the words its event sentence uses
        assert lines[step].split()[0] == str(step)
        assert lines[step].endswith(move_now_text(action, game.state)), lines[step]
        game.apply(action)
    assert lines[0].split()[1:4] == ["setup:", "first", "restaurants"]
    assert not any("_" in line or "round 0" in line for line in lines)  # no internal key, no "round 0"


def test_replay_events_prints_a_readable_account_and_one_players_view(record_file):
    from fcm_env.engine.events import visible
    from fcm_env.text.sentences import sentences

    path, result = record_file
    game = replay(result.record, upto=0)
    game.record_events()
    for action in result.record.actions:
        game.apply(action)
    done = run_fcm("replay", str(path), "--events")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[-1] == f"{len(game.events)} events (everything)"
    body = [line.strip() for line in lines if line.startswith("  ")]
    assert body == sentences(game.events, game.state)
    assert any(" eats at player " in line for line in body)  # the sales of the game
    assert "round 1: phase 1: restructuring" in lines  # fcm play's headings
    # one player's view leaves out the others' face-down choices; one round only
    done = run_fcm("replay", str(path), "--events", "--player", "1", "--round", "2")
    assert done.returncode == 0, done.stderr
    seen = [e for e in game.events if e["round"] == 2 and visible(e, 1)]
    assert done.stdout.splitlines()[-1] == f"{len(seen)} events (what player 1 sees)"
    assert len(seen) < sum(e["round"] == 2 for e in game.events)


def test_replay_rejects_bad_steps_and_files(record_file, tmp_path, capsys):
    path, result = record_file
    assert cli.main(["replay", str(path), "--step", str(len(result.record.actions) + 1)]) == 2
    assert "--step must be" in capsys.readouterr().err
    assert cli.main(["replay", str(path), "--step", "3", "--final"]) == 2
    assert "--final replays the whole record" in capsys.readouterr().err
    assert cli.main(["replay", str(tmp_path / "missing.json")]) == 2
    assert "missing.json" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something else"}')
    assert cli.main(["replay", str(bad)]) == 2
    assert "format: expected 'fcm-magnate/record'" in capsys.readouterr().err


# ------------------------------------------------------------------ bench


def test_bench_prints_figures_as_json():
    done = run_fcm("bench", "--players", "2", "--games", "1", "--max-rounds", "2", "--positions", "10",
                   "--reps", "1", "--json")
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    (row,) = figures["rows"]
    assert row["players"] == 2 and row["games"] == 1
    assert row["rounds_per_game"] == 2.0  # a 2-round game is truncated after round 2
    assert row["decisions_per_game"] > 0 and row["steps_per_s"] > 0
    assert row["positions"] == 10
    for key in ("legal_actions_us", "legal_ids_us", "mask_us", "observe_us", "observe_flat_us"):
        assert row[key] > 0


def test_bench_prints_an_aligned_table(capsys):
    assert cli.main(["bench", "--players", "2,3", "--games", "1", "--max-rounds", "1", "--positions", "5",
                     "--reps", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("random play, standard, max 1 rounds, seeds 0..0; action space N = ")
    assert lines[1].split() == ["figure", "2p", "3p"] and set(lines[2]) == {"-"}
    by_label = {line[:26].strip(): line[26:].split() for line in lines[3:]}
    assert by_label["games"] == ["1", "1"] and by_label["rounds / game"] == ["1.0", "1.0"]
    assert by_label["positions timed"] == ["5", "5"]
    assert {len(line) for line in lines[1:]} == {len(lines[2])}  # right-aligned: one width


def test_bench_rejects_a_player_list_that_is_not_numbers(capsys):
    assert cli.main(["bench", "--players", "2,x"]) == 2
    assert capsys.readouterr().err == ("fcm bench: error: --players: expected comma-separated player counts "
                                       "like 2,3,4,5, got '2,x'\n")


def test_benchmark_script_runs_the_same_measurements():
    import subprocess

    from cli_helpers import fcm_env_vars

    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_engine.py"), "--players", "3", "--games", "1",
         "--max-rounds", "1", "--positions", "5", "--reps", "1"],
        check=False, capture_output=True, text=True, env=fcm_env_vars(), timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "engine steps / s" in done.stdout and "observe us" in done.stdout


# ------------------------------------------------------------------ serve / train (argument handling)


@pytest.mark.parametrize("flags", [[], ["--stdio"]])
def test_serve_speaks_stdio_with_or_without_the_flag(flags, monkeypatch, capsys):
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO('{"cmd": "quit"}\n'))
    assert cli.main(["serve", *flags]) == 0
    assert json.loads(capsys.readouterr().out) == {"ok": True, "bye": True}


def test_train_without_the_trainer_exits_2(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "fcm_training.selfplay", None)  # importing it now fails
    assert cli.main(["train", "configs/quick.yaml"]) == 2
    assert "fcm_training.selfplay is not available" in capsys.readouterr().err


def test_train_passes_the_config_and_overrides(monkeypatch, capsys):
    calls = []
    fake = types.ModuleType("fcm_training.selfplay")
    fake.main = lambda config_path, **overrides: calls.append((config_path, overrides)) or "runs/x"
    monkeypatch.setitem(sys.modules, "fcm_training.selfplay", fake)
    code = cli.main(["train", "configs/quick.yaml", "--set", "total_timesteps=2000", "--set", "name=abc",
                     "--resume"])
    assert code == 0
    assert calls == [("configs/quick.yaml", {"total_timesteps": 2000, "name": "abc", "resume": True})]
    assert "run directory: runs/x" in capsys.readouterr().out


def test_off_a_terminal_the_progress_is_a_line_at_each_tenth(capsys):
    """A log file keeps one line per report (a ``\r`` counter ran together: ``games: 1/6games: 2/6``)."""
    with batches._progress(3, "games") as tick:  # pytest's captured stderr is not a terminal
        for _ in range(3):
            tick()
    assert capsys.readouterr().err == "games: 1/3\ngames: 2/3\ngames: 3/3\n"
    with batches._progress(25, "games", initial=4) as tick:  # a resumed run: 4 were done
        for _ in range(21):
            tick()
    assert capsys.readouterr().err.splitlines() == [f"games: {n}/25" for n in (*range(6, 25, 2), 25)]


def test_train_runs_a_tiny_config_and_writes_the_run(tmp_path):
    import yaml

    config = tmp_path / "tiny.yaml"
    config.write_text(yaml.safe_dump({
        "name": "tiny", "num_players": 2, "max_rounds": 3, "n_envs": 1, "total_timesteps": 128, "n_steps": 64,
        "batch_size": 64, "n_epochs": 1, "snapshot_every": 64, "eval_every": 128, "eval_games": 2,
        "eval_opponents": ["random"], "checkpoint_every": 128, "progress_bar": False,
        "board_channels": 4, "board_features": 16, "vector_hidden": 16, "net_arch": [16],
    }))
    out = tmp_path / "run"
    result = run_fcm("train", str(config), "--set", f"out_dir={out}")
    assert result.returncode == 0, result.stderr
    assert (out / "final_model.zip").exists() and (out / "best_model.zip").exists()
    rows = (out / "eval.csv").read_text().splitlines()
    assert rows[0].startswith("steps,opponent") and rows[1].startswith("128,random,2,")


# ------------------------------------------------------------------ tables


class _Terminal:
    """A text stream that says it is a terminal (rich then draws styles)."""

    def __init__(self):
        self.parts: list[str] = []

    def write(self, text: str) -> int:
        self.parts.append(text)
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return True


def test_tables_are_plain_off_a_terminal_and_styled_on_one(monkeypatch):
    import io
    import re

    from fcm_agents.match import MatchResult
    from fcm_env.tables import print_table
    from fcm_training.common.tournament_results import TABLE_HEADERS, results_table, summarise

    long = "onnx:runs/some_long_run_name/best_model.onnx"
    results = [MatchResult(seed=0, num_players=2, variant="standard", agents=[long, "random"], winners=[0],
                           cash=[40, 0], ranks=[1, 2], places=[1, 2], rounds=3, ended_by="bank", decisions=9)]
    table = results_table(summarise(results))
    assert [c.header for c in table.columns] == list(TABLE_HEADERS)
    piped = io.StringIO()
    print_table(table, piped)
    text = piped.getvalue()
    assert "\x1b[" not in text and text.isascii()
    assert text.splitlines()[2].split()[:2] == [long, "1"]
    monkeypatch.setenv("COLUMNS", "80")
    terminal = _Terminal()
    print_table(table, terminal)
    styled = "".join(terminal.parts)
    assert "\x1b[1m" in styled  # bold header
    plain = re.sub(r"\x1b\[[0-9;]*m", "", styled)
    name_cells = "".join(line.split()[0] for line in plain.splitlines()[2:] if line.strip())
    assert name_cells.startswith(long) and "\u2026" not in plain  # the name folds whole, nothing is cut


def test_python_m_fcm_apps_is_the_command_and_python_m_fcm_env_says_where_it_went():
    # the command line lives above the environment (docs/architecture.md): fcm_env imports no front end
    import subprocess

    from cli_helpers import fcm_env_vars

    moved = subprocess.run([sys.executable, "-m", "fcm_env", "map"], capture_output=True, text=True, check=False,
                           cwd=ROOT, env=fcm_env_vars(), timeout=120)
    assert moved.returncode == 2 and moved.stdout == ""
    assert moved.stderr.strip() == ("the fcm command line moved out of fcm_env: run `fcm ...` or "
                                    "`python -m fcm_apps ...` (the same commands and options)")
    done = run_fcm("map", "--players", "2", "--seed", "3")
    assert done.returncode == 0 and done.stdout.startswith("3x3 tiles: ")


def test_web_open_says_so_when_no_browser_opens(monkeypatch, capsys):
    import webbrowser

    from fcm_apps.cli.play import open_page

    monkeypatch.setattr(webbrowser, "open", lambda url: False)  # a machine with no browser (ssh, CI)
    assert open_page("http://127.0.0.1:8000/") is False
    assert capsys.readouterr().err == ("fcm web: no browser could be opened here: open http://127.0.0.1:8000/ "
                                       "in a browser yourself\n")
    monkeypatch.setattr(webbrowser, "open", lambda url: True)
    assert open_page("http://127.0.0.1:8000/") is True and capsys.readouterr().err == ""

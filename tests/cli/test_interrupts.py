"""Long commands stopped for real: SIGINT/SIGTERM sent to ``fcm evaluate``, ``fcm simulate`` and
``fcm leaderboard`` at several moments, a worker process SIGKILLed mid-run, then ``--resume``.

Each check: the command exits after the signal (within ``HANG_S``: a hang check; the 2 s target is
measured by ``benchmarks/bench_stop.py``), with exit code 130 (SIGINT) or 143 (SIGTERM), one line on stderr and no traceback; the
kept games are the uninterrupted run's games; and the printed resume command ends with the table of
an uninterrupted run (per-agent figures and every game).
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_helpers import HANG_S, ROOT, fcm_env_vars

from fcm_apps import cli
from fcm_training.common import tournament_workers
from fcm_training.common.tournament_games import TournamentConfig
from fcm_training.common.tournament_workers import WorkerLost, run_jobs_in_processes

# heuristic against random, 10-round games: a few hundredths of a second a game, so a run of
# GAMES lasts a couple of seconds and is stopped well before its end
TOURNAMENT = ["--games", "80", "--seed", "11", "--max-rounds", "10", "--no-progress"]
EVALUATE = ["evaluate", "--lineup", "heuristic,random", *TOURNAMENT, "--workers", "2", "--no-records"]


def _start(*args: str, cwd: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "fcm_apps", *args], cwd=cwd, env=fcm_env_vars(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def _count(path: Path) -> int:
    """Complete lines so far (read while the command writes)."""
    return path.read_bytes().count(b"\n") if path.exists() else 0


def _wait_until(proc: subprocess.Popen, ready, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not ready():
        assert proc.poll() is None, f"ended before the signal: {proc.communicate()}"
        assert time.monotonic() < deadline, "the moment to send the signal never came"
        time.sleep(0.01)


def _stop(proc: subprocess.Popen, signum: int, group: bool = False) -> tuple[float, str]:
    """Send ``signum`` to the command (``group``: to its workers too, as Ctrl-C at a terminal does);
    (seconds until the process ended, its stderr)."""
    sent = time.monotonic()
    if group:
        os.killpg(proc.pid, signum)
    else:
        proc.send_signal(signum)
    _, err = proc.communicate(timeout=HANG_S + 30)
    return time.monotonic() - sent, err


def _check_stopped(proc: subprocess.Popen, signum: int, elapsed: float, err: str, command: str) -> str:
    """The exit code, the time and the one line; returns that line."""
    assert proc.returncode == 128 + signum, err
    assert elapsed < HANG_S, f"took {elapsed:.2f} s to stop"
    assert "Traceback" not in err
    (line,) = err.strip().splitlines()  # --no-progress: nothing but the line
    assert line.startswith(f"fcm {command}: interrupted by {signal.Signals(signum).name}; "), line
    return line


def _resume(line: str, cwd: Path) -> subprocess.CompletedProcess:
    """Run the resume command the line gives (``fcm ...`` as ``python -m fcm_apps ...``)."""
    words = shlex.split(line.split("resume: ", 1)[1])
    assert words[0] == "fcm"
    return subprocess.run([sys.executable, "-m", "fcm_apps", *words[1:]], cwd=cwd, env=fcm_env_vars(),
                          capture_output=True, text=True, timeout=120, check=False)


def _same_table(out: Path, reference: dict) -> None:
    summary = json.loads((out / "summary.json").read_text())
    assert summary["complete"] is True
    assert summary["agents"] == reference["agents"]
    assert summary["games"] == reference["games"]


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> dict:
    """The uninterrupted tournament's summary.json."""
    cwd = tmp_path_factory.mktemp("reference")
    done = subprocess.run([sys.executable, "-m", "fcm_apps", *EVALUATE, "--out", "ref"], cwd=cwd, env=fcm_env_vars(),
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    summary = json.loads((cwd / "ref" / "summary.json").read_text())
    assert summary["complete"] and len(summary["games"]) == 80
    return summary


def _kept_games_match(out: Path, line: str, reference: dict) -> int:
    """The kept lines are finished games of the reference run, the line and summary.json count them."""
    kept = _lines(out / "games.jsonl")
    by_seed = {g["seed"]: g for g in reference["games"]}
    assert all(g == by_seed[g["seed"]] for g in kept)
    assert f"; {len(kept)} of 80 games finished and kept in " in line
    summary = json.loads((out / "summary.json").read_text())
    assert summary["complete"] is False and len(summary["games"]) == len(kept)
    assert [g["seed"] for g in summary["games"]] == sorted(g["seed"] for g in kept)  # in game order
    return len(kept)


@pytest.mark.parametrize(("moment", "signum", "group"), [
    ("start", signal.SIGINT, False),  # the run's folder is there, the workers are starting
    (12, signal.SIGINT, True),  # 12 games kept; Ctrl-C at a terminal: the whole process group
    (30, signal.SIGTERM, False),
], ids=["SIGINT-at-start", "Ctrl-C-after-12", "SIGTERM-after-30"])
def test_an_interrupted_evaluate_stops_at_once_and_resumes_to_the_same_table(tmp_path, reference, moment, signum,
                                                                             group):
    out = tmp_path / "run"
    proc = _start(*EVALUATE, "--out", str(out), cwd=tmp_path)
    if moment == "start":
        _wait_until(proc, (out / "summary.json").exists)
    else:
        _wait_until(proc, lambda: _count(out / "games.jsonl") >= moment)
    elapsed, err = _stop(proc, signum, group)
    line = _check_stopped(proc, signum, elapsed, err, "evaluate")
    kept = _kept_games_match(out, line, reference)
    assert kept < 80
    print(f"evaluate, {signal.Signals(signum).name} at {moment}: stopped in {elapsed:.2f} s, {kept} games kept")
    done = _resume(line, tmp_path)
    assert done.returncode == 0, done.stderr
    assert f"{kept} games kept from before, {80 - kept} played now" in done.stdout
    _same_table(out, reference)


def test_a_simulate_interrupted_twice_keeps_its_games_and_records_and_resumes(tmp_path, reference):
    # one process (no workers) the first time, two workers when resumed: the same games either way
    out = tmp_path / "sim"
    proc = _start("simulate", "--agents", "heuristic,random", *TOURNAMENT, "--out", str(out), "--records",
                  cwd=tmp_path)
    _wait_until(proc, lambda: _count(out / "games.jsonl") >= 5)
    elapsed, err = _stop(proc, signal.SIGINT)
    line = _check_stopped(proc, signal.SIGINT, elapsed, err, "simulate")
    first = _kept_games_match(out, line, reference)
    records = sorted(p.name for p in (out / "records").iterdir())
    assert records == sorted(f"game_{g['seed']}.json" for g in _lines(out / "games.jsonl"))  # no stray .tmp
    print(f"simulate, SIGINT after 5 games: stopped in {elapsed:.2f} s, {first} games kept")

    words = shlex.split(line.split("resume: ", 1)[1])[1:] + ["--workers", "2"]
    proc = _start(*words, cwd=tmp_path)  # interrupted again while it resumes
    _wait_until(proc, lambda: _count(out / "games.jsonl") >= first + 10)
    elapsed, err = _stop(proc, signal.SIGINT)
    line = _check_stopped(proc, signal.SIGINT, elapsed, err, "simulate")
    second = _kept_games_match(out, line, reference)
    assert first < second < 80
    print(f"simulate resumed, SIGINT after 10 more: stopped in {elapsed:.2f} s, {second} games kept")

    done = _resume(line, tmp_path)
    assert done.returncode == 0, done.stderr
    _same_table(out, reference)
    assert len(list((out / "records").iterdir())) == 80


def test_simulate_without_out_says_nothing_was_kept(tmp_path):
    proc = _start("simulate", "--agents", "heuristic,random", "--games", "400", "--max-rounds", "10",
                  "--workers", "2", "--no-progress", cwd=tmp_path)
    _wait_until(proc, lambda: len(_children(proc.pid)) == 2)  # playing (there is nothing on disk to wait for)
    elapsed, err = _stop(proc, signal.SIGTERM)
    assert proc.returncode == 143 and elapsed < HANG_S and "Traceback" not in err
    (line,) = err.strip().splitlines()
    assert line.startswith("fcm simulate: interrupted by SIGTERM after ") and "none kept (no --out)" in line


def _children(pid: int) -> list[int]:
    try:
        import psutil
    except ImportError:  # the same from /proc
        kids = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                except OSError:
                    continue
                if int(fields[1]) == pid:
                    kids.append(int(entry.name))
        return kids
    return [p.pid for p in psutil.Process(pid).children()]


def test_a_worker_killed_mid_run_has_its_game_played_again(tmp_path, reference):
    out = tmp_path / "run"
    proc = _start(*EVALUATE, "--out", str(out), cwd=tmp_path)
    _wait_until(proc, lambda: _count(out / "games.jsonl") >= 10)
    workers = _children(proc.pid)
    assert len(workers) == 2, workers
    os.kill(workers[0], signal.SIGKILL)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "a game worker process ended (signal 9) during game " in err and "played again" in err
    _same_table(out, reference)


def test_an_interrupted_leaderboard_stops_at_once_and_the_same_command_finishes_it(tmp_path):
    args = ["leaderboard", "--agents", "random,heuristic", "--players", "2", "--games", "60", "--max-rounds", "10",
            "--workers", "2", "--no-progress"]
    whole = subprocess.run([sys.executable, "-m", "fcm_apps", *args, "--out", "whole", "--markdown", "whole.md"],
                           cwd=tmp_path, env=fcm_env_vars(), capture_output=True, text=True, timeout=120, check=False)
    assert whole.returncode == 0, whole.stderr
    resumed = [*args, "--out", "games", "--markdown", "lb.md"]
    proc = _start(*resumed, cwd=tmp_path)
    _wait_until(proc, lambda: _count(tmp_path / "games" / "2p-0.jsonl") >= 8)
    elapsed, err = _stop(proc, signal.SIGINT)
    assert proc.returncode == 130 and elapsed < HANG_S and "Traceback" not in err, err
    (line,) = err.strip().splitlines()
    kept = len(_lines(tmp_path / "games" / "2p-0.jsonl"))
    assert line.startswith(f"fcm leaderboard: interrupted by SIGINT; {kept} of 60 games finished and kept in games")
    print(f"leaderboard, SIGINT after 8 games: stopped in {elapsed:.2f} s, {kept} games kept")
    done = subprocess.run([sys.executable, "-m", "fcm_apps", *resumed], cwd=tmp_path, env=fcm_env_vars(),
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    standings = [json.loads((tmp_path / name).read_text())["standings"] for name in ("whole.json", "lb.json")]
    assert standings[0] == standings[1]


# ------------------------------------------------------------------ in-process: refusals and worker deaths


def _evaluate(out: Path, *extra: str) -> int:
    return cli.main(["evaluate", "--lineup", "heuristic,random", "--games", "4", "--max-rounds", "2", "--no-records",
                     "--no-progress", "--out", str(out), *extra])


def test_a_damaged_results_file_is_refused_by_file_and_line(tmp_path, capsys):
    out = tmp_path / "run"
    assert _evaluate(out) == 0
    lines = (out / "games.jsonl").read_text().splitlines()
    (out / "games.jsonl").write_text("\n".join(lines[:2]) + "\n" + lines[2][:40])  # cut off mid-line
    assert _evaluate(tmp_path / "other", "--resume", str(out)) == 2  # --out and --resume disagree
    assert "are different folders" in capsys.readouterr().err
    assert cli.main(["evaluate", "--lineup", "heuristic,random", "--games", "4", "--max-rounds", "2", "--no-records",
                     "--no-progress", "--resume", str(out)]) == 2
    assert f"{out / 'games.jsonl'}:3: not a finished game of this run" in capsys.readouterr().err
    (out / "games.jsonl").write_text("\n".join(lines[:2]) + "\n")  # the cut line removed: it is played again
    capsys.readouterr()
    assert _evaluate(out, "--resume", str(out)) == 0
    assert "2 games kept from before, 2 played now" in capsys.readouterr().out
    assert len((out / "games.jsonl").read_text().splitlines()) == 4


def test_a_resume_of_another_tournament_or_a_fresh_run_over_kept_games_is_refused(tmp_path, capsys):
    out = tmp_path / "run"
    assert _evaluate(out) == 0
    capsys.readouterr()
    assert _evaluate(out) == 2  # the same command without --resume would lose nothing silently
    assert f"{out} already holds 4 finished games: add --resume {out}" in capsys.readouterr().err
    assert _evaluate(out, "--resume", str(out), "--seed", "5", "--lineup", "random,random") == 2
    err = capsys.readouterr().err
    assert "holds another tournament (lineup heuristic,random there, random,random here; seed 0 there, 5 here)" in err
    assert cli.main(["simulate", "--no-progress", "--resume", str(tmp_path / "none")]) == 2
    assert "no run to resume" in capsys.readouterr().err


def _dies_once(marker_dir: Path, kill_index: int, every_time: bool = False):
    """A ``play_one`` whose game ``kill_index`` SIGKILLs its own worker (once, or every time)."""
    real = tournament_workers.play_one

    def play(job):
        if job[1] == kill_index:
            marker = marker_dir / f"died-{os.getpid()}"
            if every_time or not any(marker_dir.iterdir()):
                marker.write_text("")
                os.kill(os.getpid(), signal.SIGKILL)
        return real(job)

    return play


def test_the_pool_plays_a_dead_workers_game_again(tmp_path, monkeypatch, capsys):
    config = TournamentConfig(("heuristic", "random"), games=6, max_rounds=2, workers=2)
    jobs = [(config, g) for g in range(6)]
    expected = {g: tournament_workers.play_one(job).to_json() for g, job in enumerate(jobs)}
    monkeypatch.setattr(tournament_workers, "play_one", _dies_once(tmp_path, 3))  # the forked workers see it
    got = {}
    run_jobs_in_processes(2)(jobs, lambda job, result: got.setdefault(job[1], result.to_json()))
    assert got == expected
    assert "during game 3 (seed 3): that game is played again" in capsys.readouterr().err


def test_a_game_that_kills_every_worker_stops_the_run_with_a_clear_message(tmp_path, monkeypatch):
    config = TournamentConfig(("heuristic", "random"), games=6, max_rounds=2, workers=2)
    monkeypatch.setattr(tournament_workers, "play_one", _dies_once(tmp_path, 3, every_time=True))
    got = []
    with pytest.raises(WorkerLost, match=r"game 3 \(seed 3\) ended its worker process 3 times \(the last by signal 9\)"):
        run_jobs_in_processes(2)([(config, g) for g in range(6)], lambda job, result: got.append(job[1]))
    assert 3 not in got and len(list(tmp_path.iterdir())) == 3


def test_worker_processes_ignore_sigint(tmp_path):
    # the parent decides: a Ctrl-C at the terminal reaches the workers too, and they must not die of it
    script = ("import os, signal, time\n"
              "from fcm_training.common.tournament_games import TournamentConfig\n"
              "from fcm_training.common.tournament_workers import run_jobs_in_processes\n"
              "def done(job, result):\n"
              "    if job[1] == 0:\n"
              "        for pid in os.popen(f'ps -o pid= --ppid {os.getpid()}').read().split():\n"
              "            os.kill(int(pid), signal.SIGINT)\n"
              "        time.sleep(0.2)\n"
              "config = TournamentConfig(('heuristic', 'random'), games=6, max_rounds=2, workers=2)\n"
              "run_jobs_in_processes(2)([(config, g) for g in range(6)], done)\n"
              "print('all played')\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=fcm_env_vars(), capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0 and done.stdout.strip() == "all played", done.stderr
    assert "played again" not in done.stderr and "KeyboardInterrupt" not in done.stderr

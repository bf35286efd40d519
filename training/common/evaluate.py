"""Tournaments: many seeded games between agents, with seat rotation, statistics and ratings.

Game ``g`` is played on seed ``seed + g`` with the lineup rotated by ``g`` seats,
so every agent plays every player id equally often over ``n`` games. The
summary gives, per agent name: games, seats, wins, ties and losses (a shared
first place is a tie, never a win for a seat), wins/games with a 95% Wilson
interval, mean final cash, mean place, and an openskill Plackett-Luce rating
(docs/evaluation.md). Games run in worker processes (``workers``, the default runner) or by
any other runner the caller passes: ``fcm_training.rllib.evaluate`` plays them as Ray
tasks (``fcm evaluate --backend ray``). Every runner plays game ``g`` with ``play_one``, so the
results do not depend on the runner. This module imports no backend: the caller picks the runner.

Long runs are meant to be stopped and resumed: ``TournamentRun`` keeps each game as it ends
(``games.jsonl``) and resumes a folder; ``stop_on_signals`` (``fcm_training.common.interrupts``, shared
with the trainer) turns SIGINT and SIGTERM into ``Interrupted`` after stopping the worker processes,
which ignore SIGINT themselves; a worker that dies has its game played again (``_Pool``).
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import math
import multiprocessing
import os
import sys
import time
from collections import Counter, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from pathlib import Path

from rich.table import Table

from fcm_agents.match import MatchResult, play_game
from fcm_agents.registry import make_agent
from fcm_env.tables import new_table, plural, render_plain

from .interrupts import (  # noqa: F401 -- Interrupted, stop_on_signals: fcm_apps.cli imports them from here
    Interrupted,
    deferred_signals,
    forget_worker,
    register_worker,
    signals_blocked,
    stop_on_signals,
    worker_signals,
)


@dataclass(frozen=True)
class TournamentConfig:
    lineup: tuple[str, ...]  # agent spec per seat of the table, e.g. ("heuristic", "random")
    games: int = 100
    seed: int = 0
    variant: str = "standard"
    max_rounds: int = 30
    workers: int = 1

    def __post_init__(self) -> None:
        if not 2 <= len(self.lineup) <= 5:
            raise ValueError(f"a lineup has 2-5 agents (one per player), got {len(self.lineup)}")
        if self.games < 1:
            raise ValueError(f"games must be at least 1, got {self.games}")


@dataclass
class AgentStats:
    """One agent name's results over a tournament.

    ``games`` counts games the agent sat in (once per game, however many seats it had);
    ``seats`` counts seat-games. Each game is a win, a tie or a loss for the agent:
    a win when its seats alone hold first place, a tie when first place is shared with
    another agent, else a loss. ``seat_wins`` counts seat-games won by that seat alone
    (an agent in two seats a game can win at most half of its seat-games). Mean cash and
    mean place are per seat.
    """

    name: str
    games: int = 0
    seats: int = 0
    wins: int = 0
    ties: int = 0
    losses: int = 0
    seat_wins: int = 0
    cash_total: float = 0.0
    place_total: float = 0.0
    rating_mu: float | None = None  # None: no rating (openskill missing, or a single agent name)
    rating_sigma: float | None = None
    rating_ordinal: float | None = None

    @property
    def win_rate(self) -> float:
        """Wins over games; ties count as no win (they are reported apart)."""
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    @property
    def mean_cash(self) -> float:
        return self.cash_total / self.seats if self.seats else 0.0

    @property
    def mean_place(self) -> float:
        return self.place_total / self.seats if self.seats else 0.0

    def to_json(self) -> dict:
        low, high = self.interval
        return {
            "name": self.name, "games": self.games, "seats": self.seats, "wins": self.wins, "ties": self.ties,
            "losses": self.losses, "seat_wins": self.seat_wins, "win_rate": self.win_rate, "win_rate_low": low, "win_rate_high": high,
            "mean_cash": self.mean_cash, "mean_place": self.mean_place, "rating_mu": self.rating_mu,
            "rating_sigma": self.rating_sigma, "rating_ordinal": self.rating_ordinal,
        }


def wilson_interval(wins: int, games: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """95% Wilson score interval of a win rate (sound near 0 and 1, unlike the normal one)."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def seating(lineup: Sequence[str], game_index: int) -> list[str]:
    """Agent spec per player id for game ``game_index`` (the lineup rotated by that many seats)."""
    n = len(lineup)
    shift = game_index % n
    return [lineup[(i + shift) % n] for i in range(n)]


#: ``(config, progress)`` -> every game of the tournament, in game order; ``progress()`` after each game
GameRunner = Callable[[TournamentConfig, Callable[[], None] | None], list[MatchResult]]

#: one game of a tournament: its config and its index
Job = tuple[TournamentConfig, int]
#: plays ``jobs`` and calls ``done(job, result)`` as each game ends (in any order); what a resumable run needs
JobRunner = Callable[[Sequence[Job], Callable[[Job, MatchResult], None]], None]


def play_one(args: Job) -> MatchResult:
    """Game ``index`` of the tournament (its seed, its seating, its agents' seeds): what every runner plays."""
    config, index = args
    if any(spec.startswith(("policy:", "onnx:")) for spec in config.lineup):
        _one_thread()
    seed = config.seed + index
    specs = seating(config.lineup, index)
    agents = [make_agent(spec, seed=seed * 10 + i) for i, spec in enumerate(specs)]
    return play_game(agents, seed=seed, variant=config.variant, max_rounds=config.max_rounds)


def _one_thread() -> None:
    """Policies decide one position at a time: one thread per game process avoids contention."""
    try:
        import torch
    except ImportError:  # an ONNX-only tournament needs no torch
        return
    if torch.get_num_threads() != 1:
        torch.set_num_threads(1)


# ------------------------------------------------------------------ stopping on SIGINT / SIGTERM

# the machinery is shared with the trainer (fcm_training.common.interrupts); these names stay importable here


class WorkerLost(RuntimeError):
    """A game ended its worker process (killed, out of memory, a crash) every time it was tried."""


# ------------------------------------------------------------------ worker processes


def _serve_games(conn: Connection, parent_pid: int) -> None:
    """A worker process: play the jobs the parent sends, one at a time, until told to stop.

    It ignores SIGINT (a Ctrl-C at the terminal reaches the whole process group: the parent decides
    what stops, and stops the workers with SIGTERM) and leaves when the parent is gone.
    """
    worker_signals()
    while True:
        try:
            while not conn.poll(1.0):
                if os.getppid() != parent_pid:
                    return
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        try:
            reply: tuple[bool, object] = (True, play_one(job))
        except Exception as exc:  # noqa: BLE001 - the parent raises it: a bad agent stops the run with its message
            reply = (False, exc)
        try:
            conn.send(reply)
        except (EOFError, OSError):
            return
        except Exception as exc:  # noqa: BLE001 - an exception that does not pickle: its text does
            conn.send((False, RuntimeError(f"{type(reply[1]).__name__}: {reply[1]} ({exc})")))


@dataclass
class _Worker:
    process: multiprocessing.process.BaseProcess
    conn: Connection
    job: Job | None = None


class _Pool:
    """Worker processes that play one game at a time each, so the parent knows which game every worker
    holds: a worker that dies (SIGKILL, out of memory) has its game played again by a new worker, and an
    interrupt terminates them at once (no executor shutdown that waits for queued or running games)."""

    #: a game that ends its worker this many times stops the tournament (``WorkerLost``)
    MAX_TRIES = 3

    def __init__(self, size: int) -> None:
        self.size = size
        # fork where there is one, named rather than left to the default: importing torchrl sets the
        # process-wide default to spawn, which would re-import everything in every worker
        self.context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods()
                                                   else None)

    def _start(self) -> _Worker:
        parent_end, child_end = self.context.Pipe()
        with signals_blocked():
            process = self.context.Process(target=_serve_games, args=(child_end, os.getpid()), daemon=True,
                                           name="fcm-games")
            process.start()
            register_worker(process)
        child_end.close()
        return _Worker(process, parent_end)

    @staticmethod
    def _give(worker: _Worker, queue: deque[Job]) -> None:
        worker.job = queue.popleft() if queue else None
        with contextlib.suppress(OSError):  # it died: its sentinel says so, and the job goes back
            worker.conn.send(worker.job)

    def run(self, jobs: Sequence[Job], done: Callable[[Job, MatchResult], None]) -> None:
        queue = deque(jobs)
        tries: Counter[Job] = Counter()
        workers: list[_Worker] = []
        finished = False
        try:
            for _ in range(min(self.size, len(queue))):
                workers.append(self._start())
                self._give(workers[-1], queue)
            while busy := [w for w in workers if w.job is not None]:
                ready = set(wait([w.conn for w in busy] + [w.process.sentinel for w in busy]))
                for worker in busy:
                    if worker.conn in ready:
                        try:
                            ok, value = worker.conn.recv()
                        except (EOFError, OSError):  # died before or while it answered
                            ok, value = None, None
                    elif worker.process.sentinel in ready:
                        ok, value = None, None
                    else:
                        continue
                    if ok is None:
                        workers[workers.index(worker)] = self._replace(worker, queue, tries)
                        continue
                    if not ok:
                        raise value  # the game's own error, e.g. an agent's
                    job = worker.job
                    self._give(worker, queue)
                    done(job, value)
            finished = True
        finally:
            self._close(workers, finished)

    def _replace(self, worker: _Worker, queue: deque[Job], tries: Counter[Job]) -> _Worker:
        """A worker died holding ``worker.job``: that game goes back to the front of the queue."""
        job = worker.job
        assert job is not None
        worker.process.join(1.0)
        code = worker.process.exitcode
        self._close([worker], False)
        tries[job] += 1
        how = f"signal {-code}" if code is not None and code < 0 else f"exit code {code}"
        game = f"game {job[1]} (seed {job[0].seed + job[1]})"
        if tries[job] >= self.MAX_TRIES:
            raise WorkerLost(f"{game} ended its worker process {tries[job]} times (the last by {how})")
        print(f"a game worker process ended ({how}) during {game}: that game is played again", file=sys.stderr,
              flush=True)
        queue.appendleft(job)
        fresh = self._start()
        self._give(fresh, queue)
        return fresh

    @staticmethod
    def _close(workers: Sequence[_Worker], graceful: bool) -> None:
        """Stop the workers: politely after the last game (they are idle), else SIGTERM, SIGKILL after 1 s."""
        for worker in workers:
            if graceful:
                with contextlib.suppress(OSError):
                    worker.conn.send(None)
            else:
                with contextlib.suppress(Exception):
                    worker.process.terminate()
        deadline = time.monotonic() + (5.0 if graceful else 1.0)
        for worker in workers:
            worker.process.join(max(0.0, deadline - time.monotonic()))
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join(1.0)
            worker.conn.close()
            forget_worker(worker.process)


def run_jobs_in_processes(workers: int) -> JobRunner:
    """The default ``JobRunner``: this process (``workers`` 1) or ``workers`` worker processes, one game at
    a time each; a worker that dies has its game played again (``_Pool``)."""

    def run(jobs: Sequence[Job], done: Callable[[Job, MatchResult], None]) -> None:
        if workers <= 1 or len(jobs) <= 1:
            for job in jobs:
                done(job, play_one(job))
            return
        _Pool(workers).run(jobs, done)

    return run


def run_games_in_processes(config: TournamentConfig,
                           progress: Callable[[], None] | None = None) -> list[MatchResult]:
    """The default ``GameRunner``: every game in this process (``workers`` 1) or a pool of ``workers``."""
    results: dict[int, MatchResult] = {}

    def done(job: Job, result: MatchResult) -> None:
        results[job[1]] = result
        if progress:
            progress()

    run_jobs_in_processes(config.workers)([(config, i) for i in range(config.games)], done)
    return [results[i] for i in range(config.games)]


def run_games(config: TournamentConfig, progress: Callable[[], None] | None = None, *,
              runner: GameRunner | None = None) -> list[MatchResult]:
    """Play every game of the tournament, in game order, with ``runner`` (default: worker processes)."""
    return (runner or run_games_in_processes)(config, progress)


def summarise(results: Sequence[MatchResult]) -> list[AgentStats]:
    """Per-agent statistics and ratings, best rating first (by win rate, then cash, without ratings).

    Results are counted by place (``MatchResult.places``: equal cash shares a place), not
    by the rules' seat tie-break: a first place held by one agent's seats alone is that agent's
    win; one shared by several agents is a tie for each of them.
    Ratings: one openskill Plackett-Luce rating per agent name, updated game by game in
    game order, each name at its best-placed seat (a rating cannot play itself), equal
    places as ties. Without openskill the ratings stay ``None``.
    """
    stats: dict[str, AgentStats] = {}
    for result in results:
        top = result.top
        at_top = {result.agents[p] for p in top}
        for name in dict.fromkeys(result.agents):  # each name once per game, in seat order
            s = stats.setdefault(name, AgentStats(name))
            s.games += 1
            if name not in at_top:
                s.losses += 1
            elif len(at_top) == 1:
                s.wins += 1
            else:
                s.ties += 1
        for player, name in enumerate(result.agents):
            s = stats[name]
            s.seats += 1
            s.seat_wins += top == [player]
            s.cash_total += result.cash[player]
            s.place_total += result.places[player]
    _rate(results, stats)
    return sorted(stats.values(), key=lambda s: (-(s.rating_ordinal or 0.0), -s.win_rate, -s.mean_cash, s.name))


def ratings_available() -> bool:
    """Whether openskill can be imported (a core dependency; a broken install only loses the ratings)."""
    try:
        from openskill import models  # noqa: F401
    except ImportError:
        return False
    return True


def _rate(results: Sequence[MatchResult], stats: dict[str, AgentStats]) -> None:
    """Fill in the openskill ratings of ``stats`` (left ``None`` when openskill is missing)."""
    if not ratings_available():
        return
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings: dict[str, object] = {}
    for result in results:
        best: dict[str, int] = {}
        for player, name in enumerate(result.agents):
            best[name] = min(best.get(name, result.places[player]), result.places[player])
        if len(best) < 2:
            continue
        names = sorted(best, key=lambda n: best[n])
        teams = [[ratings.setdefault(n, model.rating(name=n))] for n in names]
        updated = model.rate(teams, ranks=[best[n] for n in names])
        for n, team in zip(names, updated, strict=True):
            ratings[n] = team[0]
    for name, r in ratings.items():
        s = stats[name]
        s.rating_mu, s.rating_sigma, s.rating_ordinal = float(r.mu), float(r.sigma), float(r.ordinal())


TABLE_HEADERS = ("agent", "games", "seats", "wins", "ties", "losses", "wins/games", "95% CI", "mean cash",
                 "mean place", "rating")


def results_table(stats: Sequence[AgentStats]) -> Table:
    """The per-agent results as a rich table (columns: ``TABLE_HEADERS``, docs/evaluation.md)."""
    table = new_table(TABLE_HEADERS)
    for s in stats:
        low, high = s.interval
        rating = "-" if s.rating_ordinal is None else f"{s.rating_ordinal:.2f}"
        table.add_row(s.name, str(s.games), str(s.seats), str(s.wins), str(s.ties), str(s.losses),
                      f"{s.win_rate:.3f}", f"[{low:.3f}, {high:.3f}]", f"{s.mean_cash:.1f}", f"{s.mean_place:.2f}",
                      rating)
    return table


def results_notes(stats: Sequence[AgentStats], results: Sequence[MatchResult]) -> list[str]:
    """The lines under the table: how the games ended, and why ratings are missing if they are."""
    lines = []
    if results:
        by_bank = sum(r.ended_by == "bank" for r in results)
        tied = sum(len({r.agents[p] for p in r.top}) > 1 for r in results)  # as the ties column counts them
        own = sum(len(r.top) > 1 and len({r.agents[p] for p in r.top}) == 1 for r in results)
        rounds = sum(r.rounds for r in results) / len(results)
        cut = len(results) - by_bank
        lines.append(
            f"{plural(len(results), 'game')}; ended by the bank: {by_bank} ({by_bank / len(results):.1%}); "
            f"truncated by max_rounds: {cut} ({cut / len(results):.1%}); tied for first between agents: {tied}; "
            f"mean rounds {rounds:.1f}"
        )
        if own:
            lines.append(f"first place shared by one agent's own seats: {plural(own, 'game')} (counted as its win)")
    for s in stats:
        if s.seats > s.games:
            lines.append(
                f"{s.name} sits in {s.seats / s.games:g} seats a game: wins/games counts a game any of its seats "
                f"won; per seat it won {s.seat_wins} of {s.seats} seat-games ({s.seat_wins / s.seats:.3f})")
    if stats and all(s.rating_ordinal is None for s in stats) and not ratings_available():
        lines.append("ratings: not computed, openskill is not installed (pip install openskill)")
    return lines


def format_table(stats: Sequence[AgentStats], results: Sequence[MatchResult]) -> str:
    """The results table and its notes as plain text (what ``fcm evaluate`` prints off a terminal)."""
    return "\n".join([render_plain(results_table(stats)), *results_notes(stats, results)])


SUMMARY_FILE = "summary.json"
GAMES_FILE = "games.jsonl"  # one finished game a line, written as it ends: what a resumed run reads back
CSV_FILE = "games.csv"
RECORDS_DIR = "records"
#: what makes two tournaments the same games (``workers`` does not change a result)
SAVED_FIELDS = ("lineup", "games", "seed", "variant", "max_rounds")


def _write_atomic(path: Path, text: str) -> None:
    """Write ``path`` whole or not at all: an interrupt never leaves half a summary or record."""
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except BaseException:  # Interrupted included: no half-written file left behind
        tmp.unlink(missing_ok=True)
        raise


def open_lines(path: Path) -> int:
    """An append-only descriptor for a JSON-lines file (created if missing); a last line that lacks its
    newline gets one, so the next line does not run into it."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    size = os.fstat(fd).st_size
    if size:
        with path.open("rb") as f:
            f.seek(size - 1)
            if f.read(1) != b"\n":
                os.write(fd, b"\n")
    return fd


def write_line(fd: int, row: dict) -> None:
    """One JSON line in one ``write``: a signal lands before or after it, never inside a line."""
    os.write(fd, (json.dumps(row) + "\n").encode())


def _summary_json(config: TournamentConfig, stats: Sequence[AgentStats], results: Sequence[MatchResult]) -> dict:
    return {
        "config": {**config.__dict__, "lineup": list(config.lineup)},
        "complete": len(results) == config.games,  # false: an interrupted run's summary of the games it kept
        "agents": [s.to_json() for s in stats],
        "games": [r.to_json() for r in results],
    }


def _write_tables(out_dir: Path, config: TournamentConfig, stats: Sequence[AgentStats],
                  results: Sequence[MatchResult]) -> None:
    """``summary.json`` and ``games.csv`` of ``results`` (in game order)."""
    _write_atomic(out_dir / SUMMARY_FILE, json.dumps(_summary_json(config, stats, results), indent=1))
    text = io.StringIO(newline="")
    writer = csv.writer(text)
    n = max([r.num_players for r in results] + [len(config.lineup)])
    writer.writerow(["seed", "num_players", "variant", "rounds", "ended_by", "winners", "first_place"]
                    + [f"agent_{i}" for i in range(n)] + [f"cash_{i}" for i in range(n)])
    for r in results:
        pad = [""] * (n - r.num_players)
        writer.writerow([r.seed, r.num_players, r.variant, r.rounds, r.ended_by,
                         " ".join(map(str, r.winners)), " ".join(map(str, r.top))] + r.agents + pad + r.cash + pad)
    _write_atomic(out_dir / CSV_FILE, text.getvalue())


def _save_record(out_dir: Path, result: MatchResult) -> None:
    if result.record is not None:
        record_dir = out_dir / RECORDS_DIR
        record_dir.mkdir(exist_ok=True)
        _write_atomic(record_dir / f"game_{result.seed}.json", result.record.to_json() + "\n")


def write_results(out_dir: Path, config: TournamentConfig, stats: Sequence[AgentStats],
                  results: Sequence[MatchResult], *, records: bool = True) -> None:
    """``summary.json``, ``games.csv``, ``games.jsonl`` and (optionally) one replayable record per game,
    all at once (a ``TournamentRun`` writes them game by game instead)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    _write_atomic(out_dir / GAMES_FILE, "".join(json.dumps(r.to_json()) + "\n" for r in results))
    if records:
        for r in results:
            _save_record(out_dir, r)
    _write_tables(out_dir, config, stats, results)


def count_lines(path: Path) -> int:
    """Non-blank lines of a JSON-lines file (0 when there is none): how many games it keeps."""
    try:
        with path.open("rb") as f:
            return sum(1 for line in f if line.strip())
    except FileNotFoundError:
        return 0


def finished_games(out_dir: Path) -> int:
    """How many finished games ``out_dir`` holds (lines of its ``games.jsonl``)."""
    return count_lines(out_dir / GAMES_FILE)


class TournamentRun:
    """A tournament played into ``out_dir`` game by game, so that an interrupted run loses nothing finished.

    Each game, as it ends, becomes a line of ``games.jsonl`` (its record first, with ``records``);
    ``summary.json`` (written first with the config and no games) and ``games.csv`` are rewritten from
    what is there by ``save``. With ``resume`` the saved config must equal ``config`` (``SAVED_FIELDS``)
    and every saved line must be a finished game of it; only the missing games are played (and, with
    ``records``, the kept games whose record is missing, played again for it). The results are taken in
    game order, so a resumed run ends with the table of an uninterrupted one.
    """

    def __init__(self, config: TournamentConfig, out_dir: Path | None = None, *, records: bool = True,
                 resume: bool = False, overwrite: bool = True) -> None:
        self.config = config
        self.out_dir = out_dir
        self.records = records and out_dir is not None
        self.results: dict[int, MatchResult] = {}  # by game index
        self.need_record: set[int] = set()  # kept games to play again for their missing record
        if out_dir is None:
            if resume:
                raise ValueError("a run to resume needs its folder")
            return
        if resume:
            self._read()
            return
        held = finished_games(out_dir)
        if held and not overwrite:
            raise ValueError(f"{out_dir} already holds {held} finished games: add --resume {out_dir} to finish "
                             "that run (or print its table again), or give another --out (or delete the folder)")
        out_dir.mkdir(parents=True, exist_ok=True)
        (out_dir / GAMES_FILE).write_bytes(b"")
        self.save()  # the config, before any game: what a resume compares with

    @property
    def kept(self) -> int:
        """Finished games (read back or played)."""
        return len(self.results)

    def missing(self) -> list[int]:
        """Game indices still to play, in game order."""
        return sorted(set(range(self.config.games)) - set(self.results) | self.need_record)

    def play(self, runner: JobRunner | None = None, progress: Callable[[], None] | None = None) -> None:
        """Play the missing games with ``runner`` (default: ``run_jobs_in_processes``), keeping each one as
        it ends; an exception (``Interrupted`` included) leaves every game that finished before it."""
        jobs = [(self.config, g) for g in self.missing()]
        fd = open_lines(self.out_dir / GAMES_FILE) if self.out_dir is not None else None

        def done(job: Job, result: MatchResult) -> None:
            index = job[1]
            with deferred_signals():
                if self.out_dir is not None:
                    if self.records:
                        _save_record(self.out_dir, result)
                    if index not in self.results:
                        write_line(fd, result.to_json())
                self.results.setdefault(index, result)
                self.need_record.discard(index)
            if progress:
                progress()

        try:
            (runner or run_jobs_in_processes(self.config.workers))(jobs, done)
        finally:
            if fd is not None:
                os.close(fd)

    def ordered(self) -> list[MatchResult]:
        """The finished games in game order (the order ratings are computed in)."""
        return [self.results[g] for g in sorted(self.results)]

    def save(self) -> list[AgentStats]:
        """The statistics of the finished games; with ``out_dir`` also ``summary.json`` and ``games.csv``."""
        results = self.ordered()
        stats = summarise(results)
        if self.out_dir is not None:
            _write_tables(self.out_dir, self.config, stats, results)
        return stats

    def _read(self) -> None:
        """Read a saved run back: its config must be this one and every line a finished game of it."""
        assert self.out_dir is not None
        summary_path = self.out_dir / SUMMARY_FILE
        if not summary_path.exists():
            raise ValueError(f"{self.out_dir}: no run to resume (no {SUMMARY_FILE})")
        try:
            saved = json.loads(summary_path.read_text())["config"]
            saved = {key: saved[key] for key in SAVED_FIELDS}
        except (json.JSONDecodeError, KeyError, TypeError) as exc:
            raise ValueError(f"{summary_path}: not a tournament's summary ({exc!r}); cannot resume from it") from None
        saved["lineup"] = tuple(saved["lineup"])
        differ = [f"{key} {_show(saved[key])} there, {_show(getattr(self.config, key))} here"
                  for key in SAVED_FIELDS if saved[key] != getattr(self.config, key)]
        if differ:
            raise ValueError(f"{self.out_dir} holds another tournament ({'; '.join(differ)}): resume it with the "
                             "options it was played with, or give another --out")
        path = self.out_dir / GAMES_FILE
        if not path.exists():
            if json.loads(summary_path.read_text()).get("games"):
                raise ValueError(f"{path}: missing (a run saved by an older fcm): cannot resume it")
            return
        with path.open(encoding="utf-8", errors="replace") as f:
            for line_no, line in enumerate(f, 1):
                index, result = self._parse(line, path, line_no)
                if index in self.results and self.results[index].to_json() != result.to_json():
                    raise ValueError(f"{path}:{line_no}: game {index} a second time, with another result; "
                                     "remove one of its lines")
                self.results.setdefault(index, result)
        if self.records:
            self.need_record = {g for g, r in self.results.items()
                                if not (self.out_dir / RECORDS_DIR / f"game_{r.seed}.json").exists()}

    def _parse(self, line: str, path: Path, line_no: int) -> tuple[int, MatchResult]:
        config = self.config
        try:
            result = MatchResult(**json.loads(line), record=None)
            index = result.seed - config.seed
            if not 0 <= index < config.games:
                raise ValueError(f"seed {result.seed} is not one of this run's seeds")
            if result.agents != seating(config.lineup, index) or result.variant != config.variant:
                raise ValueError(f"game {index} of another lineup or variant ({result.agents}, {result.variant})")
            if not len(result.cash) == len(result.places) == len(result.ranks) == result.num_players:
                raise ValueError("cash, places and ranks do not match the players")
        except (json.JSONDecodeError, TypeError, ValueError, AttributeError) as exc:
            raise ValueError(f"{path}:{line_no}: not a finished game of this run ({exc}); remove the line to play "
                             "that game again") from None
        return index, result


def _show(value: object) -> str:
    return ",".join(value) if isinstance(value, tuple) else str(value)


def run_tournament(config: TournamentConfig, out_dir: Path | None = None, *, progress=None,
                   records: bool = True, runner: GameRunner | None = None, job_runner: JobRunner | None = None,
                   resume: bool = False) -> tuple[list[AgentStats], list[MatchResult]]:
    """Play the tournament and return its statistics and games (in game order).

    With ``out_dir`` the games are kept as they end and the files written (``TournamentRun``);
    ``resume`` plays only the games ``out_dir`` lacks. A ``runner`` (a ``GameRunner``, which returns
    every game at once) keeps nothing until the end; a ``job_runner`` (default: worker processes) does.
    """
    if runner is not None:
        results = run_games(config, progress=progress, runner=runner)
        stats = summarise(results)
        if out_dir is not None:
            write_results(out_dir, config, stats, results, records=records)
        return stats, results
    run = TournamentRun(config, out_dir, records=records, resume=resume)
    run.play(job_runner, progress)
    return run.save(), run.ordered()

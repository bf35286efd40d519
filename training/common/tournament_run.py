"""The resumable run kept on disk: ``TournamentRun`` keeps each game as it ends (``games.jsonl``, and its
replayable record), rewrites ``summary.json`` and ``games.csv`` from what is kept, and resumes a folder
by playing only the missing games; ``write_results`` writes the same files at once.
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path

from fcm_agents.match import MatchResult
from fcm_env.engine.persistence.strict_json import JsonRefused, loads_strict

from .interrupts import deferred_signals
from .tournament_games import Job, JobRunner, TournamentConfig, seating
from .tournament_results import AgentStats, summarise
from .tournament_workers import run_jobs_in_processes

SUMMARY_FILE = "summary.json"
GAMES_FILE = "games.jsonl"  # one finished game a line, written as it ends: what a resumed run reads back
CSV_FILE = "games.csv"
RECORDS_DIR = "records"
#: what makes two tournaments the same games (``workers`` and ``engine`` do not change a result)
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
            saved = loads_strict(summary_path.read_text())["config"]
            saved = {key: saved[key] for key in SAVED_FIELDS}
        except (JsonRefused, KeyError, TypeError) as exc:
            raise ValueError(f"{summary_path}: not a tournament's summary ({exc!r}); cannot resume from it") from None
        saved["lineup"] = tuple(saved["lineup"])
        differ = [f"{key} {_show(saved[key])} there, {_show(getattr(self.config, key))} here"
                  for key in SAVED_FIELDS if saved[key] != getattr(self.config, key)]
        if differ:
            raise ValueError(f"{self.out_dir} holds another tournament ({'; '.join(differ)}): resume it with the "
                             "options it was played with, or give another --out")
        path = self.out_dir / GAMES_FILE
        if not path.exists():
            if loads_strict(summary_path.read_text()).get("games"):
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
            result = MatchResult(**loads_strict(line), record=None)  # strict: never a RecursionError
            index = result.seed - config.seed
            if not 0 <= index < config.games:
                raise ValueError(f"seed {result.seed} is not one of this run's seeds")
            if result.agents != seating(config.lineup, index) or result.variant != config.variant:
                raise ValueError(f"game {index} of another lineup or variant ({result.agents}, {result.variant})")
            if not len(result.cash) == len(result.places) == len(result.ranks) == result.num_players:
                raise ValueError("cash, places and ranks do not match the players")
        except (TypeError, ValueError, AttributeError) as exc:  # JsonRefused is a ValueError
            raise ValueError(f"{path}:{line_no}: not a finished game of this run ({exc}); remove the line to play "
                             "that game again") from None
        return index, result


def _show(value: object) -> str:
    return ",".join(value) if isinstance(value, tuple) else str(value)

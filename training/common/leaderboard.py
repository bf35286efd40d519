"""The leaderboard: one command plays a fixed, documented set of tables and writes one table of results.

``fcm leaderboard`` (docs/leaderboard.md). The tables, for every table size in ``sizes``:

* 2 players: every pair of ``agents`` head to head;
* 3-5 players: every agent but the heuristic against ``n - 1`` heuristics (the field), and one
  table of heuristics alone (its baseline: 1/n).

Each table plays ``games`` games with the seats rotated (game g puts the lineup rotated by g seats
on seed ``table seed + g``, ``fcm_training.common.tournament_games.play_one``); the table seeds are fixed:
``seed + 100_000 * n + 1_000 * i`` for the i-th table of size n, so a result never depends on which
other tables or agents were asked for... except through the table's index, which follows the
agent order given. Per table size and agent it reports games, outright wins with a 95% Wilson
interval, the mean place, and an openskill Plackett-Luce rating over every game of that size.

Every finished game is a line of ``<out>/<n>p-<i>.jsonl`` as soon as it ends; running the same
command again plays only the games that are missing, and the table it writes is the same as an
uninterrupted run's (ratings take the games game by game across the tables: ``rating_order``). Games run in worker processes, or as Ray
tasks (``--backend ray``) with identical results.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

from fcm_agents.match import MatchResult
from fcm_env.engine.persistence.strict_json import JsonRefused, loads_strict

from .interrupts import deferred_signals
from .machine import machine_name
from .tournament_games import Job, JobRunner, TournamentConfig
from .tournament_results import AgentStats, summarise, wilson_interval
from .tournament_run import count_lines, open_lines, write_line
from .tournament_workers import run_jobs_in_processes

#: every current agent: the baselines, the shipped per-size policies, the search (a budget in iterations, not
#: seconds: a thinking time would make the table depend on the machine and its load, and the process and Ray
#: backends could not give the same table) and the strategist family (the default and each archetype)
DEFAULT_AGENTS = ("random", "heuristic", "policy", "search:iterations=32", "strategist",
                  *(f"strategist:archetype={name}" for name in ("marketing", "drinks", "discount", "luxury",
                                                                "expansion", "cfo")))
FIELD = "heuristic"


@dataclass(frozen=True)
class LeaderboardConfig:
    agents: tuple[str, ...] = DEFAULT_AGENTS
    sizes: tuple[int, ...] = (2, 3, 4, 5)
    games: int = 40
    seed: int = 7_000_000
    max_rounds: int = 30
    workers: int = 1
    #: games a table at 3-5 players (None: ``games``): the 2-player tables are pairs, the larger ones fields
    multi_games: int | None = None
    #: the engine the games run on (``fcm_env.env.engines``): the same games on either, the native core faster
    engine: str = "auto"

    def __post_init__(self) -> None:
        if len(set(self.agents)) != len(self.agents) or len(self.agents) < 2:
            raise ValueError(f"agents: give at least two different specs, got {list(self.agents)}")
        if not self.sizes or any(n not in (2, 3, 4, 5) for n in self.sizes):
            raise ValueError(f"sizes: table sizes are 2 to 5, got {list(self.sizes)}")
        if self.games < 1 or (self.multi_games is not None and self.multi_games < 1):
            raise ValueError(f"games: at least 1 game a table, got {self.games} and {self.multi_games}")

    def games_at(self, n: int) -> int:
        """Games a table of ``n`` players plays."""
        return self.games if n == 2 or self.multi_games is None else self.multi_games

    def tables(self) -> list[tuple[int, int, tuple[str, ...]]]:
        """(size, index, lineup) of every table, in a fixed order."""
        out = []
        for n in self.sizes:
            if n == 2:
                lineups = [tuple(pair) for pair in combinations(self.agents, 2)]
            else:
                lineups = [(a,) + (FIELD,) * (n - 1) for a in self.agents if a != FIELD] + [(FIELD,) * n]
            out.extend((n, i, lineup) for i, lineup in enumerate(lineups))
        return out

    def tournament(self, n: int, i: int, lineup: tuple[str, ...]) -> TournamentConfig:
        return TournamentConfig(lineup, games=self.games_at(n), seed=self.seed + 100_000 * n + 1_000 * i,
                                max_rounds=self.max_rounds, workers=self.workers, engine=self.engine)


def _result_from_json(row: dict) -> MatchResult:
    return MatchResult(**row, record=None)


def play(config: LeaderboardConfig, out: Path, runner: JobRunner | None = None,
         progress: Callable[[], None] | None = None) -> dict[int, list[MatchResult]]:
    """Play every missing game (finished ones are read back from ``out``); the results by table size."""
    out.mkdir(parents=True, exist_ok=True)
    results: dict[tuple[int, int], dict[int, MatchResult]] = {}
    jobs: list[Job] = []
    where: dict[TournamentConfig, tuple[int, int]] = {}
    for n, i, lineup in config.tables():
        tour = config.tournament(n, i, lineup)
        where[tour] = (n, i)
        path = out / f"{n}p-{i}.jsonl"
        have: dict[int, MatchResult] = {}
        if path.exists():
            for line_no, line in enumerate(path.read_text().splitlines(), 1):
                try:
                    result = _result_from_json(loads_strict(line))  # the strict reader: deep nesting refused
                except (JsonRefused, TypeError) as exc:
                    raise ValueError(f"{path}:{line_no}: not a finished game ({exc}); remove the line to replay it") from None
                if result.agents != list(_seating(lineup, result.seed - tour.seed)):
                    raise ValueError(f"{path}:{line_no}: a game of another lineup ({result.agents}); use another --out")
                have[result.seed - tour.seed] = result
        results[(n, i)] = have
        jobs.extend((tour, g) for g in range(config.games_at(n)) if g not in have)
    files = {key: open_lines(out / f"{key[0]}p-{key[1]}.jsonl") for key in results}
    try:
        def done(job: Job, result: MatchResult) -> None:
            key = where[job[0]]
            with deferred_signals():  # an interrupt lands before or after a game is kept, never inside
                write_line(files[key], result.to_json())
                results[key][job[1]] = result
            if progress:
                progress()

        (runner or run_jobs_in_processes(config.workers))(jobs, done)
    finally:
        for fd in files.values():
            os.close(fd)
    return rating_order(results, max(config.games_at(n) for n in config.sizes))


def rating_order(tables: dict[tuple[int, int], dict[int, MatchResult]], games: int) -> dict[int, list[MatchResult]]:
    """Per table size, its finished games in the order the ratings take them: game 0 of every table
    (in table order), then game 1, and so on.

    An online rating depends on the order of its games. Table by table, the field's rating would move
    between one agent's table and the next, and an agent's rating would depend on where its table
    stands in the list (in this project's first full table, an agent with 29 wins of 40 against three
    heuristics was rated above one with 35). Game by game, every agent's games are spread alike.
    """
    by_size: dict[int, list[MatchResult]] = {}
    for g in range(games):
        for (n, _i), played in sorted(tables.items()):
            by_size.setdefault(n, [])
            if g in played:
                by_size[n].append(played[g])
    return by_size


def kept_games(config: LeaderboardConfig, out: Path) -> int:
    """Finished games ``out`` holds for these tables: what running the command again will not play."""
    return sum(min(config.games_at(n), count_lines(out / f"{n}p-{i}.jsonl")) for n, i, _ in config.tables())


def _seating(lineup: tuple[str, ...], g: int) -> list[str]:
    from .tournament_games import seating

    return seating(lineup, g)


def standings(by_size: dict[int, list[MatchResult]]) -> dict[int, list[AgentStats]]:
    """Per table size: every agent's games, wins, Wilson interval, mean place and rating (best first)."""
    return {n: summarise(results) for n, results in sorted(by_size.items())}


def to_json(config: LeaderboardConfig, table: dict[int, list[AgentStats]]) -> dict:
    return {"config": {**config.__dict__, "agents": list(config.agents), "sizes": list(config.sizes)},
            "tables": [{"players": n, "lineup": list(lineup), "seed": config.tournament(n, i, lineup).seed}
                       for n, i, lineup in config.tables()],
            "standings": {str(n): [s.to_json() for s in stats] for n, stats in table.items()}}


RUNS_FILE = "runs.jsonl"


def _run_line(games: int, seconds: float, workers: int, backend: str, sizes: tuple[int, ...]) -> dict:
    return {"games": games, "seconds": round(seconds, 1), "workers": workers, "backend": backend,
            "sizes": list(sizes), "machine": machine_name()}


def log_run(out: Path, games: int, seconds: float, workers: int, backend: str,
            sizes: tuple[int, ...] = (2, 3, 4, 5)) -> None:
    """Keep one line per run of the command in ``out``: a resumed table's time is the sum of its runs.

    The line names the machine (processor model and cores) and the table sizes the run was asked for, so
    a table whose sizes were played on different machines says which took how long.
    """
    _append(out, _run_line(games, seconds, workers, backend, sizes))


def _append(out: Path, line: dict) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with (out / RUNS_FILE).open("a") as f:
        f.write(json.dumps(line) + "\n")


LIVE_FILE = "run-in-progress.json"


class RunClock:
    """Times one run of the command so that its line reaches ``runs.jsonl`` even if the run is killed
    outright (SIGKILL, a machine that goes away): every finished game rewrites ``run-in-progress.json``
    with the games and seconds so far, ``close`` turns it into the run's line, and a run that finds one
    left behind keeps it as the line of the run that was cut short (``"cut_short": true``)."""

    def __init__(self, out: Path, workers: int, backend: str, sizes: tuple[int, ...]) -> None:
        self.out, self.workers, self.backend, self.sizes = out, workers, backend, sizes
        out.mkdir(parents=True, exist_ok=True)
        self._fold_left_behind()
        self.games = 0
        self.start = time.perf_counter()

    def _fold_left_behind(self) -> None:
        live = self.out / LIVE_FILE
        if live.exists():
            try:
                line = json.loads(live.read_text())
            except json.JSONDecodeError:  # cut inside its own rewrite: the run's time is lost, not the games
                line = None
            if line and line.get("games"):
                _append(self.out, {**line, "cut_short": True})
            live.unlink()

    def game_done(self) -> None:
        self.games += 1
        line = _run_line(self.games, time.perf_counter() - self.start, self.workers, self.backend, self.sizes)
        partial = self.out / (LIVE_FILE + ".part")
        partial.write_text(json.dumps(line))
        partial.replace(self.out / LIVE_FILE)

    def close(self) -> None:
        """The run's line (if it played a game), and no file left in progress."""
        if self.games:
            log_run(self.out, self.games, time.perf_counter() - self.start, self.workers, self.backend, self.sizes)
        (self.out / LIVE_FILE).unlink(missing_ok=True)


def logged_runs(out: Path) -> list[dict]:
    """The runs ``log_run`` kept (none for games files from before it kept them)."""
    path = out / RUNS_FILE
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()] if path.exists() else []


def _time_text(runs: list[dict]) -> str:
    if not runs:
        return "."
    by_machine: dict[str, list[dict]] = {}
    for r in runs:  # lines from before runs named their machine count as one machine, unnamed
        by_machine.setdefault(r.get("machine", ""), []).append(r)
    parts = []
    for machine, group in by_machine.items():
        minutes = sum(r["seconds"] for r in group) / 60
        games = sum(r["games"] for r in group)
        workers = ", ".join(map(str, sorted({r["workers"] for r in group})))
        where = f" on {machine}" if machine else ""
        sizes = sorted({n for r in group for n in r.get("sizes", ())})
        which = f" (the {', '.join(map(str, sizes))}-player tables)" if len(by_machine) > 1 and sizes else ""
        runs_text = (f" over {len(group)} runs of the command, each resuming the last" if len(group) > 1 else "")
        cut = sum(1 for r in group if r.get("cut_short"))
        if cut:  # killed outright: timed up to its last finished game
            runs_text += f" ({cut} of them killed, timed to their last finished game)"
        parts.append(f"{games} games{which} in {minutes:.1f} minutes of wall time{where}{runs_text};"
                     f" {workers} worker(s)")
    return " (" + "; ".join(parts) + ")."


def to_markdown(config: LeaderboardConfig, table: dict[int, list[AgentStats]], command: str,
                runs: list[dict] | None = None) -> str:
    lines = ["# Leaderboard", "",
             f"Regenerated by `{command}`" + _time_text(runs or []),
             "How the tables are chosen, seeded and scored: `fcm_training.common.leaderboard` and",
             "docs/evaluation.md. Win rate: outright first places over games, with a 95% Wilson interval;",
             "mean place: 1 is first; rating: openskill Plackett-Luce ordinal over every game of the size,",
             "taken game by game across the tables. At 3-5 players the heuristic is the field: its row counts",
             "a game once however many seats it held, a win when any of them came first, and rates its best seat.",
             ""]
    for n, stats in table.items():
        lines += [f"## {n} players", "", "| agent | games | wins | win rate | 95% CI | mean place | rating |",
                  "|---|---|---|---|---|---|---|"]
        for s in stats:
            low, high = wilson_interval(s.wins, s.games)
            rating = "-" if s.rating_ordinal is None else f"{s.rating_ordinal:.2f}"
            lines.append(f"| `{s.name}` | {s.games} | {s.wins} | {s.win_rate:.3f} | [{low:.3f}, {high:.3f}] "
                         f"| {s.mean_place:.2f} | {rating} |")
        lines.append("")
    return "\n".join(lines)

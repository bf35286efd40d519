"""Tournaments: many seeded games between agents, with seat rotation, statistics and ratings.

Game ``g`` is played on seed ``seed + g`` with the lineup rotated by ``g`` seats,
so every agent plays every player id equally often over ``n`` games. The
summary gives, per agent name: games, seats, wins, ties and losses (a shared
first place is a tie, never a win for a seat), wins/games with a 95% Wilson
interval, mean final cash, mean place, and an openskill Plackett-Luce rating
(docs/evaluation.md). Games run in worker processes (``workers``, the default runner) or by
any other ``GameRunner`` the caller passes: ``fcm_training.rllib.evaluate`` plays them as Ray
tasks (``fcm evaluate --backend ray``). Every runner plays game ``g`` with ``play_one``, so the
results do not depend on the runner. This module imports no backend: the caller picks the runner.
"""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from rich.table import Table

from fcm_agents.match import MatchResult, play_game
from fcm_agents.registry import make_agent
from fcm_env.tables import new_table, render_plain


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
    a win when one of its seats holds first place alone, a tie when first place is
    shared by several players and one of them is its seat, else a loss. Mean cash and
    mean place are per seat.
    """

    name: str
    games: int = 0
    seats: int = 0
    wins: int = 0
    ties: int = 0
    losses: int = 0
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
            "losses": self.losses, "win_rate": self.win_rate, "win_rate_low": low, "win_rate_high": high,
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


def play_one(args: tuple[TournamentConfig, int]) -> MatchResult:
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


def run_games_in_processes(config: TournamentConfig,
                           progress: Callable[[], None] | None = None) -> list[MatchResult]:
    """The default ``GameRunner``: every game in this process (``workers`` 1) or a pool of ``workers``."""
    jobs = [(config, i) for i in range(config.games)]
    results: list[MatchResult] = []
    if config.workers <= 1:
        for job in jobs:
            results.append(play_one(job))
            if progress:
                progress()
        return results
    with ProcessPoolExecutor(max_workers=config.workers) as pool:
        for result in pool.map(play_one, jobs, chunksize=max(1, config.games // (4 * config.workers))):
            results.append(result)
            if progress:
                progress()
    return results


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
        tied = sum(len(r.top) > 1 for r in results)
        rounds = sum(r.rounds for r in results) / len(results)
        cut = len(results) - by_bank
        lines.append(
            f"{len(results)} games; ended by the bank: {by_bank} ({by_bank / len(results):.1%}); "
            f"truncated by max_rounds: {cut} ({cut / len(results):.1%}); tied for first: {tied}; "
            f"mean rounds {rounds:.1f}"
        )
    if stats and all(s.rating_ordinal is None for s in stats) and not ratings_available():
        lines.append("ratings: not computed, openskill is not installed (pip install openskill)")
    return lines


def format_table(stats: Sequence[AgentStats], results: Sequence[MatchResult]) -> str:
    """The results table and its notes as plain text (what ``fcm evaluate`` prints off a terminal)."""
    return "\n".join([render_plain(results_table(stats)), *results_notes(stats, results)])


def write_results(out_dir: Path, config: TournamentConfig, stats: Sequence[AgentStats],
                  results: Sequence[MatchResult], *, records: bool = True) -> None:
    """``summary.json``, ``games.csv`` and (optionally) one replayable record per game."""
    out_dir.mkdir(parents=True, exist_ok=True)
    summary = {
        "config": {**config.__dict__, "lineup": list(config.lineup)},
        "agents": [s.to_json() for s in stats],
        "games": [r.to_json() for r in results],
    }
    (out_dir / "summary.json").write_text(json.dumps(summary, indent=1))
    with (out_dir / "games.csv").open("w", newline="") as f:
        writer = csv.writer(f)
        n = max(r.num_players for r in results)
        writer.writerow(["seed", "num_players", "variant", "rounds", "ended_by", "winners", "first_place"]
                        + [f"agent_{i}" for i in range(n)] + [f"cash_{i}" for i in range(n)])
        for r in results:
            pad = [""] * (n - r.num_players)
            writer.writerow([r.seed, r.num_players, r.variant, r.rounds, r.ended_by,
                             " ".join(map(str, r.winners)), " ".join(map(str, r.top))] + r.agents + pad + r.cash + pad)
    if records:
        record_dir = out_dir / "records"
        record_dir.mkdir(exist_ok=True)
        for r in results:
            if r.record is not None:
                r.record.save(record_dir / f"game_{r.seed}.json")


def run_tournament(config: TournamentConfig, out_dir: Path | None = None, *, progress=None,
                   records: bool = True,
                   runner: GameRunner | None = None) -> tuple[list[AgentStats], list[MatchResult]]:
    """``run_games`` with ``runner``, then the statistics (and, with ``out_dir``, the files of ``write_results``)."""
    results = run_games(config, progress=progress, runner=runner)
    stats = summarise(results)
    if out_dir is not None:
        write_results(out_dir, config, stats, results, records=records)
    return stats, results

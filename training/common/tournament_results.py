"""A tournament's results for people and files: per-agent statistics (``AgentStats``: wins, ties,
losses, a 95% Wilson interval, mean cash and place), openskill Plackett-Luce ratings (``summarise``),
and the results table with the notes under it (docs/evaluation.md).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from rich.table import Table

from fcm_agents.match import MatchResult
from fcm_env.tables import new_table, plural, render_plain


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
    # the table's order (fcm simulate/evaluate --help and docs/evaluation.md say it): the rating (every place of every game,
    # and whom it was won against), then wins/games, then mean cash
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

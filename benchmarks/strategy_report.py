"""What an agent builds, game by game: restaurants, campaigns by kind, staff at the end, unit price,
goods sold by kind, where its income came from (sales, waitress tips, the CFO's share), milestones and
the round of its first sale, over many games against a field of heuristics.

    python benchmarks/strategy_report.py --agent policy --players 2 --games 200 --seed 81000000
    python benchmarks/strategy_report.py --family --games 100 --seed 83000000   # a table per archetype
    python benchmarks/strategy_report.py --distinct --games 200 --seed 84000000  # strategists against each other
    python benchmarks/strategy_report.py --agent policy --field policy --games 40 --seed 85000000  # the mirror

``--family`` runs the report once per strategist archetype and for the default (``--agent`` is then
ignored). ``--distinct`` plays every seat with a strategist (the default, each seat its own seed) on
``--games`` different maps and counts the distinct final cash vectors.

Game g seats ``--agent`` in seat ``g mod n`` on seed ``--seed + g``, every other seat ``--field``.
It prints one table of means (and shares of games) for the agent and for the field's seats beside
it, then the agent's most frequent staffs at the end: a policy that plays one build order on every
map shows up as one staff in most games. ``--out`` keeps every game's row as JSON lines.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from fcm_agents.base import agent_move
from fcm_agents.registry import make_agent
from fcm_env.data import CampaignType, EmployeeType, Good, Milestone
from fcm_env.engine import queries
from fcm_env.engine.game import Game

CEO = int(EmployeeType.CEO)


def play_game_rows(agent_spec: str, field: str, num_players: int, game_no: int, seed: int,
                   max_rounds: int) -> list[dict]:
    """Game ``game_no`` on ``seed``: a row per seat (what it built, when it first sold), the agent's marked."""
    seat = game_no % num_players
    agents = [make_agent(agent_spec if p == seat else field, seed=seed * 10 + p) for p in range(num_players)]
    game = Game.new(num_players, seed=seed, max_rounds=max_rounds)
    events = game.record_events()
    campaigns: dict[int, tuple[int, int]] = {}  # campaign number -> (owner, kind)
    while not game.is_over:
        player = game.current_player
        game.apply(agent_move(agents[player], game, player))
        for c in game.state.campaigns:
            campaigns.setdefault(c.number, (int(c.owner), int(c.kind)))
    first_sale: dict[int, int] = {}
    money = {p: Counter() for p in range(num_players)}  # sales / tips / cfo cash
    sold = {p: Counter() for p in range(num_players)}  # goods sold by name
    for event in events:
        kind = event["kind"]
        if kind == "sale":
            first_sale.setdefault(int(event["player"]), int(event["round"]))
            money[int(event["player"])]["sales"] += int(event["cash"])
            sold[int(event["player"])].update(event["items"])
        elif kind == "tips":
            money[int(event["player"])]["tips"] += int(event["cash"])
        elif kind == "cfo_bonus":
            money[int(event["player"])]["cfo"] += int(event["cash"])
    state = game.state
    rows = []
    for p in range(num_players):
        owned = state.owned_cards(p)
        staff = {EmployeeType(t).name.lower(): int(n) for t, n in enumerate(owned) if n and t != CEO}
        kinds = Counter(CampaignType(kind).name.lower() for owner, kind in campaigns.values() if owner == p)
        rows.append({"game": game_no, "seed": seed, "seat": p, "agent": p == seat, "won": p in game.winners,
                     "cash": int(state.players[p].cash), "rounds": int(state.round),
                     "restaurants": len(state.players[p].restaurants), "campaigns": dict(kinds),
                     "staff": staff, "unit_price": int(queries.unit_price(game, p)),
                     "first_sale": first_sale.get(p), "income": dict(money[p]), "sold": dict(sold[p]),
                     "milestones": sorted(Milestone(m).name.lower() for m in state.players[p].milestones)})
    return rows


def summary(rows: list[dict]) -> dict:
    n = len(rows)
    sold = [r["first_sale"] for r in rows if r["first_sale"] is not None]
    out = {"games": n, "win rate": sum(r["won"] for r in rows) / n, "cash": statistics.mean(r["cash"] for r in rows),
           "restaurants": statistics.mean(r["restaurants"] for r in rows),
           "2+ restaurants": sum(r["restaurants"] >= 2 for r in rows) / n,
           "unit price": statistics.mean(r["unit_price"] for r in rows),
           "first sale (median round)": statistics.median(sold) if sold else None,
           "never sold": 1 - len(sold) / n,
           "staff at the end": statistics.mean(sum(r["staff"].values()) for r in rows)}
    for kind, plural in zip(CampaignType, ("billboards", "mailboxes", "airplanes", "radios"), strict=True):
        out[f"{plural} a game"] = statistics.mean(r["campaigns"].get(kind.name.lower(), 0) for r in rows)
    for good in Good:
        out[f"{good.name.lower()} sold a game"] = statistics.mean(r["sold"].get(good.name.lower(), 0) for r in rows)
    earned = {key: sum(r["income"].get(key, 0) for r in rows) for key in ("sales", "tips", "cfo")}
    total = sum(earned.values()) or 1
    for key, label in (("sales", "sales"), ("tips", "waitress tips"), ("cfo", "the CFO's share")):
        out[f"income from {label}"] = earned[key] / total
    out["milestones a game"] = statistics.mean(len(r["milestones"]) for r in rows)
    return out


def games_with_a_sale(rows: list[dict]) -> str:
    """How many games saw any seat sell food or drink (issue 56's mirror report: a game played, not one that
    tips and the CFO's share end), and how many distinct final cash vectors the games had."""
    games: dict[int, list[dict]] = {}
    for r in rows:
        games.setdefault(r["game"], []).append(r)
    sold = sum(any(r["first_sale"] is not None for r in seats) for seats in games.values())
    outcomes = {tuple(r["cash"] for r in sorted(seats, key=lambda r: r["seat"])) for seats in games.values()}
    return (f"games in which a seat sold food or drink: {sold}/{len(games)} ({sold / len(games):.0%}); "
            f"distinct final cash vectors: {len(outcomes)}")


def table(agent: str, mine: dict, field: dict) -> str:
    lines = [f"| | {agent} | the field's seats |", "|---|---|---|"]
    for key, value in mine.items():
        other = field[key]
        fmt = (lambda v: "-" if v is None else f"{v:.2f}") if key != "games" else str
        lines.append(f"| {key} | {fmt(value)} | {fmt(other)} |")
    return "\n".join(lines)


def staffs(rows: list[dict], top: int = 5) -> str:
    counts = Counter(json.dumps(dict(sorted(r["staff"].items()))) for r in rows)
    lines = [f"{len(counts)} different staffs at the end in {len(rows)} games; the most frequent:"]
    for text, k in counts.most_common(top):
        lines.append(f"- {k} games: " + ", ".join(f"{n} {key}" for key, n in json.loads(text).items()))
    return "\n".join(lines)


def family_specs() -> list[str]:
    from fcm_agents.strategist import ARCHETYPES

    return ["strategist", *(f"strategist:archetype={name}" for name in ARCHETYPES)]


def distinct_outcomes(games: int, num_players: int, seed: int, max_rounds: int) -> tuple[int, int]:
    """(distinct final cash vectors, games) of strategist-only games on ``games`` different maps."""
    outcomes = set()
    played = 0
    try:
        for g in range(games):
            rows = play_game_rows("strategist", "strategist", num_players, g, seed + g, max_rounds)
            outcomes.add(tuple(r["cash"] for r in rows))
            played += 1
    except KeyboardInterrupt:
        print(f"interrupted after {played} games: the count covers those", file=sys.stderr)
    return len(outcomes), played


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", default="policy")
    parser.add_argument("--field", default="heuristic")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=81_000_000)
    parser.add_argument("--max-rounds", type=int, default=30)
    parser.add_argument("--out", type=Path, default=None, help="every game's rows as JSON lines")
    parser.add_argument("--family", action="store_true", help="a table per strategist archetype and the default")
    parser.add_argument("--distinct", action="store_true",
                        help="strategists in every seat: how many final cash vectors differ")
    args = parser.parse_args(argv)
    if args.games < 1 or not 2 <= args.players <= 5:
        parser.error("--games must be at least 1 and --players 2 to 5")
    if args.distinct:
        distinct, games = distinct_outcomes(args.games, args.players, args.seed, args.max_rounds)
        if not games:
            return 130
        print(f"{distinct} distinct final cash vectors in {games} strategist-only games on {games} maps "
              f"({distinct / games:.0%})")
        return 0 if games == args.games else 130
    if args.family:
        for spec in family_specs():
            code = main([*_without_family(sys.argv[1:] if argv is None else argv), "--agent", spec])
            if code:
                return code
            print()
        return 0
    rows: list[dict] = []
    interrupted = False
    try:
        for g in range(args.games):
            rows += play_game_rows(args.agent, args.field, args.players, g, args.seed + g, args.max_rounds)
    except KeyboardInterrupt:
        interrupted = True  # the table covers the games finished; --family stops after it
        print(f"interrupted after {len({r['game'] for r in rows})} games: the table covers those", file=sys.stderr)
    if not rows:
        return 130
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text("".join(json.dumps(r) + "\n" for r in rows))
    mine = [r for r in rows if r["agent"]]
    print(table(args.agent, summary(mine), summary([r for r in rows if not r["agent"]])))
    print()
    print(games_with_a_sale(rows))
    print(staffs(mine))
    return 130 if interrupted else 0


def _without_family(argv: list[str]) -> list[str]:
    return [a for a in argv if a != "--family"]


if __name__ == "__main__":
    raise SystemExit(main())

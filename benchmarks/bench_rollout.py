"""What a search's rollouts cost: decisions per second of all-heuristic play, engine and heuristic apart.

    python benchmarks/bench_rollout.py [--players 2,4] [--games 3] [--rounds 5] [--max-rounds 12]
    python benchmarks/bench_rollout.py --before 27b152a      # the same measurement of an older checkout

Search agents play all-heuristic rollouts, so their speed is the heuristic's speed plus the
engine's. Each measurement round plays ``--games`` seeded all-heuristic games per player count
(one ``HeuristicAgent`` per seat, ``--max-rounds`` rounds) and times every decision in three
parts: the engine's ``legal_actions()`` and ``apply()`` (*engine*), and the agent's
``act_on_game()`` (*heuristic*). It also plays seeded random games and times the engine alone
(random play's decisions are cheaper: fewer campaigns, a smaller map). Printed figures are medians
over ``--rounds`` rounds: heuristic play in decisions/s (engine plus heuristic time), the engine's
part of it as decisions/s, the heuristic's microseconds a decision, and random play's engine
decisions/s. Each round also plays the same seeded all-heuristic games in C++ (the native engine with
``fcm_agents.native``'s heuristic on every seat, ``play_heuristic``: what a native search's rollouts run)
and prints its decisions/s and its speed over the Python heuristic on the Python engine (the native
heuristic answers exactly what the Python one does: tests/native_agents).

``--before REV`` checks REV out in a temporary ``git worktree`` and measures it in a second
worker process alongside this checkout's, rounds interleaved (before, after, before, ...) so
that both see the same load on a shared machine; the ratios after/before come from the same run.
Each checkout is measured in its own subprocess with its own code first on ``sys.path`` (and its
``agents`` folder loaded as ``fcm_agents``, which the editable install would otherwise map to
this checkout). The worktree is removed at the end.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]


# ------------------------------------------------------------------ the worker (runs inside one checkout)


def _import_checkout(root: Path) -> tuple:
    """(Game, HeuristicAgent, ActionKind) of the checkout at ``root``, nothing of any other checkout."""
    import importlib.util

    sys.path.insert(0, str(root))
    spec = importlib.util.spec_from_file_location(
        "fcm_agents", root / "agents" / "__init__.py", submodule_search_locations=[str(root / "agents")]
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules["fcm_agents"] = module
    spec.loader.exec_module(module)
    import fcm_env
    from fcm_agents.heuristic import HeuristicAgent
    from fcm_env.engine.actions import ActionKind
    from fcm_env.engine.game import Game

    for name, mod in (("fcm_env", fcm_env), ("fcm_agents", module)):
        if not Path(mod.__file__).resolve().is_relative_to(root.resolve()):
            raise RuntimeError(f"{name} was imported from {mod.__file__}, not from {root}")
    return Game, HeuristicAgent, ActionKind


def _heuristic_game(Game, HeuristicAgent, players: int, seed: int, max_rounds: int) -> dict:
    """Seconds of engine and heuristic work in one seeded all-heuristic game, and its decisions."""
    clock = time.perf_counter
    engine = heuristic = 0.0
    decisions = 0
    game = Game.new(players, seed=seed, max_rounds=max_rounds)
    agents = [HeuristicAgent(seed=seed * 10 + p) for p in range(players)]
    while not game.is_over:
        t0 = clock()
        game.legal_actions()
        player = game.current_player
        t1 = clock()
        action = agents[player].act_on_game(game, player)
        t2 = clock()
        game.apply(action)
        t3 = clock()
        engine += (t1 - t0) + (t3 - t2)
        heuristic += t2 - t1
        decisions += 1
    return {"engine": engine, "heuristic": heuristic, "decisions": decisions}


def _random_game(Game, ActionKind, players: int, seed: int, max_rounds: int) -> dict:
    """Seconds of engine work in one seeded random game (a move other than "pass" 85% of the time)."""
    clock = time.perf_counter
    engine = 0.0
    decisions = 0
    game = Game.new(players, seed=seed, max_rounds=max_rounds)
    rng = random.Random(seed)
    while not game.is_over:
        t0 = clock()
        legal = game.legal_actions()
        t1 = clock()
        acting = [a for a in legal if a.kind != ActionKind.PASS]
        action = rng.choice(acting) if acting and rng.random() < 0.85 else rng.choice(legal)
        t2 = clock()
        game.apply(action)
        engine += (t1 - t0) + (clock() - t2)
        decisions += 1
    return {"engine": engine, "heuristic": 0.0, "decisions": decisions}


def _native_players():
    """(the engine factory, the native players' module) of this checkout, or None where it has no native players."""
    try:
        from fcm_agents.native import _agents
        from fcm_env.engines import new_game
    except ImportError:
        return None
    return new_game, _agents


def _native_game(native, players: int, seed: int, max_rounds: int) -> dict:
    """Seconds of one seeded all-heuristic game played in C++ (native engine, one native heuristic per seat:
    a search's rollout), engine and players together; None where the checkout has no native players."""
    if native is None:
        return {"engine": None, "heuristic": 0.0, "decisions": 0}
    new_game, _agents = native
    game = new_game("native", players, seed, "standard", max_rounds)
    t0 = time.perf_counter()
    decisions = _agents.play_heuristic(game.native_core)
    return {"engine": time.perf_counter() - t0, "heuristic": 0.0, "decisions": decisions}


def worker(root: Path, max_rounds: int) -> None:
    """Answer each request line on stdin (``heuristic|native|random players seed``) with one game's times as
    JSON."""
    Game, HeuristicAgent, ActionKind = _import_checkout(root)
    native = _native_players()
    _heuristic_game(Game, HeuristicAgent, 2, 0, 2)  # warm the imports and caches up
    for line in sys.stdin:
        kind, players, seed = line.split()
        if kind == "heuristic":
            out = _heuristic_game(Game, HeuristicAgent, int(players), int(seed), max_rounds)
        elif kind == "native":
            out = _native_game(native, int(players), int(seed), max_rounds)
        else:
            out = _random_game(Game, ActionKind, int(players), int(seed), max_rounds)
        print(json.dumps(out), flush=True)


# ------------------------------------------------------------------ the parent


class Worker:
    """One checkout's worker process, asked for one game at a time."""

    def __init__(self, label: str, root: Path, max_rounds: int):
        self.label = label
        #: (kind, players) -> one summed {"engine", "heuristic", "decisions"} per measurement round
        self.rounds: dict[tuple[str, int], list[dict]] = {}
        command = [sys.executable, str(Path(__file__).resolve()), "--worker", str(root),
                   "--max-rounds", str(max_rounds)]
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                     cwd=root)

    def play(self, kind: str, players: int, seed: int) -> dict:
        self.proc.stdin.write(f"{kind} {players} {seed}\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the {self.label} worker stopped (see its error above)")
        return json.loads(line)

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()

    def figures(self, players: int) -> dict[str, float]:
        """Medians over the rounds: decisions/s of heuristic play, of its engine part and of random play;
        microseconds a decision."""
        h = self.rounds[("heuristic", players)]
        rnd = self.rounds[("random", players)]
        nat = self.rounds[("native", players)]
        return {
            "native": (statistics.median(x["decisions"] / x["engine"] for x in nat)
                       if all(x["engine"] for x in nat) else None),
            "play": statistics.median(_play_rate(x) for x in h),
            "engine": statistics.median(x["decisions"] / x["engine"] for x in h),
            "heuristic_us": statistics.median(1e6 * x["heuristic"] / x["decisions"] for x in h),
            "engine_us": statistics.median(1e6 * x["engine"] / x["decisions"] for x in h),
            "random": statistics.median(x["decisions"] / x["engine"] for x in rnd),
            "decisions": h[0]["decisions"],
        }


def _native_ratio(w: Worker, players: int) -> float:
    """Median over the rounds of native play's decisions/s over Python heuristic play's (same games)."""
    pairs = zip(w.rounds[("heuristic", players)], w.rounds[("native", players)])
    return statistics.median((y["decisions"] / y["engine"]) / _play_rate(x) for x, y in pairs)


def _play_rate(x: dict) -> float:
    return x["decisions"] / (x["engine"] + x["heuristic"])


def _measure(workers: list[Worker], players: list[int], games: int, rounds: int) -> None:
    """``rounds`` rounds; in each, every worker plays every game in turn (the order flips every game)."""
    for r in range(rounds):
        for n in players:
            for kind in ("heuristic", "native", "random"):
                totals = [{"engine": 0.0, "heuristic": 0.0, "decisions": 0} for _ in workers]
                for g in range(games):
                    seed = (700 if kind == "random" else 500) + g
                    order = list(range(len(workers)))
                    if (r + g) % 2:
                        order.reverse()
                    for i in order:
                        out = workers[i].play(kind, n, seed)
                        for key in totals[i]:
                            totals[i][key] = None if out[key] is None or totals[i][key] is None \
                                else totals[i][key] + out[key]
                for w, total in zip(workers, totals):
                    w.rounds.setdefault((kind, n), []).append(total)


def _worktree(rev: str) -> Path:
    path = Path(tempfile.mkdtemp(prefix="bench-rollout-")) / "checkout"
    subprocess.run(["git", "-C", str(HERE), "worktree", "add", "--detach", "--quiet", str(path), rev],
                   check=True)
    return path


def _remove_worktree(path: Path) -> None:
    subprocess.run(["git", "-C", str(HERE), "worktree", "remove", "--force", str(path)], check=False)
    shutil.rmtree(path.parent, ignore_errors=True)


def _report(workers: list[Worker], players: list[int]) -> None:
    print(f"{'checkout':<16}{'players':>8}{'decisions':>10}{'heuristic play/s':>18}{'engine part/s':>15}"
          f"{'heuristic us':>14}{'engine us':>11}{'random engine/s':>17}{'native play/s':>15}{'native x':>10}")
    for n in players:
        for w in workers:
            f = w.figures(n)
            native = "-" if f["native"] is None else f"{f['native']:,.0f}"
            times = "-" if f["native"] is None else f"x{_native_ratio(w, n):.1f}"
            print(f"{w.label:<16}{n:>8}{f['decisions']:>10}{f['play']:>18,.0f}{f['engine']:>15,.0f}"
                  f"{f['heuristic_us']:>14.1f}{f['engine_us']:>11.1f}{f['random']:>17,.0f}{native:>15}{times:>10}")
    print("\nnative play/s: the same seeded all-heuristic games played in C++ (native engine, fcm_agents.native's "
          "heuristic on every seat: a search's rollout);\nnative x: its speed over the Python heuristic on the Python "
          "engine, the median of the rounds' ratios (each round played both)")
    if len(workers) == 2:
        before, after = workers
        print(f"\nspeed-up {after.label} over {before.label}: median of the rounds' ratios (each round's two "
              "checkouts ran side by side)")
        for n in players:
            def ratio(kind, rate, b=before, a=after, n=n):
                pairs = zip(b.rounds[(kind, n)], a.rounds[(kind, n)])
                return statistics.median(rate(y) / rate(x) for x, y in pairs)

            play = ratio("heuristic", _play_rate)
            engine = ratio("heuristic", lambda x: x["decisions"] / x["engine"])
            alone = ratio("heuristic", lambda x: x["decisions"] / x["heuristic"])
            rnd = ratio("random", lambda x: x["decisions"] / x["engine"])
            print(f"  {n} players: heuristic play x{play:.2f}, its engine part x{engine:.2f}, "
                  f"the heuristic alone x{alone:.2f}, random play's engine x{rnd:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", default="2,4", help="player counts, comma-separated (default 2,4)")
    parser.add_argument("--games", type=int, default=3,
                        help="seeded games per player count and round (default 3)")
    parser.add_argument("--rounds", type=int, default=7,
                        help="measurement rounds; medians are printed (default 7)")
    parser.add_argument("--max-rounds", type=int, default=12, help="the games' round cap (default 12)")
    parser.add_argument("--before", metavar="REV",
                        help="also measure this revision (e.g. 27b152a), interleaved")
    parser.add_argument("--worker", metavar="ROOT", help=argparse.SUPPRESS)
    args = parser.parse_args()
    players = [int(p) for p in args.players.split(",")]
    if args.worker:
        worker(Path(args.worker), args.max_rounds)
        return
    def git(*words: str) -> str:
        done = subprocess.run(["git", "-C", str(HERE), *words], check=True, capture_output=True, text=True)
        return done.stdout

    rev = git("rev-parse", "--short", "HEAD").strip()
    dirty = git("status", "--porcelain", "--untracked-files=no")
    tree = None
    workers = []
    try:
        if args.before:
            tree = _worktree(args.before)
            workers.append(Worker(f"before {args.before}", tree, args.max_rounds))
        workers.append(Worker(f"now {rev}{'+' if dirty else ''}", HERE, args.max_rounds))
        _measure(workers, players, args.games, args.rounds)
        for w in workers:
            w.close()
    finally:
        if tree is not None:
            _remove_worktree(tree)
    print(f"{args.games} seeded games per player count and round, {args.max_rounds}-round cap, medians of "
          f"{args.rounds} rounds{' (the checkouts take turns game by game)' if len(workers) > 1 else ''}\n")
    _report(workers, players)


if __name__ == "__main__":
    main()

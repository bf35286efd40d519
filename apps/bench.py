"""Engine and encoding speed figures on seeded random games (``fcm bench``, ``benchmarks/bench_engine.py``).

Why: training throughput is bounded by how fast the engine steps and how fast a
position becomes an observation and a mask; these figures are the ones to watch
when the engine changes. For each player count it plays ``games`` seeded games
with uniform random choices among the legal actions and reports:

* ``steps/s``: decisions per second of whole random games (legal actions + choice + apply);
* ``decisions/game``, ``rounds/game``, ``setup ms`` (``Game.new``);
* on positions sampled from those games (at most ``positions`` per player count),
  microseconds per call: ``legal actions`` (uncached), ``legal ids`` (encoding the
  legal list), ``mask`` (``legal_action_mask`` on a position seen for the first time),
  ``observe`` and ``observe_flat`` into preallocated buffers.

Timings use ``time.perf_counter``; they depend on the machine, the counts do not.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass

import numpy as np
from rich.table import Table

from fcm_env.encoding import CODEC, Observer, legal_action_mask
from fcm_env.engine.game import Game
from fcm_env.tables import new_table, render_plain


@dataclass(frozen=True)
class BenchConfig:
    players: tuple[int, ...] = (2, 3, 4, 5)
    games: int = 2
    seed: int = 0
    max_rounds: int = 30
    variant: str = "standard"
    positions: int = 300  # positions kept per player count for the per-call timings
    reps: int = 3  # passes over the kept positions per timing

    def __post_init__(self) -> None:
        if not self.players or any(not 2 <= n <= 5 for n in self.players):
            raise ValueError(f"players must be counts 2..5, got {self.players}")
        if self.games < 1 or self.positions < 1 or self.reps < 1:
            raise ValueError("games, positions and reps must be at least 1")


@dataclass
class BenchRow:
    """The figures of one player count."""

    players: int
    games: int
    decisions_per_game: float
    rounds_per_game: float
    steps_per_s: float
    setup_ms: float
    positions: int
    legal_per_position: float
    legal_actions_us: float
    legal_ids_us: float
    mask_us: float
    observe_us: float
    observe_flat_us: float

    def to_json(self) -> dict:
        return asdict(self)


def play_random(num_players: int, config: BenchConfig) -> tuple[list[Game], dict[str, float]]:
    """Play the seeded random games; return sampled positions (clones) and the play figures."""
    play_s = setup_s = 0.0
    decisions = rounds = 0
    positions: list[Game] = []
    for g in range(config.games):
        seed = config.seed + g
        rng = random.Random(seed)
        start = time.perf_counter()
        game = Game.new(num_players, seed=seed, variant=config.variant, max_rounds=config.max_rounds)
        setup_s += time.perf_counter() - start
        steps: list[Game] = []
        start = time.perf_counter()
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
            decisions += 1
        play_s += time.perf_counter() - start
        rounds += game.state.round
        # a second pass keeps positions, outside the timed loop (same seed: the same game)
        replay_rng = random.Random(seed)
        game = Game.new(num_players, seed=seed, variant=config.variant, max_rounds=config.max_rounds)
        while not game.is_over:
            steps.append(game.clone())
            game.apply(replay_rng.choice(game.legal_actions()))
        positions.extend(steps)
    stride = max(1, len(positions) // config.positions)
    kept = positions[::stride][: config.positions]
    figures = {
        "decisions_per_game": decisions / config.games,
        "rounds_per_game": rounds / config.games,
        "steps_per_s": decisions / play_s if play_s > 0 else float("inf"),
        "setup_ms": setup_s / config.games * 1e3,
    }
    return kept, figures


def per_call_us(fn: Callable[[Game], object], positions: Sequence[Game], reps: int) -> float:
    """Mean microseconds of ``fn(position)`` over every position, ``reps`` passes."""
    start = time.perf_counter()
    for _ in range(reps):
        for g in positions:
            fn(g)
    return (time.perf_counter() - start) / (reps * len(positions)) * 1e6


def bench_players(num_players: int, config: BenchConfig) -> BenchRow:
    positions, figures = play_random(num_players, config)
    observer = Observer()
    buf = observer.new_observation()
    flat = np.zeros(observer.flat_size, dtype=np.float32)
    mask = np.zeros(CODEC.n, dtype=np.int8)
    legal = [g.legal_actions() for g in positions]
    by_id = {id(g): actions for g, actions in zip(positions, legal)}
    for g in positions:  # warm the observer's static caches
        observer.observe(g, g.current_player, out=buf)
    # ``Game(g.state)`` is a fresh wrapper with empty caches: the cost of a position seen once
    return BenchRow(
        players=num_players,
        games=config.games,
        positions=len(positions),
        legal_per_position=sum(map(len, legal)) / len(positions),
        legal_actions_us=per_call_us(lambda g: Game(g.state).legal_actions(), positions, config.reps),
        legal_ids_us=per_call_us(lambda g: sorted(CODEC.encode(a) for a in by_id[id(g)]), positions, config.reps),
        mask_us=per_call_us(lambda g: legal_action_mask(Game(g.state), g.current_player, out=mask), positions,
                            config.reps),
        observe_us=per_call_us(lambda g: observer.observe(g, g.current_player, out=buf), positions, config.reps),
        observe_flat_us=per_call_us(lambda g: observer.observe_flat(g, g.current_player, out=flat), positions,
                                    config.reps),
        **figures,
    )


def run(config: BenchConfig, progress: Callable[[str], None] | None = None) -> list[BenchRow]:
    rows = []
    for n in config.players:
        if progress:
            progress(f"{n} players: {config.games} random game(s)")
        rows.append(bench_players(n, config))
    return rows


ROW_LABELS = (
    ("games", "games", "{:.0f}"),
    ("decisions_per_game", "decisions / game", "{:.0f}"),
    ("rounds_per_game", "rounds / game", "{:.1f}"),
    ("steps_per_s", "engine steps / s", "{:.0f}"),
    ("setup_ms", "Game.new ms", "{:.2f}"),
    ("positions", "positions timed", "{:.0f}"),
    ("legal_per_position", "legal actions / position", "{:.1f}"),
    ("legal_actions_us", "legal_actions us", "{:.1f}"),
    ("legal_ids_us", "legal ids (encode) us", "{:.1f}"),
    ("mask_us", "mask (uncached) us", "{:.1f}"),
    ("observe_us", "observe us", "{:.1f}"),
    ("observe_flat_us", "observe_flat us", "{:.1f}"),
)


def bench_title(config: BenchConfig) -> str:
    """The line above the figures: what was played and the sizes of the action and observation spaces."""
    seeds = f"{config.seed}..{config.seed + config.games - 1}"
    return (f"random play, {config.variant}, max {config.max_rounds} rounds, seeds {seeds}; "
            f"action space N = {CODEC.n}, observation flat size {Observer().flat_size}")


def bench_table(rows: Sequence[BenchRow]) -> Table:
    """The figures as a rich table: one row per figure, one column per player count."""
    table = new_table(["figure", *(f"{r.players}p" for r in rows)])
    for key, label, fmt in ROW_LABELS:
        table.add_row(label, *(fmt.format(getattr(r, key)) for r in rows))
    return table


def format_rows(rows: Sequence[BenchRow], config: BenchConfig) -> str:
    """The title line and the table as plain text (what ``fcm bench`` prints off a terminal)."""
    return bench_title(config) + "\n" + render_plain(bench_table(rows))

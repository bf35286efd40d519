"""Expert Iteration in one command: label, fit, measure, and label again with the better network.

    python -m fcm_training.distill loop --rounds 3 --games 400 --seed 93000000 --workers 2 \\
        --search search:iterations=32 --opponents heuristic=0.5,policy=0.3,self=0.2 --out runs/distill/loop

Round ``r`` plays ``games`` games on seeds ``seed + r * games ..`` (fresh maps every round) against
opponents drawn per game from ``opponents`` (agent specs; ``past``: the loop's own networks of the rounds
before, a league; ``family``: the strategist family; ``self``: the search in every seat) with the
search labelling its decisions: in round 0 the plain ``search`` spec (the shipped policy as its prior
where ``prior=auto`` takes it), from round 1 on the same spec with ``policy_model=`` the network of
the round before, so the network is the search's prior and value. The network is then fitted on the
positions of the last ``window`` rounds (0: all of them), starting from the network of the round
before (round 0: the shipped policy and value networks), and played alone against ``eval_opponent``
on ``eval_games`` games of its own seed range, seats rotated. Each finished round is one JSON line of
``curve.jsonl``: positions, the fit's held-out figures, the win rate with its Wilson interval, seconds.

Everything is kept as it ends: positions per chunk, ``round-R/pv.onnx`` per round, the curve's line
per round. The same command resumes: a round with its line in the curve is skipped, a round cut short
plays only its missing chunks and fits again.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from fcm_agents.models import shipped_model_path, shipped_value_path

from ..common.evaluate import run_games
from ..common.interrupts import deferred_signals, stop_on_signals
from ..common.tournament_games import TournamentConfig
from ..common.tournament_results import summarise, wilson_interval
from .fit import fit
from .positions import generate

#: opponent names of the loop's league: its own earlier networks, and the strategist family
PAST, FAMILY = "past", "family"


@dataclass(frozen=True)
class LoopConfig:
    """The settings of a run, kept in ``loop.json`` so that a resumed run is the same run."""

    out: Path
    rounds: int
    games: int
    seed: int
    search: str = "search:iterations=32"
    opponents: dict[str, float] = field(default_factory=lambda: {"heuristic": 0.5, "policy": 0.3, "self": 0.2})
    players: int = 2
    workers: int = 1
    chunk: int = 4
    max_rounds: int = 30
    window: int = 0
    epochs: int = 2
    batch: int = 256
    lr: float = 3e-4
    eval_games: int = 100
    #: the model-selection seeds: the curve picks rounds, so it must not see the final tables' seeds (20,000,000+)
    eval_seed: int = 10_000_000
    eval_opponent: str = "heuristic"
    #: the engine the labelling and evaluation games run on (the same games on either)
    engine: str = "auto"

    def __post_init__(self) -> None:
        for name in ("rounds", "games", "players", "workers", "chunk", "max_rounds", "epochs", "batch"):
            if getattr(self, name) < 1:
                raise ValueError(f"distill loop: {name} must be at least 1, got {getattr(self, name)}")
        if self.window < 0 or self.eval_games < 0:
            raise ValueError(f"distill loop: window and eval_games are 0 or more, got {self.window}, {self.eval_games}")
        if "policy_model=" in self.search:
            raise ValueError("distill loop: the search's policy_model is set by the loop (the last round's network)")
        train = range(self.seed, self.seed + self.rounds * self.games)
        evaluation = range(self.eval_seed, self.eval_seed + self.eval_games)
        if self.eval_games and train.start < evaluation.stop and evaluation.start < train.stop:
            raise ValueError(f"distill loop: evaluation seeds {evaluation.start}..{evaluation.stop - 1} overlap the "
                             f"training seeds {train.start}..{train.stop - 1}")

    def to_json(self) -> dict:
        return {**asdict(self), "out": str(self.out)}

    def round_dir(self, r: int) -> Path:
        return self.out / f"round-{r}"

    def network(self, r: int) -> Path:
        return self.round_dir(r) / "pv.onnx"

    def search_spec(self, r: int) -> str:
        """The labelling search of round ``r``: from round 1 on it reads the last round's network."""
        return self.search if r == 0 else f"{self.search},policy_model={self.network(r - 1)}"

    def opponents_of(self, r: int) -> dict[str, float]:
        """Round ``r``'s opponents as agent specs: ``past`` is the league of the loop's own networks of rounds
        before ``r`` (its weight shared evenly; in round 0, where there is none, the shipped policy takes it);
        ``family`` the strategist family (the default and every archetype, evenly)."""
        from fcm_agents.strategist import ARCHETYPES

        out: dict[str, float] = {}
        for name, weight in self.opponents.items():
            if name == PAST:
                names = [f"onnx:{self.network(k)}" for k in range(r)] or ["policy"]
            elif name == FAMILY:
                names = ["strategist", *(f"strategist:archetype={a}" for a in ARCHETYPES)]
            else:
                names = [name]
            for spec in names:
                out[spec] = out.get(spec, 0.0) + weight / len(names)
        return out


#: settings a resumed run may change (an engine plays the same games as the other)
FREE = ("rounds", "workers", "engine")


def _settings_file(config: LoopConfig) -> Path:
    return config.out / "loop.json"


def _check_same_run(config: LoopConfig) -> None:
    """A folder holds one run: its settings must match on every resume, but for ``FREE`` (the number of
    rounds may grow, so a finished run continues for more; workers change the speed, not the games)."""
    path = _settings_file(config)
    mine = {k: v for k, v in config.to_json().items() if k not in FREE}
    if path.exists():
        kept = {k: v for k, v in json.loads(path.read_text()).items() if k not in FREE}
        changed = sorted(k for k in mine.keys() | kept.keys() if mine.get(k) != kept.get(k))
        if changed:
            raise ValueError(f"distill loop: {config.out} holds a run with other settings ({', '.join(changed)}); "
                             f"use another --out")
    config.out.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(config.to_json(), indent=1) + "\n")


def finished_rounds(config: LoopConfig) -> list[dict]:
    path = config.out / "curve.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def evaluate_alone(config: LoopConfig, network: Path) -> dict:
    """The network alone (no search) against ``eval_opponent`` in every other seat, seats rotated."""
    if not config.eval_games:
        return {}
    name = f"onnx:{network}"
    lineup = (name, *[config.eval_opponent] * (config.players - 1))
    results = run_games(TournamentConfig(lineup=lineup, games=config.eval_games, seed=config.eval_seed,
                                         max_rounds=config.max_rounds, workers=config.workers,
                                         engine=config.engine))
    stats = next(s for s in summarise(results) if s.name == name)
    low, high = wilson_interval(stats.wins, stats.games)
    return {"eval_games": stats.games, "eval_wins": stats.wins, "eval_ties": stats.ties, "eval_rate": stats.win_rate,
            "eval_low": low, "eval_high": high, "eval_mean_place": stats.place_total / max(stats.seats, 1)}


def run_loop(config: LoopConfig, log: Callable[[str], None] = print, backend: str = "processes",
             address: str | None = None) -> list[dict]:
    """Play the rounds not yet in ``curve.jsonl`` (module docstring); returns every round's line. The
    positions are played in processes or as Ray tasks (``backend``, ``address``: the same files)."""
    _check_same_run(config)
    done = finished_rounds(config)
    with stop_on_signals():  # Ctrl-C / SIGTERM: Interrupted, every finished chunk and round kept
        for r in range(len(done), config.rounds):
            start = time.perf_counter()
            first = config.seed + r * config.games
            log(f"round {r}: {config.games} games from seed {first}, search {config.search_spec(r)}")
            generate(first, config.games, config.round_dir(r) / "positions", config.search_spec(r), config.opponents_of(r),
                     num_players=config.players, workers=config.workers, chunk=config.chunk,
                     max_rounds=config.max_rounds, backend=backend, address=address, engine=config.engine)
            labelled = time.perf_counter() - start
            window = range(max(0, r - config.window + 1) if config.window else 0, r + 1)
            previous = config.network(r - 1) if r else shipped_model_path(config.players)
            best = fit([config.round_dir(k) / "positions" for k in window], config.network(r), previous,
                       None if r else shipped_value_path(config.players), epochs=config.epochs, batch=config.batch,
                       seed=config.seed + r, lr=config.lr, log=log)
            fitted = time.perf_counter() - start - labelled
            line = {"round": r, "search": config.search_spec(r), "trained_on_rounds": list(window),
                    **{f"held_out_{k}": v for k, v in best.items()}, **evaluate_alone(config, config.network(r)),
                    "label_seconds": round(labelled, 1), "fit_seconds": round(fitted, 1),
                    "seconds": round(time.perf_counter() - start, 1)}
            with deferred_signals(), (config.out / "curve.jsonl").open("a") as curve:
                curve.write(json.dumps(line) + "\n")
            log(describe(line))
            done.append(line)
    return done


def describe(line: dict) -> str:
    """One round's line as a sentence."""
    text = (f"round {line['round']}: held-out agreement {line['held_out_agreement']:.3f}, value accuracy "
            f"{line['held_out_accuracy']:.3f}")
    if "eval_games" in line:
        text += (f"; alone vs the opponent {line['eval_wins']}/{line['eval_games']} = {line['eval_rate']:.3f} "
                 f"[{line['eval_low']:.3f}, {line['eval_high']:.3f}]")
    return text + f" ({line['seconds']:.0f} s)"

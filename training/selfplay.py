"""MaskablePPO self-play from a YAML config: one seat learns, the others come from an opponent pool.

    python -m training.selfplay configs/quick.yaml [--total-timesteps N] [--resume]
    fcm train configs/quick.yaml

The learner plays one seat (a random seat each episode) of a game on a freshly
randomised map whose seed is drawn from the training seed range. The other seats
are sampled each episode from the pool: frozen snapshots of the learner taken
every ``snapshot_every`` steps, the heuristic agent and the random agent, with
the probabilities in ``opponents``. Every ``eval_every`` steps the current policy
plays ``eval_games`` games against each fixed anchor (``eval_opponents``) on the
evaluation seed range (maps never trained on); win rates go to TensorBoard and to
``eval.csv``, and the best model is
kept as ``best_model.zip`` (highest mean win rate over the anchors, then
the most cash). Checkpoints are written every ``checkpoint_every``
steps; ``--resume`` continues from the latest one.
"""

from __future__ import annotations

import argparse
import copy
import csv
import sys
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

import gymnasium as gym
import numpy as np
import yaml


@dataclass
class Config:
    """A self-play run (every field can be set in the YAML file)."""

    name: str = "run"
    num_players: int = 2
    variant: str = "standard"
    max_rounds: int = 20
    reward: str = "win"
    shaping: str | None = None
    n_envs: int = 4
    total_timesteps: int = 200_000
    seed: int = 0
    out_dir: str = "runs/run"
    device: str = "cpu"
    torch_threads: int = 1
    progress_bar: bool = True
    # network
    board_channels: int = 16
    board_features: int = 128
    vector_hidden: int = 128
    net_arch: list[int] = field(default_factory=lambda: [128, 128])
    # PPO
    learning_rate: float = 3e-4
    n_steps: int = 512
    batch_size: int = 256
    n_epochs: int = 4
    gamma: float = 0.995
    gae_lambda: float = 0.95
    clip_range: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    # opponents: probability of each kind per opponent seat
    opponents: dict[str, float] = field(default_factory=lambda: {"snapshot": 0.5, "random": 0.4, "heuristic": 0.1})
    snapshot_every: int = 20_000
    pool_size: int = 5
    # seeds: training maps and evaluation maps never overlap
    train_seeds: list[int] = field(default_factory=lambda: [0, 1_000_000])
    eval_seeds: list[int] = field(default_factory=lambda: [10_000_000, 10_000_200])
    eval_every: int = 20_000
    eval_games: int = 40
    eval_opponents: list[str] = field(default_factory=lambda: ["random", "heuristic"])
    checkpoint_every: int = 20_000

    def __post_init__(self) -> None:
        if not 2 <= self.num_players <= 5:
            raise ValueError(f"num_players must be 2-5, got {self.num_players}")
        unknown = set(self.opponents) - {"snapshot", "random", "heuristic"}
        if unknown:
            raise ValueError(f"opponents: unknown kinds {sorted(unknown)} (use snapshot, random, heuristic)")
        if sum(self.opponents.values()) <= 0:
            raise ValueError("opponents: the probabilities must sum to more than 0")
        lo, hi = self.train_seeds
        elo, ehi = self.eval_seeds
        if not (hi <= elo or ehi <= lo):
            raise ValueError(f"train_seeds {self.train_seeds} and eval_seeds {self.eval_seeds} overlap")
        if ehi - elo < self.eval_games:
            raise ValueError(f"eval_seeds holds {ehi - elo} seeds, fewer than eval_games={self.eval_games}")


def load_config(path: str | Path, **overrides) -> Config:
    """Read a YAML config; unknown keys are an error that names them."""
    data = yaml.safe_load(Path(path).read_text()) or {}
    if not isinstance(data, dict):
        raise TypeError(f"{path}: a config is a mapping of settings, got {type(data).__name__}")
    names = {f.name for f in fields(Config)}
    unknown = sorted(set(data) - names)
    if unknown:
        raise ValueError(f"{path}: unknown settings {unknown}")
    data.update({k: v for k, v in overrides.items() if v is not None})
    return Config(**data)


# ------------------------------------------------------------------ opponents


class OpponentPool:
    """Frozen snapshots of the learner plus the fixed heuristic and random agents."""

    def __init__(self, config: Config):
        from agents import HeuristicAgent, RandomAgent

        self.config = config
        self.snapshots: list = []
        self.kinds = sorted(config.opponents)
        weights = np.array([config.opponents[k] for k in self.kinds], dtype=float)
        self.probs = weights / weights.sum()
        self._heuristic = HeuristicAgent(name="heuristic")
        self._random_cls = RandomAgent

    def add_snapshot(self, policy) -> None:
        from agents.policy import PolicyAgent

        frozen = copy.deepcopy(policy)
        self.snapshots.append(PolicyAgent(frozen, name=f"snapshot{len(self.snapshots)}", deterministic=False))
        if len(self.snapshots) > self.config.pool_size:
            self.snapshots.pop(0)

    def sample(self, rng: np.random.Generator, count: int) -> list:
        chosen = []
        for _ in range(count):
            kind = self.kinds[int(rng.choice(len(self.kinds), p=self.probs))]
            if kind == "snapshot" and self.snapshots:
                chosen.append(self.snapshots[int(rng.integers(len(self.snapshots)))])
            elif kind == "heuristic":
                chosen.append(self._heuristic)
            else:
                chosen.append(self._random_cls(seed=int(rng.integers(2**31)), name="random"))
        return chosen


# ------------------------------------------------------------------ environments


class TrainingSeeds(gym.Wrapper):
    """Draws every episode's game seed from the training range, so evaluation maps stay unseen."""

    def __init__(self, env: gym.Env, seeds: tuple[int, int], rng: np.random.Generator):
        super().__init__(env)
        self.seeds = seeds
        self.rng = rng

    def reset(self, *, seed: int | None = None, options=None):
        if seed is None:
            seed = int(self.rng.integers(*self.seeds))
        return self.env.reset(seed=seed, options=options)

    def action_masks(self) -> np.ndarray:
        return self.env.get_wrapper_attr("action_masks")()


def make_env(config: Config, pool: OpponentPool, rank: int) -> gym.Env:
    """One training env: the single-agent view, pool opponents, training-range seeds, episode stats."""
    from stable_baselines3.common.monitor import Monitor

    from fcm_env.env.single_agent import FcmSingleAgentEnv

    def sampler(env_rng: np.random.Generator) -> list:
        return pool.sample(env_rng, config.num_players - 1)

    env = FcmSingleAgentEnv(
        num_players=config.num_players, variant=config.variant, max_rounds=config.max_rounds,
        reward=config.reward, shaping=config.shaping, opponent_sampler=sampler, learner_seat="random",
        truncation_as_termination=True,  # max_rounds ends the game for good: no bootstrapping past it
    )
    rng = np.random.default_rng([config.seed, rank])
    return Monitor(TrainingSeeds(env, tuple(config.train_seeds), rng))


# ------------------------------------------------------------------ evaluation


def evaluate_policy(policy, config: Config, opponent: str, games: int | None = None) -> dict:
    """Win rate of ``policy`` (deterministic) against ``opponent`` on the evaluation seeds, seats rotated."""
    from agents.match import play_game
    from agents.policy import PolicyAgent
    from agents.registry import make_agent
    from training.evaluate import wilson_interval

    games = games or config.eval_games
    learner = PolicyAgent(policy, name="learner")
    wins, cash, by_bank = 0, 0.0, 0
    for g in range(games):
        seed = config.eval_seeds[0] + g
        seat = g % config.num_players
        lineup = [make_agent(opponent, seed=seed * 10 + i) for i in range(config.num_players)]
        lineup[seat] = learner
        result = play_game(lineup, seed=seed, variant=config.variant, max_rounds=config.max_rounds)
        wins += int(seat in result.winners)
        cash += result.cash[seat]
        by_bank += int(result.ended_by == "bank")
    low, high = wilson_interval(wins, games)
    return {"opponent": opponent, "games": games, "wins": wins, "win_rate": wins / games,
            "win_rate_low": low, "win_rate_high": high, "mean_cash": cash / games, "ended_by_bank": by_bank}


def _callbacks(config: Config, pool: OpponentPool, out: Path):
    from stable_baselines3.common.callbacks import BaseCallback

    class SelfPlayCallback(BaseCallback):
        """Snapshots into the pool, periodic evaluation, best-model keeping, checkpoints."""

        def __init__(self):
            super().__init__()
            self.best: tuple[float, float] = (-1.0, 0.0)
            self.last_eval = -1
            self.next_snapshot = config.snapshot_every
            self.next_eval = config.eval_every
            self.next_checkpoint = config.checkpoint_every

        def _on_training_start(self) -> None:
            steps = self.model.num_timesteps
            for attr, every in (("next_snapshot", config.snapshot_every), ("next_eval", config.eval_every),
                                ("next_checkpoint", config.checkpoint_every)):
                setattr(self, attr, (steps // every + 1) * every)

        def _on_step(self) -> bool:
            steps = self.model.num_timesteps
            if steps >= self.next_snapshot:
                pool.add_snapshot(self.model.policy)
                self.next_snapshot += config.snapshot_every
            if steps >= self.next_checkpoint:
                self.model.save(out / "checkpoints" / f"step_{steps}")
                self.next_checkpoint += config.checkpoint_every
            if steps >= self.next_eval:
                self.run_eval(steps)
                self.next_eval += config.eval_every
            return True

        def _on_training_end(self) -> None:
            if self.last_eval != self.model.num_timesteps:
                self.run_eval(self.model.num_timesteps)

        def run_eval(self, steps: int) -> None:
            self.last_eval = steps
            rows = [evaluate_policy(self.model.policy, config, opp) for opp in config.eval_opponents]
            for row in rows:
                self.logger.record(f"eval/win_rate_vs_{row['opponent']}", row["win_rate"])
                self.logger.record(f"eval/mean_cash_vs_{row['opponent']}", row["mean_cash"])
            self.logger.dump(steps)
            path = out / "eval.csv"
            new = not path.exists()
            with path.open("a", newline="") as f:
                writer = csv.DictWriter(f, fieldnames=["steps", *rows[0].keys()])
                if new:
                    writer.writeheader()
                for row in rows:
                    writer.writerow({"steps": steps, **row})
            # best = highest mean win rate over the anchors, then the most cash (a single anchor
            # such as the random agent saturates at 100% early and would freeze the choice)
            score = (sum(r["win_rate"] for r in rows) / len(rows), sum(r["mean_cash"] for r in rows))
            if score > self.best:
                self.best = score
                self.model.save(out / "best_model")
            summary = ", ".join(f"{r['opponent']} {r['win_rate']:.2f}" for r in rows)
            print(f"[eval @ {steps} steps] win rate vs {summary}", flush=True)

    return SelfPlayCallback()


# ------------------------------------------------------------------ main


def main(config_path: str | Path, *, resume: bool = False, **overrides) -> Path:
    """Train from a config file; returns the run directory."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    from training.features import BoardVectorExtractor

    config = load_config(config_path, **overrides)
    torch.set_num_threads(config.torch_threads)
    out = Path(config.out_dir)
    (out / "checkpoints").mkdir(parents=True, exist_ok=True)
    (out / "config.yaml").write_text(yaml.safe_dump(asdict(config), sort_keys=False))
    pool = OpponentPool(config)
    env = DummyVecEnv([lambda rank=rank: make_env(config, pool, rank) for rank in range(config.n_envs)])
    latest = _latest_checkpoint(out) if resume else None
    if latest is not None:
        model = MaskablePPO.load(str(latest), env=env, device=config.device)
        print(f"resuming from {latest} at {model.num_timesteps} steps", flush=True)
    else:
        model = MaskablePPO(
            "MlpPolicy", env,
            policy_kwargs={
                "features_extractor_class": BoardVectorExtractor,
                "features_extractor_kwargs": {
                    "board_channels": config.board_channels, "board_features": config.board_features,
                    "vector_hidden": config.vector_hidden,
                },
                "net_arch": {"pi": list(config.net_arch), "vf": list(config.net_arch)},
            },
            learning_rate=config.learning_rate, n_steps=config.n_steps, batch_size=config.batch_size,
            n_epochs=config.n_epochs, gamma=config.gamma, gae_lambda=config.gae_lambda,
            clip_range=config.clip_range, ent_coef=config.ent_coef, vf_coef=config.vf_coef,
            tensorboard_log=str(out / "tb"), seed=config.seed, device=config.device, verbose=0,
        )
    model.learn(
        total_timesteps=config.total_timesteps, callback=_callbacks(config, pool, out),
        progress_bar=config.progress_bar, reset_num_timesteps=latest is None, tb_log_name=config.name,
    )
    model.save(out / "final_model")
    return out


def _latest_checkpoint(out: Path) -> Path | None:
    found = sorted((out / "checkpoints").glob("step_*.zip"), key=lambda p: int(p.stem.split("_")[1]))
    return found[-1] if found else None


def cli(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.selfplay", description="MaskablePPO self-play.")
    parser.add_argument("config", help="YAML run config (see configs/)")
    parser.add_argument("--total-timesteps", type=int, default=None)
    parser.add_argument("--out-dir", default=None)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--no-progress-bar", action="store_true")
    parser.add_argument("--resume", action="store_true", help="continue from the latest checkpoint")
    args = parser.parse_args(argv)
    out = main(args.config, resume=args.resume, total_timesteps=args.total_timesteps, out_dir=args.out_dir,
               seed=args.seed, progress_bar=False if args.no_progress_bar else None)
    print(f"run written to {out}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(cli())

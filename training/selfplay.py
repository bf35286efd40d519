"""MaskablePPO self-play from a YAML config: one seat learns, the others come from an opponent pool.

    python -m fcm_training.selfplay configs/quick.yaml [--total-timesteps N] [--resume]
    fcm train configs/quick.yaml

A run has two stages. **Behaviour cloning** (``bc_rounds`` > 0, ``fcm_training.imitation``):
the policy and its value head are first trained to imitate the heuristic on its own
labelled decisions (DAgger rounds), and the result is kept as ``bc_model.zip``.
**Self-play**: MaskablePPO from there. The learner plays one seat (a random seat each episode) of a game on a freshly
randomised map whose seed is drawn from the training seed range. The other seats
are sampled each episode from the pool: frozen snapshots of the learner taken
every ``snapshot_every`` steps, the heuristic agent and the random agent, with
the probabilities in ``opponents``. Every ``eval_every`` steps the current policy
plays ``eval_games`` games against each fixed anchor (``eval_opponents``) on the
evaluation seed range (maps never trained on); win rates go to TensorBoard and to
``eval.csv``, and the best model is
kept as ``best_model.zip`` (highest mean win rate over the anchors, then
the most cash). Checkpoints are written every ``checkpoint_every``
steps; ``--resume`` continues from the latest one. With ``eval_async`` the evaluation games
run in a worker process on an ONNX copy of the policy, off the training loop. Where the
wall time went is written to ``timing.json`` (``fcm_training.timing``).
"""

from __future__ import annotations

import argparse
import csv
import shutil
import sys
import time
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

import numpy as np
import yaml

from .timing import StageTimer, format_split


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
    env_workers: int = 1  # processes stepping the learner's games (this one included)
    total_timesteps: int = 200_000
    seed: int = 0
    out_dir: str = "runs/run"
    device: str = "cpu"
    torch_threads: int = 1
    progress_bar: bool = True
    # network (fcm_training.features.EXTRACTORS)
    extractor: str = "compact"
    mix_channels: int = 8
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
    eval_async: bool = True
    checkpoint_every: int = 20_000
    # behaviour cloning of the heuristic before PPO (fcm_training.imitation); 0 rounds = none
    bc_rounds: int = 0
    bc_games: int = 100
    bc_epochs: int = 2
    bc_batch_size: int = 256
    bc_learning_rate: float = 1e-3
    bc_value_coef: float = 0.5
    bc_placement_weight: float = 1.0
    bc_holdout_games: int = 10

    def __post_init__(self) -> None:
        if not 2 <= self.num_players <= 5:
            raise ValueError(f"num_players must be 2-5, got {self.num_players}")
        if not 1 <= self.env_workers <= self.n_envs:
            raise ValueError(f"env_workers must be 1..n_envs={self.n_envs}, got {self.env_workers}")
        from .features import EXTRACTORS

        if self.extractor not in EXTRACTORS:
            raise ValueError(f"extractor must be one of {sorted(EXTRACTORS)}, got {self.extractor!r}")
        unknown = set(self.opponents) - {"snapshot", "random", "heuristic"}
        if unknown:
            raise ValueError(f"opponents: unknown kinds {sorted(unknown)} (use snapshot, random, heuristic)")
        if sum(self.opponents.values()) <= 0:
            raise ValueError("opponents: the probabilities must sum to more than 0")
        lo, hi = self.train_seeds
        elo, ehi = self.eval_seeds
        if not (hi <= elo or ehi <= lo):
            raise ValueError(f"train_seeds {self.train_seeds} and eval_seeds {self.eval_seeds} overlap")
        if ehi - elo < max(self.eval_games, self.bc_holdout_games):
            raise ValueError(f"eval_seeds holds {ehi - elo} seeds, fewer than eval_games={self.eval_games} "
                             f"or bc_holdout_games={self.bc_holdout_games}")
        if self.bc_rounds and self.bc_games * (self.bc_rounds) > hi - lo:
            raise ValueError(f"train_seeds {self.train_seeds} holds fewer seeds than the behaviour-cloning games")


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


# ------------------------------------------------------------------ environments


class LearnerEnvs:
    """Builds the learner's single-agent games in any process, each process with its own opponent pool.

    Picklable (the env worker processes of ``env_workers`` > 1 get a copy): the pool and the
    timer are made in the process that uses them. Every episode draws its map from
    ``train_seeds`` and its opponents from the pool; the ``max_rounds`` cut-off is the end of
    the game (no value bootstrapping past it).
    """

    def __init__(self, config: Config, timer: StageTimer | None = None):
        self.config = config
        self.timer = timer
        self._pool = None

    def __getstate__(self) -> dict:
        return {"config": self.config, "timer": None, "_pool": None}

    @property
    def pool(self):
        if self._pool is None:
            from .opponents import OpponentPool
            from .parallel_vec_env import worker_index

            if self.timer is None:
                self.timer = StageTimer()
            config = self.config
            # snapshot opponents sample with a generator of their own in every process
            self._pool = OpponentPool(config.opponents, config.pool_size, self.timer,
                                      seed=config.seed + 100_003 * worker_index())
        return self._pool

    def sample(self, env_rng: np.random.Generator) -> list:
        return self.pool.sample(env_rng, self.config.num_players - 1)

    def __call__(self):
        from fcm_env.env.single_agent import FcmSingleAgentEnv

        config = self.config
        return FcmSingleAgentEnv(
            num_players=config.num_players, variant=config.variant, max_rounds=config.max_rounds,
            reward=config.reward, shaping=config.shaping, opponent_sampler=self.sample, learner_seat="random",
            truncation_as_termination=True, game_seeds=tuple(config.train_seeds),
        )

    def add_snapshot(self, model: bytes) -> None:
        """A frozen copy of the learner (ONNX bytes) joins this process's pool."""
        self.pool.add_onnx_snapshot(model)

    def timings(self) -> dict[str, float]:
        """Seconds per stage spent in this process's sub-envs' opponents."""
        return dict(self.timer.seconds) if self.timer is not None else {}


def make_vec_env(config: Config, timer: StageTimer):
    """The learner's ``n_envs`` games as one SB3 VecEnv: batched in this process (``env_workers`` 1) or
    split over ``env_workers`` processes with shared memory (``fcm_training.parallel_vec_env``)."""
    from stable_baselines3.common.vec_env import VecMonitor

    from .parallel_vec_env import ParallelSb3FcmVecEnv
    from .sb3_vec_env import Sb3FcmVecEnv

    factory = LearnerEnvs(config, timer)
    if config.env_workers > 1:
        venv = ParallelSb3FcmVecEnv(config.n_envs, factory, workers=config.env_workers)
    else:
        venv = Sb3FcmVecEnv(config.n_envs, factory)
    # the learner's steps (this process's games and the wait for the workers'); opponents' decisions
    # in this process are stages of their own
    venv.step_wait = timer.wrap("env", venv.step_wait)
    venv.reset = timer.wrap("env", venv.reset)
    return VecMonitor(venv)


# ------------------------------------------------------------------ evaluation


def eval_settings(config: Config) -> dict:
    return {"games": config.eval_games, "first_seed": config.eval_seeds[0], "num_players": config.num_players,
            "variant": config.variant, "max_rounds": config.max_rounds}


def evaluate_policy(policy, config: Config, opponent: str, games: int | None = None) -> dict:
    """Win rate of ``policy`` (deterministic) against ``opponent`` on the evaluation seeds, seats rotated."""
    from fcm_agents.policy import PolicyAgent

    from .background_eval import evaluate_agent

    settings = eval_settings(config)
    if games is not None:
        settings["games"] = games
    return evaluate_agent(PolicyAgent(policy, name="learner"), opponent=opponent, **settings)


def _callbacks(config: Config, venv, out: Path, timer: StageTimer):
    from stable_baselines3.common.callbacks import BaseCallback

    from .background_eval import BackgroundEvaluator
    from .export import onnx_bytes

    class SelfPlayCallback(BaseCallback):
        """Snapshots into the pool, evaluations (in the background or inline), best model, checkpoints."""

        def __init__(self):
            super().__init__()
            self.best: tuple[float, float] = (-1.0, 0.0)
            self.last_eval = -1
            self.next_snapshot = config.snapshot_every
            self.next_eval = config.eval_every
            self.next_checkpoint = config.checkpoint_every
            self.background = None
            self.update_started: float | None = None

        def _on_training_start(self) -> None:
            steps = self.model.num_timesteps
            for attr, every in (("next_snapshot", config.snapshot_every), ("next_eval", config.eval_every),
                                ("next_checkpoint", config.checkpoint_every)):
                setattr(self, attr, (steps // every + 1) * every)
            if config.eval_async:
                self.background = BackgroundEvaluator(config.eval_opponents, **eval_settings(config))
            # rollouts' forward passes (MaskablePPO calls policy(obs, action_masks=...)); the
            # update is the time from the end of a rollout to the start of the next one
            self.model.policy.forward = timer.wrap("forward", self.model.policy.forward)

        def _on_rollout_end(self) -> None:
            self.update_started = time.perf_counter()

        def _on_rollout_start(self) -> None:
            if self.update_started is not None:
                timer.add("update", time.perf_counter() - self.update_started)
                self.update_started = None

        def _on_step(self) -> bool:
            steps = self.model.num_timesteps
            if steps >= self.next_snapshot:
                with timer.stage("snapshots"):  # into every env process's opponent pool
                    venv.call_factory("add_snapshot", onnx_bytes(self.model.policy))
                self.next_snapshot += config.snapshot_every
            if steps >= self.next_checkpoint:
                with timer.stage("checkpoints"):
                    self.model.save(out / "checkpoints" / f"step_{steps}")
                self.next_checkpoint += config.checkpoint_every
            if steps >= self.next_eval:
                self.start_eval(steps)
                self.next_eval += config.eval_every
            if self.background is not None:
                for done_steps, rows in self.background.finished():
                    self.record(done_steps, rows)
            return True

        def _on_training_end(self) -> None:
            self._on_rollout_start()  # the last update
            if self.last_eval != self.model.num_timesteps:
                self.start_eval(self.model.num_timesteps)
            if self.background is not None:
                with timer.stage("evaluation"):  # the end of the run waits for the last results
                    for done_steps, rows in self.background.finished(wait=True):
                        self.record(done_steps, rows)
                self.background.close()

        def start_eval(self, steps: int) -> None:
            self.last_eval = steps
            (out / "evals").mkdir(exist_ok=True)
            self.model.save(out / "evals" / f"step_{steps}")
            if self.background is not None:
                with timer.stage("snapshots"):
                    self.background.submit(steps, onnx_bytes(self.model.policy))
                return
            with timer.stage("evaluation"):
                rows = [evaluate_policy(self.model.policy, config, opp) for opp in config.eval_opponents]
            self.record(steps, rows)

        def record(self, steps: int, rows: list[dict]) -> None:
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
            saved = out / "evals" / f"step_{steps}.zip"
            if score > self.best:
                self.best = score
                shutil.copyfile(saved, out / "best_model.zip")
                (out / "best_model.txt").write_text(f"steps {steps}\n")
            saved.unlink(missing_ok=True)
            summary = ", ".join(f"{r['opponent']} {r['win_rate']:.2f}" for r in rows)
            print(f"[eval @ {steps} steps] win rate vs {summary}", flush=True)

    return SelfPlayCallback()


# ------------------------------------------------------------------ main


def build_model(config: Config, env):
    """A fresh MaskablePPO with the configured network and hyperparameters."""
    from sb3_contrib import MaskablePPO

    from .features import EXTRACTORS
    from .legal_policy import LegalActionsPolicy, SpatialPolicy
    from .rollout_buffer import InPlaceMaskableRolloutBuffer

    extractor, keys = EXTRACTORS[config.extractor]
    return MaskablePPO(
        SpatialPolicy if config.extractor == "spatial" else LegalActionsPolicy, env,
        policy_kwargs={
            "features_extractor_class": extractor,
            "features_extractor_kwargs": {k: getattr(config, k) for k in keys},
            "net_arch": {"pi": list(config.net_arch), "vf": list(config.net_arch)},
        },
        learning_rate=config.learning_rate, n_steps=config.n_steps, batch_size=config.batch_size,
        n_epochs=config.n_epochs, gamma=config.gamma, gae_lambda=config.gae_lambda,
        clip_range=config.clip_range, ent_coef=config.ent_coef, vf_coef=config.vf_coef,
        tensorboard_log=str(out_dir(config) / "tb"), seed=config.seed, device=config.device, verbose=0,
        rollout_buffer_class=InPlaceMaskableRolloutBuffer,
    )


def out_dir(config: Config) -> Path:
    return Path(config.out_dir)


def main(config_path: str | Path, *, resume: bool = False, **overrides) -> Path:
    """Train from a config file (behaviour cloning, then self-play); returns the run directory."""
    import torch
    from sb3_contrib import MaskablePPO

    config = load_config(config_path, **overrides)
    torch.set_num_threads(config.torch_threads)
    out = out_dir(config)
    (out / "checkpoints").mkdir(parents=True, exist_ok=True)
    (out / "config.yaml").write_text(yaml.safe_dump(asdict(config), sort_keys=False))
    timer = StageTimer()
    env = make_vec_env(config, timer)
    try:  # env worker processes and their shared memory go with the run, however it ends
        latest = _latest_checkpoint(out) if resume else None
        if latest is not None:
            model = MaskablePPO.load(str(latest), env=env, device=config.device)
            print(f"resuming from {latest} at {model.num_timesteps} steps", flush=True)
        else:
            model = build_model(config, env)
            if config.bc_rounds > 0:
                with timer.stage("behaviour_cloning"):
                    _warm_start(model, config, out)
        start_steps = model.num_timesteps
        model.learn(
            total_timesteps=config.total_timesteps, callback=_callbacks(config, env.venv, out, timer),
            progress_bar=config.progress_bar, reset_num_timesteps=latest is None, tb_log_name=config.name,
        )
        model.save(out / "final_model")
        steps = model.num_timesteps - start_steps
        workers = env.venv.call_factory("timings")[1:]  # opponents' time inside the env worker processes
    finally:
        env.close()
    timer.write(out / "timing.json", learner_steps=steps, env_workers=workers)
    print(format_split(timer.split(), steps), flush=True)
    return out


def _warm_start(model, config: Config, out: Path) -> None:
    """Behaviour cloning into ``model.policy``; reuses ``bc_model.zip`` of an earlier run of the same dir."""
    from .imitation import behaviour_cloning

    saved = out / "bc_model.zip"
    if saved.exists():
        from sb3_contrib import MaskablePPO

        model.policy.load_state_dict(MaskablePPO.load(str(saved), device=config.device).policy.state_dict())
        print(f"behaviour cloning: loaded {saved}", flush=True)
        return
    behaviour_cloning(model.policy, config, out)
    model.save(saved)


def _latest_checkpoint(out: Path) -> Path | None:
    found = sorted((out / "checkpoints").glob("step_*.zip"), key=lambda p: int(p.stem.split("_")[1]))
    return found[-1] if found else None


def cli(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fcm_training.selfplay", description="MaskablePPO self-play.")
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

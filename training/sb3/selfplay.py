"""MaskablePPO self-play from a YAML config: one seat learns, the others come from an opponent pool.

    python -m fcm_training.selfplay configs/quick.yaml [--total-timesteps N] [--resume | --overwrite]
    fcm train quick                      # a shipped config by name (fcm_training.configs)

(``fcm_training.selfplay`` is this module's entry point under its public name, the one ``fcm train``
loads.) The settings are ``fcm_training.common.config.Config`` (checked by pydantic before anything
is written); the run folder rules (refuse a used ``out_dir`` unless ``--resume`` or ``--overwrite``)
are in ``fcm_training.sb3.run_dir``.

A run has two stages. **Behaviour cloning** (``bc_rounds`` > 0, ``fcm_training.sb3.imitation``):
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
steps; ``--resume`` continues from the latest one. ``total_timesteps`` is rounded up to
whole rollouts (``n_envs`` x ``n_steps``, what PPO trains anyway); the run says so when it
rounds. With ``eval_async`` the evaluation games run in a worker process on an ONNX copy of
the policy, off the training loop. Where the wall time went is written to ``timing.json``
(``fcm_training.sb3.timing``).
"""

from __future__ import annotations

import argparse
import csv
import shutil
import sys
import time
from dataclasses import asdict
from pathlib import Path

import numpy as np
import yaml

from ..common.config import Config, ConfigError, check_device, load_config, planned_timesteps
from .run_dir import RunDirError, prepare_run_dir, trim_eval_rows
from .timing import StageTimer, format_split

__all__ = ["Config", "ConfigError", "load_config", "main"]


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
    split over ``env_workers`` processes with shared memory (``fcm_training.sb3.parallel_vec_env``)."""
    from stable_baselines3.common.vec_env import VecMonitor

    from .parallel_vec_env import ParallelSb3FcmVecEnv
    from .vec_env import Sb3FcmVecEnv

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


def eval_score(rows: list[dict]) -> tuple[float, float]:
    """The best model's key: mean win rate over the anchors, then the most cash (a single anchor such as
    the random agent saturates at 100% early and would freeze the choice)."""
    return (sum(float(r["win_rate"]) for r in rows) / len(rows), sum(float(r["mean_cash"]) for r in rows))


def best_score(rows: list[dict]) -> tuple[float, float]:
    """The best ``eval_score`` among an ``eval.csv``'s evaluations (``(-1, 0)`` with none): a resumed run
    replaces ``best_model.zip`` only with a better model."""
    by_steps: dict[str, list[dict]] = {}
    for row in rows:
        by_steps.setdefault(row["steps"], []).append(row)
    return max((eval_score(group) for group in by_steps.values()), default=(-1.0, 0.0))


def _callbacks(config: Config, venv, out: Path, timer: StageTimer, best: tuple[float, float] = (-1.0, 0.0)):
    from stable_baselines3.common.callbacks import BaseCallback

    from ..common.export import onnx_bytes
    from .background_eval import BackgroundEvaluator

    class SelfPlayCallback(BaseCallback):
        """Snapshots into the pool, evaluations (in the background or inline), best model, checkpoints."""

        def __init__(self):
            super().__init__()
            self.best = best
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
            score = eval_score(rows)
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


def main(config_path: str | Path, *, resume: bool = False, overwrite: bool = False, **overrides) -> Path:
    """Train from a config (a YAML path or a shipped config's name); returns the run directory.

    Everything is checked before anything is written: the settings (``ConfigError``), the device,
    and the run folder against ``resume`` / ``overwrite`` (``RunDirError``, ``fcm_training.sb3.run_dir``).
    """
    config = load_config(config_path, **overrides)
    check_device(config.device)
    out = out_dir(config)
    latest = prepare_run_dir(out, resume=resume, overwrite=overwrite)

    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(config.torch_threads)
    (out / "checkpoints").mkdir(parents=True, exist_ok=True)
    (out / "config.yaml").write_text(yaml.safe_dump(asdict(config), sort_keys=False))
    total = planned_timesteps(config)
    timer = StageTimer()
    env = make_vec_env(config, timer)
    try:  # env worker processes and their shared memory go with the run, however it ends
        best = (-1.0, 0.0)
        if latest is not None:
            model = MaskablePPO.load(str(latest.path), env=env, device=config.device)
            print(f"resuming from {latest.path} at {model.num_timesteps:,} steps", flush=True)
            best = best_score(trim_eval_rows(out / "eval.csv", model.num_timesteps))
        else:
            model = build_model(config, env)
            if config.bc_rounds > 0:
                with timer.stage("behaviour_cloning"):
                    _warm_start(model, config, out)
        start_steps = model.num_timesteps
        model.learn(
            total_timesteps=total, callback=_callbacks(config, env.venv, out, timer, best),
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


def cli(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fcm_training.selfplay",
                                     description="MaskablePPO self-play.",
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("config", help="YAML run config: a path, or a shipped config's name (e.g. quick)")
    parser.add_argument("--total-timesteps", type=int, default=None, help="override the config's")
    parser.add_argument("--out-dir", default=None, help="override the config's")
    parser.add_argument("--seed", type=int, default=None, help="override the config's")
    parser.add_argument("--no-progress-bar", action="store_true", help="no progress bar")
    parser.add_argument("--resume", action="store_true", help="continue from the run's latest checkpoint")
    parser.add_argument("--overwrite", action="store_true", help="clear an existing run folder first")
    args = parser.parse_args(argv)
    try:
        out = main(args.config, resume=args.resume, overwrite=args.overwrite,
                   total_timesteps=args.total_timesteps, out_dir=args.out_dir, seed=args.seed,
                   progress_bar=False if args.no_progress_bar else None)
    except (ConfigError, RunDirError) as exc:
        for line in str(exc).splitlines():
            print(f"{parser.prog}: error: {line}", file=sys.stderr)
        return 2
    print(f"run written to {out}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(cli())

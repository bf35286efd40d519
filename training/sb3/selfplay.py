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
the most cash). Snapshots, evaluations and checkpoints happen at rollout boundaries
(``fcm_training.sb3.callbacks``); checkpoints every ``checkpoint_every`` steps and at the end, the
``keep_checkpoints`` most recent kept (``fcm_training.sb3.checkpoints``); ``--resume`` continues
from the latest one up to ``total_timesteps`` in all. ``total_timesteps`` is rounded up to
whole rollouts (``n_envs`` x ``n_steps``, what PPO trains anyway); the run says so when it
rounds. With ``eval_async`` the evaluation games run in a worker process on an ONNX copy of
the policy, off the training loop. Where the wall time went is written to ``timing.json``
(``fcm_training.sb3.timing``).

SIGINT (Ctrl-C) or SIGTERM stops a run within a second or two: the env and evaluation workers
(which ignore SIGINT) are killed, the model as it was after the last whole PPO update is saved as a
checkpoint with the opponent pool and the random states, and ``TrainingInterrupted`` carries the
one line that says what was kept and how to resume (``fcm train`` prints it, exit code 130 or 143).
"""

from __future__ import annotations

import argparse
import shlex
import sys
from dataclasses import asdict
from pathlib import Path

import numpy as np
import yaml

from ..common.config import Config, ConfigError, check_device, config_notes, load_config, planned_timesteps
from ..common.interrupts import Interrupted
from ..common.threads import spin_warning, workers_warning
from .run_dir import RunDirError, best_score, eval_score, prepare_run_dir, trim_eval_rows  # noqa: F401 -- eval_score: its old home
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
            from fcm_env.env.parallel import worker_index

            from .opponents import OpponentPool

            if self.timer is None:
                self.timer = StageTimer()
            config = self.config
            # snapshot opponents sample with a generator of their own in every process
            self._pool = OpponentPool(config.opponents, config.pool_size, self.timer,
                                      seed=config.seed + 100_003 * worker_index(), frozen=frozen_path(config))
        return self._pool

    def sample(self, env_rng: np.random.Generator) -> list:
        return self.pool.sample(env_rng, self.config.num_players - 1)

    def __call__(self):
        from fcm_env.env.single_agent import FcmSingleAgentEnv

        config = self.config
        return FcmSingleAgentEnv(
            num_players=config.num_players, variant=config.variant, max_rounds=config.max_rounds,
            reward=config.reward, shaping=config.shaping, opponent_sampler=self.sample, learner_seat="random",
            truncation_as_termination=True, game_seeds=tuple(config.train_seeds), engine=config.engine,
        )

    def add_snapshot(self, model: bytes) -> None:
        """A frozen copy of the learner (ONNX bytes) joins this process's pool."""
        self.pool.add_onnx_snapshot(model)

    def native_opponents(self) -> object | None:
        """The pool as the native batch plays it (``FcmVectorEnv``'s hook): the same draws, every seat in C++.
        None (the sub-envs then step in Python with the pool's Python agents) when the learner's network is not
        of the family the native pass knows (the compact extractor, one hidden layer per head) or the native
        players are not built."""
        if not native_league(self.config):
            return None
        return self.pool.native_mix()

    def timings(self) -> dict[str, float]:
        """Seconds per stage spent in this process's sub-envs' opponents."""
        return dict(self.timer.seconds) if self.timer is not None else {}


def frozen_path(config: Config) -> Path | None:
    """The file a frozen opponent plays (``frozen_model``; ``shipped``: the shipped policy of the table's size)."""
    if not config.frozen_model:
        return None
    if config.frozen_model == "shipped":
        from fcm_agents.models import shipped_model_path

        return Path(shipped_model_path(config.num_players))
    return Path(config.frozen_model)


def native_league(config: Config) -> bool:
    """Whether the learner's games and all their opponents can step in the native batch."""
    from fcm_env import engines

    if config.extractor != "compact" or len(config.net_arch) != 1:
        return False
    if engines.batch_core(engines.resolve_engine(config.engine)) is None:
        return False
    try:
        from fcm_agents.native import _agents  # noqa: F401
    except ImportError:
        return False
    return True


def make_vec_env(config: Config, timer: StageTimer):
    """The learner's ``n_envs`` games as one SB3 VecEnv. Where ``native_league`` holds, one native batch in this
    process plays them and all their opponents in C++ over ``env_workers`` threads; else they are batched in
    this process (``env_workers`` 1) or split over ``env_workers`` processes with shared memory
    (``fcm_training.sb3.parallel_vec_env``)."""
    from stable_baselines3.common.vec_env import VecMonitor

    from fcm_env.env.vector import FcmVectorEnv

    from .parallel_vec_env import ParallelSb3FcmVecEnv
    from .vec_env import Sb3FcmVecEnv

    factory = LearnerEnvs(config, timer)
    if native_league(config):  # one batch in this process: the core's threads step the games and opponents
        venv = Sb3FcmVecEnv(venv=FcmVectorEnv(config.n_envs, factory, threads=config.env_workers))
        venv.env_fn = factory
    elif config.env_workers > 1:
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
            "variant": config.variant, "max_rounds": config.max_rounds, "engine": config.engine}


def evaluate_policy(policy, config: Config, opponent: str, games: int | None = None) -> dict:
    """Win rate of ``policy`` (deterministic) against ``opponent`` on the evaluation seeds, seats rotated."""
    from fcm_agents.policy import PolicyAgent

    from .background_eval import evaluate_agent

    settings = eval_settings(config)
    if games is not None:
        settings["games"] = games
    return evaluate_agent(PolicyAgent(policy, name="learner"), opponent=opponent, **settings)


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


def check_init_from(config: Config) -> None:
    """``init_from`` fits the configured network (a throwaway copy tries it): a mismatch is a ``ConfigError``
    naming the weight, before the run folder is touched."""
    from fcm_env.env.single_agent import FcmSingleAgentEnv

    from .init_weights import load_weights

    try:
        load_weights(build_model(config, FcmSingleAgentEnv(num_players=config.num_players)).policy, config.init_from)
    except ValueError as error:
        raise ConfigError(f"config: {error}") from None


def out_dir(config: Config) -> Path:
    return Path(config.out_dir)


class TrainingInterrupted(Interrupted):
    """``fcm train`` stopped by SIGINT or SIGTERM, with what was kept: ``describe`` is the one line to print.

    ``stage``: ``starting``, ``behaviour cloning``, ``PPO`` or ``final evaluation``; ``steps``: where PPO was;
    ``kept``: the checkpoint written (or left) for ``--resume``, and ``kept_steps`` its step count;
    ``pending``: the evaluations cut short (their models stay in ``evals/``: ``--resume`` runs them again).
    """

    def __init__(self, signum: int, *, stage: str, out: Path, steps: int | None = None,
                 kept: Path | None = None, kept_steps: int | None = None, pending: list[int] | None = None) -> None:
        super().__init__(signum)
        self.stage, self.out, self.steps, self.kept, self.kept_steps = stage, out, steps, kept, kept_steps
        self.pending = pending or []

    def describe(self, resume: str | None = None) -> str:
        """``interrupted by SIGINT at 57,792 steps; checkpoint ... kept (...); resume with: RESUME``."""
        resume = resume or f"fcm train {self.out / 'config.yaml'} --resume"
        head = f"interrupted by {self.signal_name}"
        if self.stage == "PPO":
            cut = (f" ({self.kept_steps:,} steps: the last whole PPO update)" if self.kept_steps != self.steps
                   else "")
            what = f"{head} at {self.steps:,} steps; checkpoint {self.kept} kept{cut}"
        elif self.stage == "final evaluation":
            evals = " and ".join(f"{s:,}" for s in self.pending) or f"{self.steps:,}"
            what = (f"{head} during the final evaluation; the training is done and kept ({self.kept}, "
                    f"{self.out / 'final_model.zip'}); the evaluation at {evals} steps runs again on resume")
        elif self.kept is not None:
            what = f"{head} {'while starting' if self.stage == 'starting' else 'during ' + self.stage}; " \
                   f"checkpoint {self.kept} kept"
        elif self.stage == "behaviour cloning":
            what = f"{head} during behaviour cloning; nothing of it was kept (it runs again)"
        elif not (self.out / "config.yaml").is_file():
            return f"{head} while starting; nothing was written"
        else:
            what = f"{head} while starting; nothing trained yet"
        return f"{what}; resume with: {resume}"

    def __str__(self) -> str:
        return self.describe()


def main(config_path: str | Path, *, resume: bool = False, overwrite: bool = False, **overrides) -> Path:
    """Train from a config (a YAML path or a shipped config's name); returns the run directory.

    Everything is checked before anything is written: the settings (``ConfigError``), the device,
    the run folder against ``resume`` / ``overwrite`` (``RunDirError``, ``fcm_training.sb3.run_dir``)
    and the checkpoint to resume from (``CheckpointError``: damaged or cut short). SIGINT or SIGTERM
    stops the run within a second or two: the state of the last whole PPO update is saved as a
    checkpoint and ``TrainingInterrupted`` says what was kept and how to resume.
    """
    from ..common.interrupts import stop_on_signals

    config = load_config(config_path, **overrides)
    check_device(config.device)
    notes = config_notes(config_path)
    if notes:  # what the config reaches and how long it takes, before the minutes it takes
        print(f"{config_path}: " + "\n  ".join(notes), flush=True)
    if config.init_from and not resume:
        check_init_from(config)
    out = out_dir(config)
    latest = prepare_run_dir(out, resume=resume, overwrite=overwrite)
    kept: tuple = (None, {})
    if latest is not None:
        from .checkpoints import read_checkpoint

        kept = read_checkpoint(latest, out)
    with stop_on_signals():  # the env and evaluation workers are killed on the first signal
        return _Run(config, out, latest, *kept, resumed=resume).train()


class _Run:
    """One invocation of the trainer: builds, trains, finishes, and on an interrupt saves what it can."""

    def __init__(self, config: Config, out: Path, latest, state, snapshots: dict[int, bytes], *, resumed: bool):
        self.config, self.out, self.latest, self.state, self.snapshots = config, out, latest, state, snapshots
        self.resumed = resumed
        self.stage = "starting"
        self.env = self.model = self.callback = self.evaluator = self.bar = None

    def train(self) -> Path:
        try:
            return self._train()
        except Interrupted as stop:
            raise self._interrupted(stop) from None
        finally:
            self._close()

    def _train(self) -> Path:
        import torch

        from .background_eval import BackgroundEvaluator
        from .callbacks import SelfPlayCallback
        from .checkpoints import load_model, restore_rng

        config, out = self.config, self.out
        torch.set_num_threads(config.torch_threads)
        spinning = spin_warning(config.torch_threads)
        if spinning:
            print(f"warning: {spinning}", file=sys.stderr)
        crowded = workers_warning(config.env_workers, config.torch_threads)
        if crowded:  # on the run's log, not stderr: it follows the machine's load, which moves
            print(f"note: {crowded}", flush=True)
        out.mkdir(parents=True, exist_ok=True)
        (out / "config.yaml").write_text(yaml.safe_dump(asdict(config), sort_keys=False))
        total = planned_timesteps(config)
        timer = StageTimer()
        self.env = env = make_vec_env(config, timer)
        if config.eval_async:
            self.evaluator = BackgroundEvaluator(config.eval_opponents, **eval_settings(config))
        if self.latest is not None:
            self.model = model = load_model(self.latest, out, env, config.device)
            if self.state.rng is not None:
                restore_rng(self.state.rng)
            env.seed(config.seed + model.num_timesteps)  # new games, not those the run started with
            for snapshot in self.snapshots.values():  # the opponent pool as it was, oldest first
                env.venv.call_factory("add_snapshot", snapshot)
            rows = trim_eval_rows(out / "eval.csv", model.num_timesteps)
            print(f"resuming from {self.latest.path} at {model.num_timesteps:,} of {total:,} steps", flush=True)
        else:
            rows = []
            if self.resumed:  # a run stopped before its first checkpoint
                trim_eval_rows(out / "eval.csv", -1)
                print(f"no checkpoint in {out} yet: the run starts from the beginning", flush=True)
            self.model = model = build_model(config, env)
            if config.init_from:
                from .init_weights import load_weights

                copied = load_weights(model.policy, config.init_from)
                print(f"init_from {config.init_from}: {len(copied)} weights copied", flush=True)
            if config.bc_rounds > 0:
                self.stage = "behaviour cloning"
                with timer.stage("behaviour_cloning"):
                    _warm_start(model, config, out)
                self.stage = "starting"
        start = model.num_timesteps
        self.callback = callback = SelfPlayCallback(
            config, env.venv, out, timer, best=best_score(rows), pool=list(self.snapshots.items()),
            recorded={int(r["steps"]) for r in rows}, evaluator=self.evaluator,
            evaluate=lambda policy, opponent: evaluate_policy(policy, config, opponent))
        callback.model = model  # SB3 sets it in learn(); the pending evaluations come first
        callback.resume_pending(start)
        self.stage = "PPO"
        if total > start:
            from .progress import ProgressBar

            self.bar = ProgressBar() if config.progress_bar else None
            extra = [self.bar] if self.bar else []
            if config.critic_warmup_steps:
                from .init_weights import critic_warmup_callback

                extra.append(critic_warmup_callback(config.critic_warmup_steps))
            model.learn(total_timesteps=total - start, callback=[callback, *extra],
                        reset_num_timesteps=self.latest is None, tb_log_name=config.name)
        else:
            print(f"the run already has {start:,} of its {total:,} steps: nothing left to train", flush=True)
        self.stage = "final evaluation"
        callback.finish()
        steps = model.num_timesteps - start
        workers = env.venv.call_factory("timings")[1:]  # opponents' time inside the env worker processes
        timer.write(out / "timing.json", learner_steps=steps, ppo_seconds=callback.ppo_seconds, env_workers=workers)
        print(format_split(timer.split(), steps, ppo_seconds=callback.ppo_seconds), flush=True)
        return out

    def _interrupted(self, stop) -> TrainingInterrupted:
        """Keep the state of the last rollout boundary as a checkpoint (unless one holds it already)."""
        done = {"stage": self.stage, "out": self.out}
        if self.callback is None or self.stage in ("starting", "behaviour cloning"):
            if self.latest is not None:
                done.update(kept=self.latest.path, kept_steps=self.latest.steps)
            return TrainingInterrupted(stop.signum, **done)
        at = self.model.num_timesteps
        boundary = self.callback.fall_back()
        path = self.out / "checkpoints" / f"step_{boundary.steps}.zip"
        if not path.exists():
            path = self.callback.checkpoint(boundary)
        if self.stage == "final evaluation":  # the training is over: its final model, whatever finish() got to
            from .checkpoints import save_model

            save_model(self.model, self.out / "final_model.zip")
        return TrainingInterrupted(stop.signum, steps=at, kept=path, kept_steps=boundary.steps,
                                   pending=self.callback.pending, **done)

    def _close(self) -> None:
        """Env and evaluation workers, the progress bar and the TensorBoard files, however the run ended."""
        if self.bar is not None:
            self.bar.close()
        if self.evaluator is not None:
            self.evaluator.terminate()  # after finish() it is gone already
        if self.env is not None:
            self.env.close()
        logger = getattr(self.model, "_logger", None)
        if logger is not None:
            logger.close()


def _warm_start(model, config: Config, out: Path) -> None:
    """Behaviour cloning into ``model.policy``; reuses ``bc_model.zip`` of an earlier run of the same dir."""
    from ..common.interrupts import deferred_signals
    from .checkpoints import save_model
    from .imitation import behaviour_cloning

    saved = out / "bc_model.zip"
    if saved.exists():
        from sb3_contrib import MaskablePPO

        model.policy.load_state_dict(MaskablePPO.load(str(saved), device=config.device).policy.state_dict())
        print(f"behaviour cloning: loaded {saved}", flush=True)
        return
    print(f"behaviour cloning: {config.bc_rounds} round(s) of {config.bc_games} heuristic games", flush=True)
    behaviour_cloning(model.policy, config, out)
    with deferred_signals():
        save_model(model, saved)


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
    except TrainingInterrupted as stop:
        words = [w for w in (sys.argv[1:] if argv is None else argv) if w not in ("--resume", "--overwrite")]
        print(f"{parser.prog}: {stop.describe(shlex.join(['python', '-m', 'fcm_training.selfplay', *words, '--resume']))}",
              file=sys.stderr)
        return stop.exit_code
    print(f"run written to {out}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(cli())

"""RLlib PPO self-play on Ray: ``fcm train ray_4p --backend ray`` (docs/distributed.md).

One shared ``MaskedPPOModule`` (``learner``) plays the learner seats of every game; the other
seats are mapped by ``policy_mapping_fn`` (``env.module_for``) to frozen modules: ``snapshot``
(a copy of the learner, refreshed every ``snapshot_every`` iterations), ``random`` and
``heuristic`` (``module.UniformMaskedModule``). Games are sampled by ``num_env_runners``
Ray actors; the driver runs the learner. The run directory gets ``checkpoint/`` (an RLlib
Algorithm checkpoint), ``policy.onnx`` (the format of ``fcm_training.common.export``, so
``fcm evaluate --lineup onnx:runs/ray_4p/policy.onnx,heuristic`` plays it), ``metrics.jsonl``
(one line per iteration) and ``config.yaml``.
"""

from __future__ import annotations

import json
import shutil
import sys
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

import yaml

from ..common.config import config_notes
from ..common.threads import spin_warning
from .config import RayConfig, load_ray_config

CHECKPOINT = "checkpoint"
POLICY = "policy.onnx"


def build_config(config: RayConfig):
    """The RLlib ``PPOConfig`` of a run (new API stack: RLModules, Learner, EnvRunners)."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from .env import FULL_VIEW_ROLES, FcmMultiAgentEnv, module_for
    from .module import MaskedPPOModule, UniformMaskedModule

    specs = {
        m: (RLModuleSpec(module_class=MaskedPPOModule, model_config={"hidden": list(config.hidden)})
            if m in FULL_VIEW_ROLES else RLModuleSpec(module_class=UniformMaskedModule))
        for m in config.modules()
    }
    return (
        PPOConfig()
        # RLlib's env check steps an unmasked random action, which this env rejects (IllegalActionError)
        .environment(FcmMultiAgentEnv, env_config=config.env_config(), disable_env_checking=True)
        .framework("torch")
        .env_runners(num_env_runners=config.num_env_runners, num_envs_per_env_runner=1,
                     num_cpus_per_env_runner=config.num_cpus_per_env_runner,
                     rollout_fragment_length=config.rollout_fragment_length)
        .learners(num_learners=0)
        .resources(num_cpus_for_main_process=config.num_cpus_for_main_process)
        .training(lr=config.learning_rate, gamma=config.gamma, lambda_=config.lambda_,
                  clip_param=config.clip_param, entropy_coeff=config.entropy_coeff,
                  vf_loss_coeff=config.vf_loss_coeff, train_batch_size_per_learner=config.train_batch_size,
                  minibatch_size=config.minibatch_size, num_epochs=config.num_epochs)
        .multi_agent(policies=set(specs), policy_mapping_fn=module_for, policies_to_train=["learner"])
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=specs))
        .debugging(seed=config.seed)
    )


def init_ray(config: RayConfig) -> bool:
    """Start (or join, with ``address``) a Ray cluster unless one is up; True when this call started it."""
    import ray

    if ray.is_initialized():
        return False
    if config.address:
        ray.init(address=config.address, include_dashboard=False)
    else:
        ray.init(num_cpus=config.num_cpus, include_dashboard=False)
    return True


def refresh_snapshot(algo) -> None:
    """Copy the learner's weights into the frozen ``snapshot`` module, on the learner and every env runner."""
    weights = algo.learner_group.get_weights(["learner"])["learner"]
    algo.learner_group.set_weights({"snapshot": weights})
    algo.env_runner_group.sync_weights(policies=["snapshot"], from_worker_or_learner_group=algo.learner_group,
                                       inference_only=True, timeout_seconds=60.0)


def iteration_metrics(result: dict[str, Any], iteration: int, wall: float) -> dict[str, Any]:
    """The line of ``metrics.jsonl`` for one ``algo.train()`` result."""
    runners = result.get("env_runners", {})
    learner = result.get("learners", {}).get("learner", {})
    timers = result.get("timers", {})

    def number(value: Any) -> float | None:
        return None if value is None else round(float(value), 5)

    return {
        "iteration": iteration,
        "env_steps": int(runners.get("num_env_steps_sampled_lifetime", 0)),
        "env_steps_this_iter": int(runners.get("num_env_steps_sampled", 0)),
        "learner_steps_trained": int(learner.get("num_module_steps_trained", 0)),
        "episodes": int(runners.get("num_episodes_lifetime", 0)),
        "learner_return_mean": number(runners.get("module_episode_returns_mean", {}).get("learner")),
        "policy_loss": number(learner.get("policy_loss")),
        "vf_loss": number(learner.get("vf_loss")),
        "entropy": number(learner.get("entropy")),
        "seconds": round(wall, 3),  # the whole iteration: sampling, then the learner's update
        "sampling_seconds": number(timers.get("env_runner_sampling_timer")),  # RLlib's timer (smoothed)
        "learning_seconds": number(timers.get("learner_update_timer")),
    }


def prepare_out_dir(out: Path, overwrite: bool) -> None:
    if out.exists() and any(out.iterdir()):
        if not overwrite:
            raise FileExistsError(f"{out} is not empty: use --overwrite to start again (the ray backend "
                                  "does not resume)")
        shutil.rmtree(out)
    out.mkdir(parents=True, exist_ok=True)


def train(config: RayConfig, *, overwrite: bool = False, log=print) -> Path:
    """Run the whole training; returns the run directory (see the module docstring for its files)."""
    import torch

    from .export import export_checkpoint

    out = Path(config.out_dir)
    prepare_out_dir(out, overwrite)
    (out / "config.yaml").write_text(yaml.safe_dump(asdict(config), sort_keys=False))
    torch.set_num_threads(config.torch_threads)
    spinning = spin_warning(config.torch_threads)
    if spinning:
        print(f"warning: {spinning}", file=sys.stderr)
    started = init_ray(config)
    algo = build_config(config).build_algo()
    try:
        iteration, steps, begun = 0, 0, time.perf_counter()
        with (out / "metrics.jsonl").open("w") as metrics:
            while steps < config.total_timesteps:
                tick = time.perf_counter()
                result = algo.train()
                iteration += 1
                line = iteration_metrics(result, iteration, time.perf_counter() - tick)
                steps = line["env_steps"]
                metrics.write(json.dumps(line) + "\n")
                metrics.flush()
                log(f"iteration {iteration}: {steps:,} env steps, {line['episodes']} games, "
                    f"{line['env_steps_this_iter'] / max(line['seconds'], 1e-9):,.0f} steps/s, "
                    f"learner return {line['learner_return_mean']}")
                if config.snapshot_every and iteration % config.snapshot_every == 0 and "snapshot" in config.modules():
                    refresh_snapshot(algo)
                if config.checkpoint_every and iteration % config.checkpoint_every == 0:
                    algo.save_to_path(str((out / CHECKPOINT).resolve()))
        algo.save_to_path(str((out / CHECKPOINT).resolve()))
        log(f"trained {steps:,} env steps in {time.perf_counter() - begun:.1f} s")
    finally:
        algo.stop()
        if started:
            import ray

            ray.shutdown()
    policy = export_checkpoint(out / CHECKPOINT, out / POLICY)
    log(f"exported {policy}")
    if config.eval_games:
        _evaluate(config, policy, log)
    return out


def _evaluate(config: RayConfig, policy: Path, log) -> None:
    from ..common.evaluate import run_tournament
    from ..common.tournament_games import TournamentConfig
    from ..common.tournament_results import format_table

    tournament = TournamentConfig(lineup=config.eval_lineup(f"onnx:{policy}"), games=config.eval_games,
                                  seed=config.eval_seed, variant=config.variant, max_rounds=config.max_rounds)
    stats, results = run_tournament(tournament, policy.parent / "eval", records=False)
    log(format_table(stats, results))


def main(config: str | Path, *, overwrite: bool = False, **overrides: Any) -> Path:
    """``fcm train CONFIG --backend ray``: read the config (a path or a shipped name), then ``train``."""
    return train(load_ray_config(config, **overrides), overwrite=overwrite)


def cli_main(config: str | Path, overrides: dict[str, Any], *, overwrite: bool, resume: bool) -> int:
    """The ``fcm train --backend ray`` command: one-line errors for a missing extra or a bad config."""
    if resume:
        print("fcm train: error: --resume is not supported with --backend ray (start again with --overwrite)",
              file=sys.stderr)
        return 2
    try:
        import ray  # noqa: F401
    except ImportError:
        print("fcm train: error: --backend ray needs Ray RLlib: pip install 'fcm-magnate[distributed]'", file=sys.stderr)
        return 2
    try:
        notes = config_notes(config)
    except ValueError:
        notes = []  # a config that is not found: main says so in its own words
    if notes:  # what the config reaches and how long it takes, as the SB3 trainer says it
        print(f"{config}: " + "\n  ".join(notes), flush=True)
    try:
        out = main(config, overwrite=overwrite, **overrides)
    except FileExistsError as exc:
        print(f"fcm train: error: {exc}", file=sys.stderr)
        return 2
    except ValueError as exc:
        if not hasattr(exc, "lines"):
            raise
        for line in exc.lines:
            print(f"fcm train: error: {line}", file=sys.stderr)
        return 2
    print(f"run directory: {out}")
    return 0

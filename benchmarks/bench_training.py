"""Where a self-play training run's wall time goes, and its learner steps per second.

    python benchmarks/bench_training.py configs/quick.yaml --steps 30000
    python benchmarks/bench_training.py configs/quick.yaml --steps 30000 --before   # the old settings

Runs ``fcm_training.sb3.selfplay.main`` for ``--steps`` learner steps (a snapshot of the learner joins
the opponent pool every quarter of them) and times, with class-level
wrappers, the env (learner's steps, observation and mask), each opponent kind's decisions,
the learner's rollout forward passes, the PPO update, evaluation and behaviour cloning (nested
stages are subtracted from the stage around them, so the shares add up to the wall time).

The wrappers patch classes, not the trainer, so the same script measures an older checkout
too: ``PYTHONPATH=/path/to/old/checkout python benchmarks/bench_training.py ...`` (the timer is
loaded from this file's own checkout). ``--before`` applies the settings of the project's
first quick config (CNN extractor over all 47 planes, 4 envs x 512 steps, minibatches of 256,
4 epochs, no behaviour cloning). The reported rate excludes evaluation and behaviour cloning:
``learner steps / (wall - evaluation - behaviour_cloning)``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import tempfile
import time
from pathlib import Path

_spec = importlib.util.spec_from_file_location(
    "bench_timing", Path(__file__).resolve().parents[1] / "training" / "sb3" / "timing.py")
timing = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(timing)

#: the first quick config's settings (before the training speed-up)
BEFORE = {"extractor": "cnn", "n_envs": 4, "n_steps": 512, "batch_size": 256, "n_epochs": 4,
          "net_arch": [128, 128], "board_channels": 16, "bc_rounds": 0, "shaping": "cash",
          "opponents": {"snapshot": 0.4, "random": 0.5, "heuristic": 0.1}, "eval_async": False}
QUIET = ("evaluation", "behaviour_cloning")  # stages whose inner calls are not split further


def _trainer_module(name: str, flat_name: str | None = None):
    """``fcm_training.sb3.<name>``, or ``fcm_training.<flat_name>`` in a checkout from before the sb3
    subpackage (its modules lay flat in ``training/``)."""
    try:
        return importlib.import_module(f"fcm_training.sb3.{name}")
    except ModuleNotFoundError as exc:
        if exc.name not in ("fcm_training.sb3", f"fcm_training.sb3.{name}"):
            raise
        return importlib.import_module(f"fcm_training.{flat_name or name}")


def _patch(timer, owner, attr: str, stage: str) -> None:
    original = getattr(owner, attr)

    def timed(*args, **kwargs):
        if timer._stack and timer._stack[-1][0] in QUIET and stage not in QUIET:
            return original(*args, **kwargs)
        with timer.stage(stage):
            return original(*args, **kwargs)

    setattr(owner, attr, timed)


def instrument(timer) -> None:
    """Class-level timers on the parts of a run (present in old and new checkouts alike)."""
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    from fcm_agents.heuristic import HeuristicAgent
    from fcm_agents.random_agent import RandomAgent
    from fcm_env.env.single_agent import FcmSingleAgentEnv

    selfplay = _trainer_module("selfplay")
    _patch(timer, MaskablePPO, "train", "update")
    _patch(timer, MaskableActorCriticPolicy, "forward", "forward")
    try:  # newer checkouts train a subclass with its own forward
        LegalActionsPolicy = _trainer_module("legal_policy").LegalActionsPolicy
    except (ImportError, AttributeError):
        pass
    else:
        _patch(timer, LegalActionsPolicy, "forward", "forward")
    # the learner's steps: the engine, its observation and mask (old checkouts step each env
    # through step(); the batched env calls _advance / observe_into / mask_into); the opponents'
    # decisions inside are stages of their own
    for attr in ("step", "reset", "_advance", "_start", "_reset_core", "observe_into", "mask_into",
                 "action_masks"):
        if hasattr(FcmSingleAgentEnv, attr):
            _patch(timer, FcmSingleAgentEnv, attr, "env")
    # the batched VecEnvs around them: with env worker processes, waiting for the workers is env time too
    for (module, flat), name in ((("vec_env", "sb3_vec_env"), "Sb3FcmVecEnv"),
                                 (("parallel_vec_env", None), "ParallelSb3FcmVecEnv")):
        try:
            owner = getattr(_trainer_module(module, flat), name)
        except (ImportError, AttributeError):
            continue
        for attr in ("reset", "step_wait"):
            _patch(timer, owner, attr, "env")
    _patch(timer, HeuristicAgent, "act_on_game", "opponent/heuristic")
    _patch(timer, RandomAgent, "act", "opponent/random")
    _patch(timer, RandomAgent, "act_on_game", "opponent/random")
    for module, name in (("fcm_agents.policy", "PolicyAgent"), ("fcm_agents.onnx_agent", "OnnxAgent")):
        _patch(timer, getattr(importlib.import_module(module), name), "act", "opponent/snapshot")
    _patch(timer, selfplay, "evaluate_policy", "evaluation")
    if hasattr(selfplay, "_warm_start"):
        _patch(timer, selfplay, "_warm_start", "behaviour_cloning")
    try:
        BackgroundEvaluator = _trainer_module("background_eval").BackgroundEvaluator
    except ImportError:  # an older checkout: evaluation ran inline
        return
    _patch(timer, BackgroundEvaluator, "finished", "evaluation")


def run(config: str, steps: int, overrides: dict) -> dict:
    selfplay = _trainer_module("selfplay")

    timer = timing.StageTimer()
    instrument(timer)
    with tempfile.TemporaryDirectory() as tmp:
        settings = {"total_timesteps": steps, "out_dir": str(Path(tmp) / "run"), "progress_bar": False,
                    "eval_every": 10 * steps, "checkpoint_every": 10 * steps,
                    "snapshot_every": max(1, steps // 4), **overrides}  # snapshot opponents play too
        known = {f for f in selfplay.Config.__dataclass_fields__}
        settings = {k: v for k, v in settings.items() if k in known}  # old checkouts lack new settings
        start = time.perf_counter()
        selfplay.main(config, **settings)
        wall = time.perf_counter() - start
    split = timer.split(wall)
    excluded = sum(split.get(k, {"seconds": 0.0})["seconds"] for k in QUIET)
    return {"split": split, "learner_steps": steps, "steps_per_s": steps / (wall - excluded),
            "settings": settings}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("config")
    parser.add_argument("--steps", type=int, default=30_000)
    parser.add_argument("--before", action="store_true", help="the first quick config's settings")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=YAML",
                        help="override a config setting")
    parser.add_argument("--json", help="also write the figures here")
    args = parser.parse_args(argv)
    import yaml

    overrides = dict(BEFORE) if args.before else {}
    for item in args.set:
        key, _, value = item.partition("=")
        overrides[key] = yaml.safe_load(value)
    result = run(args.config, args.steps, overrides)
    print(timing.format_split(result["split"]))
    print(f"learner steps/s (evaluation and behaviour cloning excluded): {result['steps_per_s']:,.0f}")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())

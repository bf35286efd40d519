"""``fcm train``: self-play training from a config, on the SB3 trainer or RLlib (``fcm_training``)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any


class _TrainHelp(argparse.Action):
    """``fcm train --help`` ends with every config setting and its default (read only when asked for,
    so other commands never import the trainer's config)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, **kwargs: Any):
        super().__init__(option_strings, dest=dest, default=argparse.SUPPRESS, nargs=0, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *_: Any) -> None:
        try:
            from fcm_training.common.config import settings_help
        except ImportError:
            parser.epilog = "Settings and their defaults: docs/training.md."
        else:
            parser.epilog = settings_help()
        parser.print_help()
        parser.exit()


def _cmd_train(args: argparse.Namespace) -> int:
    import importlib

    try:
        from fcm_training.common.threads import passive_openmp
    except ImportError:  # pragma: no cover - the training package is part of this distribution
        pass
    else:
        passive_openmp()  # before torch loads OpenMP (fcm_training.common.threads says why)
    if args.backend is None:  # a config that says `backend: ray` picks RLlib by itself
        try:
            from fcm_training.rllib.config import declares_ray
        except ImportError:  # the training extras are missing: the SB3 path says so
            args.backend = "sb3"
        else:
            args.backend = "ray" if declares_ray(args.config) else "sb3"
    if args.backend == "ray":
        from fcm_training.rllib.selfplay import cli_main

        return cli_main(args.config, dict(args.set or []), overwrite=args.overwrite, resume=args.resume)

    try:
        selfplay = importlib.import_module("fcm_training.selfplay")
    except ModuleNotFoundError as exc:
        if exc.name in ("training", "fcm_training.selfplay"):
            print("fcm train: error: fcm_training.selfplay is not available in this installation "
                  "(the self-play trainer is not part of this checkout yet)", file=sys.stderr)
        else:
            print(f"fcm train: error: the trainer needs {exc.name!r}: install the training extras "
                  "(pip install 'fcm-magnate[train]', from a checkout or a wheel install alike)", file=sys.stderr)
        return 2
    overrides = dict(args.set or [])
    for flag in ("resume", "overwrite"):
        if flag in overrides:
            raise ValueError(f"--set {flag}=...: {flag} is not a config setting, use the --{flag} flag")
        if getattr(args, flag):
            overrides[flag] = True
    try:
        result = selfplay.main(str(args.config), **overrides)
    except KeyboardInterrupt as stop:  # SIGINT/SIGTERM: one line, what was kept and the command that resumes
        if not hasattr(stop, "describe"):
            raise
        import shlex

        words = [w for w in args.argv_echo if w not in ("--resume", "--overwrite")]
        print(f"fcm train: {stop.describe(shlex.join(['fcm', 'train', *words, '--resume']))}", file=sys.stderr)
        return stop.exit_code
    except ValueError as exc:
        if not hasattr(exc, "lines"):  # not a config error: the caller prints it
            raise
        for line in exc.lines:  # a config error: one line per bad setting
            print(f"fcm train: error: {line}", file=sys.stderr)
        return 2
    if isinstance(result, int):
        return result
    if result is not None:
        print(f"run directory: {result}")
    return 0


"""What every ``fcm`` subcommand's options share: argument types that name the option in their errors,
the game and batch option groups, and the help format (each option's default)."""

from __future__ import annotations

import argparse
import json
from typing import Any

VARIANT_CHOICES = ("standard", "introductory")
PNG_SCALES = (16, 128)  # fcm replay --scale: below 16 the text is unreadable, above 128 a picture is tens of MB


def _seed(text: str) -> int:
    """An argparse type: seeds are non-negative (numpy's generators refuse others, in words that name no
    option)."""
    value = _int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {value}")
    return value


def _at_least_one(text: str) -> int:
    """An argparse type for counts (games, workers, rounds): 0 or less would be accepted silently or fail
    later in words that name no option."""
    value = _int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected an integer of at least 1, got {value}")
    return value


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None


def _override(text: str) -> tuple[str, Any]:
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    try:
        parsed = json.loads(value)
    except json.JSONDecodeError:
        parsed = value  # a plain string
    return key.strip(), parsed


def _game_options(p: argparse.ArgumentParser, *, seed_help: str) -> None:
    p.add_argument("--seed", type=_seed, default=0, help=seed_help)
    p.add_argument("--variant", default="standard", choices=VARIANT_CHOICES, help="rules variant")
    p.add_argument("--max-rounds", type=_at_least_one, default=30,
                   help="end a game after this many rounds (truncated)")


def _batch_options(p: argparse.ArgumentParser) -> None:
    _game_options(p, seed_help="seed of the first game (game g uses seed + g)")
    p.add_argument("--workers", type=_at_least_one, default=1,
                   help="worker processes (results do not depend on it)")
    p.add_argument("--engine", default="python", choices=("auto", "native", "python"),
                   help="the engine the games are played on (results do not depend on it): native is faster for "
                        "agents that read observations or only the legal actions (random, policies), not for those "
                        "that read the engine's state (heuristic, search); auto: native when built")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")


class _HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """``--help`` shows each option's default, except where there is none to show (no value, a plain
    on/off flag) or the help text already names it."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        if action.default is None or action.default is False or "default" in text:
            return action.help
        return super()._get_help_string(action)


class _Parser(argparse.ArgumentParser):
    """The ``fcm`` parser and every subcommand's: help with defaults."""

    def __init__(self, *args: Any, **kwargs: Any):
        kwargs.setdefault("formatter_class", _HelpFormatter)
        super().__init__(*args, **kwargs)


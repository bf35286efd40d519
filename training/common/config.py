"""The settings of a self-play run, checked by pydantic before anything touches the disk.

Shared by both backends: ``Config`` is the SB3 run (``fcm_training.sb3.selfplay``), and its
validated field types, error lines and YAML reading are reused by the Ray run's config
(``fcm_training.rllib.config``), so both report bad settings the same way.

``Config`` is a pydantic dataclass (it stays a dataclass for ``dataclasses.asdict`` /
``fields`` users) with typed, bounded fields and the cross-field rules of a run. Bad settings
raise ``ConfigError``: a ``ValueError`` whose ``lines`` hold one line per problem, each naming
the setting (``config: total_timesteps: expected an integer, got 'abc'``). Configs are found by
path or, failing that, by the name of a config shipped in ``fcm_training.configs``.
"""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import asdict, fields
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import BeforeValidator, ConfigDict, Field, ValidationError, field_validator, model_validator
from pydantic.dataclasses import dataclass

from fcm_env.engine.game import VARIANTS
from fcm_env.env.rewards import REWARD_SCHEMES


def _not_a_bool(value: Any) -> Any:
    """pydantic reads ``true`` as 1 for an int; a setting like ``n_envs: true`` is a mistake to name."""
    if isinstance(value, bool):
        raise ValueError(f"expected an integer, got {value!r}")  # noqa: TRY004 -- pydantic wants ValueError
    return value


Int = Annotated[int, BeforeValidator(_not_a_bool)]
Positive = Annotated[Int, Field(ge=1)]
NonNegative = Annotated[Int, Field(ge=0)]
SeedRange = Annotated[list[Annotated[Int, Field(ge=0)]], Field(min_length=2, max_length=2)]
OPPONENT_KINDS = ("snapshot", "random", "heuristic", "strategist", "frozen")
#: the names of fcm_training.sb3.features.EXTRACTORS (kept here so checking a config does not import torch)
EXTRACTOR_NAMES = ("cnn", "compact", "spatial")
Variant = Literal[VARIANTS]  # type: ignore[valid-type]
Reward = Literal[REWARD_SCHEMES]  # type: ignore[valid-type]
Extractor = Literal[EXTRACTOR_NAMES]  # type: ignore[valid-type]
OpponentKind = Literal[OPPONENT_KINDS]  # type: ignore[valid-type]
DEVICE_PATTERN = re.compile(r"auto|cpu|mps|cuda(:\d+)?")


class ConfigError(ValueError):
    """Bad run settings; ``lines`` has one line per problem (``str`` joins them)."""

    def __init__(self, *lines: str):
        super().__init__("\n".join(lines))
        self.lines = list(lines)


@dataclass(config=ConfigDict(extra="forbid", coerce_numbers_to_str=True))
class Config:
    """A self-play run (every field can be set in the YAML file or with ``--set KEY=VALUE``)."""

    name: str = "run"
    num_players: Annotated[Int, Field(ge=2, le=5)] = 2
    variant: Variant = "standard"
    max_rounds: Positive = 20
    reward: Reward = "win"
    shaping: Literal["cash", "cash_lead"] | None = None
    n_envs: Positive = 4
    env_workers: Positive = 1  # processes stepping the learner's games (this one included); threads of the native batch
    total_timesteps: Positive = 200_000  # rounded up to whole rollouts of n_envs * n_steps
    seed: NonNegative = 0
    out_dir: str = "runs/run"
    device: str = "cpu"  # auto, cpu, cuda, cuda:N or mps; check_device says whether this machine has it
    #: the engine the learner's games and the evaluation games run on (fcm_env.env.engines: the same games on
    #: either; auto is the native core where it is built, its heuristic and strategist opponents native too)
    engine: Literal["auto", "native", "python"] = "auto"
    torch_threads: Positive = 1
    progress_bar: bool = True
    # network (fcm_training.sb3.features.EXTRACTORS)
    extractor: Extractor = "compact"
    mix_channels: Positive = 8
    board_channels: Positive = 16
    board_features: Positive = 128
    vector_hidden: Positive = 128
    net_arch: list[Positive] = Field(default_factory=lambda: [128, 128])
    # PPO
    learning_rate: Annotated[float, Field(gt=0)] = 3e-4
    n_steps: Positive = 512
    batch_size: Annotated[Int, Field(ge=2)] = 256  # SB3 normalises advantages per minibatch
    n_epochs: Positive = 4
    gamma: Annotated[float, Field(gt=0, le=1)] = 0.995
    gae_lambda: Annotated[float, Field(ge=0, le=1)] = 0.95
    clip_range: Annotated[float, Field(gt=0)] = 0.2
    ent_coef: Annotated[float, Field(ge=0)] = 0.01
    vf_coef: Annotated[float, Field(ge=0)] = 0.5
    # opponents: probability of each kind per opponent seat
    opponents: dict[OpponentKind, Annotated[float, Field(ge=0)]] = Field(
        default_factory=lambda: {"snapshot": 0.5, "random": 0.4, "heuristic": 0.1})
    snapshot_every: Positive = 20_000
    pool_size: Positive = 5
    #: the policy a ``frozen`` opponent plays greedily (never updated: an exploiter's target): an exported
    #: ``.onnx`` policy, or ``shipped`` (the shipped policy of the table's size)
    frozen_model: str | None = None
    # seeds: training maps and evaluation maps never overlap
    train_seeds: SeedRange = Field(default_factory=lambda: [0, 1_000_000])
    eval_seeds: SeedRange = Field(default_factory=lambda: [10_000_000, 10_000_200])
    eval_every: Positive = 20_000
    eval_games: Positive = 40
    eval_opponents: Annotated[list[Annotated[str, Field(min_length=1)]], Field(min_length=1)] = Field(
        default_factory=lambda: ["random", "heuristic"])
    eval_async: bool = True
    checkpoint_every: Positive = 20_000
    keep_checkpoints: Int | None = 5  # the most recent checkpoints kept, the last among them; null keeps all
    # behaviour cloning of the heuristic before PPO (fcm_training.sb3.imitation); 0 rounds = none
    bc_rounds: NonNegative = 0
    bc_games: Positive = 100
    bc_epochs: Positive = 2
    bc_batch_size: Positive = 256
    bc_learning_rate: Annotated[float, Field(gt=0)] = 1e-3
    bc_value_coef: Annotated[float, Field(ge=0)] = 0.5
    bc_placement_weight: Annotated[float, Field(ge=0)] = 1.0
    bc_holdout_games: Positive = 10
    #: 0: the demonstrations are played one game after another in this process (the recipe of the shipped
    #: 2-player model); N >= 1: in lock-step chunks over N processes, the student asked in batches through
    #: onnxruntime (fcm_training.sb3.parallel_collect: the same data for any N, not the same as 0's)
    bc_workers: NonNegative = 0
    #: start from a trained policy (fcm_training.sb3.init_weights): an exported .onnx policy (its actor; the
    #: critic starts fresh), a .zip checkpoint (every weight), or shipped (the shipped 2-player policy)
    init_from: str | None = None
    #: with init_from: the PPO updates of the first this-many learner steps train the critic alone
    critic_warmup_steps: NonNegative = 0

    @field_validator("device")
    @classmethod
    def _device_name(cls, device: str) -> str:
        if not DEVICE_PATTERN.fullmatch(device):
            raise ValueError(f"expected auto, cpu, cuda, cuda:N or mps, got {device!r}")
        return device

    @field_validator("keep_checkpoints")
    @classmethod
    def _keep_some(cls, keep: int | None) -> int | None:
        if keep is not None and keep < 1:  # keeping none would leave nothing to resume from
            raise ValueError(f"must be at least 1 (null keeps every checkpoint), got {keep}")
        return keep

    @model_validator(mode="after")
    def _consistent(self) -> Config:
        """The rules that tie settings together (each message names the settings involved)."""
        if self.env_workers > self.n_envs:
            raise ValueError(f"env_workers must be 1..n_envs={self.n_envs}, got {self.env_workers}")
        if sum(self.opponents.values()) <= 0:
            raise ValueError("opponents: the probabilities must sum to more than 0")
        for key in ("train_seeds", "eval_seeds"):
            lo, hi = getattr(self, key)
            if lo >= hi:
                raise ValueError(f"{key}: expected [first, end) with first < end, got {[lo, hi]}")
        lo, hi = self.train_seeds
        elo, ehi = self.eval_seeds
        if not (hi <= elo or ehi <= lo):
            raise ValueError(f"train_seeds {self.train_seeds} and eval_seeds {self.eval_seeds} overlap")
        if ehi - elo < max(self.eval_games, self.bc_holdout_games):
            raise ValueError(f"eval_seeds holds {ehi - elo} seeds, fewer than eval_games={self.eval_games} "
                             f"or bc_holdout_games={self.bc_holdout_games}")
        if self.bc_rounds and self.bc_games * self.bc_rounds > hi - lo:
            raise ValueError(f"train_seeds {self.train_seeds} holds fewer seeds than the behaviour-cloning "
                             "games "
                             f"(bc_rounds x bc_games = {self.bc_rounds * self.bc_games})")
        if self.opponents.get("frozen", 0) > 0 and not self.frozen_model:
            raise ValueError("opponents: a frozen opponent needs frozen_model (an exported .onnx policy, or shipped)")
        if self.frozen_model and self.frozen_model != "shipped":
            from pathlib import Path

            if not self.frozen_model.endswith(".onnx") or not Path(self.frozen_model).is_file():
                raise ValueError(f"frozen_model: no .onnx policy at {self.frozen_model} (an exported .onnx policy, "
                                 "or shipped)")
        if self.critic_warmup_steps and not self.init_from:
            raise ValueError("critic_warmup_steps needs init_from: a fresh network has no trained actor to keep")
        if self.init_from and self.init_from != "shipped":
            from pathlib import Path

            if not Path(self.init_from).is_file():
                raise ValueError(f"init_from: no such file {self.init_from} "
                                 "(an exported .onnx policy, a .zip checkpoint, or shipped)")
        return self


def setting_names() -> list[str]:
    return [f.name for f in fields(Config)]


# ------------------------------------------------------------------ errors


_EXPECTED = {"int": "an integer", "float": "a number", "bool": "true or false", "string": "a string",
             "list": "a list", "dict": "a mapping", "tuple": "a list"}


def _where(loc: tuple) -> str:
    text = ""
    for part in loc:
        if part == "[key]":  # pydantic's marker for a bad mapping key: the key itself is named already
            continue
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def error_lines(exc: ValidationError) -> list[str]:
    """One ``config: SETTING: problem`` line per pydantic error (unknown settings get a did-you-mean)."""
    lines = []
    for err in exc.errors():
        kind, loc, value = err["type"], err["loc"], err.get("input")
        if kind in ("unexpected_keyword_argument", "extra_forbidden"):
            key = str(loc[-1])
            close = difflib.get_close_matches(key, setting_names(), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            lines.append(f"config: unknown setting {key!r}{hint}")
            continue
        if kind == "value_error":  # our own rules: the message says it all
            message = err["msg"].removeprefix("Value error, ")
            lines.append(f"config: {_where(loc)}: {message}" if loc else f"config: {message}")
            continue
        base = kind.split("_")[0]
        if kind.endswith(("_type", "_parsing")) or kind == "int_from_float":
            problem = f"expected {_EXPECTED.get(base, base)}, got {value!r}"
        else:
            problem = f"{re.sub(r'^[A-Z][a-z]* should', 'must', err['msg'])}, got {value!r}"
        lines.append(f"config: {_where(loc)}: {problem}")
    return lines


def make_config(settings: dict[str, Any]) -> Config:
    """``Config(**settings)``, with every problem reported as a ``ConfigError`` line."""
    try:
        return Config(**settings)
    except ValidationError as exc:
        raise ConfigError(*error_lines(exc)) from None


# ------------------------------------------------------------------ finding and reading configs


def shipped_configs() -> list[str]:
    """Names of the configs installed with the package (``fcm train NAME``)."""
    return sorted(p.name.removesuffix(".yaml") for p in files("fcm_training.configs").iterdir()
                  if p.name.endswith(".yaml"))


def resolve_config(path: str | Path) -> Path | Traversable:
    """An existing file at ``path``, else the shipped config of that name (``quick`` or ``quick.yaml``)."""
    if Path(path).is_file():
        return Path(path)
    text = str(path)
    name = text.removesuffix(".yaml")
    if "/" not in text and "\\" not in text:
        shipped = files("fcm_training.configs") / f"{name}.yaml"
        if shipped.is_file():
            return shipped
    raise ConfigError(f"config {text!r} not found: no such file and no shipped config of that name "
                      f"(shipped: {', '.join(shipped_configs())})")


def read_settings(path: str | Path, overrides: dict[str, Any]) -> dict[str, Any]:
    """The settings of a YAML config (a path or a shipped name) with ``overrides`` applied (``None`` = keep
    the file's); not yet checked (the SB3 and the Ray configs check them their own way)."""
    source = resolve_config(path)
    try:
        data = yaml.safe_load(source.read_text()) or {}
    except yaml.YAMLError as exc:
        raise ConfigError(f"config {path}: not valid YAML ({' '.join(str(exc).split())})") from None
    if not isinstance(data, dict):
        raise ConfigError(f"config {path}: expected a mapping of settings, got {type(data).__name__}")
    data.update({k: v for k, v in overrides.items() if v is not None})
    return data


def config_notes(path: str | Path) -> list[str]:
    """The comment lines a config file starts with (its own account of what it reaches and how long it
    takes, for the shipped ones), without the ``#``; none for a config that starts with a setting."""
    notes = []
    for line in resolve_config(path).read_text().splitlines():
        if not line.startswith("#"):
            break
        notes.append(line.removeprefix("#").strip())
    return notes


def load_config(path: str | Path, **overrides: Any) -> Config:
    """Read a YAML config (a path or a shipped name) and apply ``overrides`` (``None`` = keep the file's)."""
    return make_config(read_settings(path, overrides))


# ------------------------------------------------------------------ the device


def check_device(device: str) -> None:
    """Refuse a GPU the machine does not have (``auto`` picks what exists, so it always passes)."""
    import torch

    if device.startswith("cuda"):
        count = torch.cuda.device_count() if torch.cuda.is_available() else 0
        index = int(device.partition(":")[2] or 0)
        if index >= count:
            found = (f"{count} CUDA device(s)" if count
                     else "no CUDA device (torch.cuda.is_available() is False)")
            raise ConfigError(f"config: device: {device!r} is not available here: torch sees {found}; "
                              "use device=cpu or device=auto")
    elif device == "mps" and not torch.backends.mps.is_available():
        raise ConfigError("config: device: 'mps' is not available here (torch.backends.mps.is_available() "
                          "is False); use device=cpu or device=auto")


def planned_timesteps(config: Config, *, announce: bool = True) -> int:
    """``total_timesteps`` rounded up to whole rollouts (what PPO really trains); says so if it differs."""
    rollout = config.n_envs * config.n_steps
    planned = -(-config.total_timesteps // rollout) * rollout
    if announce and planned != config.total_timesteps:
        print(f"total_timesteps {config.total_timesteps:,} rounded up to {planned:,}: PPO trains whole "
              f"rollouts of n_envs x n_steps = {config.n_envs} x {config.n_steps} = {rollout:,} steps",
              flush=True)
    return planned


def settings_help() -> str:
    """Every setting with its default, for ``fcm train --help``."""
    defaults = asdict(Config())
    shown = ", ".join(f"{k}={v if isinstance(v, str) else json.dumps(v, separators=(',', ':'))}"
                      for k, v in defaults.items())
    return (f"Settings (YAML keys, or --set KEY=VALUE) and their defaults, used where the config leaves one "
            f"out: {shown}. Shipped configs: {', '.join(shipped_configs())} (docs/training.md).")

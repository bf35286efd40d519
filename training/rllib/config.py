"""The settings of an RLlib self-play run (``fcm train CONFIG --backend ray``), checked before Ray starts.

Kept apart from ``selfplay`` so a config can be checked (and its errors reported, one line
per problem, as ``fcm_training.common.config``) without importing Ray. docs/distributed.md lists
what each setting does and how it differs from the SB3 config.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import ConfigDict, Field, ValidationError, model_validator
from pydantic.dataclasses import dataclass

from ..common.config import (
    ConfigError,
    Int,
    NonNegative,
    Positive,
    Reward,
    SeedRange,
    Variant,
    error_lines,
    read_settings,
    resolve_config,
)

#: the roles ``env.FcmMultiAgentEnv`` seats (a strategist seat is for SB3's pool: ``fcm_training.sb3.opponents``)
RAY_OPPONENT_KINDS = ("snapshot", "random", "heuristic")
OpponentKind = Literal[RAY_OPPONENT_KINDS]  # type: ignore[valid-type]


@dataclass(config=ConfigDict(extra="forbid"))
class RayConfig:
    """An RLlib PPO self-play run (every field can be set in the YAML file or with ``--set KEY=VALUE``)."""

    name: str = "ray"
    backend: Literal["ray"] = "ray"  # marks the file as an RLlib config (fcm train refuses it without --backend ray)
    num_players: Annotated[Int, Field(ge=2, le=5)] = 4
    variant: Variant = "standard"
    max_rounds: Positive = 30
    reward: Reward = "win"
    shaping: Literal["cash", "cash_lead"] | None = None
    engine: Literal["auto", "native", "python"] = "auto"  # the games' engine (auto: the C++ core when built)
    learner_seats: Positive = 1  # seats per game played by the shared learning module
    opponents: dict[OpponentKind, Annotated[float, Field(ge=0)]] = Field(
        default_factory=lambda: {"snapshot": 0.4, "random": 0.3, "heuristic": 0.3})
    snapshot_every: NonNegative = 10  # training iterations between copies learner -> snapshot (0: never)
    train_seeds: SeedRange = Field(default_factory=lambda: [0, 1_000_000])
    seed: NonNegative = 0
    out_dir: str = "runs/ray"
    # Ray resources
    address: str | None = None  # None: start a local cluster; "auto" or HOST:PORT: join a running one
    num_cpus: Positive | None = None  # CPUs of the local cluster (None: Ray counts the machine's)
    num_env_runners: NonNegative = 2  # Ray actors sampling games (0: sample in the driver)
    num_cpus_per_env_runner: Positive = 1
    num_cpus_for_main_process: NonNegative = 0  # the driver runs the learner; 0 lets runners take every CPU
    torch_threads: Positive = 1
    # PPO (RLlib names)
    total_timesteps: Positive = 200_000  # env steps sampled (every seat's decisions), in whole iterations
    train_batch_size: Positive = 4000  # env steps per iteration
    minibatch_size: Positive = 256
    num_epochs: Positive = 2
    rollout_fragment_length: Positive | Literal["auto"] = "auto"
    learning_rate: Annotated[float, Field(gt=0)] = 3e-4
    gamma: Annotated[float, Field(gt=0, le=1)] = 0.995
    lambda_: Annotated[float, Field(ge=0, le=1)] = 0.95
    clip_param: Annotated[float, Field(gt=0)] = 0.2
    entropy_coeff: Annotated[float, Field(ge=0)] = 0.01
    vf_loss_coeff: Annotated[float, Field(ge=0)] = 0.5
    hidden: list[Positive] = Field(default_factory=lambda: [256, 128])
    # outputs
    checkpoint_every: NonNegative = 10  # iterations between checkpoints (0: only the final one)
    eval_games: NonNegative = 0  # games of the exported policy after training (fcm_training.common.evaluate)
    eval_opponents: list[Annotated[str, Field(min_length=1)]] = Field(default_factory=lambda: ["heuristic"])
    eval_seed: NonNegative = 10_000_000

    @model_validator(mode="after")
    def _consistent(self) -> RayConfig:
        if sum(self.opponents.values()) <= 0 and self.learner_seats < self.num_players:
            raise ValueError("opponents: the probabilities must sum to more than 0")
        if self.learner_seats > self.num_players:
            raise ValueError(f"learner_seats must be 1..num_players={self.num_players}, got {self.learner_seats}")
        lo, hi = self.train_seeds
        if lo >= hi:
            raise ValueError(f"train_seeds: expected [first, end) with first < end, got {[lo, hi]}")
        if lo <= self.eval_seed < hi:
            raise ValueError(f"eval_seed {self.eval_seed} lies inside train_seeds {self.train_seeds}")
        if self.minibatch_size > self.train_batch_size:
            raise ValueError(f"minibatch_size {self.minibatch_size} exceeds train_batch_size {self.train_batch_size}")
        if self.eval_games and len(self.eval_opponents) not in (1, self.num_players - 1):
            raise ValueError(f"eval_opponents: give 1 agent (it fills every other seat) or num_players - 1 = "
                             f"{self.num_players - 1}, got {len(self.eval_opponents)}")
        return self

    def env_config(self) -> dict[str, Any]:
        """What ``FcmMultiAgentEnv`` reads."""
        return {"num_players": self.num_players, "variant": self.variant, "max_rounds": self.max_rounds,
                "reward": self.reward, "shaping": self.shaping, "engine": self.engine,
                "learner_seats": self.learner_seats,
                "opponents": dict(self.opponents), "game_seeds": list(self.train_seeds), "seed": self.seed}

    def modules(self) -> list[str]:
        """The module ids a game can need: the learner and every opponent kind with a probability."""
        return ["learner", *sorted(k for k, p in self.opponents.items() if p > 0)]

    def eval_lineup(self, policy: str) -> tuple[str, ...]:
        others = self.eval_opponents * (self.num_players - 1) if len(self.eval_opponents) == 1 else self.eval_opponents
        return (policy, *others)


def declares_ray(path: str | Path) -> bool:
    """Whether the config at ``path`` (or the shipped one of that name) says ``backend: ray``; False when
    it cannot be read (the trainer then reports why)."""
    try:
        data = yaml.safe_load(resolve_config(path).read_text())
    except (ConfigError, OSError, yaml.YAMLError):
        return False
    return isinstance(data, dict) and data.get("backend") == "ray"


def make_ray_config(settings: dict[str, Any]) -> RayConfig:
    try:
        return RayConfig(**settings)
    except ValidationError as exc:
        raise ConfigError(*error_lines(exc)) from None


def load_ray_config(path: str | Path, **overrides: Any) -> RayConfig:
    """Read a YAML config (a path or a shipped name such as ``ray_tiny``) and apply ``overrides``."""
    return make_ray_config(read_settings(path, overrides))

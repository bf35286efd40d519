"""The Gymnasium single-agent view: one player learns, opponent agents play the other seats.

Made for sb3-contrib's ``MaskablePPO``: a flat ``Box`` observation, ``Discrete`` actions
and an ``action_masks()`` method (bool mask of the learner's legal ids). The mask also comes
the Gymnasium way, as ``info["action_mask"]`` (int8, as in Gymnasium's Taxi) from ``reset`` and
``step``: it passes through any wrapper, where a method does not (Gymnasium 1.x wrappers do not
forward attributes; ``env.get_wrapper_attr("action_masks")()`` reaches the method through them).

* ``observation_space = Box(-inf, inf, (FLAT_SIZE,), float32)``: the learner's flat
  observation (``Observer.observe_flat``; docs/observation.md). With ``observation_format="dict"``:
  ``Dict(board=Box(47, 20, 25), vector=Box(1380))``, the same numbers cut where the board ends.
* ``action_space = Discrete(NUM_ACTIONS)``: the flat action codec (docs/actions.md).
* ``reset(seed=, options=)``: ``seed`` picks the game (``Game.new(seed=seed)``, the same map and
  turn order as the AEC env with that seed); without one the game seed is drawn from
  ``self.np_random``. Then, from ``self.np_random``: the learner's player id (``learner_seat="random"``)
  and the opponents (``opponent_sampler``). With ``game_seeds=(lo, hi)`` a reset without a seed
  draws the game seed from ``lo <= seed < hi`` (training maps kept apart from evaluation maps). Opponents with a ``reset()`` method are reset.
  Opponents then play until the learner is to move.
* ``step(action)`` applies the learner's action, then lets the opponents play until the
  learner is to move again or the game ends. The reward is the learner's share of the AEC
  env's rewards over that stretch: the end-of-game reward (``reward=``, fcm_env.env.rewards) and,
  with ``shaping="cash"`` (or ``"cash_lead"``), the change of the learner's cash (or lead) / 100. ``terminated`` when the rules end the
  game, ``truncated`` when ``max_rounds`` cuts it off (the end-of-game reward is paid either way).
  Note for SB3 / MaskablePPO: on ``truncated`` they add ``gamma * V(final observation)`` to the
  last reward, as if play went on; here the game is over and its reward already paid, so pass
  ``truncation_as_termination=True`` to report the cut-off as ``terminated`` (no bootstrap).
* ``opponents[k]`` plays the k-th player id other than the learner's (in increasing order).
* An illegal id raises ``IllegalActionError`` (naming the id, its name and the decision) and
  changes nothing.
* ``info``: numbers only, the same keys on every step (the AEC env's infos, ``fcm_env.env.aec``),
  plus ``learner_id`` (the learner's player id) and ``action_mask``. ``info_strings=True`` adds the
  readable ``phase``, ``decision``, ``to_move``, ``learner`` and, at the end, ``winners``.
* ``engine``: ``"native"``, ``"python"`` or ``"auto"`` (``fcm_env.env.engines``): the same games either way.
  Opponents with ``act_on_game`` read the full Python position (``game.snapshot()``), so they play
  as they do on the Python engine, at the Python engine's cost; those that say they read only the legal
  actions (``reads_legal_actions_only``, ``RandomLegalPlayer``) or play on the native core
  (``plays_native``: the heuristic and the strategists, whose native twins answer alike) get the native game.

Opponents are duck-typed: an object with ``act_on_game(game, player) -> Action`` is asked that
way (it reads the engine state, as the heuristic does); otherwise ``act(observation, action_mask)
-> int`` gets the flat observation and the int8 mask of its own player. The default opponents
are ``RandomLegalPlayer``s (uniform over the legal moves, the choices of ``fcm_agents.RandomAgent``)
seeded from ``self.np_random`` at every reset, so the env is reproducible from its seed; given
opponents are used as they are. The env imports no agent package (agents is a higher layer).

``learner_seat`` names a *player id* (``player_k`` of the AEC env): seats in the turn order
change every round, player ids never do.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import gymnasium
import numpy as np

from fcm_env import engines
from fcm_env.encoding import CODEC, FLAT_SIZE, NUM_ACTIONS, Observer
from fcm_env.engine.actions import IllegalActionError
from fcm_env.engines import GameLike, RandomLegalPlayer

from . import common
from .rewards import CASH_SHAPING_SCALE, final_rewards, shaping_potential, standings

OpponentSampler = Callable[[np.random.Generator], Sequence[Any]]


def _default_opponents(rng: np.random.Generator, count: int) -> list[Any]:
    return [RandomLegalPlayer(seed=int(rng.integers(2**31))) for _ in range(count)]


class FcmSingleAgentEnv(gymnasium.Env):
    """One learning player against fixed or sampled opponents (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": list(common.RENDER_MODES), "render_fps": 1}

    def __init__(
        self,
        num_players: int = 4,
        variant: str = "standard",
        max_rounds: int = 30,
        reward: str = "win",
        shaping: str | None = None,
        opponents: Sequence[Any] | None = None,
        learner_seat: int | str = 0,
        opponent_sampler: OpponentSampler | None = None,
        render_mode: str | None = None,
        truncation_as_termination: bool = False,
        game_seeds: tuple[int, int] | None = None,
        observation_format: str = "flat",
        info_strings: bool = False,
        engine: str = "auto",
    ):
        common.check_env_args(num_players, variant, max_rounds, reward, shaping, render_mode)
        self.observation_format = common.check_observation_format(observation_format)
        self.info_strings = bool(info_strings)
        self.engine = engines.resolve_engine(engine)
        self.num_players = int(num_players)
        self.variant = variant
        self.max_rounds = int(max_rounds)
        self.reward_scheme = reward
        self.shaping = shaping
        self.render_mode = render_mode
        self.truncation_as_termination = bool(truncation_as_termination)
        if game_seeds is not None:
            lo, hi = (int(v) for v in game_seeds)
            if not 0 <= lo < hi:
                raise ValueError(f"game_seeds must be (lo, hi) with 0 <= lo < hi, got {game_seeds!r}")
            game_seeds = (lo, hi)
        self.game_seeds = game_seeds
        if learner_seat != "random" and (
            isinstance(learner_seat, bool) or not isinstance(learner_seat, (int, np.integer))
            or not 0 <= learner_seat < self.num_players
        ):
            raise ValueError(
                f"learner_seat must be 0..{self.num_players - 1} or 'random', got {learner_seat!r}"
            )
        self.learner_seat = learner_seat
        if opponents is not None and opponent_sampler is not None:
            raise ValueError("give opponents or opponent_sampler, not both")
        if opponents is not None:
            opponents = self._check_opponents(opponents)
        self._fixed_opponents = opponents
        self.opponent_sampler = opponent_sampler

        self.observation_space = common.observation_space(self.observation_format)
        self.action_space = common.action_space()
        self.agent_names = [f"player_{p}" for p in range(self.num_players)]

        self.game: GameLike | None = None  # a game of either engine (fcm_env.engines.GameLike)
        self.learner: int = 0
        #: player id -> opponent agent of the running episode (the learner's id is absent)
        self.opponents: dict[int, Any] = {}
        self._observer = Observer()
        self._obs = np.zeros(FLAT_SIZE, dtype=np.float32)
        self._mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        self._opp_obs = np.zeros(FLAT_SIZE, dtype=np.float32)
        self._opp_mask = np.zeros(NUM_ACTIONS, dtype=np.int8)

    def _check_opponents(self, opponents: Sequence[Any]) -> list[Any]:
        opponents = list(opponents)
        if len(opponents) != self.num_players - 1:
            raise ValueError(f"need {self.num_players - 1} opponents for {self.num_players} players, "
                             f"got {len(opponents)}")
        for agent in opponents:
            if not (callable(getattr(agent, "act_on_game", None)) or callable(getattr(agent, "act", None))):
                raise TypeError(f"opponent {agent!r} has neither act_on_game(game, player) nor "
                                "act(observation, action_mask)")
        return opponents

    # ------------------------------------------------------------------ episode core (also used by vector.py)

    def _start(self, seed: int | None) -> None:
        """New game and opponents; opponents play up to the learner's first decision."""
        if seed is not None:
            game_seed = common.check_seed(seed)
        elif self.game_seeds is not None:
            game_seed = int(self.np_random.integers(*self.game_seeds))
        else:
            game_seed = common.draw_game_seed(self.np_random)
        self.game = engines.new_game(self.engine, self.num_players, game_seed, self.variant, self.max_rounds)
        rng = self.np_random
        self.learner = int(rng.integers(self.num_players)) if self.learner_seat == "random" else int(
            self.learner_seat)
        if self._fixed_opponents is not None:
            chosen = self._fixed_opponents
        elif self.opponent_sampler is not None:
            chosen = self._check_opponents(self.opponent_sampler(rng))
        else:
            chosen = _default_opponents(rng, self.num_players - 1)
        others = [p for p in range(self.num_players) if p != self.learner]
        self.opponents = dict(zip(others, chosen, strict=True))
        for agent in chosen:
            reset = getattr(agent, "reset", None)
            if callable(reset):
                reset()
        self._play_opponents()

    def _advance(self, action: object) -> tuple[float, bool, bool]:
        """Learner's action, then the opponents' turns: (reward, terminated, truncated)."""
        game = self.game
        if game is None:
            raise RuntimeError("call reset() before step()")
        if game.is_over:
            raise RuntimeError("the episode is over: call reset() before step()")
        engine_action = common.checked_action(game, self.agent_names[self.learner], action)
        if self.shaping is not None:
            before = shaping_potential(game.state, self.shaping)[self.learner]
        game.apply_legal(engine_action)  # checked_action checked the id against the legal ids
        self._play_opponents()
        reward = 0.0
        if self.shaping is not None:
            reward += (shaping_potential(game.state, self.shaping)[self.learner] - before) / CASH_SHAPING_SCALE
        if not game.is_over:
            return reward, False, False
        reward += float(final_rewards(game.state, self.reward_scheme)[self.learner])
        truncated = bool(game.state.truncated) and not self.truncation_as_termination
        return reward, not truncated, truncated

    def _play_opponents(self) -> None:
        game = self.game
        while not game.is_over and game.current_player != self.learner:
            player = game.current_player
            self._opponent_move(self.opponents[player], player)

    def _opponent_move(self, agent: Any, player: int) -> None:
        """One decision of an opponent: ``act_on_game`` when it has it, else ``act`` on obs + mask."""
        game = self.game
        who = f"opponent {getattr(agent, 'name', type(agent).__name__)!r} (player_{player})"
        act_on_game = getattr(agent, "act_on_game", None)
        if callable(act_on_game):
            # an agent that reads the engine's state reads the Python engine's, unless it reads only the legal
            # actions (which both engines list alike) or plays on the native core itself (``plays_native``:
            # fcm_agents' native players and the Python agents that hand native games to them)
            native_ok = getattr(agent, "plays_native", False) \
                or getattr(agent, "reads_legal_actions_only", False)
            shown = game if native_ok else game.snapshot()
            action = act_on_game(shown, player)
            try:
                game.apply(action)  # checks legality first and changes nothing on failure
            except IllegalActionError as error:
                raise IllegalActionError(f"{who}: {error}") from error
            return
        obs = game.observe_flat(player, self._opp_obs)
        mask = self._opp_mask
        mask[:] = 0
        mask[game.legal_ids()] = 1
        game.apply_legal(common.checked_action(game, who, agent.act(obs, mask)))

    def _info(self) -> dict[str, Any]:
        """The learner's info without the mask (the vector envs' final infos; ``_public_info`` adds it)."""
        game = self.game
        strings = self.info_strings
        info = common.step_info(game, self.learner, self.agent_names, strings)
        info["learner_id"] = self.learner
        if strings:
            info["learner"] = self.agent_names[self.learner]
        if game.is_over:
            common.final_info(info, game, self.learner, standings(game.state), self.agent_names, strings)
        return info

    def _public_info(self) -> dict[str, Any]:
        """``_info`` with ``action_mask`` (int8[NUM_ACTIONS], a fresh array): what ``reset`` and ``step`` return."""
        info = self._info()
        info["action_mask"] = self.mask_into(np.zeros(NUM_ACTIONS, dtype=np.int8))
        return info

    def _observation(self) -> np.ndarray | dict[str, np.ndarray]:
        """The learner's observation in ``observation_format`` (fresh arrays)."""
        flat = self.observe_into(self._obs)
        if self.observation_format == "flat":
            return flat.copy()
        return {k: v.copy() for k, v in common.split_observation(flat).items()}

    def observe_into(self, out: np.ndarray) -> np.ndarray:
        """The learner's flat observation written into ``out`` (float32[FLAT_SIZE])."""
        return self.game.observe_flat(self.learner, out)

    def mask_into(self, out: np.ndarray) -> np.ndarray:
        """The learner's legal ids as 1s in ``out`` (int8 or bool [NUM_ACTIONS]); zeros once over."""
        out[:] = 0
        if not self.game.is_over and self.game.current_player == self.learner:
            out[self.game.legal_ids()] = 1
        return out

    # ------------------------------------------------------------------ gymnasium API

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        self._reset_core(seed)
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._public_info()

    def _reset_core(self, seed: int | None) -> None:
        """``reset`` without building the observation (the vector env writes it in place)."""
        super().reset(seed=seed)
        self._start(seed)

    def step(self, action: Any):
        reward, terminated, truncated = self._advance(action)
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, terminated, truncated, self._public_info()

    def action_masks(self) -> np.ndarray:
        """bool[NUM_ACTIONS]: the learner's legal action ids (sb3-contrib's MaskablePPO calls this)."""
        if self.game is None:
            raise RuntimeError("call reset() before action_masks(): there is no game yet")
        return self.mask_into(np.zeros(NUM_ACTIONS, dtype=bool))

    def action_to_string(self, action: int) -> str:
        """The readable name of an action id in the current position."""
        if self.game is None:
            raise RuntimeError("call reset() before action_to_string(): there is no game yet")
        return CODEC.action_to_string(action, self.game)

    def render(self) -> str | np.ndarray | None:
        return common.render_game(self.game, self.render_mode)

    def close(self) -> None:
        """Nothing to release."""

"""
# Food Chain Magnate (`fcm_magnate_v0`)

| Creation           | `fcm_env.env(num_players=4)` or `pettingzoo.make("aec", "fcm/FoodChainMagnate-v0")` |
|--------------------|--------------------------------------------------------------------------------|
| Import             | `from fcm_env.env.aec import env, raw_env`                                      |
| Actions            | Discrete                                                                       |
| Parallel API       | No (`is_parallelizable = False`: strictly one decision at a time)               |
| Manual Control     | No                                                                             |
| Agents             | `agents = ['player_0', ..., 'player_{n-1}']`                                    |
| Agents             | 2 to 5                                                                         |
| Action Shape       | ()                                                                             |
| Action Values      | Discrete(2757)                                                                 |
| Observation Shape  | `{"observation": (24880,), "action_mask": (2757,)}`                            |
| Observation Values | observation: float32, Box(-inf, inf) (in play about 0 to 10); action_mask: int8 {0, 1} |

The full base game of *Food Chain Magnate* (2-5 players, the standard game with bank
reserve cards and the introductory variant), on the exact rules engine of
`fcm_env.engine`. Every choice the rules give a player is one atomic decision
(hire one card, train one card, place one campaign tile, one drink haul, ...), so an
episode is a long sequence of small decisions: a 4-player game of 30 rounds is about
700 decisions. Engine-driven steps (dinnertime, payday, campaigns, clean-up) happen
between decisions with no agent input.

### Agents and turn order

Agent `player_k` is player id `k` for the whole game. The *turn order* (seats) is
drawn at setup and chosen again every round (phase 2, Order of Business), so the
agent to move does not cycle: `agent_selection` always names the player the pending
decision asks (`game.current_player`). Simultaneous hidden choices (restructuring,
the reserve card, firing) are asked one player at a time; no observation shows another
player's secret choice until the rules reveal it. A chain that went bankrupt and left
the turn order (C21, D45) is simply never selected again; it stays in `agents` until the
game ends and then receives its end-of-game reward like everyone else.

### Observation space

`observe(agent)` returns a dict:

* `"observation"`: `float32[24880]`, the flat observation of `fcm_env.encoding.Observer`
  (`observe_flat`): 47 board planes of 20 x 25 (every map padded to the 5-player size) in C
  order, then a vector of 1380 scalars. Players appear relative to the observer (slot 0 is the
  observer, slot 1 the next player in turn order, ...). Values are flags, counts and money / 100,
  about 0 to 10 in play; the Box is unbounded because nothing caps cash or counts. Every channel
  and slice is named in `fcm_env.encoding.observation_layout()` and documented in
  `docs/observation.md`.
* `"action_mask"`: `int8[2757]`, 1 exactly for the legal action ids of the agent to move, and
  all zeros for every other agent.

Both arrays are fresh copies: the env never changes an array it has handed out.

With `observation_format="dict"` the observation is split where the board ends:
`{"observation": {"board": float32[47, 20, 25], "vector": float32[1380]}, "action_mask": ...}`
(the same numbers; for networks that read the map with convolutions). `observation_key` renames
the `"observation"` key: RLlib's stock `ActionMaskingTorchRLModule` reads `"observations"`
(docs/frameworks.md).

### Action space

One flat `Discrete(2757)`, identical for every player count and variant, cut into named
segments (`fcm_env.encoding.CODEC.segments`; names per id: `CODEC.action_to_string(id, game)`;
full reference: `docs/actions.md`):

| segment | ids | size | what |
|---|---|---|---|
| `pass` | 0-0 | 1 | decline / done with the current step |
| `reserve` | 1-3 | 3 | setup: keep bank reserve card i ($100, $200, $300) |
| `put_to_work` | 4-35 | 32 | restructuring: put one card of this type to work |
| `turn_spot` | 36-40 | 5 | order of business: take turn-order spot i (0 = first) |
| `recruit` | 41-48 | 8 | working: hire one entry-level card |
| `train` | 49-214 | 166 | working: train source -> target with a trainer / coach / guru, or pooled actions |
| `marketeer` | 215-218 | 4 | working: launch a campaign with this marketeer |
| `campaign_tile` | 219-234 | 16 | working: the campaign tile (by number) the marketeer places |
| `product` | 235-239 | 5 | working: the good the new campaign advertises |
| `duration` | 240-244 | 5 | working: how many turns the campaign runs |
| `produce` | 245-253 | 9 | working: a kitchen card makes its food, or an errand boy fetches a drink |
| `haul` | 254-703 | 450 | working: a cart operator / truck driver / zeppelin pilot route: (beer, lemonade, soda) sources |
| `house` | 704-711 | 8 | working: new business developer takes this house token |
| `restaurant` | 712-719 | 8 | working: local / regional manager acts on restaurant i (i = restaurant count: a new one) |
| `fire` | 720-751 | 32 | payday: fire one card of this type |
| `keep` | 752-756 | 5 | clean-up: keep one more of this good |
| `place` | 757-2756 | 2000 | board placement (row, col, orientation) on a 20 x 25 grid: restaurant, campaign tile, house or garden, as the pending decision asks |

#### Illegal actions

An id that is not set in the agent's `action_mask` raises `IllegalActionError` (a
`ValueError`) naming the agent, the id, its readable name and the pending decision, and
leaves the game and the env unchanged (no reward, no termination: the agent may step again).
PettingZoo's `TerminateIllegalWrapper` is deliberately not used (it would end the game and
hide the bug), nor `AssertOutOfBoundsWrapper` (the raw env already rejects out-of-range ids
with the same clear error, and an `assert` vanishes under `python -O`).

### Rewards

Rewards are 0 on every step until the game ends; then every agent receives its end-of-game
reward (`reward=`), computed from the final standing (`fcm_env.env.rewards`):

| `reward` | end-of-game reward | sum |
|---|---|---|
| `"win"` (default) | +1 for the winner (most cash among the chains still in the game, a tie to the earlier seat: C23, D45), `-1/(n-1)` for each other player | 0 |
| `"rank"` | linear in the final rank: +1 for the first, -1 for the last (`1 - 2k/(n-1)`); ranked by cash, ties to the earlier seat in the final turn order, bankrupt / eliminated chains last | 0 |
| `"cash_share"` | `cash_i / total_cash - 1/n`; 0 for everyone when no player has any cash | 0 |

`shaping="cash"` additionally pays every agent its own cash change / 100 after every step
(sales at dinnertime, salaries at payday, ...). This shaping is **not** zero-sum: the bank pays
sales and receives salaries. `shaping="cash_lead"` pays instead the change of the agent's lead
(its cash minus the mean cash of the others) / 100: zero-sum, and it adds up to the final lead / 100. With PettingZoo semantics, a reward goes to every agent on the
step where it arises and `last()` returns the sum since that agent last acted.

### Termination and truncation

* **Termination**: the game ends by the rules (the bank breaks for the last time, or every
  chain went bankrupt): `terminations` is True for every agent.
* **Truncation**: the game is cut off after the Clean-up of round `max_rounds` (not a rule,
  D44): `truncations` is True for every agent. The rewards are still paid, from the standing
  at that point (the winner is found by the usual rule), so a truncated episode carries the
  same kind of signal as a terminated one.

Then each agent is selected once more to step `None` (the usual AEC ending) and `agents`
empties.

### Infos

`infos[agent]` is deterministic and holds **numbers only, under the same keys from `reset` to
the end**, so that any framework can tensorize it (TorchRL builds a fixed spec from the reset
infos and fails on a string):

| key | value |
|---|---|
| `phase_id` | the phase, an index into `fcm_env.env.PHASE_NAMES` (`"setup_restaurants"`, ..., `"game_over"`) |
| `decision_id` | the pending decision, an index into `fcm_env.env.DECISION_NAMES`; -1 once the game is over |
| `round` | the round |
| `to_move_id` | the player id (`player_k`: k) of the agent to move; -1 once the game is over |
| `legal_action_count` | this agent's legal ids (0 when it is not to move) |
| `cash` | this agent's cash |
| `rank` | final rank (0 = first); -1 until the game ends |
| `winner` | True for a winner, once the game has ended |
| `truncated_by_max_rounds` | True when `max_rounds` cut the game off, once it has ended |

`info_strings=True` adds the readable names: `phase` and `decision` (lower-case names; `decision`
is None once the game is over), `to_move` (the agent name or None) and, at the end, `winners`
(agent names). These are the keys of the infos before the numeric ones (v0.1.0); strings cannot
be tensorized, so leave them off for TorchRL and other array-based frameworks.

### Arguments

```python
fcm_env.env(num_players=4, variant="standard", max_rounds=30, reward="win", shaping=None, render_mode=None,
            observation_format="flat", observation_key="observation", info_strings=False, engine="auto")
```

* `num_players`: 2 to 5.
* `variant`: `"standard"` (bank reserve cards, CEO slots from the reserve card) or `"introductory"`.
* `max_rounds`: the game is truncated after this many rounds (default 30).
* `reward`: `"win"`, `"rank"` or `"cash_share"` (see Rewards).
* `shaping`: None, `"cash"` or `"cash_lead"`.
* `render_mode`: None, `"human"` (the text picture is printed after every `reset` and `step`;
  `render()` prints it too and returns None), `"ansi"` (`render()` returns the text picture: map,
  houses, campaigns, player boards) or `"rgb_array"` (`render()` returns `uint8[h, w, 3]` drawn
  with Pillow: the map at 24 pixels per square, a player panel and a legend; `fcm_env.picture`).
* `observation_format`: `"flat"` (one `float32[24880]`) or `"dict"` (`board` planes with their
  shape and the `vector`; see Observation space).
* `observation_key`: the key of the observation next to `"action_mask"` (default `"observation"`,
  as PettingZoo classic; `"observations"` for RLlib's stock action-masking module).
* `info_strings`: add the readable names to the infos (see Infos).
* `engine`: `"native"` (the C++ core), `"python"` (the reference engine) or `"auto"` (native when it is built
  in this install, else Python with a one-line notice). Both play the same games for the same seeds and
  actions: the observations, masks, rewards and infos are identical (docs/native.md).

`reset(seed=s)` sets the game up with `Game.new(num_players, seed=s, ...)`: the same seed gives
the same map, turn order and game. `reset()` without a seed draws the game seed from the env's
own generator, itself seeded by the last seed given, so a sequence of resets is reproducible.
`options` is accepted and ignored (no options in v0). The unwrapped env exposes the running
engine game as `env.unwrapped.game` (read it, do not change it): a `Game` on the Python engine, a
`NativeGame` on the native one: both have the one face `fcm_env.engines.GameLike` (`game.snapshot()` gives the full Python `Game` at its position).

### Usage

```python
import fcm_env

env = fcm_env.env(num_players=3, render_mode="ansi")
env.reset(seed=42)
for agent in env.agent_iter():
    observation, reward, termination, truncation, info = env.last()
    if termination or truncation:
        action = None
    else:
        mask = observation["action_mask"]
        action = env.action_space(agent).sample(mask)  # a policy goes here
    env.step(action)
print(env.render())
env.close()
```

### Version History

* v0: Initial release: full base game, 2-5 players, standard and introductory variants.
* v0, update: infos hold numbers only under fixed keys (`info_strings=True` adds the names back);
  new options `observation_format` and `observation_key`. Observations, actions, rewards and
  games are unchanged.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from fcm_env import engines
from fcm_env.encoding import NUM_ACTIONS
from fcm_env.engine.actions import IllegalActionError
from fcm_env.engines import GameLike

from . import common
from .rewards import CASH_SHAPING_SCALE, final_rewards, shaping_potential, standings


def env(*args: Any, **kwargs: Any) -> AECEnv:
    """The wrapped env (PettingZoo classic chain minus the illegal-move wrappers; see the docs above).

    Takes ``raw_env``'s arguments, positionally too: ``env(3)`` is ``env(num_players=3)``.
    """
    environment = raw_env(*args, **kwargs)
    environment = OrderEnforcingWrapper(environment)
    return environment


class OrderEnforcingWrapper(wrappers.OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper``, with ``last()`` answered by the raw env in one call.

    The base class reads each of the five values ``last()`` returns (and the agent) through its
    ``__getattr__``, a Python call each: about 3 us of a ~100 us step. The checks are the same:
    before ``reset()`` reading the agent raises, as it does in the base class.
    """

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        if not self.env.agents:  # every agent's last step is taken: PettingZoo has removed them all
            raise RuntimeError("last(): the game is over and every agent is done (env.agents is empty); "
                               "call reset() to play again")
        return self.env.last(observe)

    def step(self, action: Any) -> None:
        # the base class's checks, then the raw step itself (not through two more wrapper calls)
        if self._has_reset and self.env.agents:
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)

    # ``agents`` and ``agent_selection`` are read by ``agent_iter`` and ``step`` at every step; as
    # properties they skip the failed attribute look-up and the two ``__getattr__`` calls of the base
    # class (about 1 us a step), with the same error before ``reset()``

    @property
    def agents(self) -> list[str]:
        if not self._has_reset:
            raise AttributeError("agents cannot be accessed before reset")
        return self.env.agents

    @property
    def agent_selection(self) -> str:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.agent_selection


class raw_env(AECEnv, EzPickle):
    """Food Chain Magnate as a PettingZoo AEC env; the module docstring is its documentation."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "fcm_magnate_v0",
        "render_modes": list(common.RENDER_MODES),
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        num_players: int = 4,
        variant: str = "standard",
        max_rounds: int = 30,
        reward: str = "win",
        shaping: str | None = None,
        render_mode: str | None = None,
        observation_format: str = "flat",
        observation_key: str = common.DEFAULT_OBSERVATION_KEY,
        info_strings: bool = False,
        engine: str = "auto",
    ):
        EzPickle.__init__(self, num_players, variant, max_rounds, reward, shaping, render_mode,
                          observation_format, observation_key, info_strings, engine)
        super().__init__()
        common.check_env_args(num_players, variant, max_rounds, reward, shaping, render_mode)
        self.num_players = int(num_players)
        self.variant = variant
        self.max_rounds = int(max_rounds)
        self.reward_scheme = reward
        self.shaping = shaping
        self.render_mode = render_mode
        self.observation_format = common.check_observation_format(observation_format)
        self.observation_key = common.check_observation_key(observation_key)
        self.info_strings = bool(info_strings)
        self.engine = engines.resolve_engine(engine)

        self.possible_agents = [f"player_{p}" for p in range(self.num_players)]
        self.agent_name_mapping = {name: p for p, name in enumerate(self.possible_agents)}
        self.observation_spaces = {
            a: spaces.Dict({
                self.observation_key: common.observation_space(self.observation_format),
                "action_mask": common.mask_space(),
            })
            for a in self.possible_agents
        }
        self.action_spaces = {a: common.action_space() for a in self.possible_agents}

        self.game: GameLike | None = None  # a game of either engine (fcm_env.engines.GameLike)
        self._rng: np.random.Generator | None = None
        # per-agent observations, redrawn where the game changed (in C++ on the native engine)
        self._rows = engines.observation_rows(self.engine, self.num_players)
        self._cash_before = np.zeros(self.num_players, dtype=np.float64)
        self._cash_after = np.zeros(self.num_players, dtype=np.float64)

    def __getstate__(self) -> dict[str, Any]:
        """Pickle and ``copy.deepcopy`` keep the game in progress, its RNG and buffers.

        ``EzPickle`` alone would rebuild a fresh, un-reset env from the constructor arguments.
        """
        return dict(self.__dict__)

    def __setstate__(self, state: dict[str, Any]) -> None:
        # an env pickled before these options existed had their defaults
        state.setdefault("observation_format", "flat")
        state.setdefault("observation_key", common.DEFAULT_OBSERVATION_KEY)
        state.setdefault("info_strings", False)
        state.setdefault("engine", "python")
        self.__dict__.update(state)

    # ------------------------------------------------------------------ spaces

    def observation_space(self, agent: str):
        return self.observation_spaces[agent]

    def action_space(self, agent: str):
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ episode

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            game_seed = common.check_seed(seed)
            self._rng = np.random.default_rng(game_seed)
        else:
            if self._rng is None:
                self._rng = np.random.default_rng()
            game_seed = common.draw_game_seed(self._rng)
        self.game = engines.new_game(self.engine, self.num_players, game_seed, self.variant, self.max_rounds)

        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self._skip_agent_selection = None
        self.agent_selection = self.possible_agents[self.game.current_player]
        self._update_infos()
        if self.render_mode == "human":
            self.render()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        if self.shaping is None:
            # the common step: a plain legal id, played in one call that returns what the infos show
            facts = game.play_id(action) if type(action) in common.PLAIN_IDS else None
            if facts is None:  # not a plain legal id: say why (nothing changes), or play the id it stands for
                facts = game.play_id(self._checked_action(agent, action))
            self._cumulative_rewards[agent] = 0.0
            mover = facts[3]
            if mover >= 0:  # the game goes on: nobody is rewarded, nothing ends
                rewards = self.rewards
                for a in rewards:
                    rewards[a] = 0.0
                self.agent_selection = self.possible_agents[mover]
                self.infos = common.infos_of_facts(facts, self.agents, self.possible_agents, self.info_strings)
                if self.render_mode == "human":
                    self.render()
                return
            rewards = np.zeros(self.num_players, dtype=np.float64)
        else:
            engine_action = self._checked_action(agent, action)  # raises before any change
            self._cumulative_rewards[agent] = 0.0
            shaping_potential(game.state, self.shaping, self._cash_before)
            game.apply_legal(engine_action)
            after = shaping_potential(game.state, self.shaping, self._cash_after)
            rewards = (after - self._cash_before) / CASH_SHAPING_SCALE
        if game.is_over:
            rewards += final_rewards(game.state, self.reward_scheme)
            done = {a: True for a in self.agents}
            if game.state.truncated:
                self.truncations = done
            else:
                self.terminations = done
        else:
            self.agent_selection = self.possible_agents[game.current_player]
        for a in self.agents:
            self.rewards[a] = float(rewards[self.agent_name_mapping[a]])
        self._update_infos()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _checked_action(self, agent: str, action: Any) -> int:
        """``agent``'s flat id for ``action``, checked legal: ``IllegalActionError`` saying why not."""
        if action is None:
            raise IllegalActionError(
                f"{agent}: the game is running; step needs an action id, got None "
                f"(pending decision {self.game.pending.decision.name})"
            )
        return common.checked_action(self.game, agent, action)

    def _update_infos(self) -> None:
        game = self.game
        names = self.possible_agents
        self.infos = common.step_infos(game, self.agents, names, self.info_strings)
        if game.is_over:
            order = standings(game.state)
            for a in self.agents:
                common.final_info(self.infos[a], game, self.agent_name_mapping[a], order, names, self.info_strings)

    # ------------------------------------------------------------------ observing

    def observe(self, agent: str) -> dict[str, Any]:
        """``agent``'s observation and legal-action mask (fresh copies)."""
        p = self.agent_name_mapping[agent]
        game = self.game
        if self.observation_format == "flat":  # the row's copy and the mask in one call (native: in C++)
            observation, mask = self._rows.observe_fresh(game, p)
            return {self.observation_key: observation, "action_mask": mask}
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        if game.current_player == p:
            mask[game.legal_ids()] = 1
        row = self._rows.observe(game, p)
        observation = {k: v.copy() for k, v in common.split_observation(row).items()}
        return {self.observation_key: observation, "action_mask": mask}

    def render(self) -> str | np.ndarray | None:
        return common.render_game(self.game, self.render_mode)

    def close(self) -> None:
        """Nothing to release (no window, no subprocess); kept for the PettingZoo API."""

"""OpenSpiel binding: ``import fcm_env.openspiel`` registers the game ``python_fcm_magnate``.

Then ``pyspiel.load_game("python_fcm_magnate", {"players": 3})`` gives a pyspiel game whose
states wrap an engine ``Game``, so OpenSpiel's algorithms (random simulation, MCTS, IS-MCTS,
``evaluate_bots``) run on the exact rules. docs/openspiel.md has the recipe and the choices:

* deterministic given the ``seed`` parameter (the engine draws the map and the turn order there
  and nothing after), imperfect information (reserve cards, face-down Restructuring and firing);
* the winner gets 1, everybody else 0 (a constant sum of 1);
* actions are the flat ids of ``fcm_env.encoding.CODEC``; observations are the project's encoder
  (``Observer.observe_flat``) of one seat, and the information state is what that seat knows
  now (not perfect recall): a digest of the seat's view of the position;
* ``resample_from_infostate`` is ``Game.determinize``, seeded by one draw of the sampler;
* ``engine`` (``"auto"``, the default: the native C++ core when it is built; ``"native"``; ``"python"``)
  picks the engine that plays the states' games: the same games, ids, observations and returns on either
  (``tests/openspiel/test_openspiel_game.py`` plays both in lockstep).

Cloning is cheap: a state's only attribute is a copy-on-write reference to its engine game,
whose ``__deepcopy__`` (what OpenSpiel's ``PyState::Clone`` calls) shares the game until one of
the two copies moves; the move then pays one ``Game.clone``.
"""

from __future__ import annotations

import hashlib
import json
import struct
from typing import Any

import numpy as np
import pyspiel

from fcm_env.encoding import BOARD_SHAPE, CODEC, FLAT_SIZE, NUM_ACTIONS
from fcm_env.engine.game import DEFAULT_MAX_ROUNDS, Game
from fcm_env.engine.hidden.determinize import HiddenChoiceModel
from fcm_env.engine.state import VARIANTS
from fcm_env.engines import ENGINES, new_game, on_engine, resolve_engine
from fcm_env.text.state import state_ascii

SHORT_NAME = "python_fcm_magnate"
MIN_PLAYERS = 2
MAX_PLAYERS = 5
#: the parameters and their defaults; ``max_rounds=0`` lifts the cap (the rules alone end the game)
DEFAULT_PARAMS: dict[str, Any] = {
    "players": 2,
    "variant": "standard",
    "seed": 0,
    "max_rounds": DEFAULT_MAX_ROUNDS,
    "engine": "auto",
}
#: an upper bound on one player's decisions in one round, from the box's component counts: each
#: decision but a "done" uses up a card or a capacity (cards put to work or fired: at most the 223
#: cards each; recruits 37, training steps 33, 27 marketeers x 5 campaign decisions, 69 kitchen
#: and buyer cards, 6 developers x 3, 9 managers x 2, 10 freezer places; one "done" per step),
#: about 780 in all, rounded up. Played games stay far below it (docs/openspiel.md).
MOVES_PER_PLAYER_ROUND = 1000
#: the setup decisions per player (first restaurant, a pass to place later, reserve card)
SETUP_MOVES_PER_PLAYER = 3
#: ``max_game_length`` without a round cap: a game where nobody sells never ends
UNBOUNDED_LENGTH = 2**31 - 1

_BOARD_SIZE = int(np.prod(BOARD_SHAPE))
_KEY_CACHE = "openspiel_key_{}"  # Game.position_cache entry: a seat's knowledge digest, per position

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Food Chain Magnate (fcm-magnate engine)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=MIN_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=dict(DEFAULT_PARAMS),
)


def check_params(params: dict[str, Any]) -> dict[str, Any]:
    """The parameters with defaults filled in; ``ValueError`` (``TypeError`` for a wrong type) naming
    the bad one, before any setup."""
    unknown = sorted(set(params) - set(DEFAULT_PARAMS))
    if unknown:
        raise ValueError(f"{SHORT_NAME}: unknown parameter(s) {unknown}; known: {sorted(DEFAULT_PARAMS)}")
    out = {**DEFAULT_PARAMS, **params}
    for name in ("players", "seed", "max_rounds"):
        if isinstance(out[name], bool) or not isinstance(out[name], (int, np.integer)):
            raise TypeError(f"{SHORT_NAME}: {name} must be an int, got {out[name]!r}")
        out[name] = int(out[name])
    if not MIN_PLAYERS <= out["players"] <= MAX_PLAYERS:
        raise ValueError(f"{SHORT_NAME}: players must be {MIN_PLAYERS}..{MAX_PLAYERS}, got {out['players']}")
    if out["variant"] not in VARIANTS:
        raise ValueError(f"{SHORT_NAME}: variant must be one of {VARIANTS}, got {out['variant']!r}")
    if out["seed"] < 0:
        raise ValueError(f"{SHORT_NAME}: seed (the map seed) must be >= 0, got {out['seed']}")
    if out["max_rounds"] < 0:
        raise ValueError(f"{SHORT_NAME}: max_rounds must be >= 1, or 0 for no cap; got {out['max_rounds']}")
    if out["engine"] not in ENGINES:
        raise ValueError(f"{SHORT_NAME}: engine must be one of {ENGINES}, got {out['engine']!r}")
    return out


def max_game_length(players: int, max_rounds: int) -> int:
    """A bound on the decisions of a whole game (``UNBOUNDED_LENGTH`` without a round cap)."""
    if max_rounds == 0:
        return UNBOUNDED_LENGTH
    return players * (SETUP_MOVES_PER_PLAYER + max_rounds * MOVES_PER_PLAYER_ROUND)


class _GameRef:
    """Copy-on-write holder of a state's engine game: a deep copy shares the game, and whichever
    copy moves first clones it. OpenSpiel clones states by deep-copying their attributes, so this
    makes ``state.clone()`` a few microseconds instead of a new game plus a deep copy (1-2 ms)."""

    __slots__ = ("game", "owned")

    def __init__(self, game: Game, owned: bool):
        self.game = game
        self.owned = owned

    def __deepcopy__(self, memo: dict[int, Any]) -> _GameRef:
        self.owned = False  # the game is shared from now on: the next move here clones it first
        return _GameRef(self.game, owned=False)

    def writable(self) -> Game:
        if not self.owned:
            self.game = self.game.clone()
            self.owned = True
        return self.game


class FcmGame(pyspiel.Game):
    """The pyspiel game: parameters, the engine's initial position (set up once), observers."""

    def __init__(self, params: dict[str, Any] | None = None):
        p = check_params(dict(params or {}))
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=0,
            num_players=p["players"],
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=max_game_length(p["players"], p["max_rounds"]),
        )
        super().__init__(GAME_TYPE, info, p)
        self.params = p
        #: the engine that plays this game's states: "native" or "python" (``engine="auto"`` resolved)
        self.engine = resolve_engine(p["engine"])
        # set up once (about 1 ms); every initial state shares it until it moves
        self._initial = new_game(self.engine, p["players"], p["seed"], p["variant"], p["max_rounds"] or None)
        #: what ``resample_from_infostate`` assumes of the others' hidden choices (None: uniform)
        self.hidden_model: HiddenChoiceModel | None = None

    def new_initial_state(self, state: object = None) -> FcmState:
        """The start of the game, sharing the engine's initial position (no setup per call)."""
        if state is not None:
            raise ValueError(f"{SHORT_NAME} starts from its parameters only; wrap a position "
                             "with FcmGame.state_from_engine(Game.from_dict(...))")
        return FcmState(self, _GameRef(self._initial, owned=False))

    def state_from_engine(self, game: Any) -> FcmState:
        """A pyspiel state at ``game``'s position (a copy on this game's engine), e.g. one loaded with
        ``Game.from_dict``. Its OpenSpiel ``history()`` starts empty: the engine position is the whole state."""
        if game.num_players != self.num_players():
            raise ValueError(f"the position has {game.num_players} players, the game {self.num_players()}")
        moved = on_engine(game, self.engine)
        game = moved.clone() if moved is game else moved
        if game.pending is None and not game.is_over:
            game.advance()
        return FcmState(self, _GameRef(game, owned=True))

    def make_py_observer(self, iig_obs_type: pyspiel.IIGObservationType | None = None,
                         params: dict[str, Any] | None = None) -> SeatObserver:
        """One seat's view for every observation type OpenSpiel asks for with private info of one
        player: the default observation and the information state (not perfect recall)."""
        if isinstance(iig_obs_type, dict):  # PyGame::MakeObserver without a type passes the parameters alone
            iig_obs_type, params = None, iig_obs_type
        if params:
            raise ValueError(f"{SHORT_NAME} observers take no parameters, got {params}")
        if iig_obs_type is None:
            return SeatObserver(info_state=False)
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not iig_obs_type.public_info:
            raise ValueError(f"{SHORT_NAME} observes one seat (public plus that player's private info); "
                             f"{iig_obs_type.private_info}, public_info={iig_obs_type.public_info} is not provided")
        return SeatObserver(info_state=iig_obs_type.perfect_recall)


class FcmState(pyspiel.State):
    """A pyspiel state wrapping an engine ``Game`` (its one attribute, copy-on-write)."""

    def __init__(self, game: FcmGame, ref: _GameRef):
        super().__init__(game)
        self._ref = ref

    @property
    def engine_game(self) -> Any:
        """The engine game at this state's position (a ``Game``, or a ``NativeGame`` on the native engine).
        Read it, do not move it (it may be shared with clones): ``clone()`` it to play on."""
        return self._ref.game

    # ------------------------------------------------------------------ the pyspiel API

    def current_player(self) -> int:
        pending = self._ref.game.pending
        return int(pyspiel.PlayerId.TERMINAL) if pending is None else pending.player

    def _legal_actions(self, player: int) -> list[int]:
        """The flat ids of the pending decision's legal actions, sorted (cached per position)."""
        return self._ref.game.legal_ids().tolist()

    def _apply_action(self, action: int) -> None:
        game = self._ref.game
        if not game.is_legal_id(int(action)):
            pending = game.pending
            asked = "nothing (the game is over)" if pending is None else \
                f"{pending.decision.name} of player {pending.player}"
            name = CODEC.action_to_string(action) if 0 <= int(action) < NUM_ACTIONS else "out of range"
            raise ValueError(f"action {action} ({name}) is not legal; the position asks {asked}")
        self._ref.writable().apply_legal(int(action))  # checked before the copy-on-write clone

    def _action_to_string(self, player: int, action: int) -> str:
        game = self._ref.game
        return CODEC.action_to_string(action, game if game.pending is not None else None)

    def is_terminal(self) -> bool:
        return self._ref.game.is_over

    def returns(self) -> list[float]:
        """1 for the winner, 0 for the others (the rules pick exactly one winner); zeros while it runs."""
        game = self._ref.game
        winners = set(game.winners)
        return [1.0 if p in winners else 0.0 for p in range(game.num_players)]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> FcmState:
        """A state ``player_id`` cannot tell from this one: ``Game.determinize``, its generator seeded
        by one draw of ``probability_sampler`` (the same draw gives the same world). Its OpenSpiel
        ``history()`` starts empty: the hidden moves that led to the world are not known."""
        draw = float(probability_sampler())
        rng = np.random.default_rng(int.from_bytes(struct.pack("<d", draw), "little"))
        game = self.get_game()
        world = self._ref.game.determinize(player_id, rng, game.hidden_model)
        return FcmState(game, _GameRef(world, owned=True))

    def __str__(self) -> str:
        """The whole position, hidden facts included (a debugging view, not an observation)."""
        return f"{_header(self._ref.game)}\n{state_ascii(self._ref.game.snapshot().state)}"


def _header(game: Game) -> str:
    state = game.state
    pending = game.pending
    to_move = "game over" if pending is None else f"player {pending.player} to move: {pending.decision.name}"
    return f"round {state.round} phase {state.phase.name}; {to_move}"


def seat_key(game: Game, player: int) -> str:
    """A digest of everything ``player``'s seat knows of the position (``Game.seat_view`` as JSON):
    equal for every world ``Game.determinize(player, ...)`` draws, different when the seat can tell
    two positions apart (so its own legal actions are equal under equal keys). Cached per position."""
    cache_key = _KEY_CACHE.format(player)
    key = game.position_cache.get(cache_key)
    if key is None:
        text = json.dumps(game.seat_view(player).to_dict(), sort_keys=True, separators=(",", ":"))
        key = hashlib.blake2b(text.encode(), digest_size=16).hexdigest()
        game.position_cache[cache_key] = key
    return key


class SeatObserver:
    """OpenSpiel's PyObserver for one seat: the tensor is ``Observer.observe_flat`` (board planes,
    then the vector: only what the seat may see); the string is the seat's knowledge digest
    (information state) or the seat's picture of the table followed by that digest (observation)."""

    def __init__(self, info_state: bool):
        self._info_state = info_state
        self.tensor = np.zeros(FLAT_SIZE, dtype=np.float32)
        self.dict = {"board": self.tensor[:_BOARD_SIZE].reshape(BOARD_SHAPE), "vector": self.tensor[_BOARD_SIZE:]}

    def set_from(self, state: FcmState, player: int) -> None:
        state.engine_game.observe_flat(player, self.tensor)  # either engine writes the same floats

    def string_from(self, state: FcmState, player: int) -> str:
        game = state.engine_game
        key = seat_key(game, player)
        if self._info_state:
            return f"p{player} {_header(game)} #{key}"
        seat = game.seat_view(player)
        return f"player {player} sees: {_header(game)}\n{state_ascii(seat.state)}\nknowledge #{key}"


def load_game(**params: Any) -> FcmGame:
    """``pyspiel.load_game(SHORT_NAME, params)``: e.g. ``load_game(players=3, max_rounds=5)``."""
    return pyspiel.load_game(SHORT_NAME, check_params(params))


def measure(players: int = 2, max_rounds: int = 30, games: int = 20, seed: int = 0) -> dict[str, float]:
    """The figures of docs/openspiel.md: random play through pyspiel (decisions per second, the
    uniform choice included) and the cost of a clone, of a clone plus one move, of ``Game.clone``,
    and of what OpenSpiel's default clone would cost a plain wrapper (a new game set up, then a deep
    copy of the engine game), each at a position 100 moves in."""
    import copy
    import random
    import time

    game = load_game(players=players, max_rounds=max_rounds, seed=seed)
    rng = random.Random(seed)
    steps = 0
    start = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    elapsed = time.perf_counter() - start
    state = game.new_initial_state()
    for _ in range(100):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))

    def per_call(fn: Any, n: int) -> float:
        t = time.perf_counter()
        for _ in range(n):
            fn()
        return (time.perf_counter() - t) / n * 1e6

    def clone_and_move() -> None:
        state.clone().apply_action(state.legal_actions()[0])

    return {
        "steps_per_s": steps / elapsed,
        "moves_per_game": steps / games,
        "clone_us": per_call(state.clone, 5000),
        "clone_and_move_us": per_call(clone_and_move, 2000),
        "engine_clone_us": per_call(state.engine_game.clone, 2000),
        "engine_deepcopy_us": per_call(lambda: copy.deepcopy(state.engine_game), 200),
        # a plain wrapper: set up a new game per initial state, then deep-copy the attributes
        "naive_clone_us": per_call(lambda: (Game.new(players, seed=seed, max_rounds=max_rounds),
                                            copy.deepcopy(state.engine_game)), 100),
        "new_initial_state_us": per_call(game.new_initial_state, 5000),
    }


if SHORT_NAME not in pyspiel.registered_names():  # a module reload must not register twice
    pyspiel.register_game(GAME_TYPE, FcmGame)


if __name__ == "__main__":  # python -m fcm_env.openspiel [players ...]: the figures of docs/openspiel.md
    import sys

    for n in [int(a) for a in sys.argv[1:]] or [2, 4]:
        figures = measure(players=n)
        print(f"{n} players: " + ", ".join(f"{k} {v:,.1f}" for k, v in figures.items()))

"""What the AEC, single-agent and vector envs share: argument checks, spaces, the action
check with its error message, per-step infos and rendering.

Infos hold numbers only, under the same keys from ``reset`` to the end of the game, so that
every framework can batch or tensorize them (TorchRL builds a fixed tensor spec from the reset
infos; Gymnasium's vector envs stack them into arrays). The readable names come with
``info_strings=True`` or from ``PHASE_NAMES`` / ``DECISION_NAMES`` / the agent names.

Env-wide rules are handled here once (Pgx style): an action id is checked against
the exact legal-action mask *before* anything changes, so an illegal id raises
``IllegalActionError`` naming the agent, the id, its readable name and the pending
decision, and leaves the game and the env untouched.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from fcm_env.encoding import BOARD_SHAPE, CODEC, FLAT_SIZE, NUM_ACTIONS, VECTOR_SIZE
from fcm_env.engine.actions import Decision, IllegalActionError
from fcm_env.engine.game import VARIANTS, Game
from fcm_env.engine.state import Phase
from fcm_env.text.state import state_ascii

from .action_space import ActionSpace
from .rewards import check_reward_args

#: ``human`` prints the text picture (after every reset and step, and on ``render()``)
RENDER_MODES = ("human", "ansi", "rgb_array")
PLAYER_COUNTS = (2, 3, 4, 5)
#: pixels per map square of the ``rgb_array`` picture (fcm_env.picture.DEFAULT_SCALE)
RENDER_SCALE = 24
#: ``flat``: one ``float32[FLAT_SIZE]``; ``dict``: ``{"board": float32[47, 20, 25], "vector": float32[1380]}``
OBSERVATION_FORMATS = ("flat", "dict")
#: the observation key PettingZoo classic uses next to ``"action_mask"``
DEFAULT_OBSERVATION_KEY = "observation"
#: ``info["phase_id"]`` indexes this: the lower-case names of ``fcm_env.engine.state.Phase``
PHASE_NAMES: tuple[str, ...] = tuple(phase.name.lower() for phase in Phase)
#: ``info["decision_id"]`` indexes this (-1: no decision, the game is over)
DECISION_NAMES: tuple[str, ...] = tuple(decision.name.lower() for decision in Decision)


def check_env_args(num_players: int, variant: str, max_rounds: int, reward: str, shaping: str | None,
                   render_mode: str | None) -> None:
    """A clear ValueError for any argument the envs cannot run with."""
    if isinstance(num_players, bool) or num_players not in PLAYER_COUNTS:
        raise ValueError(f"num_players must be one of {PLAYER_COUNTS}, got {num_players!r}")
    if variant not in VARIANTS:
        raise ValueError(f"variant must be one of {VARIANTS}, got {variant!r}")
    if isinstance(max_rounds, bool) or not isinstance(max_rounds, (int, np.integer)) or max_rounds < 1:
        raise ValueError(f"max_rounds must be a positive int, got {max_rounds!r}")
    check_reward_args(reward, shaping)
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be None or one of {RENDER_MODES}, got {render_mode!r}")


def check_observation_format(observation_format: str) -> str:
    """A clear ValueError for an unknown observation format."""
    if observation_format not in OBSERVATION_FORMATS:
        raise ValueError(f"observation_format must be one of {OBSERVATION_FORMATS}, got {observation_format!r}")
    return observation_format


def check_observation_key(observation_key: str) -> str:
    """The key of the observation next to ``"action_mask"``: any other non-empty string."""
    if not isinstance(observation_key, str) or not observation_key or observation_key == "action_mask":
        raise ValueError(f"observation_key must be a non-empty string other than 'action_mask', "
                         f"got {observation_key!r}")
    return observation_key


def flat_observation_space() -> spaces.Box:
    """``Box(-inf, inf, (FLAT_SIZE,), float32)``: the encoder's flat observation.

    Unbounded because counts (demand, campaigns, cards) and money have no printed
    cap; scaled (money / 100, ...), the values stay about 0 to 10 in play (docs/observation.md).
    """
    return spaces.Box(low=-np.inf, high=np.inf, shape=(FLAT_SIZE,), dtype=np.float32)


def dict_observation_space() -> spaces.Dict:
    """``Dict(board=Box(47, 20, 25), vector=Box(1380))``: the flat observation cut at the board's end.

    For networks that read the map with convolutions: the planes come with their shape, so no
    model has to know where the board ends in the flat array (docs/observation.md).
    """
    return spaces.Dict({
        "board": spaces.Box(low=-np.inf, high=np.inf, shape=BOARD_SHAPE, dtype=np.float32),
        "vector": spaces.Box(low=-np.inf, high=np.inf, shape=(VECTOR_SIZE,), dtype=np.float32),
    })


def observation_space(observation_format: str) -> spaces.Box | spaces.Dict:
    """The space of one observation in ``observation_format`` (``flat`` or ``dict``)."""
    return flat_observation_space() if observation_format == "flat" else dict_observation_space()


_BOARD_SIZE = FLAT_SIZE - VECTOR_SIZE


def split_observation(flat: np.ndarray) -> dict[str, np.ndarray]:
    """``{"board": float32[..., 47, 20, 25], "vector": float32[..., 1380]}``: views into ``flat`` (no copy).

    ``flat`` is one flat observation or a batch of them (``[..., FLAT_SIZE]``, C order).
    """
    lead = flat.shape[:-1]
    return {"board": flat[..., :_BOARD_SIZE].reshape(*lead, *BOARD_SHAPE), "vector": flat[..., _BOARD_SIZE:]}


def mask_space() -> spaces.Box:
    return spaces.Box(low=0, high=1, shape=(NUM_ACTIONS,), dtype=np.int8)


def action_space() -> ActionSpace:
    """``Discrete(NUM_ACTIONS)`` with a faster masked ``sample`` (``fcm_env.env.action_space``)."""
    return ActionSpace(NUM_ACTIONS)


def check_seed(seed: object) -> int:
    """``seed`` as an int (TypeError for anything else)."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be an int or None, got {seed!r}")
    return int(seed)


def draw_game_seed(rng: np.random.Generator) -> int:
    """A ``Game.new`` seed drawn from an env's own generator (for ``reset()`` without a seed)."""
    return int(rng.integers(2**31))


def action_index(action: object) -> int:
    """The int value of an action id (Python or numpy integer, or a 0-d integer array)."""
    if isinstance(action, (bool, np.bool_)) or not hasattr(action, "__index__"):
        raise IllegalActionError(f"an action must be an integer id 0..{NUM_ACTIONS - 1}, got {action!r}")
    return int(action.__index__())  # type: ignore[attr-defined]


def checked_action(game: Game, agent: str, action: object) -> int:
    """``agent``'s flat id, checked legal (an ``IllegalActionError`` saying why not): what the game's
    ``apply_legal`` takes.

    Nothing is changed either way; the legal ids come from the cached mask layer (or the core).
    """
    if type(action) in PLAIN_IDS and game.is_legal_id(action):
        return int(action)  # the common step: one call checks the id, which apply_legal takes as it is
    pending = game.pending
    if pending is None:
        raise IllegalActionError(f"{agent}: the game is over, no action is expected (got {action!r})")
    index = action if type(action) in PLAIN_IDS else action_index(action)
    if not 0 <= index < NUM_ACTIONS:
        raise IllegalActionError(
            f"{agent}: action id {index} is out of range 0..{NUM_ACTIONS - 1} "
            f"(pending decision {pending.decision.name})"
        )
    if not game.is_legal_id(index):
        legal = game.legal_ids()
        shown = ", ".join(f"{i} {CODEC.action_to_string(int(i), game)}" for i in legal[:5])
        more = f", ... ({legal.size} in all)" if legal.size > 5 else ""
        raise IllegalActionError(
            f"{agent}: action id {index} ({CODEC.action_to_string(index, game)}) is not legal for the "
            f"pending decision {pending.decision.name} of player {pending.player}; legal ids: {shown}{more}"
        )
    return index


#: action types taken as ids as they are (the usual ones: a Python int, a sampled numpy int)
PLAIN_IDS = (int, np.int64)


def step_info(game: Game, player: int, agent_names: list[str], strings: bool = False) -> dict[str, Any]:
    """The deterministic info of ``player`` (numbers only, the same keys on every step; see ``_shared_info``).

    ``strings`` adds the readable ``phase``, ``decision`` and ``to_move`` (see ``add_info_strings``).
    """
    info = _shared_info(game)
    info["cash"] = int(game.state.players[player].cash)
    if game.current_player == player:
        info["legal_action_count"] = int(game.legal_ids().size)
    if strings:
        add_info_strings(info, agent_names)
    return info


def step_infos(game: Game, agents: list[str], agent_names: list[str],
               strings: bool = False) -> dict[str, dict[str, Any]]:
    """``step_info`` of every agent in ``agents``, the shared fields computed once."""
    phase, decision, rounds, mover, cash = game.info_facts()  # one call for the facts every info shows
    count = 0 if mover < 0 else int(game.legal_ids().size)
    return infos_of_facts((phase, decision, rounds, mover, cash, count), agents, agent_names, strings)


def infos_of_facts(facts: tuple[int, int, int, int, list[int], int], agents: list[str], agent_names: list[str],
                   strings: bool = False) -> dict[str, dict[str, Any]]:
    """``step_infos`` from the facts ``GameLike.play_id`` returns (``info_facts`` and the mover's legal count):
    the AEC env's hot path."""
    phase, decision, rounds, mover, cash, count = facts
    if not strings and len(agents) == len(agent_names):  # the common step: every agent still in
        shared = {"phase_id": phase, "decision_id": decision, "round": rounds, "to_move_id": mover,
                  "legal_action_count": 0, "cash": 0, "rank": -1, "winner": False, "truncated_by_max_rounds": False}
        infos = {}
        for a, money in zip(agent_names, cash, strict=True):  # a copy each (0.6 us less than a literal each)
            info = infos[a] = shared.copy()
            info["cash"] = money
        if mover >= 0:
            infos[agent_names[mover]]["legal_action_count"] = count
        return infos
    shared = _info(phase, decision, rounds, mover)
    if strings:
        add_info_strings(shared, agent_names)
    infos = {}
    for a, money in zip(agent_names, cash, strict=True):
        if a in agents:
            info = infos[a] = shared.copy()
            info["cash"] = int(money)
    if mover >= 0 and agent_names[mover] in infos:
        infos[agent_names[mover]]["legal_action_count"] = count
    return infos


def _shared_info(game: Game) -> dict[str, Any]:
    """The fields every agent's info shares; ``cash`` and the mover's legal count are set apart.

    ``-1`` stands for "none": no decision and no agent to move once the game is over, no rank
    before it. The end-of-game fields are there from the start so that the keys never change.
    """
    state = game.state
    pending = game.pending
    return _info(int(state.phase), -1 if pending is None else int(pending.decision), int(state.round),
                 -1 if pending is None else int(pending.player))


def _info(phase: int, decision: int, rounds: int, mover: int) -> dict[str, Any]:
    return {
        "phase_id": phase,
        "decision_id": decision,
        "round": rounds,
        "to_move_id": mover,
        "legal_action_count": 0,
        "cash": 0,
        "rank": -1,
        "winner": False,
        "truncated_by_max_rounds": False,
    }


def add_info_strings(info: dict[str, Any], agent_names: list[str]) -> dict[str, Any]:
    """Adds the readable ``phase``, ``decision`` and ``to_move`` (None when there is none) to a numeric info.

    Strings cannot be tensorized (TorchRL fails on them), so they are opt-in: ``info_strings=True``.
    """
    decision = info["decision_id"]
    mover = info["to_move_id"]
    info["phase"] = PHASE_NAMES[info["phase_id"]]
    info["decision"] = None if decision < 0 else DECISION_NAMES[decision]
    info["to_move"] = None if mover < 0 else agent_names[mover]
    return info


def final_info(info: dict[str, Any], game: Game, player: int, order: list[int],
               agent_names: list[str], strings: bool = False) -> None:
    """Fills in the end-of-game facts of ``info`` (``order``: player ids from first to last).

    ``strings`` adds ``winners``, the winners' agent names.
    """
    info["rank"] = order.index(player)
    info["winner"] = player in game.winners
    info["cash"] = int(game.state.players[player].cash)
    info["truncated_by_max_rounds"] = bool(game.state.truncated)
    if strings:
        info["winners"] = [agent_names[p] for p in game.winners]


def render_game(game: Game | None, render_mode: str | None) -> str | np.ndarray | None:
    """``ansi``: the text picture (``state_ascii``); ``human``: prints it and returns None;
    ``rgb_array``: ``uint8[h, w, 3]`` drawn by ``fcm_env.picture`` (map, player panel, legend)."""
    if render_mode is None:
        import gymnasium

        gymnasium.logger.warn("You are calling render() without specifying any render mode.")
        return None
    if game is None:
        raise RuntimeError("call reset() before render()")
    state = game.snapshot().state  # the renderers read the full Python state
    if render_mode == "human":
        print(state_ascii(state), flush=True)
        return None
    if render_mode == "ansi":
        return state_ascii(state)
    from fcm_env.picture import board_array  # Pillow is loaded only when a picture is asked for

    return board_array(state, RENDER_SCALE)

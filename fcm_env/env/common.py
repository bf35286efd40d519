"""What the AEC, single-agent and vector envs share: argument checks, spaces, the action
check with its error message, per-step infos and rendering.

Env-wide rules are handled here once (Pgx style): an action id is checked against
the exact legal-action mask *before* anything changes, so an illegal id raises
``IllegalActionError`` naming the agent, the id, its readable name and the pending
decision, and leaves the game and the env untouched.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from fcm_env.encoding import CODEC, FLAT_SIZE, NUM_ACTIONS, legal_action_ids
from fcm_env.encoding.mask import legal_actions_by_id
from fcm_env.engine.actions import Action, Decision, IllegalActionError
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


def flat_observation_space() -> spaces.Box:
    """``Box(-inf, inf, (FLAT_SIZE,), float32)``: the encoder's flat observation.

    Unbounded because counts (demand, campaigns, cards) and money have no printed
    cap; scaled (money / 100, ...), the values stay about 0 to 10 in play (docs/observation.md).
    """
    return spaces.Box(low=-np.inf, high=np.inf, shape=(FLAT_SIZE,), dtype=np.float32)


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


def checked_action(game: Game, agent: str, action: object) -> Action:
    """The engine action of ``agent``'s flat id, or IllegalActionError saying why not.

    Nothing is changed either way; the legal ids come from the cached mask layer.
    """
    pending = game.pending
    if pending is None:
        raise IllegalActionError(f"{agent}: the game is over, no action is expected (got {action!r})")
    index = action if type(action) in _PLAIN_IDS else action_index(action)
    if not 0 <= index < NUM_ACTIONS:
        raise IllegalActionError(
            f"{agent}: action id {index} is out of range 0..{NUM_ACTIONS - 1} "
            f"(pending decision {pending.decision.name})"
        )
    engine_action = legal_actions_by_id(game).get(index)
    if engine_action is None:
        legal = legal_action_ids(game)
        shown = ", ".join(f"{i} {CODEC.action_to_string(int(i), game)}" for i in legal[:5])
        more = f", ... ({legal.size} in all)" if legal.size > 5 else ""
        raise IllegalActionError(
            f"{agent}: action id {index} ({CODEC.action_to_string(index, game)}) is not legal for the "
            f"pending decision {pending.decision.name} of player {pending.player}; legal ids: {shown}{more}"
        )
    return engine_action


#: action types taken as ids as they are (the usual ones: a Python int, a sampled numpy int)
_PLAIN_IDS = (int, np.int64)


def step_info(game: Game, player: int, agent_names: list[str]) -> dict[str, Any]:
    """The deterministic info of ``player``: phase, decision, round, who moves, legal count.

    Once the game is over it also holds the winners, the final rank (0 = first) and cash.
    """
    info = _shared_info(game, agent_names)
    if game.current_player == player:
        info["legal_action_count"] = int(legal_action_ids(game).size)
    return info


def step_infos(game: Game, agents: list[str], agent_names: list[str]) -> dict[str, dict[str, Any]]:
    """``step_info`` of every agent in ``agents``, the shared fields computed once (the AEC env's hot path)."""
    shared = _shared_info(game, agent_names)
    infos = {a: dict(shared) for a in agents}
    mover = game.current_player
    if mover is not None and agent_names[mover] in infos:
        infos[agent_names[mover]]["legal_action_count"] = int(legal_action_ids(game).size)
    return infos


_PHASE_NAMES = {phase: phase.name.lower() for phase in Phase}
_DECISION_NAMES = {decision: decision.name.lower() for decision in Decision}


def _shared_info(game: Game, agent_names: list[str]) -> dict[str, Any]:
    """The fields every agent's info shares, with a legal count of 0 (the mover's is set apart)."""
    state = game.state
    pending = game.pending
    return {
        "phase": _PHASE_NAMES[state.phase],
        "decision": None if pending is None else _DECISION_NAMES[pending.decision],
        "round": int(state.round),
        "to_move": None if pending is None else agent_names[pending.player],
        "legal_action_count": 0,
    }


def final_info(info: dict[str, Any], game: Game, player: int, order: list[int],
               agent_names: list[str]) -> None:
    """Adds the end-of-game facts to ``info`` (``order``: player ids from first to last)."""
    info["winners"] = [agent_names[p] for p in game.winners]
    info["rank"] = order.index(player)
    info["cash"] = int(game.state.players[player].cash)
    info["truncated_by_max_rounds"] = bool(game.state.truncated)


def render_game(game: Game | None, render_mode: str | None) -> str | np.ndarray | None:
    """``ansi``: the text picture (``state_ascii``); ``human``: prints it and returns None;
    ``rgb_array``: ``uint8[h, w, 3]`` drawn by ``fcm_env.picture`` (map, player panel, legend)."""
    if render_mode is None:
        import gymnasium

        gymnasium.logger.warn("You are calling render() without specifying any render mode.")
        return None
    if game is None:
        raise RuntimeError("call reset() before render()")
    if render_mode == "human":
        print(state_ascii(game.state), flush=True)
        return None
    if render_mode == "ansi":
        return state_ascii(game.state)
    from fcm_env.picture import board_array  # Pillow is loaded only when a picture is asked for

    return board_array(game.state, RENDER_SCALE)

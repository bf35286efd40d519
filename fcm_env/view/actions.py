"""Actions as JSON: numbered legal actions with named parameters, parsed and checked moves.

Why: a front end (a web page, a terminal client, another language, a language model's prompt) names
moves without reading engine internals. An action travels as its flat id (``fcm_env.encoding.CODEC``),
``{"kind", "params"}``, ``{"kind", "args"}`` or ``["KIND", [args]]``; employee types and goods go by
name. Everything is plain dicts / lists / str / int (``json.dumps`` works on every result), and a
move is checked before the state is touched. docs/protocol.md documents the forms.

* ``legal_actions(game, player)``: ``[{id, kind, label, params}]`` (empty when not to move);
* ``apply(game, player, action)``: checked, then played; ``ProtocolError`` / ``IllegalActionError``
  leave the game as it was;
* ``action_params`` / ``describe_action``: one action's named parameters / full description.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from fcm_env.data import EmployeeType, Good
from fcm_env.encoding import CODEC
from fcm_env.engine.actions import Action, ActionKind, IllegalActionError
from fcm_env.engine.game import Game
from fcm_env.engine.phases.working.recruit_train import POOLED  # TRAIN's trainer field for pooled training


class ProtocolError(ValueError):
    """A request the protocol cannot accept (bad player, wrong turn, malformed action); nothing changed."""


# ------------------------------------------------------------------ action parameters

INT, EMPLOYEE, TRAINER, GOOD = "int", "employee", "trainer", "good"
_RCO = (("row", INT), ("col", INT), ("orientation", INT))

#: named arguments of each action kind, in ``Action.args`` order, with their value type
PARAMS: dict[ActionKind, tuple[tuple[str, str], ...]] = {
    ActionKind.PASS: (),
    ActionKind.PLACE_RESTAURANT: _RCO,
    ActionKind.CHOOSE_RESERVE: (("index", INT),),
    ActionKind.PUT_TO_WORK: (("employee", EMPLOYEE),),
    ActionKind.TURN_SPOT: (("spot", INT),),
    ActionKind.RECRUIT: (("employee", EMPLOYEE),),
    ActionKind.TRAIN: (("trainer", TRAINER), ("source", EMPLOYEE), ("target", EMPLOYEE)),
    ActionKind.SELECT_MARKETEER: (("employee", EMPLOYEE),),
    ActionKind.CHOOSE_TILE: (("tile", INT),),
    ActionKind.PLACE_CAMPAIGN: _RCO,
    ActionKind.CHOOSE_PRODUCT: (("good", GOOD),),
    ActionKind.CHOOSE_DURATION: (("turns", INT),),
    ActionKind.PRODUCE: (("employee", EMPLOYEE), ("good", GOOD)),
    ActionKind.HAUL: (("employee", EMPLOYEE), ("beer", INT), ("lemonade", INT), ("soda", INT)),
    ActionKind.CHOOSE_HOUSE: (("house", INT),),
    ActionKind.PLACE_HOUSE: _RCO,
    ActionKind.PLACE_GARDEN: _RCO,
    ActionKind.SELECT_RESTAURANT: (("manager", EMPLOYEE), ("restaurant", INT)),
    ActionKind.FIRE: (("employee", EMPLOYEE),),
    ActionKind.KEEP: (("good", GOOD),),
}

_EMPLOYEE_KEYS = {t.key: int(t) for t in EmployeeType}
_GOOD_KEYS = {g.name.lower(): int(g) for g in Good}


def _param_out(value: int, kind: str) -> int | str:
    if kind == TRAINER and value == POOLED:
        return "pooled"
    if kind in (EMPLOYEE, TRAINER):
        return EmployeeType(value).key
    if kind == GOOD:
        return Good(value).name.lower()
    return int(value)


def _param_in(value: Any, kind: str, where: str) -> int:
    if isinstance(value, bool):
        raise ProtocolError(f"{where}: expected {'an integer' if kind == INT else f'a {kind} name'}, got {value!r}")
    if isinstance(value, (int, np.integer)):
        return int(value)
    if kind == INT or not isinstance(value, str):
        raise ProtocolError(f"{where}: expected {'an integer' if kind == INT else f'a {kind} name'}, got {value!r}")
    key = value.strip().lower().replace(" ", "_").replace("-", "_")
    if kind == TRAINER and key == "pooled":
        return POOLED
    table = _GOOD_KEYS if kind == GOOD else _EMPLOYEE_KEYS
    if key not in table:
        examples = "burger, pizza, beer, lemonade, soda" if kind == GOOD else "e.g. waitress, kitchen_trainee"
        raise ProtocolError(f"{where}: unknown {'good' if kind == GOOD else 'employee'} {value!r} ({examples})")
    return table[key]


def action_params(action: Action) -> dict[str, int | str]:
    """The named arguments of ``action`` (employee types and goods by name, ``"pooled"`` trainer)."""
    spec = PARAMS[action.kind]
    return {name: _param_out(v, kind) for (name, kind), v in zip(spec, action.args, strict=True)}


def describe_action(action: Action) -> dict[str, Any]:
    """``{id, kind, label, params}`` of one action (``id`` from the flat action codec)."""
    return {
        "id": CODEC.encode(action),
        "kind": action.kind.name,
        "label": str(action),
        "params": action_params(action),
    }


def _kind_of(value: Any) -> ActionKind:
    if isinstance(value, str) and value.strip().upper() in ActionKind.__members__:
        return ActionKind[value.strip().upper()]
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool) and int(value) in set(ActionKind):
        return ActionKind(int(value))
    raise ProtocolError(f"unknown action kind {value!r}; kinds are {', '.join(k.name for k in ActionKind)}")


def parse_action(game: Game, action: Any) -> Action:
    """The engine ``Action`` a request names (legality is checked by ``apply``)."""
    if isinstance(action, (int, np.integer)) and not isinstance(action, bool):
        return _decode_id(game, int(action))
    if isinstance(action, list) and len(action) == 2 and isinstance(action[1], list):
        return _from_args(_kind_of(action[0]), action[1])
    if not isinstance(action, Mapping):
        raise ProtocolError(
            f"an action is an id, {{\"kind\", \"params\"}}, {{\"kind\", \"args\"}} or [KIND, [args]]; got {action!r}"
        )
    if "id" in action:
        extra = set(action) - {"id", "kind", "label", "params"}  # a described action may be sent back as is
        if extra:
            raise ProtocolError(f"action: unexpected keys {sorted(extra)} next to 'id'")
        value = action["id"]
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise ProtocolError(f"action.id: expected an integer, got {value!r}")
        decoded = _decode_id(game, int(value))
        if "kind" in action:  # a described action sent back: its parts must agree
            named = parse_action(game, {k: v for k, v in action.items() if k != "id"})
            if named != decoded:
                raise ProtocolError(f"action: id {value} is {decoded}, but kind and params say {named}")
        return decoded
    if "kind" not in action:
        raise ProtocolError("action: a structured action needs a 'kind' (or an 'id')")
    kind = _kind_of(action["kind"])
    extra = set(action) - {"kind", "params", "args", "label"}
    if extra:
        raise ProtocolError(f"action: unexpected keys {sorted(extra)}")
    if "args" in action and "params" in action:
        raise ProtocolError("action: give 'params' or 'args', not both")
    if "args" in action:
        args = action["args"]
        if not isinstance(args, list):
            raise ProtocolError(f"action.args: expected a list, got {args!r}")
        return _from_args(kind, args)
    params = action.get("params", {})
    if not isinstance(params, Mapping):
        raise ProtocolError(f"action.params: expected an object, got {params!r}")
    spec = PARAMS[kind]
    names = [name for name, _ in spec]
    missing = [n for n in names if n not in params]
    unknown = sorted(set(params) - set(names))
    if missing or unknown:
        wanted = ", ".join(names) or "no params"
        problem = "; ".join(
            ([f"missing {', '.join(missing)}"] if missing else []) + ([f"unknown {', '.join(unknown)}"] if unknown else [])
        )
        raise ProtocolError(f"{kind.name} takes params {wanted}: {problem}")
    return Action(kind, tuple(_param_in(params[n], k, f"params.{n}") for n, k in spec))


def _from_args(kind: ActionKind, args: list[Any]) -> Action:
    spec = PARAMS[kind]
    if len(args) != len(spec):
        raise ProtocolError(f"{kind.name} takes {len(spec)} args ({', '.join(n for n, _ in spec)}), got {len(args)}")
    return Action(kind, tuple(_param_in(v, k, f"args[{i}]") for i, (v, (_, k)) in enumerate(zip(args, spec))))


def _decode_id(game: Game, index: int) -> Action:
    return CODEC.decode(index, game)  # IllegalActionError names the id and what was wrong


# ------------------------------------------------------------------ moves


def check_player(game: Game, player: Any) -> int:
    """``player`` as an int id of this game, or a ``ProtocolError`` naming what was wrong."""
    if isinstance(player, bool) or not isinstance(player, (int, np.integer)):
        raise ProtocolError(f"player must be an integer player id, got {player!r}")
    if not 0 <= int(player) < game.num_players:
        raise ProtocolError(f"player must be 0..{game.num_players - 1}, got {player}")
    return int(player)


def legal_actions(game: Game, player: int) -> list[dict[str, Any]]:
    """The moves ``player`` may make now, in the engine's order; empty when another player decides."""
    player = check_player(game, player)
    if game.current_player != player:
        return []
    return [describe_action(a) for a in game.legal_actions()]


def apply(game: Game, player: int, action: Any) -> Action:
    """Play ``action`` for ``player`` and return the engine action.

    Raises ``ProtocolError`` (wrong player, game over, malformed action) or
    ``IllegalActionError`` (well formed but not allowed now); either way the
    state is unchanged (``Game.apply`` checks legality before touching it).
    """
    player = check_player(game, player)
    pending = game.pending
    if pending is None:
        raise ProtocolError("the game is over: no decision is pending")
    if pending.player != player:
        raise ProtocolError(f"not your turn: player {pending.player} is to decide {pending.decision.name}")
    parsed = parse_action(game, action)
    if parsed not in set(game.legal_actions()):
        hint = f"id {CODEC.encode(parsed)}, " if _has_id(parsed) else ""
        raise IllegalActionError(
            f"illegal action: {parsed} ({hint}{parsed.kind.name} {list(parsed.args)}) is not one of the "
            f"{len(game.legal_actions())} legal actions of {pending.decision.name}; ask 'legal' for them"
        )
    game.apply(parsed, atomic=True)  # a move that fails midway (a bug) changes nothing
    return parsed


def _has_id(action: Action) -> bool:
    try:
        CODEC.encode(action)
    except ValueError:
        return False
    return True

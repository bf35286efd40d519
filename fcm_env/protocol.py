"""The front-end protocol: JSON-safe views, numbered legal actions, validated moves, a JSON-lines server.

Why: a front end (a web page, a terminal client, another language) needs one
stable, documented way to see a game as one player may see it and to answer
decisions, without reading engine internals. Everything here is plain
dicts / lists / str / int / bool / None (``json.dumps`` works on every result).
Hidden information is removed with the same rules as the observation encoder
(``fcm_env.encoding.visibility``). ``docs/protocol.md`` documents the format.

* ``view(game, player)``: what ``player`` may see, map to pending decision;
* ``legal_actions(game, player)``: ``[{id, kind, label, params}]`` (empty when not to move);
* ``apply(game, player, action)``: an id, ``{"id": ..}``, ``{"kind", "params"}``,
  ``{"kind", "args"}`` or ``["KIND", [args]]``; checked before the state is touched;
* ``Session``: the request handler behind ``fcm serve --stdio`` (``serve``): several games,
  each request checked against its command's fields (``fcm_env.protocol_requests``), and a
  reply of strict JSON to every line, whatever the line holds.

No torch / SB3 / gym imports; server bots come from an ``agent_factory`` the caller passes in.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import IO, Any, ClassVar

import numpy as np

from fcm_env.data import CampaignType, EmployeeType, Good, Milestone
from fcm_env.encoding import CODEC, Observer, legal_action_mask, visibility
from fcm_env.engine import events as engine_events
from fcm_env.engine.actions import Action, ActionKind, Decision, IllegalActionError
from fcm_env.engine.game import Game
from fcm_env.engine.placement import restaurant_entrance, restaurant_squares
from fcm_env.engine.records import GameRecord, RecordFormatError, new_recorded_game, replay, result_of
from fcm_env.engine.serialize import StateFormatError, state_to_dict
from fcm_env.engine.state import GameState, Phase
from fcm_env.engine.tiles import BRIDGE, DRINK, HOUSE, ROAD
from fcm_env.engine.working import POOLED  # TRAIN's trainer field for pooled training
from fcm_env.protocol_requests import (
    SEED_LIMIT,
    ActRequest,
    GameRequest,
    LoadRequest,
    LogRequest,
    NewRequest,
    PlayerRequest,
    Request,
    RequestError,
    json_type,
    parse_request,
    short,
)

VIEW_FORMAT = "fcm-magnate/view"
VIEW_VERSION = 1
MAX_BOT_DECISIONS = 200_000


class ProtocolError(ValueError):
    """A request the protocol cannot accept (bad player, wrong turn, malformed action); nothing changed."""


# ------------------------------------------------------------------ decisions in words

DECISION_TEXT: dict[Decision, str] = {
    Decision.INITIAL_RESTAURANT: "place your first restaurant (in the first setup round you may pass)",
    Decision.RESERVE_CARD: "keep one of the bank reserve cards (secret)",
    Decision.RESTRUCTURE: "put one more card from your hand to work, or pass when done (secret)",
    Decision.TURN_ORDER: "take a free spot on the turn order track",
    Decision.RECRUIT: "hire one entry-level card, or pass when done",
    Decision.TRAIN: "train one card on the beach, or pass when done",
    Decision.MARKETEER: "pick a marketeer at work to launch a campaign, or pass when done",
    Decision.CAMPAIGN_TILE: "choose the campaign tile the marketeer places",
    Decision.CAMPAIGN_PLACE: "choose where the campaign tile goes",
    Decision.CAMPAIGN_PRODUCT: "choose the good the campaign advertises",
    Decision.CAMPAIGN_DURATION: "choose how many turns the campaign runs",
    Decision.PRODUCE: "use a kitchen card or a buyer to get food or drinks, or pass when done",
    Decision.NEW_BUSINESS: "new business developer: take a house token or place a garden, or pass when done",
    Decision.HOUSE_PLACE: "choose where the new house (with its garden) goes",
    Decision.RESTAURANT_MANAGER: "local / regional manager: open or move a restaurant, or pass when done",
    Decision.RESTAURANT_PLACE: "choose where the restaurant goes",
    Decision.FIRE: "fire one card, or pass when done (secret until everyone chose)",
    Decision.FREEZER: "keep one more food or drink in the freezer, or pass when done",
}

#: names of the pending record's context ints, per decision (shorter contexts fill a prefix)
CONTEXT_FIELDS: dict[Decision, tuple[str, ...]] = {
    Decision.INITIAL_RESTAURANT: ("setup_round",),
    Decision.CAMPAIGN_TILE: ("marketeer",),
    Decision.CAMPAIGN_PLACE: ("marketeer", "tile"),
    Decision.CAMPAIGN_PRODUCT: ("marketeer", "tile", "row", "col", "orientation"),
    Decision.CAMPAIGN_DURATION: ("marketeer", "tile", "row", "col", "orientation", "product"),
    Decision.HOUSE_PLACE: ("house",),
    Decision.RESTAURANT_PLACE: ("manager", "restaurant"),
    Decision.FREEZER: tuple(f"kept_{g.name.lower()}" for g in Good),
}

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


def _check_player(game: Game, player: Any) -> int:
    if isinstance(player, bool) or not isinstance(player, (int, np.integer)):
        raise ProtocolError(f"player must be an integer player id, got {player!r}")
    if not 0 <= int(player) < game.num_players:
        raise ProtocolError(f"player must be 0..{game.num_players - 1}, got {player}")
    return int(player)


def legal_actions(game: Game, player: int) -> list[dict[str, Any]]:
    """The moves ``player`` may make now, in the engine's order; empty when another player decides."""
    player = _check_player(game, player)
    if game.current_player != player:
        return []
    return [describe_action(a) for a in game.legal_actions()]


def apply(game: Game, player: int, action: Any) -> Action:
    """Play ``action`` for ``player`` and return the engine action.

    Raises ``ProtocolError`` (wrong player, game over, malformed action) or
    ``IllegalActionError`` (well formed but not allowed now); either way the
    state is unchanged (``Game.apply`` checks legality before touching it).
    """
    player = _check_player(game, player)
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
    game.apply(parsed)
    return parsed


def _has_id(action: Action) -> bool:
    try:
        CODEC.encode(action)
    except ValueError:
        return False
    return True


# ------------------------------------------------------------------ views


def _cards(vector: np.ndarray) -> dict[str, int]:
    """A card pool as ``{employee key: count}``, types with none left out."""
    return {EmployeeType(t).key: int(n) for t, n in enumerate(vector) if n}


def _goods(vector: np.ndarray) -> dict[str, int]:
    return {Good(g).name.lower(): int(n) for g, n in enumerate(vector) if n}


def _squares(squares: Iterable[tuple[int, int]]) -> list[list[int]]:
    return [[int(r), int(c)] for r, c in squares]


def map_view(state: GameState) -> dict[str, Any]:
    """The printed map: tile layout and one character per square (``.`` empty, ``#`` road,
    ``X`` bridge, ``H`` printed house, ``b`` / ``l`` / ``s`` drink source)."""
    board = state.board
    chars = {ROAD: "#", BRIDGE: "X", HOUSE: "H"}
    drinks = {int(Good.BEER): "b", int(Good.LEMONADE): "l", int(Good.SODA): "s"}
    grid = []
    for r in range(board.height):
        row = []
        for c in range(board.width):
            kind = int(board.kind[r, c])
            row.append(drinks[int(board.drink[r, c])] if kind == DRINK else chars.get(kind, "."))
        grid.append("".join(row))
    return {"tiles": board.layout_strings(), "height": board.height, "width": board.width, "squares": grid}


def _pending_view(state: GameState, observer: int) -> dict[str, Any] | None:
    if not state.pending:
        return None
    pending = state.pending[-1]
    out: dict[str, Any] = {
        "player": pending.player,
        "decision": pending.decision.name,
        "text": DECISION_TEXT[pending.decision],
        "you": pending.player == observer,
    }
    if visibility.context_visible(state, observer):
        ctx = [int(v) for v in pending.context]
        out["context"] = ctx
        names = CONTEXT_FIELDS.get(pending.decision, ())
        out["fields"] = dict(zip(names, ctx))
    else:
        out["context"] = None  # another player's secret choice
    return out


def _player_view(state: GameState, observer: int, player: int) -> dict[str, Any]:
    p = state.players[player]
    cards = visibility.visible_cards(state, observer, player)
    known = visibility.reserve_visible(state, observer, player)
    return {
        "player": player,
        "seat": state.turn_order.index(player) if player in state.turn_order else None,
        "cash": int(p.cash),
        "hand": _cards(cards.hand),
        "work": _cards(cards.work),
        "beach": _cards(cards.beach),
        "busy": _cards(cards.busy),
        "fired": _cards(cards.fired),
        "structure_hidden": bool(cards.structure_hidden),
        "firing_hidden": bool(cards.firing_hidden),
        "stock": _goods(p.stock),
        "milestones": sorted(Milestone(m).key for m in p.milestones),
        "reserve_offer": [int(v) for v in p.reserve_offer],  # the values CHOOSE_RESERVE's index picks from
        "reserve": int(p.reserve) if known else None,
        "reserve_known": bool(known),
        "income": int(p.income),
        "recruit_discounts": int(p.recruit_discounts),
        "bankrupt": bool(p.bankrupt),
        "restaurants": len(p.restaurants),
    }


def _turn_view(state: GameState) -> dict[str, Any] | None:
    """The Working 9-5 bookkeeping of the player whose turn it is (public)."""
    if state.phase != Phase.WORKING:
        return None
    t = state.turn
    return {
        "hires": int(t.hires),
        "recruits_left": int(t.recruits_left),
        "trainers": [[EmployeeType(k).key, int(n)] for k, n in t.trainers],
        "locked": _cards(t.locked),
        "phantoms": _cards(t.phantoms),
        "returned": _cards(t.returned),
        "used": _cards(t.used),
    }


def view(game: Game, player: int) -> dict[str, Any]:
    """Everything ``player`` may see, as a JSON-safe dict (docs/protocol.md lists the keys)."""
    player = _check_player(game, player)
    state = game.state
    restaurants = []
    for p in state.players:
        for index, r in enumerate(p.restaurants):
            restaurants.append({
                "owner": p.player, "index": index, "row": r.row, "col": r.col, "orientation": r.orientation,
                "squares": _squares(restaurant_squares(r.row, r.col, r.orientation)),
                "entrance": list(restaurant_entrance(r.row, r.col, r.orientation)),
                "coming_soon": bool(r.coming_soon),
            })
    houses = [
        {
            "number": number, "squares": _squares(h.squares), "garden": _squares(h.garden),
            "placed": bool(h.placed), "demand": [Good(g).name.lower() for g in h.demand],
            "demand_limit": 5 if h.has_garden else 3,
        }
        for number, h in sorted(state.houses.items())
    ]
    campaigns = [
        {
            "number": c.number, "type": CampaignType(c.kind).key, "owner": c.owner,
            "marketeer": EmployeeType(c.marketeer).key, "product": Good(c.product).name.lower(),
            "remaining": int(c.remaining), "eternal": bool(c.eternal),
            "row": c.row, "col": c.col, "orientation": c.orientation, "squares": _squares(c.squares),
        }
        for c in state.campaigns
    ]
    milestones_available = (
        sorted(m.key for m in Milestone if m not in state.milestones_gone) if state.uses_milestones else []
    )
    return {
        "format": VIEW_FORMAT,
        "version": VIEW_VERSION,
        "you": player,
        "num_players": state.num_players,
        "variant": state.variant,
        "seed": state.seed,
        "round": state.round,
        "max_rounds": state.max_rounds,
        "phase": state.phase.name,
        "over": game.is_over,
        "winners": [int(w) for w in game.winners],
        "truncated": bool(state.truncated),
        "turn_order": [int(p) for p in state.turn_order],
        "spots": [int(s) for s in state.spots],
        "bank": int(state.bank),
        "bank_breaks": int(state.bank_breaks),
        "bank_debt": int(state.bank_debt),
        "reserve_revealed": bool(state.reserve_revealed),
        "ceo_slots": int(state.ceo_slots),
        "supply": _cards(state.supply),
        "marketing_supply": [int(n) for n in state.marketing_supply],
        "house_supply": [int(n) for n in state.house_supply],
        "gardens_left": int(state.gardens_left),
        "milestones_available": milestones_available,
        "milestones_this_turn": sorted(Milestone(m).key for m in state.milestones_this_turn),
        "map": map_view(state),
        "houses": houses,
        "restaurants": restaurants,
        "campaigns": campaigns,
        "players": [_player_view(state, player, p) for p in range(state.num_players)],
        "turn": _turn_view(state),
        "pending": _pending_view(state, player),
    }


def status(game: Game) -> dict[str, Any]:
    """Who decides what now, or how the game ended (public to everyone)."""
    pending = game.pending
    return {
        "round": game.state.round,
        "phase": game.phase.name,
        "to_move": None if pending is None else pending.player,
        "decision": None if pending is None else pending.decision.name,
        "over": game.is_over,
        "winners": [int(w) for w in game.winners],
        "cash": [int(p.cash) for p in game.state.players] if game.is_over else None,
    }


# ------------------------------------------------------------------ the server session

AgentFactory = Callable[[str, int], Any]


def bot_move(agent: Any, game: Game, player: int, observer: Observer | None = None) -> Action:
    """Ask an agent for its move: ``act_on_game`` if it reads the engine, else observation + mask."""
    if hasattr(agent, "act_on_game"):
        return agent.act_on_game(game, player)
    observer = observer or Observer()
    return CODEC.decode(int(agent.act(observer.observe_flat(game, player), legal_action_mask(game, player))), game)


def bot_event(player: int, name: str, action: Action, decision: Decision) -> dict[str, Any]:
    """What everyone may learn of a bot's move: secret choices show only their decision."""
    event: dict[str, Any] = {"player": player, "agent": name, "decision": decision.name}
    if decision in visibility.HIDDEN_DECISIONS:
        event["hidden"] = True
    else:
        event["action"] = describe_action(action)
    return event


# ------------------------------------------------------------------ reading request lines

MAX_DEPTH = 32  # nesting levels of a request (a saved state or record needs fewer than 10)
MAX_OPEN_GAMES = 32
MAX_ERROR_CHARS = 2000


class _NotStrictJson(ValueError):
    """JSON that Python's reader accepts but the standard does not (NaN, Infinity, 1e999, repeated keys)."""


def _no_constant(name: str) -> Any:
    raise _NotStrictJson(f"{name} is not a JSON value")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _NotStrictJson(f"the number {text[:40]} is out of range")
    return value


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        repeated = next(k for k, _ in pairs if k in seen or seen.add(k))
        raise _NotStrictJson(f"the key {repeated!r} appears twice in one object")
    return out


def _depth(value: Any) -> int:
    """Nesting levels of lists and objects, without recursion (a hostile line may nest deeply)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, level)
            if deepest > MAX_DEPTH:
                break
            stack.extend((child, level + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def decode_line(line: str) -> Any:
    """The JSON value of one request line; ``ProtocolError`` for anything but one strict JSON value."""
    if not line.strip():
        raise ProtocolError("empty line: send one JSON object per line")
    try:
        line.encode("utf-8")
    except UnicodeEncodeError:
        raise ProtocolError("not valid UTF-8 text") from None
    try:
        value = json.loads(line, parse_constant=_no_constant, parse_float=_finite, object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as exc:
        raise ProtocolError(f"not valid JSON: {exc}") from None
    except _NotStrictJson as exc:
        raise ProtocolError(f"not valid JSON: {exc}") from None
    except RecursionError:
        raise ProtocolError(f"not accepted: JSON nested deeper than {MAX_DEPTH} levels") from None
    except ValueError:  # the only other one: an integer too long for int() (sys.get_int_max_str_digits)
        raise ProtocolError(f"not accepted: integers have at most {sys.get_int_max_str_digits()} digits") from None
    if _depth(value) > MAX_DEPTH:
        raise ProtocolError(f"not accepted: JSON nested deeper than {MAX_DEPTH} levels")
    return value


def encode_reply(reply: dict[str, Any]) -> str:
    """One line of strict JSON (no NaN / Infinity); a reply that cannot be written becomes an error reply."""
    try:
        return json.dumps(reply, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError) as exc:
        fallback = {"ok": False, "error": f"internal error: the reply is not JSON: {type(exc).__name__}: {exc}"}
        if "id" in reply:
            fallback["id"] = reply["id"]
        return json.dumps(fallback, separators=(",", ":"))


def _request_id(request: Any) -> tuple[bool, str | int | None, str | None]:
    """(whether to echo an id, the id, the error of an id that is not a string, an integer or null)."""
    if not isinstance(request, dict) or "id" not in request:
        return False, None, None
    rid = request["id"]
    if rid is None or isinstance(rid, str) or (isinstance(rid, int) and not isinstance(rid, bool)):
        return True, rid, None
    return False, None, f"id must be a string, an integer or null, got {json_type(rid)}"


# ------------------------------------------------------------------ the server session


@dataclass
class ServedGame:
    """One open game of a session: the engine game, its bots by player id, the name of each seat."""

    game: Game
    bots: dict[int, Any]
    names: list[str]
    observer: Observer | None = None

    def setup(self) -> dict[str, Any]:
        state = self.game.state
        return {"num_players": state.num_players, "seed": state.seed, "variant": state.variant,
                "max_rounds": state.max_rounds, "players": list(self.names)}


class Session:
    """Games served over requests (dicts in, dicts out); bots play their seats automatically.

    ``new`` and ``load`` open games named ``"g1"``, ``"g2"``, ... (never reused); the other game
    commands take the id in ``game``, which may be left out while exactly one game is open.
    ``agent_factory(spec, seed)`` builds the bots (``fcm_agents.registry.make_agent``);
    without one, no seat can be a bot.
    """

    def __init__(self, agent_factory: AgentFactory | None = None):
        self.agent_factory = agent_factory
        self.games: dict[str, ServedGame] = {}
        self._opened = 0

    def handle_line(self, line: str) -> dict[str, Any]:
        """The reply to one request line (blank, malformed or not, a line always gets one reply)."""
        try:
            request = decode_line(line)
        except ProtocolError as exc:
            return {"ok": False, "error": str(exc)[:MAX_ERROR_CHARS]}
        return self.handle(request)

    def handle(self, request: Any) -> dict[str, Any]:
        """One reply per request: ``{"ok": true, ...}`` or ``{"ok": false, "error": ...}``; never raises.

        A valid ``id`` (string, integer or null) is echoed, an invalid one is an error and is not.
        """
        echo, rid, id_error = _request_id(request)
        try:
            if id_error:
                raise ProtocolError(id_error)
            req = parse_request(request)
            reply = {"ok": True, **self._HANDLERS[req.cmd](self, req)}
        except (ProtocolError, RequestError, IllegalActionError) as exc:
            reply = {"ok": False, "error": str(exc)[:MAX_ERROR_CHARS]}
        except Exception as exc:  # noqa: BLE001 -- a bug must not kill the server: report it, go on
            reply = {"ok": False, "error": f"internal error: {type(exc).__name__}: {exc}"[:MAX_ERROR_CHARS]}
        if echo:
            reply["id"] = rid
        return reply

    # -------------------------------------------------------------- games

    def _select(self, req: GameRequest) -> tuple[str, ServedGame]:
        if req.game is not None:
            if req.game not in self.games:
                open_ids = ", ".join(self.games) or "none"
                raise ProtocolError(f"no open game {short(req.game)} (open games: {open_ids})")
            return req.game, self.games[req.game]
        if not self.games:
            raise ProtocolError('no game: send {"cmd": "new", ...} first')
        if len(self.games) > 1:
            raise ProtocolError(f"{len(self.games)} games are open ({', '.join(self.games)}): name one with 'game'")
        return next(iter(self.games.items()))

    def _check_room(self) -> None:
        if len(self.games) >= MAX_OPEN_GAMES:
            raise ProtocolError(f"{MAX_OPEN_GAMES} games are open, the most a server holds: close one first")

    def _make_bots(self, specs: Mapping[str, str], n: int, seed: int) -> tuple[dict[int, Any], list[str]]:
        bots: dict[int, Any] = {}
        names = ["human"] * n
        seats = {str(p): p for p in range(n)}
        for key, spec in sorted(specs.items()):
            if key not in seats:
                raise ProtocolError(f"bots: {short(key)} is not a player id 0..{n - 1}")
            if self.agent_factory is None:
                raise ProtocolError("this server has no bots")
            player = seats[key]
            try:
                bots[player] = self.agent_factory(spec, seed * 10 + player)
            except ValueError as exc:
                raise ProtocolError(f"bots.{key}: {exc}") from None
            except Exception as exc:  # noqa: BLE001 -- e.g. policy:PATH naming a missing or broken file
                raise ProtocolError(f"bots.{key}: cannot make {short(spec)}: {type(exc).__name__}: {exc}") from None
            names[player] = spec
        return bots, names

    def _open(self, served: ServedGame) -> dict[str, Any]:
        """Start the bots of a new or loaded game, then give it an id."""
        for agent in served.bots.values():
            if hasattr(agent, "reset"):
                agent.reset()
        events = self._run_bots(served)
        self._opened += 1
        gid = f"g{self._opened}"
        self.games[gid] = served
        return {"game": gid, "setup": served.setup(), "events": events, "status": status(served.game)}

    # -------------------------------------------------------------- commands

    def _cmd_new(self, req: NewRequest) -> dict[str, Any]:
        self._check_room()
        bots, names = self._make_bots(req.bots, req.num_players, req.seed)
        game = new_recorded_game(req.num_players, seed=req.seed, variant=req.variant, max_rounds=req.max_rounds)
        game.record_events()  # the engine's event log, streamed per player by "log"
        return self._open(ServedGame(game, bots, names))

    def _cmd_load(self, req: LoadRequest) -> dict[str, Any]:
        self._check_room()
        game = _game_from_record(req.record) if req.record is not None else _game_from_state(req.state or {})
        bots, names = self._make_bots(req.bots, game.num_players, game.state.seed)
        return self._open(ServedGame(game, bots, names))

    def _cmd_games(self, req: Request) -> dict[str, Any]:
        return {"games": [{"game": gid, **served.setup(), "status": status(served.game)}
                          for gid, served in self.games.items()]}

    def _cmd_view(self, req: PlayerRequest) -> dict[str, Any]:
        gid, served = self._select(req)
        return {"game": gid, "view": view(served.game, req.player)}

    def _cmd_legal(self, req: PlayerRequest) -> dict[str, Any]:
        gid, served = self._select(req)
        player = _check_player(served.game, req.player)
        return {"game": gid, "player": player, "actions": legal_actions(served.game, player),
                "status": status(served.game)}

    def _cmd_act(self, req: ActRequest) -> dict[str, Any]:
        gid, served = self._select(req)
        player = _check_player(served.game, req.player)
        if player in served.bots:
            raise ProtocolError(f"player {player} is played by the server ({served.names[player]})")
        action = apply(served.game, player, req.action)
        events = self._run_bots(served)
        return {"game": gid, "applied": describe_action(action), "events": events, "status": status(served.game)}

    def _cmd_log(self, req: LogRequest) -> dict[str, Any]:
        """The engine's events ``player`` may see, from index ``since`` of the game's log on."""
        gid, served = self._select(req)
        game = served.game
        player = _check_player(game, req.player)
        total = len(game.events)
        if req.since > total:
            raise ProtocolError(f"since must be 0..{total} (the log holds {total} events), got {req.since}")
        return {"game": gid, "player": player, "next": total,
                "log": [e for e in game.events[req.since:] if engine_events.visible(e, player)]}

    def _cmd_record(self, req: GameRequest) -> dict[str, Any]:
        gid, served = self._select(req)
        if served.game.history is None:
            raise ProtocolError(f"game {gid} was loaded from a state: it has no record of its moves")
        return {"game": gid, "record": GameRecord.from_game(served.game, agents=served.names).to_dict()}

    def _cmd_save(self, req: GameRequest) -> dict[str, Any]:
        gid, served = self._select(req)
        game = served.game
        record = None if game.history is None else GameRecord.from_game(game, agents=served.names).to_dict()
        return {"game": gid, "players": list(served.names), "bots": {str(p): served.names[p] for p in served.bots},
                "state": state_to_dict(game.state), "record": record}

    def _cmd_close(self, req: GameRequest) -> dict[str, Any]:
        gid, _ = self._select(req)
        del self.games[gid]
        return {"game": gid, "closed": True}

    def _cmd_quit(self, req: Request) -> dict[str, Any]:
        return {"bye": True}

    _HANDLERS: ClassVar[dict[str, Callable[[Session, Any], dict[str, Any]]]] = {
        "new": _cmd_new, "load": _cmd_load, "games": _cmd_games, "view": _cmd_view, "legal": _cmd_legal,
        "act": _cmd_act, "log": _cmd_log, "record": _cmd_record, "save": _cmd_save, "close": _cmd_close,
        "quit": _cmd_quit,
    }

    def _run_bots(self, served: ServedGame) -> list[dict[str, Any]]:
        """Play the bots' decisions until a human must decide or the game ends."""
        game = served.game
        events: list[dict[str, Any]] = []
        decisions = 0
        while game.current_player in served.bots:
            if decisions >= MAX_BOT_DECISIONS:
                raise RuntimeError(f"the bots made {MAX_BOT_DECISIONS} decisions without an end")
            player = game.current_player
            decision = game.pending.decision
            served.observer = served.observer or Observer()
            action = bot_move(served.bots[player], game, player, served.observer)
            game.apply(action)
            decisions += 1
            event = bot_event(player, served.names[player], action, decision)
            if not (event.get("hidden") and events and events[-1] == event):
                events.append(event)  # secret choices in a row show once: their number is secret too
        return events


# ------------------------------------------------------------------ loading saved games


def _check_seed(where: str, seed: int) -> None:
    if not 0 <= seed < SEED_LIMIT:
        raise ProtocolError(f"{where}: must be 0 <= seed < 2**63, got {short(seed)}")


def _game_from_record(doc: dict[str, Any]) -> Game:
    """Replay a record with the event log on, so ``log`` streams the whole game; nothing opens on an error."""
    try:
        record = GameRecord.from_dict(doc)
    except RecordFormatError as exc:
        raise ProtocolError(f"record: {exc}") from None
    _check_seed("record.seed", record.seed)
    try:
        game = replay(record, upto=0)
    except ValueError as exc:  # a board that does not fit the player count
        raise ProtocolError(f"record: {exc}") from None
    game.record_events()
    for step, action in enumerate(record.actions):
        try:
            game.apply(action)
        except IllegalActionError as exc:
            raise ProtocolError(f"record.actions[{step}]: does not replay (round {game.state.round}, "
                                f"{game.state.phase.name}): {exc}") from None
    if record.result is not None and result_of(game) != record.result:
        raise ProtocolError(f"record.result: the actions end with {result_of(game)}, the record says {record.result}")
    return game


def _game_from_state(doc: dict[str, Any]) -> Game:
    """A game at a saved position (no record of earlier moves; its log starts at the load)."""
    try:
        game = Game.from_dict(doc)
    except StateFormatError as exc:
        raise ProtocolError(f"state: {exc}") from None
    _check_seed("state.seed", game.state.seed)
    game.record_events()
    return game


def serve(infile: IO[str], outfile: IO[str], agent_factory: AgentFactory | None = None) -> int:
    """The JSON-lines loop: one reply line per request line, until ``quit`` or EOF; bad input never ends it."""
    session = Session(agent_factory)
    for line in infile:
        reply = session.handle_line(line)
        outfile.write(encode_reply(reply) + "\n")
        outfile.flush()
        if reply.get("ok") and reply.get("bye"):
            break
    return 0

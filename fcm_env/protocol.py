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

The JSON-lines server built on these (``fcm serve --stdio``: ``Session``, ``serve``) is
``fcm_env.server``.

No torch / SB3 / gym imports; server bots come from an ``agent_factory`` the caller passes in.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from fcm_env.data import CampaignType, EmployeeType, Good, Milestone
from fcm_env.encoding import CODEC, visibility
from fcm_env.engine.actions import Action, ActionKind, Decision, IllegalActionError
from fcm_env.engine.board.placement import restaurant_entrance, restaurant_squares
from fcm_env.engine.board.tiles import BRIDGE, DRINK, HOUSE, ROAD
from fcm_env.engine.game import Game
from fcm_env.engine.phases.working.recruit_train import POOLED  # TRAIN's trainer field for pooled training
from fcm_env.engine.state import GameState, Phase

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
    player = check_player(game, player)
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

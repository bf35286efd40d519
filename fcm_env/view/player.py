"""What one player may see of a game, as a JSON-safe dict: the view every front end and prompt reads.

Why: the web table, the JSON-lines server, the terminal and the language-model agent all show a game to
one seat; they share this view so that hidden information is removed once, by the same rules as the
observation encoder (``fcm_env.encoding.visibility``). Plain dicts / lists / str / int / bool / None.
docs/protocol.md lists the keys.

* ``view(game, player)``: what ``player`` may see, map to pending decision;
* ``map_view(state)``: the printed map, one character per square;
* ``status(game)``: who decides what now, or how the game ended (public).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from fcm_env.data import CampaignType, EmployeeType, Good, Milestone
from fcm_env.encoding import visibility
from fcm_env.engine.actions import CONTEXT_FIELDS, Decision
from fcm_env.engine.board.placement import restaurant_entrance, restaurant_squares
from fcm_env.engine.board.tiles import BRIDGE, DRINK, HOUSE, ROAD
from fcm_env.engine.game import Game
from fcm_env.engine.state import GameState, Phase

from .actions import check_player

VIEW_FORMAT = "fcm-magnate/view"
VIEW_VERSION = 1


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

"""Names and labels in words: cards, goods, tiles, a choice's action, a decision's context, a company.

Why a module of its own: every other part of ``fcm play`` (the story, the map, the prompt) prints
names instead of enum numbers, and they all take them from here; nothing here reads input or prints.
"""

from __future__ import annotations

from typing import Any

from fcm_env.data import MARKETING_TILES, CampaignType, Direction, EmployeeType, Good
from fcm_env.engine.actions import Action, ActionKind, Decision
from fcm_env.engine.board.placement import airplane_from_anchor, restaurant_entrance
from fcm_env.engine.state import GameState

CORNERS = ("NW", "NE", "SE", "SW")  # restaurant orientation: the entrance corner
SIDES = ("N", "E", "S", "W")  # house / garden orientation: the garden's side; airplanes: the edge
PLACEMENT_KINDS = (ActionKind.PLACE_RESTAURANT, ActionKind.PLACE_HOUSE, ActionKind.PLACE_GARDEN,
                   ActionKind.PLACE_CAMPAIGN)
POOLED_TRAINER = int(EmployeeType.CEO)  # fcm_env.engine.working.POOLED: "First to pay $20" pooled training

# ------------------------------------------------------------------ names


def card_name(card: int) -> str:
    return EmployeeType(card).key.replace("_", " ")


def a_card(card: int) -> str:
    """``a waitress``, ``an errand boy``."""
    name = card_name(card)
    return f"{'an' if name[0] in 'aeiou' else 'a'} {name}"


def good_name(good: int) -> str:
    return Good(good).name.lower()


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def money(delta: int) -> str:
    return f"{'+' if delta >= 0 else '-'}${abs(delta)}"


def cards_text(counts: dict[str, int]) -> str:
    """``{"waitress": 2, "ceo": 1}`` as ``waitress x2, ceo`` (``-`` when empty)."""
    return ", ".join(key.replace("_", " ") + (f" x{n}" if n != 1 else "") for key, n in counts.items()) or "-"


def tile_text(number: int) -> str:
    tile = MARKETING_TILES[number - 1]
    size = f"{tile.along_edge} lines" if tile.type == CampaignType.AIRPLANE else f"{tile.h}x{tile.w}"
    return f"#{number} {tile.type.key} {size}"


# ------------------------------------------------------------------ actions and contexts in words


def action_text(action: Action, state: GameState, player: int, tile: int | None = None) -> str:
    """What ``action`` does, in words; numbers printed are the ones that happen (spots count from 1st)."""
    a, k = action.args, action.kind
    if k == ActionKind.PASS:
        return "pass"
    if k == ActionKind.PLACE_RESTAURANT:
        r, c = restaurant_entrance(*a)
        return f"place a restaurant at ({a[0]},{a[1]}), entrance {CORNERS[a[2]]} on ({r},{c})"
    if k == ActionKind.CHOOSE_RESERVE:
        offer = state.players[player].reserve_offer
        worth = f" (${offer[a[0]]})" if a[0] < len(offer) else ""
        return f"keep reserve card {a[0] + 1}{worth}"
    if k == ActionKind.PUT_TO_WORK:
        return f"put {a_card(a[0])} to work"
    if k == ActionKind.TURN_SPOT:
        return f"go {ordinal(a[0] + 1)} in turn order"
    if k == ActionKind.RECRUIT:
        return f"hire {a_card(a[0])}"
    if k == ActionKind.TRAIN:
        trainer = "pooled trainers" if a[0] == POOLED_TRAINER else f"{a_card(a[0])}"
        return f"train {a_card(a[1])} into {a_card(a[2])} (with {trainer})"
    if k == ActionKind.SELECT_MARKETEER:
        return f"launch a campaign with the {card_name(a[0])}"
    if k == ActionKind.CHOOSE_TILE:
        return f"use campaign tile {tile_text(a[0])}"
    if k == ActionKind.PLACE_CAMPAIGN:
        return _campaign_place_text(a, state, tile)
    return _action_text_more(action, state, player)


def _campaign_place_text(a: tuple[int, ...], state: GameState, tile: int | None) -> str:
    spec = MARKETING_TILES[tile - 1] if tile else None
    if spec is not None and spec.type == CampaignType.AIRPLANE:
        lane = airplane_from_anchor(a[0], a[1], a[2], spec.along_edge, state.board)
        lines = "columns" if lane.edge in (Direction.N, Direction.S) else "rows"
        return (f"fly the airplane along the {SIDES[lane.edge]} edge over {lines} "
                f"{lane.start}-{lane.start + lane.size - 1}")
    return f"place the campaign at ({a[0]},{a[1]}){' rotated' if a[2] else ''}"


def _action_text_more(action: Action, state: GameState, player: int) -> str:
    a, k = action.args, action.kind
    if k == ActionKind.CHOOSE_PRODUCT:
        return f"advertise {good_name(a[0])}"
    if k == ActionKind.CHOOSE_DURATION:
        return f"run it for {a[0]} turn{'s' if a[0] != 1 else ''}"
    if k == ActionKind.PRODUCE:
        return f"the {card_name(a[0])} gets {good_name(a[1])}"
    if k == ActionKind.HAUL:
        return f"the {card_name(a[0])} drives past {a[1]} beer, {a[2]} lemonade, {a[3]} soda source(s)"
    if k == ActionKind.CHOOSE_HOUSE:
        return f"take house #{a[0]} to place"
    if k == ActionKind.PLACE_HOUSE:
        return f"place the house at ({a[0]},{a[1]}) with its garden on the {SIDES[a[2]]} side"
    if k == ActionKind.PLACE_GARDEN:
        return f"place a garden at ({a[0]},{a[1]}) on the {SIDES[a[2]]} side of its house"
    if k == ActionKind.SELECT_RESTAURANT:
        owned = state.players[player].restaurants
        if a[1] < len(owned):
            r = owned[a[1]]
            return f"move restaurant {a[1] + 1} (at ({r.row},{r.col})) with the {card_name(a[0])}"
        return f"open a new restaurant with the {card_name(a[0])}"
    if k == ActionKind.FIRE:
        return f"fire {a_card(a[0])}"
    if k == ActionKind.KEEP:
        return f"keep one {good_name(a[0])} in the freezer"
    return str(action)  # pragma: no cover - every kind is handled above


def context_text(decision: Decision, fields: dict[str, int], state: GameState, player: int) -> str | None:
    """The pending decision's context in words (names, not enum numbers); None when it has none."""
    if not fields:
        return None
    if decision == Decision.INITIAL_RESTAURANT:
        return f"setup round {fields['setup_round']}"
    if decision == Decision.HOUSE_PLACE:
        return f"placing house #{fields['house']}"
    if decision == Decision.RESTAURANT_PLACE:
        what = action_text(Action.select_restaurant(fields["manager"], fields["restaurant"]), state, player)
        return what[0].upper() + what[1:]
    if decision == Decision.FREEZER:
        kept = {name[5:]: n for name, n in fields.items() if n}
        return "kept so far: " + (", ".join(f"{n} {g}" for g, n in kept.items()) or "nothing")
    parts = [f"marketeer: {card_name(fields['marketeer'])}"]
    if "tile" in fields:
        parts.append(f"tile {tile_text(fields['tile'])}")
    if "row" in fields:
        parts.append(_campaign_place_text((fields["row"], fields["col"], fields["orientation"]), state,
                                          fields["tile"]).replace("place the campaign", "placed"))
    if "product" in fields:
        parts.append(f"advertising {good_name(fields['product'])}")
    return "; ".join(parts)


# ------------------------------------------------------------------ companies


def company_text(p: dict[str, Any]) -> str:
    """One player's company from the protocol view: cards marked for firing are already gone
    (they leave beach first, then work, then busy, as Payday removes them)."""
    fired = dict(p["fired"])
    pools = {}
    for name in ("beach", "work", "busy"):
        pool = dict(p[name])
        for key, n in fired.items():
            take = min(n, pool.get(key, 0))
            pool[key] = pool.get(key, 0) - take
            fired[key] = n - take
        pools[name] = {k: n for k, n in pool.items() if n}
    work = "(secret until everyone chose)" if p["structure_hidden"] else cards_text(pools["work"])
    parts = [f"${p['cash']}", f"hand: {cards_text(p['hand'])}", f"at work: {work}",
             f"beach: {cards_text(pools['beach'])}"]
    if pools["busy"]:
        parts.append(f"busy on campaigns: {cards_text(pools['busy'])}")
    parts.append(f"stock: {', '.join(f'{n} {g}' for g, n in p['stock'].items()) or '-'}")
    if p["fired"]:
        parts.append(f"to be fired: {cards_text(p['fired'])}")
    return " | ".join(parts)

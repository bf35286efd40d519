"""What the prompt shows around the human's decision: its context and a company, in words.

Why a module of its own: both read the protocol's view of the human's seat (``fields`` of the
pending decision, one player's block), which only the terminal's prompt prints this way; the names
in them come from ``fcm_env.text.words`` like every other text.
"""

from __future__ import annotations

from typing import Any

from fcm_env.engine.actions import Action, Decision
from fcm_env.engine.state import GameState
from fcm_env.text.words import action_text, campaign_place_text, card_name, cards_text, good_name, tile_text


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
        parts.append(campaign_place_text((fields["row"], fields["col"], fields["orientation"]), state.board,
                                         fields["tile"]).replace("place the campaign", "placed"))
    if "product" in fields:
        parts.append(f"advertising {good_name(fields['product'])}")
    return "; ".join(parts)


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

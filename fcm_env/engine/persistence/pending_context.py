"""What a pending decision's context may hold: the values a chain of decisions handed on, checked by meaning.

Why: a chained decision (the campaign's marketeer, tile, spot, product; the house to place; the restaurant
to place; the freezer's kept food) carries what the earlier steps chose, and the next move builds a piece
from it without asking again. A document whose context puts a campaign at row 32768 loaded (the lengths
were the only check) and the campaign it then placed was off the map, so the position that move made could
not be loaded (found by ``tools/fuzz_documents.py``). ``check_context`` refuses such a context at load.
"""

from __future__ import annotations

from fcm_env.data import EMPLOYEES, PRICES, Good
from fcm_env.engine.actions import CONTEXT_FIELDS, Decision, Pending
from fcm_env.engine.persistence.dataclass_json import fail
from fcm_env.engine.state import GameState

NUM_GOODS = len(Good)


def check_context(state: GameState, pending: Pending, where: str) -> None:
    """``StateFormatError`` at ``where`` (``pending[i][2]``) naming the first context value that no chain of
    legal decisions could have handed on."""
    names = CONTEXT_FIELDS.get(pending.decision, ())
    values = dict(zip(names, pending.context, strict=False))
    at = {name: f"{where}[{j}]" for j, name in enumerate(names)}
    if "setup_round" in values and values["setup_round"] not in (1, 2):
        fail(at["setup_round"], f"the setup round is 1 or 2, got {values['setup_round']}")
    if "marketeer" in values:
        m = values["marketeer"]
        if not 0 <= m < len(EMPLOYEES) or not EMPLOYEES[m].campaign_types:
            fail(at["marketeer"], f"card type {m} is not a marketeer")
    if "tile" in values and values["tile"] not in state.marketing_supply:
        fail(at["tile"], f"tile {values['tile']} is not in marketing_supply")
    if "orientation" in values:  # the spot must be one CAMPAIGN_PLACE offers now (nothing moved since)
        from fcm_env.engine.phases.working.marketing_launch import legal_place  # the rules' own placements

        spot = (values["row"], values["col"], values["orientation"])
        offered = {a.args for a in legal_place(state, Pending(Decision.CAMPAIGN_PLACE, pending.player,
                                                                (values["marketeer"], values["tile"])))}
        if spot not in offered:
            fail(at["row"], f"tile {values['tile']} at {spot} is not a placement its marketeer may make here")
    if "product" in values and not 0 <= values["product"] < NUM_GOODS:
        fail(at["product"], f"a campaign's product is a good 0..{NUM_GOODS - 1}, got {values['product']}")
    if "house" in values and values["house"] not in state.house_supply:
        fail(at["house"], f"house token {values['house']} is not in house_supply")
    if "manager" in values:
        m = values["manager"]
        if not 0 <= m < len(EMPLOYEES) or not EMPLOYEES[m].restaurant_placement:
            fail(at["manager"], f"card type {m} places no restaurant")
    if "restaurant" in values and not 0 <= values["restaurant"] < PRICES.restaurants_per_player:
        fail(at["restaurant"], f"a restaurant index is 0..{PRICES.restaurants_per_player - 1}, "
                               f"got {values['restaurant']}")
    stock = state.players[pending.player].stock
    for g, name in enumerate(n for n in names if n.startswith("kept_")):
        if name in values and not 0 <= values[name] <= int(stock[g]):
            fail(at[name], f"the freezer keeps 0..{int(stock[g])} of this good (the stock), got {values[name]}")

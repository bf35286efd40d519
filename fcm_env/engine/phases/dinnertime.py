"""Phase 4 Dinnertime: houses eat, waitresses earn tips, CFOs add half; no decisions.

rules: Phase 4; C10-C12, C21, C22, C27; R29-R30, R33-R37. Houses with demand eat
in ascending number. A chain qualifies when one of its open restaurants is
connected by road to the house (any road next to the house or its garden, to any
entrance, drive-ins included) and its stock covers the whole demand. The house
picks the lowest unit price + distance (R33), then most waitresses at work, then
the earlier seat (R34).

Money (D33, D34): a house's bill is the sum over its items of unit price (doubled
with a garden) plus the "First ... marketed" bonus. A positive bill is paid by the
bank; a negative one (C21) is paid by the chain, which, if it cannot, pays what it
has and is bankrupt: it stays in the game to the end of the turn (it keeps serving
houses, paying what it can, and earns its tips and its CFO share) and leaves in
Clean-up. After the houses each chain gets its waitress tips, then the CFO (or
"First to have $100" from an earlier turn) adds half of the cash the chain earned
in the phase (C22; ``player.income``: a bill counts as far as it was paid), rounded
up (towards +infinity, so -7 gives -3). "First to have $20" is claimed the moment a
payment brings a chain to $20 (C26: at any time); "First to have $100" at the end
of the phase (C27).
"""

from __future__ import annotations

from collections import Counter

from fcm_env.data import EMPLOYEES, MILESTONES, PRICES, EmployeeType, Good, Milestone
from fcm_env.engine import events
from fcm_env.engine.board.geometry import UNREACHABLE
from fcm_env.engine.board.occupancy import entrances_of
from fcm_env.engine.rules import bank, milestones
from fcm_env.engine.state import GameState, House, Phase

PRICE_DELTA = tuple(spec.price_delta for spec in EMPLOYEES)
#: (type, price delta) of the few types that change the price (the others add 0)
_PRICE_CHANGERS = tuple((t, delta) for t, delta in enumerate(PRICE_DELTA) if delta)
_MARKETED = (Milestone.FIRST_BURGER_MARKETED, Milestone.FIRST_PIZZA_MARKETED, Milestone.FIRST_DRINK_MARKETED)


def _bonus_table() -> dict[Milestone, dict[int, int]]:
    table = {}
    for m in _MARKETED:
        per_item = MILESTONES[m].effect_params["bonus_per_item_sold"]
        table[m] = {int(Good[name.upper()]): int(v) for name, v in per_item.items()}
    return table


BONUS_PER_ITEM: dict[Milestone, dict[int, int]] = _bonus_table()
LOWER_PRICES_DELTA = int(MILESTONES[Milestone.FIRST_LOWER_PRICES].effect_params["unit_price_delta"])


def unit_price(state: GameState, player: int) -> int:
    """Base $10 + pricing / discount / luxuries managers at work, -$1 with First to lower prices."""
    p = state.players[player]
    price = PRICES.base_unit_price + sum(int(p.work[t]) * delta for t, delta in _PRICE_CHANGERS)
    if milestones.has(state, player, Milestone.FIRST_LOWER_PRICES):
        price += LOWER_PRICES_DELTA
    return price


def item_bonus(state: GameState, player: int, good: int) -> int:
    """The "First burger / pizza / drink marketed" income bonus for one item (not doubled)."""
    return sum(
        table.get(good, 0) for m, table in BONUS_PER_ITEM.items() if milestones.has(state, player, m)
    )


def house_bill(state: GameState, player: int, house: House) -> int:
    """What ``player`` earns (negative: pays) for serving the whole demand of ``house``."""
    price = unit_price(state, player) * (2 if house.has_garden else 1)
    return sum(price + item_bonus(state, player, good) for good in house.demand)


def can_supply(state: GameState, player: int, demand: list[int]) -> bool:
    stock = state.players[player].stock
    return all(int(stock[good]) >= n for good, n in Counter(demand).items())


def distance_to(state: GameState, player: int, house: House) -> int:
    """Road range from the house (or its garden) to the chain's nearest open entrance."""
    entrances = entrances_of(state, player)
    if not entrances:
        return UNREACHABLE
    return state.board.distance(house.all_squares, entrances)


def choose_chain(state: GameState, house: House) -> int | None:
    """The chain the house eats at, or None (R33, R34)."""
    best: tuple[int, int, int] | None = None
    chosen = None
    for seat, player in enumerate(state.turn_order):
        if not can_supply(state, player, house.demand):  # bankrupt this turn still serves (C21)
            continue
        dist = distance_to(state, player, house)
        if dist >= UNREACHABLE:
            continue
        waitresses = int(state.players[player].work[EmployeeType.WAITRESS])
        key = (unit_price(state, player) + dist, -waitresses, seat)
        if best is None or key < best:
            best, chosen = key, player
    return chosen


def cash_change(state: GameState, player: int, amount: int) -> int:
    """What ``settle`` will change the chain's cash by: all of an income, a charge as far as it can pay."""
    return amount if amount >= 0 else -min(state.players[player].cash, -amount)


def settle(state: GameState, player: int, amount: int) -> int:
    """Income (bank pays) or a charge (chain pays; bankrupt if it cannot, C21); the chain's cash change."""
    if amount >= 0:
        pay(state, player, amount)
        return amount
    owed = -amount
    paid = bank.collect(state, player, owed)
    if paid < owed:
        state.players[player].bankrupt = True
    return -paid


def pay(state: GameState, player: int, amount: int) -> None:
    """The bank pays ``amount`` (what it has left, see ``bank``); "First to have $20" at once (C26)."""
    bank.pay_out(state, player, amount)
    if state.players[player].cash >= 20 and not bank.is_broken_for_good(state):
        milestones.claim(state, player, Milestone.FIRST_HAVE_20)


def serve(state: GameState, player: int, house: House) -> None:
    p = state.players[player]
    bill = house_bill(state, player, house)
    if events.enabled(state):  # the sale first, then what it causes (a milestone, a bank break)
        cash = cash_change(state, player, bill)
        events.emit(state, "sale", house=int(house.number), player=int(player), items=events.basket(house.demand),
                    unit_price=unit_price(state, player), garden=bool(house.has_garden),
                    distance=int(distance_to(state, player, house)),
                    bonus=sum(item_bonus(state, player, good) for good in house.demand), amount=bill, cash=cash,
                    bankrupt=cash > bill)
    for good in house.demand:
        p.stock[good] -= 1
    house.demand = []
    p.income += settle(state, player, bill)  # C22, D34: cash earned, a bill only as far as it was paid


def waitress_tips(state: GameState, player: int) -> int:
    per = PRICES.waitress_tip_milestone if milestones.has(state, player, Milestone.FIRST_WAITRESS) \
        else PRICES.waitress_tip
    return per * int(state.players[player].work[EmployeeType.WAITRESS])


def has_cfo(state: GameState, player: int) -> bool:
    """A CFO at work, or the CEO acting as one (First to have $100, claimed in an earlier turn: C27)."""
    if state.players[player].work[EmployeeType.CFO]:
        return True
    return milestones.has(state, player, Milestone.FIRST_HAVE_100) \
        and Milestone.FIRST_HAVE_100 not in state.milestones_this_turn


def cfo_bonus(income: int) -> int:
    """C22, R37: 50% of the cash earned in the phase, rounded up (towards +infinity, also when negative)."""
    return -((-income * PRICES.cfo_bonus_percent) // 100)


def run(state: GameState) -> None:
    """Resolve Dinnertime, then the "$20" / "$100" milestones (not after the final break)."""
    state.phase = Phase.DINNERTIME
    for p in state.players:
        p.income = 0
    for number in sorted(state.houses):
        house = state.houses[number]
        if not house.demand:
            continue
        chain = choose_chain(state, house)
        if chain is not None:
            serve(state, chain, house)
    for player in state.turn_order:
        tips = waitress_tips(state, player)
        state.players[player].income += tips
        if tips:
            events.emit(state, "tips", player=int(player),
                        waitresses=int(state.players[player].work[EmployeeType.WAITRESS]), amount=tips, cash=tips)
        pay(state, player, tips)  # R36: also without sales
    for player in state.turn_order:
        if has_cfo(state, player):
            income = state.players[player].income
            bonus = cfo_bonus(income)
            events.emit(state, "cfo_bonus", player=int(player), income=income, amount=bonus,
                        cash=cash_change(state, player, bonus))
            settle(state, player, bonus)
    if not bank.is_broken_for_good(state):
        claim_cash_milestones(state)


def claim_cash_milestones(state: GameState) -> None:
    """C27: First to have $100, checked at the end of Dinnertime ($20 is claimed as it is reached)."""
    for player in state.turn_order:
        if state.players[player].cash >= 100:
            milestones.claim(state, player, Milestone.FIRST_HAVE_100)

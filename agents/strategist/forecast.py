"""The shadow Dinnertime: what each chain would earn if Dinnertime ran now on a what-if position.

A plan is judged by the money it brings at Dinnertime, and the engine already knows exactly how a
Dinnertime goes (which chain each house picks, R33-R34; prices, bonuses, gardens; tips; the CFO's 50%,
C22). So the forecast runs the engine's own ``dinnertime.run`` on a copy of the seat's view with the
hypotheses applied: more stock for a chain (what it would produce), more demand on houses (what a
campaign would add), other cards at work (a pricing manager, a waitress, a CFO). The copy is thrown away;
the position asked about is never changed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from fcm_env.data import HOUSES, EmployeeType
from fcm_env.engine import events
from fcm_env.engine.phases import dinnertime
from fcm_env.engine.state import GameState


@dataclass(frozen=True)
class Forecast:
    """Per player: cash from the houses served, waitress tips and the CFO's share; who served each house
    that had demand (None: nobody could)."""

    sales: tuple[int, ...]
    tips: tuple[int, ...]
    cfo: tuple[int, ...]
    served_by: dict[int, int | None]

    def income(self, player: int) -> int:
        """Everything ``player`` would earn in this Dinnertime."""
        return self.sales[player] + self.tips[player] + self.cfo[player]


def shadow_dinnertime(
    state: GameState,
    *,
    stock: Mapping[int, Mapping[int, int]] | None = None,
    demand: Mapping[int, Iterable[int]] | None = None,
    work: Mapping[int, Mapping[int, int]] | None = None,
) -> Forecast:
    """Dinnertime as the engine would run it on a copy of ``state`` with these hypotheses:

    * ``stock``: player -> good -> items to add to that chain's stock (what it would produce or haul);
    * ``demand``: house number -> goods to add to its demand, as far as its limit allows (a campaign's
      tokens: 3 per house, 5 with a garden; rules: Phase 6);
    * ``work``: player -> employee type -> cards to add at work (a manager changing the price, a
      waitress, a CFO).

    ``state`` itself is not changed. Run it on the seat's view (``Game.seat_view``): a forecast must not
    read what the seat cannot know."""
    world = state.clone()  # a clone has no event log: the one attached below is the forecast's own
    for player, goods in (stock or {}).items():
        for good, count in goods.items():
            world.players[player].stock[good] += count
    for number, goods in (demand or {}).items():
        house = world.houses[number]
        limit = HOUSES.demand_limit_with_garden if house.has_garden else HOUSES.demand_limit
        for good in goods:
            if len(house.demand) < limit:
                house.demand.append(int(good))
    for player, cards in (work or {}).items():
        for etype, count in cards.items():
            world.players[player].work[EmployeeType(etype)] += count
    served_by: dict[int, int | None] = {number: None for number, house in world.houses.items() if house.demand}
    cash_before = [p.cash for p in world.players]
    tips = tuple(dinnertime.waitress_tips(world, q) for q in range(world.num_players))
    log: list[dict] = []
    events.attach(world, log)  # the sales as they happen (stock runs out house by house)
    dinnertime.run(world)
    for event in log:
        if event["kind"] == "sale":
            served_by[int(event["house"])] = int(event["player"])
    incomes = [p.income for p in world.players]  # sales and tips (C22: cash actually earned)
    sales = tuple(incomes[q] - tips[q] for q in range(world.num_players))
    cfo = tuple(world.players[q].cash - cash_before[q] - incomes[q] for q in range(world.num_players))
    return Forecast(sales=sales, tips=tips, cfo=cfo, served_by=served_by)

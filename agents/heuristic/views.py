"""What several of the heuristic's plans read: road ranges to the houses, a house's worth, the main food."""

from __future__ import annotations

from fcm_env.data import HOUSES, Good
from fcm_env.engine.board import UNREACHABLE
from fcm_env.engine.state import GameState

from .layout import reach
from .plan import E


class SharedViews:
    """The reads the plans share (mixed into ``HeuristicAgent`` under every plan)."""

    _reach = staticmethod(reach)

    def _distances(self, state: GameState, player: int) -> dict[int, int]:
        """Road range from the player's open restaurants to every house (``UNREACHABLE`` if none).

        The dict is remembered (``_reach``) and shared: read it, never change it.
        """
        return self._reach(state, player)[0]

    def _house_values(self, state: GameState, player: int) -> dict[int, float]:
        """How much one more demand token on each house is worth to ``player``."""
        mine = self._distances(state, player)
        others = [self._distances(state, q) for q in state.turn_order if q != player]
        values = {}
        for n, house in state.houses.items():
            limit = HOUSES.demand_limit_with_garden if house.has_garden else HOUSES.demand_limit
            if len(house.demand) >= limit:
                values[n] = 0.0
                continue
            d = mine[n]
            best_other = min((o[n] for o in others), default=UNREACHABLE)
            if d >= UNREACHABLE:
                value = 0.05
            else:
                value = 1.0 / (1.0 + 0.5 * d)
                if best_other < d:
                    value *= 0.3
            if house.has_garden:
                value *= 2.0
            values[n] = value
        return values

    def _main_food(self, state: GameState, player: int) -> Good:
        p = state.players[player]
        owned = (p.hand + p.work + p.beach + p.busy).tolist()
        pizza = owned[E.PIZZA_COOK] + owned[E.PIZZA_CHEF]
        burger = owned[E.BURGER_COOK] + owned[E.BURGER_CHEF]
        return Good.PIZZA if pizza > burger else Good.BURGER

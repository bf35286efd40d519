"""The heuristic's campaigns: who runs one, which tile, where, for which product and how long."""

from __future__ import annotations

from fcm_env.data import EMPLOYEES, marketing_tile
from fcm_env.engine.actions import Action, ActionKind, Decision, Pending
from fcm_env.engine.game import ROUTES, Game
from fcm_env.engine.state import GameState

from .from_legal import _duration_from_legal
from .layout import _layout, spot_reach
from .views import SharedViews


def _action_order(action: Action) -> tuple:
    """The engine's order of legal actions (``Game.legal_actions`` sorts by kind, then arguments)."""
    return (action.kind, action.args)


class Marketing(SharedViews):
    """The answers of the campaign chain: marketeer, tile, spot, product, duration."""

    _spot_reach = staticmethod(spot_reach)

    def _marketeer(self, game: Game, player: int, legal: list[Action]) -> Action | None:
        picks = [a for a in legal if a.kind == ActionKind.SELECT_MARKETEER]
        if not picks:
            return None
        values = self._house_values(game.state, player)
        if max(values.values(), default=0.0) <= 0.05:
            return Action.pass_()  # nothing worth advertising to
        return max(picks, key=lambda a: EMPLOYEES[a.args[0]].max_duration)

    def _campaign_tile(self, game: Game, player: int, legal: list[Action]) -> Action | None:
        """The tile whose best spot reaches the most value (the first such tile in legal order).

        Choosing a tile only moves the chain on to ``CAMPAIGN_PLACE`` (nothing on the map changes), so
        each tile's spots are the engine's legal placements for that next decision, asked of this very
        position, and the house values are the same for every tile. A tile's number plays no part in
        where it may go or what it reaches, only its kind and shape do: a tile shaped like one already
        tried would score the same, which cannot beat it (a later tile must score more), so it is skipped.
        """
        state = game.state
        context = game.pending.context
        legal_place, _ = ROUTES[Decision.CAMPAIGN_PLACE]
        values = self._house_values(state, player)
        best, best_score = None, -1.0
        tried = set()
        for action in legal:
            number = action.args[0]
            tile = marketing_tile(number)
            shape = (tile.type, tile.w, tile.h, tile.rotatable, tile.along_edge)  # every field but the number
            if shape in tried:
                continue
            tried.add(shape)
            spots = sorted(legal_place(state, Pending(Decision.CAMPAIGN_PLACE, player, context + (number,))),
                           key=_action_order)
            spot, score = self._best_placement(state, player, number, spots, values)
            if spot is None:
                continue
            if score > best_score:
                best, best_score = action, score
        return best

    def _campaign_place(self, game: Game, player: int, legal: list[Action]) -> Action | None:
        return self._best_placement(game.state, player, game.pending.context[-1], legal)[0]

    def _best_placement(self, state: GameState, player: int, number: int, legal: list[Action],
                        values: dict[int, float] | None = None) -> tuple[Action | None, float]:
        """The first placement with the most value reached, and that value (house values computed once)."""
        if values is None:
            values = self._house_values(state, player)
        reached = self._spot_reach(_layout(state), number)
        scores: dict[tuple[int, ...], float] = {}  # spots that reach the same houses score the same
        best, best_score = None, float("-inf")
        for action in legal:
            houses = reached(*action.args)
            score = scores.get(houses)
            if score is None:
                score = scores[houses] = sum(values.get(n, 0.0) for n in houses)
            if score > best_score:
                best, best_score = action, score
        return best, best_score

    def _campaign_product(self, game: Game, player: int, legal: list[Action]) -> Action | None:
        food = self._main_food(game.state, player)
        return next((a for a in legal if a.args[0] == food), None)

    def _campaign_duration(self, game: Game, player: int, legal: list[Action]) -> Action | None:
        return _duration_from_legal(legal)

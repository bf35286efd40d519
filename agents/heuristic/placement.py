"""Where the heuristic builds: its restaurants, new houses and gardens (campaigns: ``marketing``)."""

from __future__ import annotations

import numpy as np

from fcm_env.engine.actions import Action, ActionKind
from fcm_env.engine.board import UNREACHABLE, occupancy, placement
from fcm_env.engine.game import Game
from fcm_env.engine.state import GameState

from .layout import _layout, entrance_scores
from .views import SharedViews


class Placement(SharedViews):
    """The answers to placing a restaurant (first or new), a new house and a garden."""

    _entrance_scores = staticmethod(entrance_scores)

    def _initial_restaurant(self, game: Game, player: int, legal: list[Action]) -> Action | None:
        state = game.state
        board = state.board
        others = [
            sq for q in range(state.num_players) if q != player
            for r in state.players[q].restaurants for sq in occupancy.entrance_squares(r)
        ]
        layout = _layout(state)
        other = layout.house_ranges(board.ranges_from(others)) if others else None
        offsets = placement.RESTAURANT_ENTRANCE_OFFSETS  # ``restaurant_entrance`` of a legal placement
        entrances = [
            (a.args[0] + offsets[a.args[2]][0], a.args[1] + offsets[a.args[2]][1])
            if a.kind == ActionKind.PLACE_RESTAURANT else None
            for a in legal
        ]
        scores = self._entrance_scores(layout, [e for e in dict.fromkeys(entrances) if e is not None], other)
        scores[None] = -1.0
        return self._pick_spot(legal, [scores[e] for e in entrances])

    def _pick_spot(self, legal: list[Action], scores: list[float]) -> Action:
        """The first of the best-scored placements (a strategist draws among the near-best instead)."""
        best = max(range(len(legal)), key=lambda i: scores[i])  # the first best, as max(legal)
        return legal[best]

    def _restaurant_manager(self, game: Game, player: int, legal: list[Action]) -> Action | None:
        p = game.state.players[player]
        new = [a for a in legal if a.kind == ActionKind.SELECT_RESTAURANT and a.args[1] == len(p.restaurants)]
        return new[0] if new else Action.pass_()

    def _restaurant_place(self, game: Game, player: int, legal: list[Action]) -> Action | None:
        return self._initial_restaurant(game, player, legal)

    def _new_business(self, game: Game, player: int, legal: list[Action]) -> Action | None:
        state = game.state
        dist = self._distances(state, player)
        gardens = [a for a in legal if a.kind == ActionKind.PLACE_GARDEN]
        if gardens:
            grid = _layout(state).grid

            def garden_score(action: Action) -> float:
                squares = placement.garden_squares(*action.args)
                target = self._garden_house(grid, squares, state)
                if target is None or dist.get(target, UNREACHABLE) >= UNREACHABLE:
                    return 0.0
                return 1.0 / (1.0 + dist[target]) + 0.5 * len(state.houses[target].demand)

            best = max(gardens, key=garden_score)
            if garden_score(best) > 0:
                return best
        houses = [a for a in legal if a.kind == ActionKind.CHOOSE_HOUSE]
        if houses:
            return min(houses, key=lambda a: a.args[0])  # low numbers eat first
        return Action.pass_()

    @staticmethod
    def _garden_house(grid: np.ndarray, squares: tuple[tuple[int, int], ...], state: GameState) -> int | None:
        H, W = grid.shape
        for r, c in squares:
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                rr, cc = r + dr, c + dc
                if 0 <= rr < H and 0 <= cc < W and grid[rr, cc] and not state.houses[int(grid[rr, cc])].placed:
                    return int(grid[rr, cc])
        return None

    def _house_place(self, game: Game, player: int, legal: list[Action]) -> Action | None:
        state = game.state
        entrances = occupancy.entrances_of(state, player)
        if not entrances:
            return None
        grid = state.board.ranges_from(entrances)

        def score(action: Action) -> int:
            house, _garden = placement.house_footprint(*action.args)
            return -min(int(grid[sq]) for sq in house)

        return max(legal, key=score)

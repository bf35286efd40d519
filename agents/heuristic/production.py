"""What the heuristic produces and hauls, and what it keeps in the freezer: the goods its houses want."""

from __future__ import annotations

from fcm_env.data import Good
from fcm_env.engine.actions import Action, ActionKind
from fcm_env.engine.game import Game
from fcm_env.engine.state import GameState

from .views import SharedViews


class Production(SharedViews):
    """The answers to producing (and hauling drinks) and to the freezer."""

    def _produce(self, game: Game, player: int, legal: list[Action]) -> Action | None:
        state = game.state
        food = self._main_food(state, player)
        wanted = self._wanted_goods(state, player)
        best, best_score = None, 0.0
        for action in legal:
            if action.kind == ActionKind.PRODUCE:
                good = action.args[1]
                score = 2.0 + wanted.get(good, 0.0) + (1.0 if good == food else 0.0)
            elif action.kind == ActionKind.HAUL:
                beer, lemonade, soda = action.args[1:]
                score = 1.0 + sum(
                    n * (1.0 + wanted.get(g, 0.0))
                    for n, g in ((beer, Good.BEER), (lemonade, Good.LEMONADE), (soda, Good.SODA))
                )
            else:
                continue
            if score > best_score:
                best, best_score = action, score
        return best if best is not None else Action.pass_()

    def _wanted_goods(self, state: GameState, player: int) -> dict[int, float]:
        """Demand on the houses the player reaches, per good (house after house, in map order)."""
        houses = state.houses
        wanted: dict[int, float] = {}
        for n in self._reach(state, player)[1]:
            for good in houses[n].demand:
                wanted[good] = wanted.get(good, 0.0) + 1.0
        return wanted

    def _freezer(self, game: Game, player: int, legal: list[Action]) -> Action | None:
        wanted = self._wanted_goods(game.state, player)
        keeps = [a for a in legal if a.kind == ActionKind.KEEP]
        if not keeps:
            return None
        food = self._main_food(game.state, player)
        return max(keeps, key=lambda a: (wanted.get(a.args[0], 0.0), a.args[0] == food))

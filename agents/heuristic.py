"""A rule-based player of a sensible economy, written from the rulebook's strategy advice.

The plan, in the rulebook's own terms: grow a structure that *produces* (kitchen
trainees, then cooks), *creates demand* for what it produces near its own
restaurants (billboards, then mailboxes), sells cheaply enough to win the houses
it reaches (pricing managers, waitresses), and hires and trains toward the
milestones it can take (First to train, First billboard, First burger marketed).
Salaries are only taken on when the cash can carry them; a player who cannot pay
fires its least useful salaried card first.

The agent reads the engine state (``act_on_game``) through its seat's view (``Game.seat_view``):
what another player keeps face down is erased there, so it plays the same whatever the hidden
facts are (tests/agents/test_heuristic_hidden.py). Every decision is answered
by scoring the legal actions with simple, explainable values; ties are broken by
the action order (stable), so play is deterministic for a given position.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fcm_env.data import EMPLOYEES, HOUSES, CampaignType, EmployeeType, Good, marketing_tile
from fcm_env.engine.actions import Action, ActionKind
from fcm_env.engine.board import UNREACHABLE, occupancy, placement
from fcm_env.engine.game import Game
from fcm_env.engine.state import GameState

from .base import SeededAgent

E = EmployeeType

#: the entry-level card every type is trained from (its "career line")
LINE: dict[int, int] = {}
for _spec in EMPLOYEES:
    if _spec.entry_level:
        _todo = [int(_spec.type)]
        while _todo:
            _t = _todo.pop()
            LINE.setdefault(_t, int(_spec.type))
            _todo.extend(int(u) for u in EMPLOYEES[_t].trains_to)

#: hiring plan: (entry-level line, how many of that line we want by then), in order
HIRING_PLAN: tuple[tuple[int, int], ...] = (
    (E.MARKETING_TRAINEE, 1),
    (E.KITCHEN_TRAINEE, 1),
    (E.RECRUITING_GIRL, 1),
    (E.MANAGEMENT_TRAINEE, 1),
    (E.KITCHEN_TRAINEE, 2),
    (E.TRAINER, 1),
    (E.MARKETING_TRAINEE, 2),
    (E.WAITRESS, 1),
    (E.ERRAND_BOY, 1),
    (E.MANAGEMENT_TRAINEE, 2),
    (E.PRICING_MANAGER, 1),
    (E.WAITRESS, 2),
    (E.KITCHEN_TRAINEE, 3),
    (E.MARKETING_TRAINEE, 3),
    (E.MANAGEMENT_TRAINEE, 3),
    (E.WAITRESS, 3),
    (E.ERRAND_BOY, 2),
)

#: which card to play first in Restructuring (staff; managers are handled apart)
PLAY_PRIORITY: tuple[int, ...] = (
    E.BURGER_CHEF, E.PIZZA_CHEF, E.BURGER_COOK, E.PIZZA_COOK,
    E.BRAND_DIRECTOR, E.BRAND_MANAGER, E.CAMPAIGN_MANAGER, E.MARKETING_TRAINEE,
    E.KITCHEN_TRAINEE, E.CFO, E.LUXURIES_MANAGER,
    E.ZEPPELIN_PILOT, E.TRUCK_DRIVER, E.CART_OPERATOR, E.ERRAND_BOY,
    E.WAITRESS, E.NEW_BUSINESS_DEVELOPER, E.REGIONAL_MANAGER, E.LOCAL_MANAGER,
    E.PRICING_MANAGER, E.DISCOUNT_MANAGER,
    E.HR_DIRECTOR, E.RECRUITING_MANAGER, E.RECRUITING_GIRL,
    E.GURU, E.COACH, E.TRAINER,
)

#: what a trainee should become (first available target wins)
TRAIN_GOALS: dict[int, tuple[int, ...]] = {
    E.KITCHEN_TRAINEE: (E.BURGER_COOK, E.PIZZA_COOK),
    E.BURGER_COOK: (E.BURGER_CHEF,),
    E.PIZZA_COOK: (E.PIZZA_CHEF,),
    E.MARKETING_TRAINEE: (E.CAMPAIGN_MANAGER,),
    E.CAMPAIGN_MANAGER: (E.BRAND_MANAGER,),
    E.MANAGEMENT_TRAINEE: (E.JUNIOR_VICE_PRESIDENT,),
    E.JUNIOR_VICE_PRESIDENT: (E.VICE_PRESIDENT,),
    E.ERRAND_BOY: (E.CART_OPERATOR,),
}

SALARY = 5
FOOD = (Good.BURGER, Good.PIZZA)


def _salaried(state: GameState, player: int) -> int:
    p = state.players[player]
    cards = p.work + p.beach + p.busy
    return int(sum(int(cards[t]) for t in range(len(cards)) if EMPLOYEES[t].salary))


class HeuristicAgent(SeededAgent):
    """Engine-aware rule-based agent (see the module docstring for its plan)."""

    def __init__(self, seed: int | None = None, name: str = "heuristic"):
        super().__init__(seed, name)

    def act(self, observation: Any, action_mask: np.ndarray) -> int:
        raise TypeError(
            "HeuristicAgent reads the engine state: call act_on_game(game, player) "
            "(the tournament runner and the single-agent env do this for you)"
        )

    # ------------------------------------------------------------------ dispatch

    def act_on_game(self, game: Game, player: int) -> Action:
        pending = game.pending
        if pending is None or pending.player != player:
            raise ValueError(f"player {player} is not the one to move")
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        handler = getattr(self, f"_{pending.decision.name.lower()}", None)
        # the seat's view only: other players' hidden facts (reserve cards, face-down choices) erased
        choice = handler(game.seat_view(player), player, legal) if handler else None
        return choice if choice is not None else legal[0]

    # ------------------------------------------------------------------ shared views

    def _distances(self, state: GameState, player: int) -> dict[int, int]:
        """Road range from the player's open restaurants to every house (``UNREACHABLE`` if none)."""
        entrances = occupancy.entrances_of(state, player)
        if not entrances:
            return {n: UNREACHABLE for n in state.houses}
        grid = state.board.ranges_from(entrances)
        return {n: int(min(grid[sq] for sq in h.all_squares)) for n, h in state.houses.items()}

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
        owned = p.owned()
        pizza = int(owned[E.PIZZA_COOK] + owned[E.PIZZA_CHEF])
        burger = int(owned[E.BURGER_COOK] + owned[E.BURGER_CHEF])
        return Good.PIZZA if pizza > burger else Good.BURGER

    def _line_count(self, state: GameState, player: int, line: int) -> int:
        owned = state.owned_cards(player)  # eternal campaigns' marketeers included
        return sum(int(owned[t]) for t in range(1, len(owned)) if LINE.get(t) == line)

    # ------------------------------------------------------------------ setup

    def _initial_restaurant(self, game: Game, player: int, legal: list[Action]) -> Action | None:
        state = game.state
        board = state.board
        cache: dict[tuple[int, int], float] = {}
        others = [
            sq for q in range(state.num_players) if q != player
            for r in state.players[q].restaurants for sq in occupancy.entrance_squares(r)
        ]
        other_grid = board.ranges_from(others) if others else None

        def score(action: Action) -> float:
            if action.kind != ActionKind.PLACE_RESTAURANT:
                return -1.0
            entrance = placement.restaurant_entrance(*action.args)
            if entrance not in cache:
                grid = board.ranges_from([entrance])
                total = 0.0
                for house in state.houses.values():
                    d = min(int(grid[sq]) for sq in house.all_squares)
                    if d >= UNREACHABLE:
                        continue
                    value = 1.0 / (1.0 + d)
                    if other_grid is not None:
                        od = min(int(other_grid[sq]) for sq in house.all_squares)
                        if od < d:
                            value *= 0.3
                    total += value
                total += 0.2 * float((grid < 3).sum()) / grid.size  # room to grow
                cache[entrance] = total
            return cache[entrance]

        return max(legal, key=score)

    def _reserve_card(self, game: Game, player: int, legal: list[Action]) -> Action | None:
        offer = game.state.players[player].reserve_offer
        # the $200 card (3 CEO slots) keeps the CEO as it is
        return min(legal, key=lambda a: abs(offer[a.args[0]] - 200))

    # ------------------------------------------------------------------ phases 1 and 2

    def _restructure(self, game: Game, player: int, legal: list[Action]) -> Action | None:
        state = game.state
        p = state.players[player]
        puts = {a.args[0]: a for a in legal if a.kind == ActionKind.PUT_TO_WORK}
        if not puts:
            return None
        keep_on_beach = self._train_reserve(state, player)
        staff_waiting = sum(
            int(p.hand[t]) for t in PLAY_PRIORITY if not EMPLOYEES[t].is_manager
        ) - (1 if keep_on_beach is not None else 0)
        managers = sorted(
            (t for t in puts if EMPLOYEES[t].is_manager), key=lambda t: -EMPLOYEES[t].manager_slots
        )
        from fcm_env.engine.phases.restructuring import open_slots  # local: a small engine query

        free = open_slots(p.work, state.ceo_slots)
        if managers and staff_waiting > free - 1:
            return puts[managers[0]]
        for t in PLAY_PRIORITY:
            if t in puts and not (t == keep_on_beach and p.hand[t] <= 1):
                return puts[t]
        return Action.pass_() if Action.pass_() in legal else None

    def _train_reserve(self, state: GameState, player: int) -> int | None:
        """A card to leave on the beach so that a trainer at work can train it."""
        p = state.players[player]
        trainers = int(p.hand[E.TRAINER] + p.hand[E.COACH] + p.hand[E.GURU] + p.work[E.TRAINER])
        if not trainers or p.cash < 2 * SALARY * (1 + _salaried(state, player)):
            return None
        for t in (E.KITCHEN_TRAINEE, E.MANAGEMENT_TRAINEE, E.MARKETING_TRAINEE, E.ERRAND_BOY):
            if p.hand[t] > 0:
                return int(t)
        return None

    def _turn_order(self, game: Game, player: int, legal: list[Action]) -> Action | None:
        return min(legal, key=lambda a: a.args[0])

    # ------------------------------------------------------------------ phase 3

    def _recruit(self, game: Game, player: int, legal: list[Action]) -> Action | None:
        state = game.state
        hires = {a.args[0]: a for a in legal if a.kind == ActionKind.RECRUIT}
        for line, want in HIRING_PLAN:
            if line in hires and self._line_count(state, player, line) < want:
                return hires[line]
        for line in (E.KITCHEN_TRAINEE, E.WAITRESS, E.MARKETING_TRAINEE):
            if line in hires and self._line_count(state, player, line) < 5:
                return hires[line]
        return Action.pass_()

    def _train(self, game: Game, player: int, legal: list[Action]) -> Action | None:
        state = game.state
        p = state.players[player]
        moves = [a for a in legal if a.kind == ActionKind.TRAIN]
        if not moves:
            return None
        must = Action.pass_() not in legal  # a phantom hire must be trained
        affordable = p.cash >= SALARY * (2 + _salaried(state, player))
        if not (affordable or must):
            return Action.pass_()
        for source, goals in TRAIN_GOALS.items():
            for goal in goals:
                for move in moves:
                    if move.args[1] == source and move.args[2] == goal:
                        return move
        return moves[0] if must else Action.pass_()

    def _marketeer(self, game: Game, player: int, legal: list[Action]) -> Action | None:
        picks = [a for a in legal if a.kind == ActionKind.SELECT_MARKETEER]
        if not picks:
            return None
        values = self._house_values(game.state, player)
        if max(values.values(), default=0.0) <= 0.05:
            return Action.pass_()  # nothing worth advertising to
        return max(picks, key=lambda a: EMPLOYEES[a.args[0]].max_duration)

    def _campaign_tile(self, game: Game, player: int, legal: list[Action]) -> Action | None:
        best, best_score = None, -1.0
        for action in legal:
            trial = game.clone()
            trial.apply(action)
            spot, score = self._best_placement(trial.state, player, action.args[0], trial.legal_actions())
            if spot is None:
                continue
            if score > best_score:
                best, best_score = action, score
        return best

    def _campaign_place(self, game: Game, player: int, legal: list[Action]) -> Action | None:
        return self._best_placement(game.state, player, game.pending.context[-1], legal)[0]

    def _best_placement(self, state: GameState, player: int, number: int,
                        legal: list[Action]) -> tuple[Action | None, float]:
        """The first placement with the most value reached, and that value (house values computed once)."""
        values = self._house_values(state, player)
        grid = occupancy.house_grid(state)
        best, best_score = None, float("-inf")
        for action in legal:
            score = sum(values.get(n, 0.0) for n in self._reached(state, number, *action.args, grid=grid))
            if score > best_score:
                best, best_score = action, score
        return best, best_score

    def _reached(self, state: GameState, number: int, row: int, col: int, orientation: int, *,
                 grid: np.ndarray) -> tuple[int, ...]:
        board = state.board
        tile = marketing_tile(number)
        if tile.type == CampaignType.AIRPLANE:
            lane = placement.airplane_from_anchor(row, col, orientation, tile.along_edge, board)
            return board.houses_under_airplane(lane, grid)
        if tile.type == CampaignType.RADIO:
            return board.houses_near_tile(board.tile_at(row, col), grid)
        if tile.type == CampaignType.MAILBOX:
            return board.houses_in_block(board.block_at(row, col), grid)
        rows, cols = (tile.h, tile.w) if orientation == 0 else (tile.w, tile.h)
        return board.houses_next_to(row, col, rows, cols, grid)

    def _campaign_product(self, game: Game, player: int, legal: list[Action]) -> Action | None:
        food = self._main_food(game.state, player)
        return next((a for a in legal if a.args[0] == food), None)

    def _campaign_duration(self, game: Game, player: int, legal: list[Action]) -> Action | None:
        return max(legal, key=lambda a: a.args[0] if a.kind == ActionKind.CHOOSE_DURATION else -1)

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
        """Demand on the houses the player reaches, per good."""
        dist = self._distances(state, player)
        wanted: dict[int, float] = {}
        for n, house in state.houses.items():
            if dist[n] >= UNREACHABLE:
                continue
            for good in house.demand:
                wanted[good] = wanted.get(good, 0.0) + 1.0
        return wanted

    def _new_business(self, game: Game, player: int, legal: list[Action]) -> Action | None:
        state = game.state
        dist = self._distances(state, player)
        gardens = [a for a in legal if a.kind == ActionKind.PLACE_GARDEN]
        if gardens:
            grid = occupancy.house_grid(state)

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

    def _restaurant_manager(self, game: Game, player: int, legal: list[Action]) -> Action | None:
        p = game.state.players[player]
        new = [a for a in legal if a.kind == ActionKind.SELECT_RESTAURANT and a.args[1] == len(p.restaurants)]
        return new[0] if new else Action.pass_()

    def _restaurant_place(self, game: Game, player: int, legal: list[Action]) -> Action | None:
        return self._initial_restaurant(game, player, legal)

    # ------------------------------------------------------------------ phases 5 and 7

    def _fire(self, game: Game, player: int, legal: list[Action]) -> Action | None:
        if Action.pass_() in legal:
            return Action.pass_()  # only fire when the salaries cannot be paid
        state = game.state
        p = state.players[player]
        fires = [a for a in legal if a.kind == ActionKind.FIRE]
        order = {t: i for i, t in enumerate(PLAY_PRIORITY)}

        def usefulness(action: Action) -> tuple[int, int, int]:
            t = action.args[0]
            idle = int(p.beach[t] - p.fired[t] > 0)  # an idle card on the beach goes first
            return (-idle, -int(EMPLOYEES[t].salary), -order.get(t, len(order)))

        return min(fires, key=usefulness)

    def _freezer(self, game: Game, player: int, legal: list[Action]) -> Action | None:
        wanted = self._wanted_goods(game.state, player)
        keeps = [a for a in legal if a.kind == ActionKind.KEEP]
        if not keeps:
            return None
        food = self._main_food(game.state, player)
        return max(keeps, key=lambda a: (wanted.get(a.args[0], 0.0), a.args[0] == food))


class HeuristicHiddenModel:
    """A model of hidden choices for ``Game.determinize``: the other players are assumed to choose as
    this heuristic would, from what the determinization leaves them (public facts and their own cards).

    Reserve card: the heuristic's rule (the $200 card). Face-down Restructuring and firing: the
    heuristic's ``_restructure`` and ``_fire`` on the erased state, one atomic choice at a time.
    """

    def __init__(self) -> None:
        self._agent = HeuristicAgent(seed=0)

    def reserve(self, state: GameState, player: int, values: tuple[int, ...], rng: np.random.Generator) -> int:
        return min(values, key=lambda v: abs(v - 200))

    def choose(self, state: GameState, pending: Any, legal: list[Action], rng: np.random.Generator) -> Action:
        handler = getattr(self._agent, f"_{pending.decision.name.lower()}")
        choice = handler(Game(state), pending.player, legal)
        return choice if choice in legal else legal[0]

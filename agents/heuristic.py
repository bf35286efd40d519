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

Search agents play thousands of all-heuristic rollouts, so the answers are computed cheaply
without changing any of them (tests/agents/test_heuristic_speedup_guard.py replays recorded
games move for move): what depends only on the board and the houses' squares (road ranges,
a lone entrance's worth, the houses a campaign spot reaches) is remembered per house layout
(``_HouseLayout``), and answers that the legal actions alone decide (``FROM_LEGAL``) are given
without building a seat view (benchmarks/bench_rollout.py).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from operator import itemgetter
from typing import Any

import numpy as np

from fcm_env.data import EMPLOYEES, HOUSES, CampaignType, EmployeeType, Good, marketing_tile
from fcm_env.engine.actions import Action, ActionKind, Decision, Pending
from fcm_env.engine.board import UNREACHABLE, Board, occupancy, placement
from fcm_env.engine.game import ROUTES, Game
from fcm_env.engine.hidden.visibility import hidden_from
from fcm_env.engine.phases.restructuring import open_slots
from fcm_env.engine.state import GameState, House

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

#: card types that draw a salary, and the staff (non-manager) types of ``PLAY_PRIORITY``, as item getters
SALARIED = itemgetter(*(int(spec.type) for spec in EMPLOYEES if spec.salary))
STAFF = itemgetter(*(int(t) for t in PLAY_PRIORITY if not EMPLOYEES[t].is_manager))
#: the manager slots of each manager type
MANAGER_SLOTS: dict[int, int] = {int(spec.type): spec.manager_slots for spec in EMPLOYEES if spec.is_manager}
#: the method that answers each decision (``_<decision name>``; none: the first legal action)
HANDLERS: dict[Decision, str] = {decision: f"_{decision.name.lower()}" for decision in Decision}
#: the cards ``_train_reserve`` may keep on the beach for a trainer, in its order of preference
TRAIN_RESERVE: tuple[int, ...] = (E.KITCHEN_TRAINEE, E.MANAGEMENT_TRAINEE, E.MARKETING_TRAINEE, E.ERRAND_BOY)


def _salaried(state: GameState, player: int) -> int:
    p = state.players[player]
    return sum(SALARIED((p.work + p.beach + p.busy).tolist()))


def _action_order(action: Action) -> tuple:
    """The engine's order of legal actions (``Game.legal_actions`` sorts by kind, then arguments)."""
    return (action.kind, action.args)


# ------------------------------------------------------------------ what the houses' places decide


class _HouseLayout:
    """What the heuristic derives from the map and where the houses are, computed once per layout.

    Road ranges to the houses, the range grid of a lone entrance and the houses a campaign spot
    reaches depend only on the board (fixed) and on the houses' and gardens' squares (a new house
    or garden changes them; demand does not). A layout is found again by ``signature``
    (``occupancy.houses_key``: the board itself and every house's number, squares and garden,
    compared as they are), never by a move count, so a cached answer is never used for a map it
    was not computed on, whatever game, clone, seat view, loaded or hand-edited position asks.
    """

    def __init__(self, board: Board, houses: Mapping[int, House], signature: tuple):
        self.board = board
        self.signature = signature
        self.numbers = tuple(houses)
        self._squares = [[r * board.width + c for r, c in h.all_squares] for h in houses.values()]
        #: every house's squares (garden included) as flat map indices, house after house; where each starts
        self.flat = np.array([i for sq in self._squares for i in sq], dtype=np.intp)
        self.starts = np.cumsum([0] + [len(sq) for sq in self._squares[:-1]]).astype(np.intp)
        #: entrance squares (sorted tuple) -> ({house: range}, the houses in range) (``_reach``)
        self.distances: dict[tuple, tuple[dict[int, int], tuple[int, ...]]] = {}
        #: campaign reach key -> the houses it reaches (``HeuristicAgent._spot_reach``)
        self.reached: dict[tuple, tuple[int, ...]] = {}
        #: billboard rows x cols -> the bit set of the houses next to it, per anchor [row][col] (``rings``)
        self._rings: dict[tuple[int, int], list[list[int]]] = {}
        self._decoded: dict[int, tuple[int, ...]] = {}
        #: a lone entrance square -> (its range to each house, its "room to grow" term) (``_entrance_scores``)
        self.entrance: dict[tuple[int, int], tuple[np.ndarray, float]] = {}
        self._grid: np.ndarray | None = None

    @property
    def grid(self) -> np.ndarray:
        """``occupancy.house_grid`` of this layout (read it, never write it)."""
        if self._grid is None:
            grid = np.zeros(self.board.shape, dtype=np.int16)
            flat = grid.reshape(-1)
            for number, squares in zip(self.numbers, self._squares):
                flat[squares] = number
            grid.setflags(write=False)
            self._grid = grid
        return self._grid

    def rings(self, rows: int, cols: int) -> list[list[int]] | None:
        """For every anchor [row][col] of a rows x cols billboard, the houses orthogonally next to it
        (what ``Board.houses_next_to`` answers for one spot) as a bit set (bit n: house n), all
        anchors at once; None when a house number is too large for 63-bit sets. Exact for every
        anchor where the billboard fits on the map (legal spots): the squares above, below, left
        and right of it, cut at the map's edges, and not the billboard's own squares."""
        shape = (rows, cols)
        if shape not in self._rings:
            if max(self.numbers, default=0) > 62:
                return None
            grid = self.grid.astype(np.int64)
            bits = np.where(grid > 0, np.left_shift(1, grid), 0)
            H, W = bits.shape
            across = np.zeros_like(bits)  # across[r, c]: the houses on row r, columns c .. c+cols-1
            down = np.zeros_like(bits)  # down[r, c]: the houses on column c, rows r .. r+rows-1
            if cols <= W:
                across[:, :W - cols + 1] = np.bitwise_or.reduce(
                    [bits[:, k:k + W - cols + 1] for k in range(cols)], axis=0)
            if rows <= H:
                down[:H - rows + 1] = np.bitwise_or.reduce(
                    [bits[k:k + H - rows + 1] for k in range(rows)], axis=0)
            ring = np.zeros_like(bits)
            ring[1:] |= across[:-1]  # the row above
            ring[:H - rows] |= across[rows:]  # the row below
            ring[:, 1:] |= down[:, :-1]  # the column to the left
            ring[:, :W - cols] |= down[:, cols:]  # the column to the right
            self._rings[shape] = ring.tolist()
        return self._rings[shape]

    def houses_of(self, bits: int) -> tuple[int, ...]:
        """The house numbers of a bit set, ascending (as ``Board.houses_in`` lists them)."""
        found = self._decoded.get(bits)
        if found is None:
            found = self._decoded[bits] = tuple(n for n in range(bits.bit_length()) if bits >> n & 1)
        return found

    def house_ranges(self, grid: np.ndarray) -> np.ndarray:
        """Per house (in ``numbers`` order): the least value of a range grid over its squares."""
        if not self.numbers:
            return np.zeros(0, dtype=grid.dtype)
        return np.minimum.reduceat(grid.reshape(-1)[self.flat], self.starts)


#: the last few layouts seen, shared by every agent (a pure function's memo: see ``_HouseLayout``)
_LAYOUTS: OrderedDict[int, _HouseLayout] = OrderedDict()
_LAYOUTS_KEPT = 8
_MEMO_LIMIT = 4096  # entries per memo of one layout before it is emptied (a long search on one map)
_last: list[_HouseLayout] = []  # the layout found last: most calls ask for it again


def _layout(state: GameState) -> _HouseLayout:
    signature = occupancy.houses_key(state)
    if _last and _last[0].signature == signature:  # compared element by element: mostly identity checks
        return _last[0]
    key = hash(signature)
    layout = _LAYOUTS.get(key)
    if layout is None or layout.signature != signature:
        layout = _HouseLayout(state.board, state.houses, signature)
        _LAYOUTS[key] = layout
        if len(_LAYOUTS) > _LAYOUTS_KEPT:
            _LAYOUTS.popitem(last=False)
    else:
        _LAYOUTS.move_to_end(key)
    _last[:] = [layout]
    return layout


def _remember(memo: dict, key: Any, value: Any) -> Any:
    if len(memo) >= _MEMO_LIMIT:
        memo.clear()
    memo[key] = value
    return value


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
        decision = pending.decision
        handler = getattr(self, HANDLERS[decision], None)
        if handler is None:
            return legal[0]
        quick = FROM_LEGAL.get(decision)
        if quick is not None:
            choice = quick(legal)
            if choice is not None:
                return choice
        # the seat's view only: other players' hidden facts (reserve cards, face-down choices) erased;
        # where nothing is hidden from the seat that view is the game itself, so it is read as it is
        # (a search's rollouts ask for most of their moves here: a view costs about 10 us a move)
        hidden = hidden_from(game.state, player)
        view = game.seat_view(player) if hidden.reserves or hidden.structures or hidden.firings else game
        choice = handler(view, player, legal)
        return choice if choice is not None else legal[0]

    # ------------------------------------------------------------------ shared views

    def _distances(self, state: GameState, player: int) -> dict[int, int]:
        """Road range from the player's open restaurants to every house (``UNREACHABLE`` if none).

        The dict is remembered (``_reach``) and shared: read it, never change it.
        """
        return self._reach(state, player)[0]

    @staticmethod
    def _reach(state: GameState, player: int) -> tuple[dict[int, int], tuple[int, ...]]:
        """(``_distances``, the houses within reach), remembered per layout and entrance squares: the
        ranges depend on nothing else (the board is fixed; drive-ins and closed restaurants change the
        entrances)."""
        entrances = occupancy.entrances_of(state, player)
        layout = _layout(state)
        found = layout.distances.get(entrances)
        if found is not None:
            return found
        if not entrances:
            ranges = [UNREACHABLE] * len(layout.numbers)
        else:
            ranges = layout.house_ranges(state.board.ranges_from(entrances)).tolist()
        distances = dict(zip(layout.numbers, ranges))
        near = tuple(n for n, d in distances.items() if d < UNREACHABLE)
        return _remember(layout.distances, entrances, (distances, near))

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

    # ------------------------------------------------------------------ setup

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
        best = max(range(len(legal)), key=lambda i: scores[entrances[i]])  # the first best, as max(legal)
        return legal[best]

    @staticmethod
    def _entrance_scores(layout: _HouseLayout, entrances: list[tuple[int, int]],
                         other: np.ndarray | None) -> dict[tuple[int, int] | None, float]:
        """A restaurant entrance's worth: the houses it is close to (less where another chain is closer),
        and some room to grow nearby.

        Per house in map order: 1 / (1 + range), times 0.3 where another chain's entrance is closer,
        nothing for a house out of reach; summed house after house, then 0.2 x the share of the map
        within range 2. The sum runs left to right (``np.add.accumulate``) in float64, the same
        additions in the same order as a Python loop, so the scores (and the ties) are the same.
        """
        board = layout.board
        new = [e for e in entrances if e not in layout.entrance]
        if new:
            grids = board.ranges_from_each(new).reshape(len(new), -1)
            ranges = (np.minimum.reduceat(grids[:, layout.flat], layout.starts, axis=1) if layout.numbers
                      else np.zeros((len(new), 0), dtype=grids.dtype))
            room = 0.2 * (grids < 3).sum(axis=1).astype(np.float64) / grids.shape[1]
            for e, r, extra in zip(new, ranges, room.tolist()):
                _remember(layout.entrance, e, (r, extra))
        if not entrances:
            return {}
        known = [layout.entrance[e] for e in entrances]
        ranges = np.array([r for r, _ in known]).reshape(len(entrances), len(layout.numbers))
        room = np.array([extra for _, extra in known], dtype=np.float64)
        value = 1.0 / (1.0 + ranges)
        if other is not None:
            value = np.where(other[None, :] < ranges, value * 0.3, value)
        value = np.where(ranges >= UNREACHABLE, 0.0, value)
        total = np.add.accumulate(value, axis=1)[:, -1] if layout.numbers else np.zeros(len(entrances))
        return dict(zip(entrances, (total + room).tolist()))

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
        hand = p.hand.tolist()
        keep_on_beach = self._train_reserve(state, player, hand)
        staff_waiting = sum(STAFF(hand)) - (1 if keep_on_beach is not None else 0)
        managers = sorted((t for t in puts if t in MANAGER_SLOTS), key=lambda t: -MANAGER_SLOTS[t])
        if managers and staff_waiting > open_slots(p.work, state.ceo_slots) - 1:
            return puts[managers[0]]
        for t in PLAY_PRIORITY:
            if t in puts and not (t == keep_on_beach and hand[t] <= 1):
                return puts[t]
        return Action.pass_() if Action.pass_() in legal else None

    def _train_reserve(self, state: GameState, player: int, hand: list[int] | None = None) -> int | None:
        """A card to leave on the beach so that a trainer at work can train it (``hand``: as a list)."""
        p = state.players[player]
        if hand is None:
            hand = p.hand.tolist()
        trainers = hand[E.TRAINER] + hand[E.COACH] + hand[E.GURU] + int(p.work[E.TRAINER])
        if not trainers or p.cash < 2 * SALARY * (1 + _salaried(state, player)):
            return None
        for t in TRAIN_RESERVE:
            if hand[t] > 0:
                return int(t)
        return None

    def _turn_order(self, game: Game, player: int, legal: list[Action]) -> Action | None:
        return _turn_order_from_legal(legal)

    # ------------------------------------------------------------------ phase 3

    def _recruit(self, game: Game, player: int, legal: list[Action]) -> Action | None:
        state = game.state
        hires = {a.args[0]: a for a in legal if a.kind == ActionKind.RECRUIT}
        counts: dict[int, int] = {}  # cards owned per career line (the CEO, type 0, is in none)
        for t, n in enumerate(state.owned_cards(player).tolist()):  # eternal campaigns' marketeers included
            if n and t:
                line = LINE.get(t)
                if line is not None:
                    counts[line] = counts.get(line, 0) + n
        for line, want in HIRING_PLAN:
            if line in hires and counts.get(line, 0) < want:
                return hires[line]
        for line in (E.KITCHEN_TRAINEE, E.WAITRESS, E.MARKETING_TRAINEE):
            if line in hires and counts.get(line, 0) < 5:
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

    @staticmethod
    def _spot_reach(layout: _HouseLayout, number: int):
        """``(row, col, orientation) -> houses`` for a tile: the houses a campaign of that tile placed
        there advertises to (``Board.houses_*`` on the layout's house grid), remembered per layout.

        A billboard reaches the houses next to its rectangle (``_HouseLayout.rings``); a radio the
        houses of its tile's neighbourhood, a mailbox those of its block, an airplane those under
        its lane: spots that share the tile, block or lane share the answer.
        """
        board = layout.board
        tile = marketing_tile(number)
        kind = tile.type
        memo = layout.reached
        grid = layout.grid
        if kind == CampaignType.BILLBOARD:
            shapes = ((tile.h, tile.w), (tile.w, tile.h))
            rings = [layout.rings(*shape) for shape in shapes]
            if rings[0] is not None:
                def reached(row: int, col: int, orientation: int) -> tuple[int, ...]:
                    return layout.houses_of(rings[orientation != 0][row][col])
                return reached

            def reached(row: int, col: int, orientation: int) -> tuple[int, ...]:
                rows, cols = shapes[orientation != 0]
                return board.houses_next_to(row, col, rows, cols, grid)
            return reached
        if kind == CampaignType.AIRPLANE:
            size = tile.along_edge

            def find(row: int, col: int, orientation: int) -> tuple[tuple, Any]:
                lane = placement.airplane_from_anchor(row, col, orientation, size, board)
                key = (kind, lane.edge, lane.start, lane.size)
                return key, lambda: board.houses_under_airplane(lane, grid)
        elif kind == CampaignType.RADIO:
            def find(row: int, col: int, orientation: int) -> tuple[tuple, Any]:
                tile_index = board.tile_at(row, col)
                return (kind, tile_index), lambda: board.houses_near_tile(tile_index, grid)
        else:  # a mailbox
            def find(row: int, col: int, orientation: int) -> tuple[tuple, Any]:
                block = board.block_at(row, col)
                return (kind, block), lambda: board.houses_in_block(block, grid)

        def reached(row: int, col: int, orientation: int) -> tuple[int, ...]:
            key, compute = find(row, col, orientation)
            found = memo.get(key)
            return found if found is not None else _remember(memo, key, compute())
        return reached

    def _campaign_product(self, game: Game, player: int, legal: list[Action]) -> Action | None:
        food = self._main_food(game.state, player)
        return next((a for a in legal if a.args[0] == food), None)

    def _campaign_duration(self, game: Game, player: int, legal: list[Action]) -> Action | None:
        return _duration_from_legal(legal)

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


# ------------------------------------------------------------------ answers the legal actions alone decide
#
# Some answers do not depend on the position beyond its legal actions: ``act_on_game`` gives them without
# building a seat view (which costs more than the answer). Each function returns exactly what its decision's
# handler would, or None where the handler needs to read the position; a change to a handler must be made
# to its function here too (the golden games catch a mismatch), and a subclass that overrides a handler
# should drop its decision from ``FROM_LEGAL``.


def _turn_order_from_legal(legal: list[Action]) -> Action:
    return min(legal, key=lambda a: a.args[0])


def _duration_from_legal(legal: list[Action]) -> Action:
    return max(legal, key=lambda a: a.args[0] if a.kind == ActionKind.CHOOSE_DURATION else -1)


def _fire_from_legal(legal: list[Action]) -> Action | None:
    return Action.pass_() if Action.pass_() in legal else None  # ``_fire``: only when salaries cannot be paid


def _restructure_from_legal(legal: list[Action]) -> Action | None:
    """``_restructure`` reads the player's cards, cash and structure only to choose between a manager and
    staff (a manager can be put to work) or to keep a trainee on the beach (the card it would put to work
    first is one ``_train_reserve`` may keep): otherwise its answer is the first card of ``PLAY_PRIORITY``
    that may be put to work (nothing to put to work: the first legal action)."""
    puts = {a.args[0]: a for a in legal if a.kind == ActionKind.PUT_TO_WORK}
    if not puts:
        return legal[0]
    if any(t in MANAGER_SLOTS for t in puts):
        return None
    first = next((t for t in PLAY_PRIORITY if t in puts), None)
    if first is None or first in TRAIN_RESERVE:
        return None
    return puts[first]


def _produce_from_legal(legal: list[Action]) -> Action | None:
    """``_produce`` scores every production at least 2 and every haul at least 1, against 0 for passing:
    a single one of them is the answer whatever the wanted goods."""
    moves = [a for a in legal if a.kind in (ActionKind.PRODUCE, ActionKind.HAUL)]
    return moves[0] if len(moves) == 1 else None


def _freezer_from_legal(legal: list[Action]) -> Action | None:
    """``_freezer`` keeps the best of the goods it may keep: a single one is the answer."""
    keeps = [a for a in legal if a.kind == ActionKind.KEEP]
    return keeps[0] if len(keeps) == 1 else None


FROM_LEGAL = {
    Decision.TURN_ORDER: _turn_order_from_legal,
    Decision.PRODUCE: _produce_from_legal,
    Decision.FREEZER: _freezer_from_legal,
    Decision.CAMPAIGN_DURATION: _duration_from_legal,
    Decision.FIRE: _fire_from_legal,
    Decision.RESTRUCTURE: _restructure_from_legal,
}


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

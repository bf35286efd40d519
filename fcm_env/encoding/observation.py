"""The observation encoder: one player's view of a position as fixed-shape float32 arrays.

An observation is board planes ``C x 20 x 25`` (every map padded to the largest
one; the ``valid`` plane marks real squares) plus a flat vector, with the same
shape for every player count and variant (names in ``layout.observation_layout``).
Players appear relative to the observer in turn order. Hidden information goes
through ``visibility`` only, so what another player chose in secret never reaches
the arrays. Everything is written into preallocated buffers; the static map
planes are computed once per board and copied.
"""

from __future__ import annotations

from itertools import pairwise
from typing import NamedTuple

import numpy as np

from fcm_env.data import (
    DRINKS,
    EMPLOYEES,
    HOUSES,
    MARKETING_TILES,
    MILESTONES,
    PRICES,
    RESERVE_CARDS,
    CampaignType,
    Direction,
    EmployeeType,
    Good,
    Milestone,
    marketing_tile,
)
from fcm_env.engine.actions import Decision
from fcm_env.engine.board import Board
from fcm_env.engine.placement import RESTAURANT_ENTRANCE_OFFSETS, airplane_from_anchor, campaign_squares
from fcm_env.engine.state import GameState
from fcm_env.engine.tiles import BRIDGE

from . import visibility
from .action_codec import (
    BOARD_COLS,
    BOARD_ROWS,
    MARKETEER_TYPES,
    MAX_PLAYERS,
    RESTAURANT_MANAGER_TYPES,
    TRAINER_TYPES,
)
from .layout import (
    CEO_SLOT_VALUES,
    CONTEXT_SCALE,
    CONTEXT_SLOTS,
    DURATION_SCALE,
    HOUSE_NUMBER_SCALE,
    MIN_PLAYERS,
    MONEY_SCALE,
    PRICE_SCALE,
    ROUND_SCALE,
    STOCK_SCALE,
    SUPPLY_SCALE,
    ObservationLayout,
    observation_layout,
)

PRICE_DELTA = np.array([s.price_delta for s in EMPLOYEES], dtype=np.int32)
LOWER_PRICES_DELTA = int(MILESTONES[Milestone.FIRST_LOWER_PRICES].effect_params["unit_price_delta"])
DRIVE_IN_TYPES = np.array([int(s.type) for s in EMPLOYEES if s.drive_in or s.restaurant_placement])
RESERVE_INDEX = {c.value: c.index for c in RESERVE_CARDS}
TILE_INDEX = {t.number: i for i, t in enumerate(MARKETING_TILES)}
HOUSE_INDEX = {n: i for i, n in enumerate(HOUSES.numbers)}
MARKETEER_INDEX = {int(t): i for i, t in enumerate(MARKETEER_TYPES)}
MANAGER_INDEX = {int(t): i for i, t in enumerate(RESTAURANT_MANAGER_TYPES)}
CAMPAIGN_DECISIONS = (
    Decision.CAMPAIGN_TILE, Decision.CAMPAIGN_PLACE, Decision.CAMPAIGN_PRODUCT, Decision.CAMPAIGN_DURATION,
)
_CACHE_SIZE = 8
NUM_TYPES = len(EMPLOYEES)
NUM_GOODS = len(Good)
NUM_MILESTONES = len(Milestone)
TRAINER_INDEX = {int(t): i for i, t in enumerate(TRAINER_TYPES)}
#: open slots = CEO slots + work @ SLOT_WEIGHT: managers add their slots, every placed card takes one
SLOT_WEIGHT = np.array(
    [0 if s.type == EmployeeType.CEO else (s.manager_slots if s.is_manager else 0) - 1 for s in EMPLOYEES],
    dtype=np.int32,
)


_LAYOUT = observation_layout()
BOARD_SHAPE: tuple[int, int, int] = _LAYOUT.board_shape
VECTOR_SIZE: int = _LAYOUT.vector_size
FLAT_SIZE: int = _LAYOUT.flat_size


class Observation(NamedTuple):
    board: np.ndarray  # float32 [C, 20, 25]
    vector: np.ndarray  # float32 [V]


class Observer:
    """Encodes positions for any observing player into fixed-shape float32 arrays.

    One instance per env (it caches the static planes of the last few boards).
    ``observe`` fills (or allocates) an :class:`Observation`; ``observe_flat`` fills
    one flat ``float32[flat_size]`` vector (the board planes in C order, then the
    vector), as a Box for an MLP.
    """

    def __init__(self) -> None:
        self.layout: ObservationLayout = observation_layout()
        lay = self.layout
        self.board_shape = lay.board_shape
        self.vector_size = lay.vector_size
        self.flat_size = lay.flat_size
        self._ch = {c.name: c.index for c in lay.channels}
        self._sl = {v.name: v.slice for v in lay.vector}
        self._o = {v.name: v.start for v in lay.vector}
        self._f = {f.name: f.start for f in lay.player_block}
        self._block = lay.player_block[-1].stop
        self._num_static = self._ch["drink_soda"] + 1
        self._static: dict[int, tuple[Board, np.ndarray]] = {}
        self._houses: dict[tuple, _HouseIndex] = {}
        _check_consecutive(self._f, ("hand", "work", "beach", "busy", "fired"), NUM_TYPES)
        _check_consecutive(self._o, ("turn_phantoms", "turn_locked", "turn_used"), NUM_TYPES)

    # ------------------------------------------------------------------ public API

    def new_observation(self) -> Observation:
        return Observation(
            np.zeros(self.board_shape, dtype=np.float32), np.zeros(self.vector_size, dtype=np.float32)
        )

    def observe(self, game: object, player: int, out: Observation | None = None) -> Observation:
        """``player``'s observation of ``game`` (a ``Game`` or ``GameState``), written into ``out``."""
        if out is None:
            out = self.new_observation()
        elif (out.board.shape != self.board_shape or out.vector.shape != (self.vector_size,)
              or out.board.dtype != np.float32 or out.vector.dtype != np.float32):
            raise ValueError(f"out must hold float32 arrays of shapes {self.board_shape} and ({self.vector_size},)")
        self._write(_state_of(game), player, out.board, out.vector)
        return out

    def observe_flat(self, game: object, player: int, out: np.ndarray | None = None) -> np.ndarray:
        """The observation as one flat float32 vector: board planes (C order), then the vector."""
        if out is None:
            out = np.zeros(self.flat_size, dtype=np.float32)
        elif out.shape != (self.flat_size,) or out.dtype != np.float32:
            raise ValueError(f"out must be a float32 array of shape ({self.flat_size},)")
        split = self.layout.board_size
        self._write(_state_of(game), player, out[:split].reshape(self.board_shape), out[split:])
        return out

    # ------------------------------------------------------------------ writing

    def _write(self, state: GameState, observer: int, board: np.ndarray, vec: np.ndarray) -> None:
        n = state.num_players
        if not 0 <= int(observer) < n:
            raise ValueError(f"player must be 0..{n - 1}, got {observer}")
        observer = int(observer)
        board[...] = 0.0
        vec[...] = 0.0
        seats = {p: s for s, p in enumerate(state.turn_order)}
        me = seats[observer]
        rel = [(seats[p] - me) % n for p in range(n)]
        board[:self._num_static] = self._static_planes(state.board)
        self._write_houses(state, board)
        self._write_restaurants(state, board, rel)
        self._write_campaigns(state, board, rel)
        self._write_globals(state, observer, vec, rel)
        self._write_context(state, observer, board, vec)
        self._write_players(state, observer, seats, vec, rel)

    def _static_planes(self, board: Board) -> np.ndarray:
        hit = self._static.get(id(board))
        if hit is not None and hit[0] is board:
            return hit[1]
        planes = _static_planes(board, self._ch, self._num_static)
        if len(self._static) >= _CACHE_SIZE:
            self._static.pop(next(iter(self._static)))
        self._static[id(board)] = (board, planes)
        return planes

    def _house_index(self, state: GameState) -> _HouseIndex:
        """Square index arrays of the houses on the map (cached: houses rarely change)."""
        key = tuple((n, h.squares, h.garden) for n, h in state.houses.items())
        try:
            hit = self._houses.get(key)
        except TypeError:  # squares held in lists (a hand-made state): no caching
            return _HouseIndex(key)
        if hit is None:
            hit = _HouseIndex(key)
            if len(self._houses) >= _CACHE_SIZE:
                self._houses.pop(next(iter(self._houses)))
            self._houses[key] = hit
        return hit

    def _write_houses(self, state: GameState, board: np.ndarray) -> None:
        ch = self._ch
        idx = self._house_index(state)
        if not idx.numbers:
            return
        board[ch["house"], idx.rows, idx.cols] = 1.0
        board[ch["house_number"], idx.rows, idx.cols] = idx.number_values
        board[ch["garden"], idx.garden_rows, idx.garden_cols] = 1.0
        counts = np.zeros((len(idx.numbers), NUM_GOODS), dtype=np.float32)
        any_demand = False
        for i, house in enumerate(state.houses.values()):
            for good in house.demand:
                counts[i, good] += 1.0
                any_demand = True
        if any_demand:
            demand0 = ch["demand_burger"]
            board[demand0:demand0 + NUM_GOODS, idx.rows, idx.cols] = counts[idx.house_of_square].T

    def _write_restaurants(self, state: GameState, board: np.ndarray, rel: list[int]) -> None:
        chans, rows, cols = [], [], []
        r0, e0, soon = self._ch["restaurant_p0"], self._ch["entrance_p0"], self._ch["coming_soon"]
        for p in state.players:
            k = rel[p.player]
            for r in p.restaurants:
                dr, dc = RESTAURANT_ENTRANCE_OFFSETS[r.orientation]
                chans += [r0 + k] * 4 + [e0 + k]
                rows += [r.row, r.row, r.row + 1, r.row + 1, r.row + dr]
                cols += [r.col, r.col + 1, r.col, r.col + 1, r.col + dc]
                if r.coming_soon:
                    chans += [soon] * 4
                    rows += [r.row, r.row, r.row + 1, r.row + 1]
                    cols += [r.col, r.col + 1, r.col, r.col + 1]
        if chans:
            board[chans, rows, cols] = 1.0

    def _write_campaigns(self, state: GameState, board: np.ndarray, rel: list[int]) -> None:
        ch = self._ch
        kind0, prod0, own0 = ch["campaign_billboard"], ch["campaign_product_burger"], ch["campaign_owner_p0"]
        remaining, eternal = ch["campaign_remaining"], ch["campaign_eternal"]
        for c in state.campaigns:
            area = _campaign_area(state.board, c.kind, c.number, c.row, c.col, c.orientation, c.squares)
            board[kind0 + c.kind][area] += 1.0
            board[prod0 + c.product][area] += 1.0
            board[own0 + rel[c.owner]][area] += 1.0
            board[remaining][area] += c.remaining / DURATION_SCALE
            if c.eternal:
                board[eternal][area] += 1.0

    def _write_globals(self, state: GameState, observer: int, vec: np.ndarray, rel: list[int]) -> None:
        o = self._o
        vec[o["phase"] + int(state.phase)] = 1.0
        if state.pending:
            pending = state.pending[-1]
            vec[o["decision"] + int(pending.decision)] = 1.0
            vec[o["decider"] + rel[pending.player]] = 1.0
            vec[o["observer_to_move"]] = float(pending.player == observer)
        vec[o["round"]] = state.round / max(state.max_rounds, 1)
        vec[o["round_abs"]] = state.round / ROUND_SCALE
        vec[o["num_players"] + state.num_players - MIN_PLAYERS] = 1.0
        vec[o["standard"]] = float(state.variant == "standard")
        vec[o["bank"]] = state.bank / MONEY_SCALE
        vec[o["bank_debt"]] = state.bank_debt / MONEY_SCALE
        vec[o["bank_breaks"] + min(state.bank_breaks, 2)] = 1.0
        vec[o["reserve_revealed"]] = float(state.reserve_revealed)
        if state.ceo_slots in CEO_SLOT_VALUES:
            vec[o["ceo_slots"] + CEO_SLOT_VALUES.index(state.ceo_slots)] = 1.0
        vec[o["structure_revealed"]] = float(state.structure_revealed)
        vec[o["firing_revealed"]] = float(state.firing_revealed)
        start = o["supply"]
        vec[start:start + NUM_TYPES] = state.supply
        vec[start:start + NUM_TYPES] /= SUPPLY_SCALE
        for number in state.marketing_supply:
            vec[o["marketing_supply"] + TILE_INDEX[number]] = 1.0
        for number in state.house_supply:
            vec[o["house_supply"] + HOUSE_INDEX[number]] = 1.0
        vec[o["gardens_left"]] = state.gardens_left / HOUSES.garden_tokens
        if state.uses_milestones:
            start = o["milestones_available"]
            vec[start:start + NUM_MILESTONES] = 1.0
            for m in state.milestones_gone:
                vec[start + int(m)] = 0.0
        for m in state.milestones_this_turn:
            vec[o["milestones_this_turn"] + int(m)] = 1.0
        turn = state.turn
        vec[o["turn_hires"]] = turn.hires / 4.0
        vec[o["turn_recruits_left"]] = turn.recruits_left / 4.0
        for trainer, left in turn.trainers:
            if trainer in TRAINER_INDEX:
                vec[o["turn_trainer_actions"] + TRAINER_INDEX[trainer]] += left / 3.0
        start = o["turn_phantoms"]  # phantoms, locked, used: consecutive
        vec[start:start + 3 * NUM_TYPES] = np.concatenate((turn.phantoms, turn.locked, turn.used))

    def _write_context(self, state: GameState, observer: int, board: np.ndarray, vec: np.ndarray) -> None:
        """The pending record's context: raw ints, plus named fields for the decisions that chain."""
        if not visibility.context_visible(state, observer):
            return
        sl = self._sl
        pending = state.pending[-1]
        ctx = pending.context
        if not ctx:
            return
        raw = ctx[:CONTEXT_SLOTS]
        start = sl["context"].start
        vec[start:start + len(raw)] = np.asarray(raw, dtype=np.float32) / CONTEXT_SCALE
        vec[sl["context_length"]] = len(ctx) / CONTEXT_SLOTS
        d = pending.decision
        if d == Decision.INITIAL_RESTAURANT:
            vec[sl["ctx_setup_second_round"]] = float(ctx[0] == 2)
        elif d in CAMPAIGN_DECISIONS:
            _one_hot(vec, sl["ctx_marketeer"], MARKETEER_INDEX.get(ctx[0]))
            if len(ctx) >= 2:
                _one_hot(vec, sl["ctx_campaign_tile"], TILE_INDEX.get(ctx[1]))
            if len(ctx) >= 5:
                tile = marketing_tile(ctx[1])
                area = _campaign_area(state.board, int(tile.type), ctx[1], ctx[2], ctx[3], ctx[4], None)
                board[self._ch["pending_piece"]][area] = 1.0
            if len(ctx) >= 6:
                _one_hot(vec, sl["ctx_product"], ctx[5])
        elif d == Decision.HOUSE_PLACE:
            _one_hot(vec, sl["ctx_house"], HOUSE_INDEX.get(ctx[0]))
        elif d == Decision.RESTAURANT_PLACE and len(ctx) >= 2:
            manager, index = ctx[0], ctx[1]
            _one_hot(vec, sl["ctx_restaurant_manager"], MANAGER_INDEX.get(manager))
            restaurants = state.players[pending.player].restaurants
            _one_hot(vec, sl["ctx_restaurant_index"], index)
            vec[sl["ctx_restaurant_new"]] = float(index >= len(restaurants))
            if index < len(restaurants):
                r = restaurants[index]
                board[self._ch["pending_piece"], r.row:r.row + 2, r.col:r.col + 2] = 1.0
        elif d == Decision.FREEZER:
            kept = ctx[:NUM_GOODS]
            start = sl["ctx_freezer_kept"].start
            vec[start:start + len(kept)] = np.asarray(kept, dtype=np.float32) / STOCK_SCALE

    def _write_players(self, state: GameState, observer: int, seats: dict[int, int], vec: np.ndarray,
                       rel: list[int]) -> None:
        """Every player's block, vectorised over the players (the card pools are most of it)."""
        n = state.num_players
        f = self._f
        p0 = self._o["player0"]
        blocks = vec[p0:p0 + MAX_PLAYERS * self._block].reshape(MAX_PLAYERS, self._block)
        views = [visibility.visible_cards(state, observer, p) for p in range(n)]
        pools = np.concatenate([a for v in views for a in v[:5]]).reshape(n, 5 * NUM_TYPES)
        work = pools[:, NUM_TYPES:2 * NUM_TYPES]
        slots = rel
        blocks[slots, f["hand"]:f["hand"] + 5 * NUM_TYPES] = pools  # hand, work, beach, busy, fired
        blocks[slots, f["open_slots"]] = (state.ceo_slots + work @ SLOT_WEIGHT) / 10.0
        blocks[slots, f["drive_in"]] = work[:, DRIVE_IN_TYPES].any(axis=1)
        prices = PRICES.base_unit_price + work @ PRICE_DELTA
        stock = np.concatenate([p.stock for p in state.players]).reshape(n, NUM_GOODS)
        blocks[slots, f["stock"]:f["stock"] + NUM_GOODS] = stock / STOCK_SCALE
        decider = state.pending[-1].player if state.pending else -1
        per_restaurant = 1.0 / PRICES.restaurants_per_player
        for player, p in enumerate(state.players):
            b = blocks[slots[player]]
            view = views[player]
            b[f["present"]] = 1.0
            b[f["to_move"]] = float(player == decider)
            b[f["seat"] + seats[player]] = 1.0
            b[f["cash"]] = p.cash / MONEY_SCALE
            b[f["bankrupt"]] = float(p.bankrupt)
            b[f["structure_hidden"]] = float(view.structure_hidden)
            b[f["firing_hidden"]] = float(view.firing_hidden)
            price = int(prices[player])
            if Milestone.FIRST_LOWER_PRICES in p.milestones:
                price += LOWER_PRICES_DELTA
            b[f["unit_price"]] = price / PRICE_SCALE
            if p.restaurants:
                b[f["restaurants"]] = len(p.restaurants) * per_restaurant
                b[f["coming_soon"]] = sum(r.coming_soon for r in p.restaurants) * per_restaurant
            b[f["income"]] = p.income / MONEY_SCALE
            b[f["recruit_discounts"]] = p.recruit_discounts / 4.0
            for m in p.milestones:
                b[f["milestones"] + int(m)] = 1.0
            if visibility.reserve_visible(state, observer, player) and p.reserve in RESERVE_INDEX:
                b[f["reserve_known"]] = 1.0
                b[f["reserve"] + RESERVE_INDEX[p.reserve]] = 1.0
            if player < len(state.spots) and 0 <= state.spots[player] < MAX_PLAYERS:
                b[f["turn_spot"] + state.spots[player]] = 1.0


class _HouseIndex:
    """Flat index arrays over the squares of a set of houses (one entry per house square)."""

    def __init__(self, key: tuple[tuple[int, tuple, tuple], ...]):
        self.numbers = tuple(n for n, _, _ in key)
        rows, cols, owner, values, grows, gcols = [], [], [], [], [], []
        for i, (number, squares, garden) in enumerate(key):
            for r, c in squares:
                rows.append(r)
                cols.append(c)
                owner.append(i)
                values.append(number / HOUSE_NUMBER_SCALE)
            for r, c in garden:
                grows.append(r)
                gcols.append(c)
        self.rows = np.array(rows, dtype=np.intp)
        self.cols = np.array(cols, dtype=np.intp)
        self.house_of_square = np.array(owner, dtype=np.intp)
        self.number_values = np.array(values, dtype=np.float32)
        self.garden_rows = np.array(grows, dtype=np.intp)
        self.garden_cols = np.array(gcols, dtype=np.intp)


# ------------------------------------------------------------------ helpers


def _state_of(game: object) -> GameState:
    state = getattr(game, "state", game)
    if not isinstance(state, GameState):
        raise TypeError(f"expected a Game or GameState, got {type(game).__name__}")
    return state


def _rows_cols(squares: tuple[tuple[int, int], ...]) -> tuple[list[int], list[int]]:
    return [r for r, _ in squares], [c for _, c in squares]


def _check_consecutive(offsets: dict[str, int], names: tuple[str, ...], size: int) -> None:
    for a, b in pairwise(names):
        if offsets[b] != offsets[a] + size:
            raise AssertionError(f"layout: {b} must follow {a}")


def _one_hot(vec: np.ndarray, where: slice, index: int | None) -> None:
    if index is not None and 0 <= index < where.stop - where.start:
        vec[where.start + index] = 1.0


def _campaign_area(board: Board, kind: int, number: int, row: int, col: int, orientation: int,
                   squares: tuple[tuple[int, int], ...] | None) -> tuple[slice, slice] | tuple[list[int], list[int]]:
    """Index into a 20 x 25 plane for a campaign: its squares, or an airplane's rows / columns."""
    tile = marketing_tile(number)
    if kind == CampaignType.AIRPLANE:
        lane = airplane_from_anchor(row, col, orientation, tile.along_edge, board)
        span = slice(lane.start, lane.start + lane.size)
        if lane.edge in (Direction.N, Direction.S):
            return slice(0, board.height), span
        return span, slice(0, board.width)
    if squares is None:
        squares = campaign_squares(row, col, orientation, tile)
    return _rows_cols(squares)


def _static_planes(board: Board, ch: dict[str, int], count: int) -> np.ndarray:
    """The planes that never change during a game: the map, roads, tiles, drink sources."""
    planes = np.zeros((count, BOARD_ROWS, BOARD_COLS), dtype=np.float32)
    H, W = board.shape
    planes[ch["valid"], :H, :W] = 1.0
    planes[ch["road"], :H, :W] = board.road_mask
    planes[ch["bridge"], :H, :W] = board.kind == BRIDGE
    link = {d: ch[f"road_link_{d.name}"] for d in Direction}
    for node, neighbours in enumerate(board.node_neighbors):
        r, c = divmod(int(board.node_square[node]), W)
        for d, _ in neighbours:
            planes[link[d], r, c] = 1.0
    tile_rows = np.arange(H)[:, None] // (H // board.tile_rows)
    tile_cols = np.arange(W)[None, :] // (W // board.tile_cols)
    planes[ch["tile_parity"], :H, :W] = (tile_rows + tile_cols) % 2
    for good in DRINKS:
        planes[ch[f"drink_{good.name.lower()}"], :H, :W] = board.drink == int(good)
    planes.setflags(write=False)
    return planes


"""The observation encoder: one player's view of a position as fixed-shape float32 arrays.

An observation is board planes ``C x 20 x 25`` (every map padded to the largest
one; the ``valid`` plane marks real squares) plus a flat vector, with the same
shape for every player count and variant (names in ``layout.observation_layout``).
Players appear relative to the observer in turn order. Hidden information goes
through ``visibility`` only, so what another player chose in secret never reaches
the arrays. Everything is written into preallocated buffers.

Speed (``benchmarks/bench_step.py``): most of an observation changes rarely, so
its parts are cached under keys made of exactly the state they are drawn from,
and a step redraws only what it changed: the static map planes (by board), the
houses, restaurants and campaigns (their nonzero entries, scattered into the
zeroed planes), the table part of the vector (round, bank, tiles, milestones),
the employee piles, and each player's block (by everything it shows but
``to_move`` and the reserve card, written afterwards). A key is compared, never
trusted: a hand-edited state gets the same bytes as a played one
(``tests/encoding/test_step_golden.py`` pins them).

With numba installed, the player blocks and the vector's head (decision, table, piles,
turn) are written afresh by compiled kernels (``compiled``), which cost less than the
cache keys; the bytes are the same (``tests/encoding/test_compiled.py``). The envs keep
each agent's observation in place and skip the map when the engine's move stamps say it
did not change (``rows.ObservationRows``).

Hidden information in the compiled block kernel follows ``visibility.visible_cards``
(the one rule written twice, compared by that test).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from itertools import pairwise
from typing import Any, NamedTuple

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
from fcm_env.engine.board.placement import RESTAURANT_ENTRANCE_OFFSETS, airplane_from_anchor, campaign_squares
from fcm_env.engine.board.tiles import BRIDGE
from fcm_env.engine.game import DEFAULT_MAX_ROUNDS
from fcm_env.engine.state import GameState

from . import compiled as kernels
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
CEO_SLOT_INDEX = {slots: i for i, slots in enumerate(CEO_SLOT_VALUES)}
MARKETEER_INDEX = {int(t): i for i, t in enumerate(MARKETEER_TYPES)}
MANAGER_INDEX = {int(t): i for i, t in enumerate(RESTAURANT_MANAGER_TYPES)}
CAMPAIGN_DECISIONS = (
    Decision.CAMPAIGN_TILE, Decision.CAMPAIGN_PLACE, Decision.CAMPAIGN_PRODUCT, Decision.CAMPAIGN_DURATION,
)
_STATIC_CACHE_SIZE = 8  # boards
_LAYER_CACHE_SIZE = 16  # per layer of pieces: a few positions x up to five observers
_TABLE_CACHE_SIZE = 16
_PLAYER_CACHE_SIZE = 256  # player blocks: a few versions of each player, seen by each observer
_MISSING = object()
#: the vector fields that change at most a few times a round, written from a cache as one slice
TABLE_FIELDS = (
    "round", "round_abs", "num_players", "standard", "bank", "bank_debt", "bank_breaks", "reserve_revealed",
    "ceo_slots", "structure_revealed", "firing_revealed", "supply", "marketing_supply", "house_supply",
    "gardens_left", "milestones_available", "milestones_this_turn",
)
NUM_TYPES = len(EMPLOYEES)
_STOCK_SCALE32 = np.float32(STOCK_SCALE)
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

    def __init__(self, compiled: bool | None = None) -> None:
        """``compiled``: write the player blocks and the table with the numba kernels
        (``fcm_env.encoding.compiled``); None (default): when numba is installed. Both give the same bytes."""
        self.layout: ObservationLayout = observation_layout()
        lay = self.layout
        self.board_shape = lay.board_shape
        self.vector_size = lay.vector_size
        self.flat_size = lay.flat_size
        self._board_size = lay.board_size
        self._ch = {c.name: c.index for c in lay.channels}
        self._sl = {v.name: v.slice for v in lay.vector}
        self._o = {v.name: v.start for v in lay.vector}
        self._f = {f.name: f.start for f in lay.player_block}
        self._block = lay.player_block[-1].stop
        use = compiled is not False
        self._block_writer = kernels.block_writer() if use else None
        self._head_writer = kernels.head_writer() if use else None
        if compiled and self._block_writer is None:
            raise RuntimeError("compiled=True needs numba: pip install \"fcm-magnate[fast]\"")
        self._to_move, self._reserve_known, self._reserve = (self._f[k] for k in ("to_move", "reserve_known", "reserve"))
        self._num_static = self._ch["drink_soda"] + 1  # the static planes come first
        self._static = _KeyCache(_STATIC_CACHE_SIZE)  # board -> its static planes
        #: houses, restaurants, campaigns: their channels, and the nonzero entries of their planes by what
        #: they are drawn from
        self._layers = {
            name: (self._ch[first], self._ch[last] + 1, _KeyCache(_LAYER_CACHE_SIZE))
            for name, first, last in (
                ("houses", "house", "demand_soda"),
                ("restaurants", "restaurant_p0", "coming_soon"),
                ("campaigns", "campaign_billboard", "campaign_eternal"),
            )
        }
        #: the player (slot) whose piece each channel shows; MAX_PLAYERS for the channels of no player
        self._owner_of_channel = np.full(self.board_shape[0], MAX_PLAYERS, dtype=np.intp)
        for first in ("restaurant_p0", "entrance_p0", "campaign_owner_p0"):
            self._owner_of_channel[self._ch[first]:self._ch[first] + MAX_PLAYERS] = np.arange(MAX_PLAYERS)
        self._merged = _KeyCache(_LAYER_CACHE_SIZE)  # the three layers as one, by the layers' identities
        self._table_span = _span(lay, TABLE_FIELDS)
        self._tables = _KeyCache(_TABLE_CACHE_SIZE)  # the table part of the vector, by the state it shows
        self._player_blocks = _KeyCache(_PLAYER_CACHE_SIZE)  # by everything a block shows
        self._block_by_version = _KeyCache(_PLAYER_CACHE_SIZE)  # by move stamp (ObservationRows)
        self._work_features = _KeyCache(_PLAYER_CACHE_SIZE)  # by (CEO slots, visible cards at work)
        self._supplies = _KeyCache(_TABLE_CACHE_SIZE)  # employee piles / SUPPLY_SCALE, by the piles
        _check_consecutive(self._f, ("hand", "work", "beach", "busy", "fired"), NUM_TYPES)

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
        if out.board.flags.c_contiguous:
            self._write(_state_of(game), player, out.board, out.vector)
        else:  # the map layers are written through a flat view of the planes
            board = np.zeros(self.board_shape, dtype=np.float32)
            self._write(_state_of(game), player, board, out.vector)
            out.board[...] = board
        return out

    def observe_flat(self, game: object, player: int, out: np.ndarray | None = None) -> np.ndarray:
        """The observation as one flat float32 vector: board planes (C order), then the vector."""
        if out is None:
            out = np.zeros(self.flat_size, dtype=np.float32)
        elif out.shape != (self.flat_size,) or out.dtype != np.float32:
            raise ValueError(f"out must be a float32 array of shape ({self.flat_size},)")
        split = self._board_size
        self._write(_state_of(game), player, out[:split].reshape(self.board_shape), out[split:])
        return out

    # ------------------------------------------------------------------ writing

    def _write(self, state: GameState, observer: int, board: np.ndarray, vec: np.ndarray,
               seats: tuple[int, list[int], list[int]] | None = None) -> None:
        me, by_slot, rel = seats or self.seats(state, observer)
        self._write_map(state, board, rel)
        vec[...] = 0.0
        self._write_globals(state, observer, vec, rel)
        self._write_context(state, observer, board, vec)
        self._write_players(state, observer, by_slot, me, vec)

    def seats(self, state: GameState, observer: int) -> tuple[int, list[int], list[int]]:
        """The observer's seat, the player id in each relative slot (0 = the observer), each player's slot."""
        n = state.num_players
        if not 0 <= int(observer) < n:
            raise ValueError(f"player must be 0..{n - 1}, got {observer}")
        observer = int(observer)
        # players who left the turn order (bankrupt, C21/D45) follow it, by id, so that they can
        # still observe the end of the game
        order = state.turn_order
        if len(order) < n:
            order = order + [p for p in range(n) if p not in order]
        me = order.index(observer)
        by_slot = order[me:] + order[:me]  # player id in each relative slot (0 = the observer)
        rel = [0] * n
        for slot, player in enumerate(by_slot):
            rel[player] = slot
        return me, by_slot, rel

    def _write_map(self, state: GameState, board: np.ndarray, rel: list[int]) -> None:
        """Every board plane: the static ones copied, the others zeroed, then the pieces scattered in."""
        num_static = self._num_static
        board[:num_static] = self._static.get(state.board, _static_planes, state.board, self._ch, num_static)
        board[num_static:] = 0.0
        pieces = self.map_pieces(state, rel)
        if pieces.values.size:
            board.reshape(-1)[pieces.index] = pieces.values  # a view: the board is C-contiguous

    def map_pieces(self, state: GameState, rel: list[int]) -> _Layer:
        """The houses, restaurants and campaigns as one set of nonzero board entries.

        Each layer of pieces is cached under a key holding everything it is drawn from.
        """
        # keys: everything each layer is drawn from (list comprehensions: cheaper than generators here)
        houses = tuple([(number, h.squares, h.garden, *h.demand) for number, h in state.houses.items()])
        restaurants = tuple([
            (rel[p.player], r.row, r.col, r.orientation, r.coming_soon) for p in state.players for r in p.restaurants
        ])
        campaigns = (state.board, tuple([
            (c.number, c.kind, rel[c.owner], c.product, c.remaining, c.eternal, c.row, c.col, c.orientation, c.squares)
            for c in state.campaigns
        ]))
        layers = []
        for name, key, draw in (
            ("houses", houses, lambda planes: self._write_houses(state, planes)),
            ("restaurants", restaurants, lambda planes: self._write_restaurants(state, planes, rel)),
            ("campaigns", campaigns, lambda planes: self._write_campaigns(state, planes, rel)),
        ):
            start, stop, cache = self._layers[name]
            layers.append(cache.get(key, self._draw_layer, draw, start, stop))
        # keyed by the layers' identities: the entry holds the layers, so no id is reused while it is cached
        return self._merged.get(tuple([id(layer) for layer in layers]), _merge_layers, layers)[1]

    def owned_pieces(self, state: GameState) -> _OwnedLayer:
        """``map_pieces`` as player 0 in slot 0, player 1 in slot 1, ..., with each entry's owner.

        ``owner`` is the player id for the entries of the owner channels, ``MAX_PLAYERS`` for the rest.
        """
        pieces = self.map_pieces(state, list(range(state.num_players)))
        owner = self._owner_of_channel[pieces.index // (self.board_shape[1] * self.board_shape[2])]
        return _OwnedLayer(pieces.index, pieces.values, owner)

    def _draw_layer(self, draw: Callable[[np.ndarray], None], start: int, stop: int) -> _Layer:
        """Draw a layer on a blank board and keep the nonzero entries of its channels."""
        planes = np.zeros(self.board_shape, dtype=np.float32)
        draw(planes)
        return _Layer.of(planes, start, stop)

    def _write_houses(self, state: GameState, board: np.ndarray) -> None:
        ch = self._ch
        idx = _HouseIndex(tuple((n, h.squares, h.garden) for n, h in state.houses.items()))
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
        turn = state.turn
        write = self._head_writer
        if write is not None:  # compiled (fcm_env.encoding.compiled): no table cache needed
            pending = state.pending[-1] if state.pending else None
            tiles = _tile_bits(tuple(state.marketing_supply))
            houses = _house_bits(tuple(state.house_supply))
            gone = this_turn = 0
            for m in state.milestones_gone:
                gone |= 1 << m
            for m in state.milestones_this_turn:
                this_turn |= 1 << m
            write(vec, int(state.phase), -1 if pending is None else int(pending.decision),  # ints: numba types an enum slowly
                  0 if pending is None else rel[pending.player], pending is not None and pending.player == observer,
                  state.round, DEFAULT_MAX_ROUNDS if state.max_rounds is None else state.max_rounds,
                  state.num_players - MIN_PLAYERS, state.variant == "standard", state.bank, state.bank_debt,
                  state.bank_breaks, state.reserve_revealed, CEO_SLOT_INDEX.get(state.ceo_slots, -1),
                  state.structure_revealed, state.firing_revealed, state.supply, tiles, houses, state.gardens_left,
                  HOUSES.garden_tokens, state.uses_milestones, gone, this_turn, turn.hires, turn.recruits_left,
                  turn.phantoms, turn.locked, turn.used)
            for trainer, left in turn.trainers:
                if trainer in TRAINER_INDEX:
                    vec[o["turn_trainer_actions"] + TRAINER_INDEX[trainer]] += left / 3.0
            return
        vec[o["phase"] + int(state.phase)] = 1.0
        if state.pending:
            pending = state.pending[-1]
            vec[o["decision"] + int(pending.decision)] = 1.0
            vec[o["decider"] + rel[pending.player]] = 1.0
            vec[o["observer_to_move"]] = float(pending.player == observer)
        start, stop = self._table_span
        key = (
            state.round, state.max_rounds, state.num_players, state.variant, state.bank, state.bank_debt,
            state.bank_breaks, state.reserve_revealed, state.ceo_slots, state.structure_revealed,
            state.firing_revealed, tuple(state.marketing_supply), tuple(state.house_supply),
            state.gardens_left, frozenset(state.milestones_gone), frozenset(state.milestones_this_turn),
        )
        vec[start:stop] = self._tables.get(key, self._table, state)
        start = o["supply"]  # the piles change more often than the rest of the table: cached apart
        vec[start:start + NUM_TYPES] = self._supplies.get(state.supply.tobytes(), _scaled_supply, state.supply)
        vec[o["turn_hires"]] = turn.hires / 4.0
        vec[o["turn_recruits_left"]] = turn.recruits_left / 4.0
        for trainer, left in turn.trainers:
            if trainer in TRAINER_INDEX:
                vec[o["turn_trainer_actions"] + TRAINER_INDEX[trainer]] += left / 3.0
        for name, cards in (("turn_phantoms", turn.phantoms), ("turn_locked", turn.locked), ("turn_used", turn.used)):
            start = o[name]
            vec[start:start + NUM_TYPES] = cards

    def _table(self, state: GameState) -> np.ndarray:
        """The ``TABLE_FIELDS`` part of the vector: round, bank, tiles, milestones (the piles are written apart)."""
        o = self._o
        vec = np.zeros(self.vector_size, dtype=np.float32)
        cap = DEFAULT_MAX_ROUNDS if state.max_rounds is None else state.max_rounds  # no cap: the envs' default
        vec[o["round"]] = state.round / max(cap, 1)
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
        start, stop = self._table_span
        return vec[start:stop]

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

    def _write_players(self, state: GameState, observer: int, by_slot: list[int], me: int, vec: np.ndarray) -> None:
        """Every player's block, in relative slot order."""
        rel = [0] * state.num_players
        for slot, player in enumerate(by_slot):
            rel[player] = slot
        blocks = self._blocks(vec)
        self._write_blocks(state, observer, by_slot, rel, me, [blocks[k] for k in range(MAX_PLAYERS)])

    def _write_blocks(self, state: GameState, observer: int, players: list[int], rel: list[int], me: int,
                      blocks: list[np.ndarray], versions: list[tuple] | None = None) -> None:
        """The blocks of ``players`` (ids), each into ``blocks[its slot]``.

        ``versions`` (by player id; ``ObservationRows``): share the numpy path's blocks between
        observers by move stamp. The compiled path needs no sharing: it reads the facts that
        hold for every block once, then makes one call per block.
        """
        n = state.num_players
        decider = state.pending[-1].player if state.pending else None
        write = self._block_writer
        if write is None:
            for q in players:
                slot = rel[q]
                self._write_player(state, observer, q, (me + slot) % n, blocks[slot], decider,
                                   None if versions is None else versions[q])
            return
        s_others, f_others = visibility.hidden_from_others(state)
        spots, ceo_slots = state.spots, state.ceo_slots
        for q in players:
            p = state.players[q]
            slot = rel[q]
            reserve = p.reserve
            shown = (RESERVE_INDEX[reserve] if reserve in RESERVE_INDEX
                     and visibility.reserve_visible(state, observer, q) else -1)
            bits = 0
            for m in p.milestones:
                bits |= 1 << m
            restaurants = p.restaurants
            other = q != observer
            write(blocks[slot], p.hand, p.work, p.beach, p.busy, p.fired, p.stock, p.cash, p.bankrupt, p.income,
                  p.recruit_discounts, len(restaurants), sum([r.coming_soon for r in restaurants]) if restaurants else 0,
                  bits, (me + slot) % n, spots[q] if q < len(spots) else -1, other and s_others, other and f_others,
                  ceo_slots, q == decider, shown)

    def _blocks(self, vec: np.ndarray) -> np.ndarray:
        p0 = self._o["player0"]
        return vec[p0:p0 + MAX_PLAYERS * self._block].reshape(MAX_PLAYERS, self._block)

    def _write_player(self, state: GameState, observer: int, player: int, seat: int, b: np.ndarray,
                      decider: int | None, version: tuple | None = None) -> None:
        """One player's block.

        A block depends on the player and on what the observer may see of them: it is
        cached under a key made of all of that (most steps change one player), or, from
        ``ObservationRows``, under the player's move stamp (``version``) and the two hidden
        flags. The fields that differ between observers outside the hidden choices (the
        reserve card) and ``to_move`` are written afterwards, so that one cached block
        serves every observer.
        """
        s_hidden = visibility.structure_hidden(state, observer, player)
        f_hidden = visibility.firing_hidden(state, observer, player)
        if version is None:
            b[:] = self._block_by_content(state, observer, player, seat, s_hidden, f_hidden)
        else:
            b[:] = self._block_by_version.get((version, s_hidden, f_hidden), self._block_by_content, state, observer,
                                              player, seat, s_hidden, f_hidden)
        if player == decider:
            b[self._to_move] = 1.0
        reserve = state.players[player].reserve
        if reserve in RESERVE_INDEX and visibility.reserve_visible(state, observer, player):
            b[self._reserve_known] = 1.0
            b[self._reserve + RESERVE_INDEX[reserve]] = 1.0

    def _block_by_content(self, state: GameState, observer: int, player: int, seat: int, s_hidden: bool,
                          f_hidden: bool) -> np.ndarray:
        p = state.players[player]
        spot = state.spots[player] if player < len(state.spots) else None
        key = (
            p.hand.tobytes(), p.work.tobytes(), p.beach.tobytes(), p.busy.tobytes(), p.fired.tobytes(),
            p.stock.tobytes(), p.cash, p.bankrupt, p.income, p.recruit_discounts, frozenset(p.milestones),
            tuple([r.coming_soon for r in p.restaurants]), s_hidden, f_hidden, seat, spot, state.ceo_slots,
        )
        return self._player_blocks.get(key, self._player_block, state, observer, player, seat)

    def _player_block(self, state: GameState, observer: int, player: int, seat: int) -> np.ndarray:
        """One player's block as ``observer`` sees it, but for ``to_move`` and the reserve card (left zero)."""
        f = self._f
        p = state.players[player]
        b = np.zeros(self._block, dtype=np.float32)
        h, t = f["hand"], NUM_TYPES  # hand, work, beach, busy, fired follow one another (checked in __init__)
        if (state.structure_revealed and state.firing_revealed) or player == observer:  # nothing hidden
            work = p.work
            b[h:h + t] = p.hand
            b[h + t:h + 2 * t] = work
            b[h + 2 * t:h + 3 * t] = p.beach
            b[h + 3 * t:h + 4 * t] = p.busy
            b[h + 4 * t:h + 5 * t] = p.fired
        else:
            cards = visibility.visible_cards(state, observer, player)
            work = cards.work
            b[h:h + 5 * t] = np.concatenate(cards[:5])
            b[f["structure_hidden"]] = float(cards.structure_hidden)
            b[f["firing_hidden"]] = float(cards.firing_hidden)
        b[f["present"]] = 1.0
        b[f["seat"] + seat] = 1.0
        b[f["cash"]] = p.cash / MONEY_SCALE
        if p.bankrupt:
            b[f["bankrupt"]] = 1.0
        open_slots, drive_in, price = self._work_features.get(
            (state.ceo_slots, work.tobytes()), _work_features, state.ceo_slots, work
        )
        b[f["open_slots"]] = open_slots
        b[f["drive_in"]] = drive_in
        milestones = p.milestones
        if Milestone.FIRST_LOWER_PRICES in milestones:
            price += LOWER_PRICES_DELTA
        b[f["unit_price"]] = price / PRICE_SCALE
        stock = b[f["stock"]:f["stock"] + NUM_GOODS]
        stock[:] = p.stock
        stock /= _STOCK_SCALE32  # exact: float32 division of small integers rounds as float64's does
        if p.restaurants:
            per_restaurant = 1.0 / PRICES.restaurants_per_player
            b[f["restaurants"]] = len(p.restaurants) * per_restaurant
            b[f["coming_soon"]] = sum([r.coming_soon for r in p.restaurants]) * per_restaurant
        b[f["income"]] = p.income / MONEY_SCALE
        b[f["recruit_discounts"]] = p.recruit_discounts / 4.0
        if milestones:
            b[[f["milestones"] + int(m) for m in milestones]] = 1.0
        if player < len(state.spots) and 0 <= state.spots[player] < MAX_PLAYERS:
            b[f["turn_spot"] + state.spots[player]] = 1.0
        return b


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


class _Layer(NamedTuple):
    """The nonzero entries of some board planes: flat indices into the board, and their values."""

    index: np.ndarray
    values: np.ndarray

    @classmethod
    def merge(cls, layers: list[_Layer]) -> _Layer:
        """Layers of disjoint channels as one."""
        return cls(np.concatenate([layer.index for layer in layers]), np.concatenate([layer.values for layer in layers]))

    @classmethod
    def of(cls, planes: np.ndarray, start: int, stop: int) -> _Layer:
        """The nonzero entries of channels ``start:stop`` of the board ``planes``."""
        flat = planes.reshape(-1)
        plane_size = planes.shape[1] * planes.shape[2]
        index = np.flatnonzero(flat[start * plane_size:stop * plane_size] != 0) + start * plane_size
        return cls(index, flat[index])


class _OwnedLayer(NamedTuple):
    """A ``_Layer`` drawn by player id, with the owner of each entry (``MAX_PLAYERS``: none)."""

    index: np.ndarray
    values: np.ndarray
    owner: np.ndarray


class _KeyCache:
    """The last few values computed, by key (the oldest is dropped first).

    The key last asked for is checked first by equality, which is cheap when it
    shares its parts with the key before (tuples of the same objects) and saves
    hashing a long key again: most steps move no piece.
    """

    def __init__(self, size: int):
        self._size = size
        self._values: dict[object, object] = {}
        self._last: tuple[object, object] = (_MISSING, None)

    def clear(self) -> None:
        self._values.clear()
        self._last = (_MISSING, None)

    def get(self, key: object, build: Callable[..., Any], *args: object) -> Any:
        """The value for ``key``, computed as ``build(*args)`` if it is not cached."""
        last_key, last = self._last
        if key == last_key:
            return last
        try:
            hit = self._values.get(key, _MISSING)
        except TypeError:  # squares held in lists (a hand-made state): not cacheable
            return build(*args)
        if hit is _MISSING:
            hit = build(*args)
            if len(self._values) >= self._size:
                self._values.pop(next(iter(self._values)))
            self._values[key] = hit
        self._last = (key, hit)
        return hit


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


@functools.lru_cache(maxsize=256)
def _tile_bits(numbers: tuple[int, ...]) -> int:
    """The campaign tiles in stock as a bit set by tile index (cached: the stock changes a few times a game)."""
    return sum(1 << TILE_INDEX[number] for number in numbers)


@functools.lru_cache(maxsize=256)
def _house_bits(numbers: tuple[int, ...]) -> int:
    """The houses in stock as a bit set by house index (cached likewise)."""
    return sum(1 << HOUSE_INDEX[number] for number in numbers)


def _merge_layers(layers: list[_Layer]) -> tuple[list[_Layer], _Layer]:
    return layers, _Layer.merge(layers)


def _scaled_supply(supply: np.ndarray) -> np.ndarray:
    scaled = supply.astype(np.float32)
    scaled /= SUPPLY_SCALE
    return scaled


def _work_features(ceo_slots: int, work: np.ndarray) -> tuple[float, bool, int]:
    """From the visible cards at work: open slots / 10, drive-in, unit price before milestones."""
    open_slots = float((ceo_slots + work @ SLOT_WEIGHT) / 10.0)
    return open_slots, bool(work[DRIVE_IN_TYPES].any()), int(PRICES.base_unit_price + work @ PRICE_DELTA)


def _span(layout: ObservationLayout, names: tuple[str, ...]) -> tuple[int, int]:
    """Start and stop of consecutive vector fields ``names`` (checked: nothing else lies between)."""
    fields = [v for v in layout.vector if v.name in names]
    if tuple(v.name for v in fields) != names or any(a.stop != b.start for a, b in pairwise(fields)):
        raise AssertionError(f"layout: {names} must be consecutive vector fields, in this order")
    return fields[0].start, fields[-1].stop


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


"""The head of the observation vector: everything before the player blocks.

``VectorHead`` writes the phase and the pending decision, the table (round, bank,
tiles, milestones: the ``TABLE_FIELDS``, cached as one slice by the state they
show), the employee piles (cached apart: they change more often), the turn, and
the pending decision's context (which also marks the pending piece on its board
plane).
"""

from __future__ import annotations

from itertools import pairwise

import numpy as np

from fcm_env.data import EMPLOYEES, HOUSES, MARKETING_TILES, Good, Milestone, marketing_tile
from fcm_env.engine.actions import Decision
from fcm_env.engine.game import DEFAULT_MAX_ROUNDS
from fcm_env.engine.state import GameState

from . import visibility
from .action_codec import MARKETEER_TYPES, RESTAURANT_MANAGER_TYPES, TRAINER_TYPES
from .board_planes import campaign_area
from .key_cache import KeyCache
from .layout import (
    CEO_SLOT_VALUES,
    CONTEXT_SCALE,
    CONTEXT_SLOTS,
    MIN_PLAYERS,
    MONEY_SCALE,
    ROUND_SCALE,
    STOCK_SCALE,
    SUPPLY_SCALE,
    ObservationLayout,
)

TILE_INDEX = {t.number: i for i, t in enumerate(MARKETING_TILES)}
HOUSE_INDEX = {n: i for i, n in enumerate(HOUSES.numbers)}
MARKETEER_INDEX = {int(t): i for i, t in enumerate(MARKETEER_TYPES)}
MANAGER_INDEX = {int(t): i for i, t in enumerate(RESTAURANT_MANAGER_TYPES)}
TRAINER_INDEX = {int(t): i for i, t in enumerate(TRAINER_TYPES)}
CAMPAIGN_DECISIONS = (
    Decision.CAMPAIGN_TILE, Decision.CAMPAIGN_PLACE, Decision.CAMPAIGN_PRODUCT, Decision.CAMPAIGN_DURATION,
)
_TABLE_CACHE_SIZE = 16
#: the vector fields that change at most a few times a round, written from a cache as one slice
TABLE_FIELDS = (
    "round", "round_abs", "num_players", "standard", "bank", "bank_debt", "bank_breaks", "reserve_revealed",
    "ceo_slots", "structure_revealed", "firing_revealed", "supply", "marketing_supply", "house_supply",
    "gardens_left", "milestones_available", "milestones_this_turn",
)
NUM_TYPES = len(EMPLOYEES)
NUM_GOODS = len(Good)
NUM_MILESTONES = len(Milestone)


class VectorHead:
    """Writes the vector before the player blocks; one instance per ``Observer`` (it caches the table)."""

    def __init__(self, layout: ObservationLayout) -> None:
        self.vector_size = layout.vector_size
        self._o = {v.name: v.start for v in layout.vector}
        self._sl = {v.name: v.slice for v in layout.vector}
        self._pending_piece = layout.channel("pending_piece")
        self._table_span = _span(layout, TABLE_FIELDS)
        self._tables = KeyCache(_TABLE_CACHE_SIZE)  # the table part of the vector, by the state it shows
        self._supplies = KeyCache(_TABLE_CACHE_SIZE)  # employee piles / SUPPLY_SCALE, by the piles

    def write(self, state: GameState, observer: int, vec: np.ndarray, rel: list[int]) -> None:
        """Phase, pending decision, table, piles and turn into ``vec`` (zeroed there before)."""
        o = self._o
        turn = state.turn
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

    def write_context(self, state: GameState, observer: int, board: np.ndarray, vec: np.ndarray) -> None:
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
                area = campaign_area(state.board, int(tile.type), ctx[1], ctx[2], ctx[3], ctx[4], None)
                board[self._pending_piece][area] = 1.0
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
                board[self._pending_piece, r.row:r.row + 2, r.col:r.col + 2] = 1.0
        elif d == Decision.FREEZER:
            kept = ctx[:NUM_GOODS]
            start = sl["ctx_freezer_kept"].start
            vec[start:start + len(kept)] = np.asarray(kept, dtype=np.float32) / STOCK_SCALE


def _scaled_supply(supply: np.ndarray) -> np.ndarray:
    scaled = supply.astype(np.float32)
    scaled /= SUPPLY_SCALE
    return scaled


def _span(layout: ObservationLayout, names: tuple[str, ...]) -> tuple[int, int]:
    """Start and stop of consecutive vector fields ``names`` (checked: nothing else lies between)."""
    fields = [v for v in layout.vector if v.name in names]
    if tuple(v.name for v in fields) != names or any(a.stop != b.start for a, b in pairwise(fields)):
        raise AssertionError(f"layout: {names} must be consecutive vector fields, in this order")
    return fields[0].start, fields[-1].stop


def _one_hot(vec: np.ndarray, where: slice, index: int | None) -> None:
    if index is not None and 0 <= index < where.stop - where.start:
        vec[where.start + index] = 1.0

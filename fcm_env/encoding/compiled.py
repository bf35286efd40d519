"""The observation's player blocks and table as compiled loops (numba), when numba is installed.

Writing a player block with numpy costs about 25 small array operations (~8 us); the
observation writes one per player on almost every step, so in Python the blocks are
cached by their content (``PlayerBlocks._block_by_content``). Compiled, a block is one
function call of about 1 us, cheaper than building the cache key, so with numba the
encoder writes every block afresh and keeps no block cache.

The vector's head (the pending decision, the table, the piles and the turn) is written by
``VectorHead.write`` from a table cached by a key of 16 fields; compiled, it is written
afresh in one call (``_write_head``) from the same fields as integers and bit sets.

The compiled loops reproduce ``PlayerBlocks._player_block`` / ``_write_player`` and
``VectorHead.write`` / ``_table`` exactly: the same hiding (``visibility``), integer
sums for the work features, and every scaled value computed as a float64 quotient or
product rounded once to float32, as numpy stores it. ``tests/encoding/test_compiled.py``
compares both paths byte for byte at every decision of random games.

numba is optional (``pip install "fcm-magnate[fast]"``); without it, or with the
environment variable ``FCM_NO_NUMBA=1``, ``block_writer()`` returns None and the encoder
uses its numpy path.
"""

from __future__ import annotations

import os
from collections.abc import Callable

import numpy as np

from fcm_env.data import EMPLOYEES, PRICES, EmployeeType, Milestone

from .layout import MONEY_SCALE, PRICE_SCALE, ROUND_SCALE, STOCK_SCALE, SUPPLY_SCALE, observation_layout

_F = {f.name: f.start for f in observation_layout().player_block}
_O = {v.name: v.start for v in observation_layout().vector}
NUM_TYPES = len(EMPLOYEES)
CEO = int(EmployeeType.CEO)
#: open slots = CEO slots + work @ SLOT_WEIGHT (as player_blocks.SLOT_WEIGHT)
SLOT_WEIGHT = np.array(
    [0 if s.type == EmployeeType.CEO else (s.manager_slots if s.is_manager else 0) - 1 for s in EMPLOYEES],
    dtype=np.int64,
)
PRICE_DELTA = np.array([s.price_delta for s in EMPLOYEES], dtype=np.int64)
DRIVE_IN = np.array([bool(s.drive_in or s.restaurant_placement) for s in EMPLOYEES])
PER_RESTAURANT = 1.0 / PRICES.restaurants_per_player
BASE_PRICE = int(PRICES.base_unit_price)
MAX_SPOTS = 5  # turn spots in a block (MAX_PLAYERS)
FIRST_LOWER_PRICES = int(Milestone.FIRST_LOWER_PRICES)

(PRESENT, TO_MOVE, SEAT, CASH, BANKRUPT, HAND, S_HIDDEN, F_HIDDEN, OPEN_SLOTS, DRIVE_IN_AT, UNIT_PRICE, STOCK,
 RESTAURANTS, COMING_SOON, INCOME, DISCOUNTS, MILESTONES, RESERVE_KNOWN, RESERVE, TURN_SPOT) = (
    _F[name] for name in ("present", "to_move", "seat", "cash", "bankrupt", "hand", "structure_hidden",
                          "firing_hidden", "open_slots", "drive_in", "unit_price", "stock", "restaurants",
                          "coming_soon", "income", "recruit_discounts", "milestones", "reserve_known",
                          "reserve", "turn_spot"))


def _write_block(b, hand, work, beach, busy, fired, stock, cash, bankrupt, income, discounts, restaurants,
                 coming_soon, milestones, seat, spot, s_hidden, f_hidden, ceo_slots, to_move,
                 reserve):  # pragma: no cover - compiled
    """One player block into ``b`` (float32[block]); ``milestones`` is a bit set, ``reserve`` -1 when unseen."""
    for i in range(b.size):
        b[i] = 0.0
    t = NUM_TYPES
    slots = ceo_slots
    price = BASE_PRICE
    drive_in = False
    for i in range(t):
        h = hand[i]
        w = work[i]
        if s_hidden and i != CEO:  # visibility.visible_cards: cards put to work still show in hand
            h += w
            w = 0
        b[HAND + i] = h
        b[HAND + t + i] = w
        b[HAND + 2 * t + i] = beach[i]
        b[HAND + 3 * t + i] = busy[i]
        if not f_hidden:
            b[HAND + 4 * t + i] = fired[i]
        slots += w * SLOT_WEIGHT[i]
        price += w * PRICE_DELTA[i]
        if w > 0 and DRIVE_IN[i]:
            drive_in = True
    b[PRESENT] = 1.0
    b[SEAT + seat] = 1.0
    b[CASH] = cash / MONEY_SCALE
    if bankrupt:
        b[BANKRUPT] = 1.0
    if s_hidden:
        b[S_HIDDEN] = 1.0
    if f_hidden:
        b[F_HIDDEN] = 1.0
    b[OPEN_SLOTS] = slots / 10.0
    if drive_in:
        b[DRIVE_IN_AT] = 1.0
    if (milestones >> FIRST_LOWER_PRICES) & 1:
        price += LOWER_PRICES_DELTA
    b[UNIT_PRICE] = price / PRICE_SCALE
    for g in range(stock.size):
        b[STOCK + g] = stock[g] / STOCK_SCALE
    if restaurants > 0:
        b[RESTAURANTS] = restaurants * PER_RESTAURANT
        b[COMING_SOON] = coming_soon * PER_RESTAURANT
    b[INCOME] = income / MONEY_SCALE
    b[DISCOUNTS] = discounts / 4.0
    m = 0
    while milestones >> m:
        if (milestones >> m) & 1:
            b[MILESTONES + m] = 1.0
        m += 1
    if 0 <= spot < MAX_SPOTS:
        b[TURN_SPOT + spot] = 1.0
    if to_move:
        b[TO_MOVE] = 1.0
    if reserve >= 0:
        b[RESERVE_KNOWN] = 1.0
        b[RESERVE + reserve] = 1.0


(PHASE, DECISION, OBSERVER_TO_MOVE, DECIDER, ROUND, ROUND_ABS, NUM_PLAYERS, STANDARD, BANK, BANK_DEBT, BANK_BREAKS,
 RESERVE_REVEALED, CEO_SLOTS, STRUCTURE_REVEALED, FIRING_REVEALED, SUPPLY, MARKETING_SUPPLY, HOUSE_SUPPLY,
 GARDENS_LEFT, MILESTONES_AVAILABLE, MILESTONES_THIS_TURN, TURN_HIRES, TURN_RECRUITS_LEFT, TURN_PHANTOMS,
 TURN_LOCKED, TURN_USED) = (
    _O[name] for name in ("phase", "decision", "observer_to_move", "decider", "round", "round_abs", "num_players",
                          "standard", "bank", "bank_debt", "bank_breaks", "reserve_revealed", "ceo_slots",
                          "structure_revealed", "firing_revealed", "supply", "marketing_supply", "house_supply",
                          "gardens_left", "milestones_available", "milestones_this_turn", "turn_hires",
                          "turn_recruits_left", "turn_phantoms", "turn_locked", "turn_used"))
NUM_MILESTONES = len(Milestone)


def _write_head(vec, phase, decision, decider, to_move, rnd, cap, players_index, standard, bank, bank_debt,
                bank_breaks, reserve_revealed, ceo_index, structure_revealed, firing_revealed, supply, tiles, houses,
                gardens_left, garden_tokens, uses_milestones, gone, this_turn, hires, recruits_left, phantoms, locked,
                used):  # pragma: no cover - compiled
    """The vector before the player blocks (zeroed by the caller) but the context and the trainers.

    ``decision`` / ``decider`` / ``ceo_index``: -1 for none; ``tiles``, ``houses``, ``gone``,
    ``this_turn``: bit sets of the campaign tiles and houses in stock (by index) and of milestones.
    """
    vec[PHASE + phase] = 1.0
    if decision >= 0:
        vec[DECISION + decision] = 1.0
        vec[DECIDER + decider] = 1.0
        if to_move:
            vec[OBSERVER_TO_MOVE] = 1.0
    vec[ROUND] = rnd / max(cap, 1)
    vec[ROUND_ABS] = rnd / ROUND_SCALE
    vec[NUM_PLAYERS + players_index] = 1.0
    if standard:
        vec[STANDARD] = 1.0
    vec[BANK] = bank / MONEY_SCALE
    vec[BANK_DEBT] = bank_debt / MONEY_SCALE
    vec[BANK_BREAKS + min(bank_breaks, 2)] = 1.0
    if reserve_revealed:
        vec[RESERVE_REVEALED] = 1.0
    if ceo_index >= 0:
        vec[CEO_SLOTS + ceo_index] = 1.0
    if structure_revealed:
        vec[STRUCTURE_REVEALED] = 1.0
    if firing_revealed:
        vec[FIRING_REVEALED] = 1.0
    for i in range(supply.size):
        vec[SUPPLY + i] = supply[i] / SUPPLY_SCALE
    i = 0
    while tiles >> i:
        if (tiles >> i) & 1:
            vec[MARKETING_SUPPLY + i] = 1.0
        i += 1
    i = 0
    while houses >> i:
        if (houses >> i) & 1:
            vec[HOUSE_SUPPLY + i] = 1.0
        i += 1
    vec[GARDENS_LEFT] = gardens_left / garden_tokens
    for m in range(NUM_MILESTONES):
        if uses_milestones and not (gone >> m) & 1:
            vec[MILESTONES_AVAILABLE + m] = 1.0
        if (this_turn >> m) & 1:
            vec[MILESTONES_THIS_TURN + m] = 1.0
    vec[TURN_HIRES] = hires / 4.0
    vec[TURN_RECRUITS_LEFT] = recruits_left / 4.0
    for i in range(phantoms.size):
        vec[TURN_PHANTOMS + i] = phantoms[i]
        vec[TURN_LOCKED + i] = locked[i]
        vec[TURN_USED + i] = used[i]


def _lower_prices_delta() -> int:
    from fcm_env.data import MILESTONES

    return int(MILESTONES[Milestone.FIRST_LOWER_PRICES].effect_params["unit_price_delta"])


LOWER_PRICES_DELTA = _lower_prices_delta()
_compiled: dict[str, Callable[..., None]] | None = None


def _kernels() -> dict[str, Callable[..., None]]:
    """The compiled kernels by name; empty without numba (or with ``FCM_NO_NUMBA=1``)."""
    global _compiled
    if _compiled is None:
        _compiled = {}
        if os.environ.get("FCM_NO_NUMBA", "") in ("", "0"):
            try:
                import numba
            except ImportError:
                return _compiled
            for kernel in (_write_block, _write_head):
                _compiled[kernel.__name__] = numba.njit(cache=True, nogil=True)(kernel)
    return _compiled


def block_writer() -> Callable[..., None] | None:
    """The compiled ``_write_block``, or None without numba (or with ``FCM_NO_NUMBA=1``)."""
    return _kernels().get("_write_block")


def head_writer() -> Callable[..., None] | None:
    """The compiled ``_write_head``, or None without numba (or with ``FCM_NO_NUMBA=1``)."""
    return _kernels().get("_write_head")

"""The observation's player blocks as one compiled loop (numba), when numba is installed.

Writing a player block with numpy costs about 25 small array operations (~8 us); the
observation writes one per player on almost every step, so in Python the blocks are
cached by their content (``Observer._block_by_content``). Compiled, a block is one
function call of about 1 us, cheaper than building the cache key, so with numba the
encoder writes every block afresh and keeps no block cache.

The compiled loop reproduces ``Observer._player_block`` and the ``to_move`` / reserve
fields of ``Observer._write_player`` exactly: the same hiding (``visibility``), integer
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

from .layout import MONEY_SCALE, PRICE_SCALE, STOCK_SCALE, observation_layout

_F = {f.name: f.start for f in observation_layout().player_block}
NUM_TYPES = len(EMPLOYEES)
CEO = int(EmployeeType.CEO)
#: open slots = CEO slots + work @ SLOT_WEIGHT (as observation.SLOT_WEIGHT)
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
        if s_hidden and i != CEO:  # visibility.hide_cards: cards put to work still show in hand
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


def _lower_prices_delta() -> int:
    from fcm_env.data import MILESTONES

    return int(MILESTONES[Milestone.FIRST_LOWER_PRICES].effect_params["unit_price_delta"])


LOWER_PRICES_DELTA = _lower_prices_delta()
_compiled: Callable[..., None] | None = None
_tried = False


def block_writer() -> Callable[..., None] | None:
    """The compiled ``_write_block``, or None without numba (or with ``FCM_NO_NUMBA=1``)."""
    global _compiled, _tried
    if not _tried:
        _tried = True
        if os.environ.get("FCM_NO_NUMBA", "") not in ("", "0"):
            return None
        try:
            import numba
        except ImportError:
            return None
        _compiled = numba.njit(cache=True, nogil=True)(_write_block)
    return _compiled

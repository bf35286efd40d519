"""The player blocks of the observation vector: one block per player, in relative slot order.

``PlayerBlocks`` writes what the observer may see of each player (cards, cash,
stock, restaurants, milestones, turn spot); hidden choices go through
``visibility`` only. A block is cached under a key made of everything it shows, and
the fields that differ between observers outside the hidden choices (``to_move``, the
reserve card) are written afterwards, so that one cached block serves every observer.
"""

from __future__ import annotations

from itertools import pairwise

import numpy as np

from fcm_env.data import EMPLOYEES, MILESTONES, PRICES, RESERVE_CARDS, EmployeeType, Good, Milestone
from fcm_env.engine.state import GameState

from . import visibility
from .action_codec import MAX_PLAYERS
from .key_cache import KeyCache
from .layout import MONEY_SCALE, PRICE_SCALE, STOCK_SCALE, ObservationLayout

PRICE_DELTA = np.array([s.price_delta for s in EMPLOYEES], dtype=np.int32)
LOWER_PRICES_DELTA = int(MILESTONES[Milestone.FIRST_LOWER_PRICES].effect_params["unit_price_delta"])
DRIVE_IN_TYPES = np.array([int(s.type) for s in EMPLOYEES if s.drive_in or s.restaurant_placement])
RESERVE_INDEX = {c.value: c.index for c in RESERVE_CARDS}
_PLAYER_CACHE_SIZE = 256  # player blocks: a few versions of each player, seen by each observer
NUM_TYPES = len(EMPLOYEES)
NUM_GOODS = len(Good)
_STOCK_SCALE32 = np.float32(STOCK_SCALE)
#: open slots = CEO slots + work @ SLOT_WEIGHT: managers add their slots, every placed card takes one
SLOT_WEIGHT = np.array(
    [0 if s.type == EmployeeType.CEO else (s.manager_slots if s.is_manager else 0) - 1 for s in EMPLOYEES],
    dtype=np.int32,
)


class PlayerBlocks:
    """Writes the player blocks of the vector; one instance per ``Observer`` (it caches blocks)."""

    def __init__(self, layout: ObservationLayout) -> None:
        self._f = {f.name: f.start for f in layout.player_block}
        self.size = layout.player_block[-1].stop  # one block's length
        self._start = layout.slice("player0").start
        self._to_move, self._reserve_known, self._reserve = (self._f[k] for k in ("to_move", "reserve_known", "reserve"))
        self._player_blocks = KeyCache(_PLAYER_CACHE_SIZE)  # by everything a block shows
        self._work_features = KeyCache(_PLAYER_CACHE_SIZE)  # by (CEO slots, visible cards at work)
        _check_consecutive(self._f, ("hand", "work", "beach", "busy", "fired"), NUM_TYPES)

    def views(self, vec: np.ndarray) -> np.ndarray:
        """The blocks of the vector ``vec`` as a ``[MAX_PLAYERS, size]`` view, by relative slot."""
        p0 = self._start
        return vec[p0:p0 + MAX_PLAYERS * self.size].reshape(MAX_PLAYERS, self.size)

    def write_all(self, state: GameState, observer: int, by_slot: list[int], me: int, vec: np.ndarray) -> None:
        """Every player's block, in relative slot order."""
        rel = [0] * state.num_players
        for slot, player in enumerate(by_slot):
            rel[player] = slot
        blocks = self.views(vec)
        self.write(state, observer, by_slot, rel, me, [blocks[k] for k in range(MAX_PLAYERS)])

    def write(self, state: GameState, observer: int, players: list[int], rel: list[int], me: int,
              blocks: list[np.ndarray]) -> None:
        """The blocks of ``players`` (ids), each into ``blocks[its slot]``."""
        n = state.num_players
        decider = state.pending[-1].player if state.pending else None
        for q in players:
            slot = rel[q]
            self._write_player(state, observer, q, (me + slot) % n, blocks[slot], decider)

    def _write_player(self, state: GameState, observer: int, player: int, seat: int, b: np.ndarray,
                      decider: int | None) -> None:
        """One player's block.

        A block depends on the player and on what the observer may see of them: it is
        cached under a key made of all of that (most steps change one player). The fields
        that differ between observers outside the hidden choices (the reserve card) and
        ``to_move`` are written afterwards, so that one cached block serves every observer.
        """
        s_hidden = visibility.structure_hidden(state, observer, player)
        f_hidden = visibility.firing_hidden(state, observer, player)
        b[:] = self._block_by_content(state, observer, player, seat, s_hidden, f_hidden)
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
        b = np.zeros(self.size, dtype=np.float32)
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


def _work_features(ceo_slots: int, work: np.ndarray) -> tuple[float, bool, int]:
    """From the visible cards at work: open slots / 10, drive-in, unit price before milestones."""
    open_slots = float((ceo_slots + work @ SLOT_WEIGHT) / 10.0)
    return open_slots, bool(work[DRIVE_IN_TYPES].any()), int(PRICES.base_unit_price + work @ PRICE_DELTA)


def _check_consecutive(offsets: dict[str, int], names: tuple[str, ...], size: int) -> None:
    for a, b in pairwise(names):
        if offsets[b] != offsets[a] + size:
            raise AssertionError(f"layout: {b} must follow {a}")

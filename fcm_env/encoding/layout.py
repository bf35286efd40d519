"""The named layout of an observation: every board channel and every slice of the vector.

The layout is the same for every player count and variant. Players appear
*relative to the observer*: slot 0 is the observer, slot 1 the player after them
in the current turn order, and so on (slots past the player count stay zero).
The encoder writes by these names, and ``docs/observation.md`` is generated from
them, so the documentation cannot drift from the arrays.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from fcm_env.data import (
    EMPLOYEES,
    HOUSES,
    MARKETING_TILES,
    RESERVE_CARDS,
    CampaignType,
    Good,
    Milestone,
)
from fcm_env.engine.actions import Decision
from fcm_env.engine.state import Phase

from .action_codec import (
    BOARD_COLS,
    BOARD_ROWS,
    MARKETEER_TYPES,
    MAX_DURATION,
    MAX_PLAYERS,
    RESTAURANT_INDICES,
    RESTAURANT_MANAGER_TYPES,
    TRAINER_TYPES,
)

# ------------------------------------------------------------------ scales (documented in the layout)
MONEY_SCALE = 100.0  # dollars are divided by this
SUPPLY_SCALE = float(max(s.count_in_box for s in EMPLOYEES))  # employee piles are divided by this
STOCK_SCALE = 10.0  # food and drink in stock
PRICE_SCALE = 10.0  # unit price
HOUSE_NUMBER_SCALE = float(max(HOUSES.numbers + HOUSES.printed_numbers))
DURATION_SCALE = float(MAX_DURATION)
CONTEXT_SLOTS = 8
CONTEXT_SCALE = 32.0
ROUND_SCALE = 30.0
MIN_PLAYERS = 2
CEO_SLOT_VALUES = tuple(sorted({c.ceo_slots for c in RESERVE_CARDS} | {3}))

GOODS = tuple(g.name.lower() for g in Good)
TYPES = tuple(s.type.key for s in EMPLOYEES)
MILESTONES_KEYS = tuple(m.key for m in Milestone)
CAMPAIGN_KEYS = tuple(c.key for c in CampaignType)


@dataclass(frozen=True)
class Channel:
    index: int
    name: str
    description: str


@dataclass(frozen=True)
class VectorSlice:
    name: str
    start: int
    size: int
    description: str
    labels: tuple[str, ...] = ()  # one label per entry where the entries are named

    @property
    def stop(self) -> int:
        return self.start + self.size

    @property
    def slice(self) -> slice:
        return slice(self.start, self.stop)


@dataclass(frozen=True)
class ObservationLayout:
    """Board planes ``channels x rows x cols`` and the flat vector, named."""

    channels: tuple[Channel, ...]
    vector: tuple[VectorSlice, ...]
    rows: int
    cols: int
    player_slots: int
    player_block: tuple[VectorSlice, ...]  # the fields of one player block, offsets within the block

    @property
    def board_shape(self) -> tuple[int, int, int]:
        return (len(self.channels), self.rows, self.cols)

    @property
    def board_size(self) -> int:
        c, h, w = self.board_shape
        return c * h * w

    @property
    def vector_size(self) -> int:
        last = self.vector[-1]
        return last.stop

    @property
    def flat_size(self) -> int:
        """Length of the flat observation: the board planes (C-order) then the vector."""
        return self.board_size + self.vector_size

    def channel(self, name: str) -> int:
        for ch in self.channels:
            if ch.name == name:
                return ch.index
        raise KeyError(f"no board channel {name!r}")

    def slice(self, name: str) -> slice:
        for vs in self.vector:
            if vs.name == name:
                return vs.slice
        raise KeyError(f"no vector slice {name!r}")

    def player_field(self, slot: int, name: str) -> slice:
        """The vector slice of one field of the player block in relative ``slot``."""
        if not 0 <= slot < self.player_slots:
            raise ValueError(f"player slot must be 0..{self.player_slots - 1}, got {slot}")
        base = self.slice(f"player{slot}").start
        for f in self.player_block:
            if f.name == name:
                return slice(base + f.start, base + f.stop)
        raise KeyError(f"no player field {name!r}")


class _Builder:
    def __init__(self) -> None:
        self.channels: list[Channel] = []
        self.slices: list[VectorSlice] = []
        self.offset = 0

    def channel(self, name: str, description: str) -> None:
        self.channels.append(Channel(len(self.channels), name, description))

    def add(self, name: str, size: int, description: str, labels: tuple[str, ...] = ()) -> None:
        if labels and len(labels) != size:
            raise AssertionError(f"{name}: {len(labels)} labels for {size} entries")
        self.slices.append(VectorSlice(name, self.offset, size, description, labels))
        self.offset += size


def _board(b: _Builder) -> None:
    b.channel("valid", "1 on every real map square (the map is padded to 20 x 25 at the bottom/right)")
    b.channel("road", "road square (bridges included)")
    b.channel("bridge", "bridge square: two roads that never meet (R49)")
    for d in "NESW":
        b.channel(f"road_link_{d}", f"road square linked to the road square to its {d} (C31)")
    b.channel("tile_parity", "(tile_row + tile_col) mod 2: marks the tile borders that range counts")
    for g in GOODS[2:]:
        b.channel(f"drink_{g}", f"printed {g} source")
    b.channel("house", "house square (printed or placed)")
    b.channel("house_number", f"house number / {HOUSE_NUMBER_SCALE:g} on its squares (the lowest sells first)")
    b.channel("garden", "garden square")
    for g in GOODS:
        b.channel(f"demand_{g}", f"{g} demand tokens on the house (count, on every square of the house)")
    for k in range(MAX_PLAYERS):
        b.channel(f"restaurant_p{k}", f"restaurant squares of relative player {k} (0 = observer)")
    for k in range(MAX_PLAYERS):
        b.channel(f"entrance_p{k}", f"printed entrance square of relative player {k}'s restaurants")
    b.channel("coming_soon", "restaurant still showing its COMING SOON side (does not serve)")
    for c in CAMPAIGN_KEYS:
        what = "the rows / columns the plane flies over" if c == "airplane" else "the tile's squares"
        b.channel(f"campaign_{c}", f"{c} campaigns covering the square ({what}; counts overlaps)")
    for g in GOODS:
        b.channel(f"campaign_product_{g}", f"campaigns advertising {g} (count)")
    for k in range(MAX_PLAYERS):
        b.channel(f"campaign_owner_p{k}", f"campaigns of relative player {k} (count)")
    b.channel("campaign_remaining", f"advertising tokens left / {DURATION_SCALE:g} (summed over overlaps)")
    b.channel("campaign_eternal", "eternal campaigns (count)")
    b.channel("pending_piece", "the piece the pending decision is about: the campaign being launched "
              "(product / duration choice) or the restaurant being moved")


def _player_block() -> tuple[VectorSlice, ...]:
    b = _Builder()
    b.add("present", 1, "1 if this slot holds a player")
    b.add("to_move", 1, "1 if this player is asked the pending decision")
    b.add("seat", MAX_PLAYERS, "turn-order seat, one-hot (0 = first)")
    b.add("cash", 1, f"cash / {MONEY_SCALE:g}")
    b.add("bankrupt", 1, "could not pay at a negative price (C21): out at the end of the turn")
    b.add("hand", len(TYPES), "cards in hand by type (during hidden Restructuring: hand + work of others)",
          TYPES)
    b.add("work", len(TYPES), "cards at work by type (CEO included; others' hidden during Restructuring)",
          TYPES)
    b.add("beach", len(TYPES), "cards on the beach by type", TYPES)
    b.add("busy", len(TYPES), "busy marketeers by type", TYPES)
    b.add("fired", len(TYPES), "cards chosen for firing this Payday (others' hidden until revealed)", TYPES)
    b.add("structure_hidden", 1, "1 while this player's Restructuring choice is hidden from the observer")
    b.add("firing_hidden", 1, "1 while this player's firing choice is hidden from the observer")
    b.add("open_slots", 1, "open slots in the visible structure / 10 (+2 virtual with First airplane: not added)")
    b.add("drive_in", 1, "a local or regional manager at work: all 4 corners are entrances (C11)")
    b.add("unit_price", 1, f"unit price from the visible work cards and milestones / {PRICE_SCALE:g}")
    b.add("stock", len(GOODS), f"food and drink in stock / {STOCK_SCALE:g}", GOODS)
    b.add("restaurants", 1, "restaurants on the map / 3")
    b.add("coming_soon", 1, "restaurants still COMING SOON / 3")
    b.add("income", 1, f"cash earned in this turn's Dinnertime / {MONEY_SCALE:g} (CFO base)")
    b.add("recruit_discounts", 1, "unused recruiting-manager / HR-director actions this turn (R40) / 4")
    b.add("milestones", len(MILESTONES_KEYS), "milestones held", MILESTONES_KEYS)
    b.add("reserve_known", 1, "1 if the observer may see this player's kept reserve card")
    b.add("reserve", len(RESERVE_CARDS), "kept reserve card, one-hot ($100, $200, $300) when known",
          tuple(f"${c.value}" for c in RESERVE_CARDS))
    b.add("turn_spot", MAX_PLAYERS, "turn-order spot taken in this Order of Business, one-hot")
    return tuple(b.slices)


def _vector(b: _Builder, block: tuple[VectorSlice, ...]) -> None:
    b.add("phase", len(Phase), "phase, one-hot", tuple(p.name.lower() for p in Phase))
    b.add("decision", len(Decision), "pending decision, one-hot (all zero when none)",
          tuple(d.name.lower() for d in Decision))
    b.add("observer_to_move", 1, "1 if the observer is asked the pending decision")
    b.add("decider", MAX_PLAYERS, "relative slot of the player asked, one-hot")
    b.add("context", CONTEXT_SLOTS,
          f"the pending record's context ints / {CONTEXT_SCALE:g}, zero-padded (hidden decisions of others: zero)")
    b.add("context_length", 1, f"number of context ints / {CONTEXT_SLOTS}")
    b.add("ctx_setup_second_round", 1, "first restaurants: the second (must place) round")
    b.add("ctx_marketeer", len(MARKETEER_TYPES), "campaign being launched: its marketeer, one-hot",
          tuple(t.key for t in MARKETEER_TYPES))
    b.add("ctx_campaign_tile", len(MARKETING_TILES), "campaign being launched: its tile, one-hot",
          tuple(f"#{t.number}" for t in MARKETING_TILES))
    b.add("ctx_product", len(GOODS), "campaign being launched: its product, one-hot", GOODS)
    b.add("ctx_house", len(HOUSES.numbers), "house token being placed, one-hot",
          tuple(f"#{n}" for n in HOUSES.numbers))
    b.add("ctx_restaurant_manager", len(RESTAURANT_MANAGER_TYPES), "restaurant being placed / moved: manager",
          tuple(t.key for t in RESTAURANT_MANAGER_TYPES))
    b.add("ctx_restaurant_index", RESTAURANT_INDICES, "restaurant being placed / moved: its index, one-hot")
    b.add("ctx_restaurant_new", 1, "restaurant being placed is a new one")
    b.add("ctx_freezer_kept", len(GOODS), f"freezer: items kept so far / {STOCK_SCALE:g}", GOODS)
    b.add("round", 1, "round / max_rounds (round / 30 in a game without a round cap)")
    b.add("round_abs", 1, f"round / {ROUND_SCALE:g}")
    b.add("num_players", MAX_PLAYERS - MIN_PLAYERS + 1, "player count 2..5, one-hot",
          tuple(str(n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)))
    b.add("standard", 1, "1 for the standard game (milestones, reserve cards), 0 introductory")
    b.add("bank", 1, f"bank / {MONEY_SCALE:g}")
    b.add("bank_debt", 1, f"money owed by the bank after the second break / {MONEY_SCALE:g}")
    b.add("bank_breaks", 3, "bank breaks so far (0, 1, 2), one-hot")
    b.add("reserve_revealed", 1, "the reserve cards were opened (first break)")
    b.add("ceo_slots", len(CEO_SLOT_VALUES), "CEO slots, one-hot", tuple(str(v) for v in CEO_SLOT_VALUES))
    b.add("structure_revealed", 1, "Restructuring choices are open")
    b.add("firing_revealed", 1, "Payday firing choices are open")
    b.add("supply", len(TYPES), f"employee piles / {SUPPLY_SCALE:g}", TYPES)
    b.add("marketing_supply", len(MARKETING_TILES), "campaign tile in stock, by number",
          tuple(f"#{t.number}" for t in MARKETING_TILES))
    b.add("house_supply", len(HOUSES.numbers), "placeable house token in stock, by number",
          tuple(f"#{n}" for n in HOUSES.numbers))
    b.add("gardens_left", 1, f"garden tokens left / {HOUSES.garden_tokens}")
    b.add("milestones_available", len(MILESTONES_KEYS), "milestone not gone (standard game only)",
          MILESTONES_KEYS)
    b.add("milestones_this_turn", len(MILESTONES_KEYS), "milestone claimed this turn", MILESTONES_KEYS)
    b.add("turn_hires", 1, "Working 9-5, player on turn: hires so far / 4")
    b.add("turn_recruits_left", 1, "Working 9-5: recruiting actions left / 4")
    b.add("turn_trainer_actions", len(TRAINER_TYPES), "Working 9-5: training actions left per trainer type / 3",
          tuple(t.key for t in TRAINER_TYPES))
    b.add("turn_phantoms", len(TYPES), "Working 9-5: hires from an empty pile still to be trained (R15)", TYPES)
    b.add("turn_locked", len(TYPES), "Working 9-5: cards trained this turn (not trainable again)", TYPES)
    b.add("turn_used", len(TYPES), "Working 9-5: cards at work whose action is spent", TYPES)
    size = block[-1].stop
    for k in range(MAX_PLAYERS):
        b.add(f"player{k}", size, f"player block of relative player {k} (0 = observer; fields below)")


@cache
def observation_layout() -> ObservationLayout:
    """The one observation layout (cached; immutable)."""
    b = _Builder()
    _board(b)
    block = _player_block()
    _vector(b, block)
    return ObservationLayout(
        channels=tuple(b.channels),
        vector=tuple(b.slices),
        rows=BOARD_ROWS,
        cols=BOARD_COLS,
        player_slots=MAX_PLAYERS,
        player_block=block,
    )

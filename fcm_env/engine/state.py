"""The mutable game state as plain data (no closures), so it clones, saves and loads.

Card pools are count vectors indexed by ``EmployeeType`` (catanatron-style): a
player's hand, cards at work, cards on the beach, busy marketeers. The board is
immutable and shared between clones.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum

import numpy as np

from fcm_env.data import EMPLOYEES, EmployeeType, Good, Milestone
from fcm_env.engine.actions import Pending
from fcm_env.engine.board.geometry import Board

NUM_TYPES = len(EmployeeType)
NUM_GOODS = len(Good)


class Phase(IntEnum):
    SETUP_RESTAURANTS = 0
    SETUP_RESERVE = 1
    RESTRUCTURING = 2
    ORDER_OF_BUSINESS = 3
    WORKING = 4
    DINNERTIME = 5
    PAYDAY = 6
    MARKETING = 7
    CLEANUP = 8
    GAME_OVER = 9


def card_vector() -> np.ndarray:
    return np.zeros(NUM_TYPES, dtype=np.int16)


@dataclass(frozen=True)
class Restaurant:
    """A 2x2 restaurant: anchor = top-left square, orientation = entrance corner (NW NE SE SW).

    Frozen, like ``Campaign``: a change replaces the record, so clones share it (``GameState.clone``).
    """

    row: int
    col: int
    orientation: int
    coming_soon: bool = False


Square = tuple[int, int]


@dataclass
class House:
    """A house on the map: printed on a tile, or placed by a new business developer.

    ``demand`` holds the demand tokens (goods) in the order they arrived; the limit
    is 3, or 5 with a garden (rules: Phase 6).
    """

    number: int
    squares: tuple[Square, ...]  # the 2x2 house
    garden: tuple[Square, ...] = ()  # the 2 garden squares, empty without a garden
    placed: bool = False  # placed by a new business developer (always with a garden)
    demand: list[int] = field(default_factory=list)

    @property
    def has_garden(self) -> bool:
        return bool(self.garden)

    @property
    def all_squares(self) -> tuple[Square, ...]:
        return self.squares + self.garden


@dataclass
class Campaign:
    """A marketing campaign tile on the board (rules: Initiate marketing campaigns; Phase 6).

    ``row, col, orientation`` is the placement as in the action (for airplanes the
    edge anchor of ``placement.airplane_anchor``); ``squares`` are the covered map
    squares (empty for airplanes). ``remaining`` counts the advertising tokens left;
    an eternal campaign keeps its single token and its marketeer forever.
    """

    number: int
    kind: int  # CampaignType
    owner: int
    marketeer: int  # EmployeeType of the busy (or, eternal, retired) marketeer
    product: int  # Good
    remaining: int
    eternal: bool
    row: int
    col: int
    orientation: int
    squares: tuple[Square, ...] = ()


@dataclass
class PlayerState:
    player: int
    cash: int = 0
    hand: np.ndarray = field(default_factory=card_vector)
    work: np.ndarray = field(default_factory=card_vector)
    beach: np.ndarray = field(default_factory=card_vector)
    busy: np.ndarray = field(default_factory=card_vector)
    restaurants: list[Restaurant] = field(default_factory=list)
    stock: np.ndarray = field(default_factory=lambda: np.zeros(NUM_GOODS, dtype=np.int16))
    milestones: set[Milestone] = field(default_factory=set)
    reserve_offer: tuple[int, ...] = ()  # the reserve card values dealt at setup
    reserve: int | None = None  # the value kept (hidden until the first bank break)
    recruit_discounts: int = 0  # unused recruiting manager / HR director actions this turn (R40)
    fired: np.ndarray = field(default_factory=card_vector)  # phase 5 choices, hidden until revealed
    income: int = 0  # cash earned in this turn's phase 4 (the CFO base, C22)
    bankrupt: bool = False  # could not pay at a negative price (C21): out at the end of the turn

    def clone(self) -> PlayerState:
        """An independent copy (``GameState.clone`` copies every player this way)."""
        return _copy_player(self)

    def owned(self) -> np.ndarray:
        """Every card the player owns, wherever it is (for the 1x limit)."""
        return self.hand + self.work + self.beach + self.busy


@dataclass
class TurnScratch:
    """Bookkeeping of the current player's Working 9-5 turn (reset for each player)."""

    hires: int = 0
    recruits_left: int = 0
    # training capacity left per trainer card at work: list of (trainer type, actions left)
    trainers: list[tuple[int, int]] = field(default_factory=list)
    locked: np.ndarray = field(default_factory=card_vector)  # beach cards trained this turn
    phantoms: np.ndarray = field(default_factory=card_vector)  # hired from an empty pile (R15)
    returned: np.ndarray = field(default_factory=card_vector)  # cards training put back in the stock
    used: np.ndarray = field(default_factory=card_vector)  # cards at work whose action is spent


#: the rule sets a game can be played with (the introductory game: the rulebook's first-game alterations)
VARIANTS = ("standard", "introductory")


@dataclass
class GameState:
    num_players: int
    variant: str
    seed: int
    board: Board
    max_rounds: int | None  # None: no cap, the rules alone end the game; else a cut-off (truncated end)
    round: int = 0
    phase: Phase = Phase.SETUP_RESTAURANTS
    turn_order: list[int] = field(default_factory=list)  # player ids by seat
    bank: int = 0
    supply: np.ndarray = field(default_factory=card_vector)
    players: list[PlayerState] = field(default_factory=list)
    ceo_slots: int = 3
    milestones_gone: set[Milestone] = field(default_factory=set)
    milestones_this_turn: set[Milestone] = field(default_factory=set)
    marketing_supply: list[int] = field(default_factory=list)  # campaign tile numbers in stock
    pending: list[Pending] = field(default_factory=list)
    # phase bookkeeping
    queue: list[int] = field(default_factory=list)  # players still to decide in this step
    passed: list[int] = field(default_factory=list)  # setup: players who passed in round one
    spots: list[int] = field(default_factory=list)  # phase 2: turn order spot taken by each player
    structure_revealed: bool = True
    firing_revealed: bool = True  # phase 5: False while players choose whom to fire
    turn: TurnScratch = field(default_factory=TurnScratch)
    # the map's changing contents
    houses: dict[int, House] = field(default_factory=dict)  # by house number
    house_supply: list[int] = field(default_factory=list)  # placeable house+garden numbers left
    gardens_left: int = 0  # garden tokens left
    campaigns: list[Campaign] = field(default_factory=list)  # on the board, by placement order
    # the bank and the end of the game
    bank_breaks: int = 0
    reserve_revealed: bool = False  # the reserve cards were opened (first break)
    bank_debt: int = 0  # owed by the bank after the second break, written down (C23, R38)
    truncated: bool = False  # ended by max_rounds rather than by the rules

    def clone(self) -> GameState:
        """An independent copy that plays on bit for bit like this state (no event log: look-ahead logs nothing).

        A search clones thousands of times a decision, so this is written out field by field
        instead of ``copy.deepcopy`` (``benchmarks/bench_clone.py``): the board and every immutable
        value (ints, strings, tuples, enums, ``Pending``, the frozen ``Restaurant`` records) are shared;
        arrays, lists, sets, dicts, houses and campaigns are copied.
        ``tests/engine/test_clone.py`` checks that every field is covered and no mutable object shared.
        """
        new = object.__new__(GameState)
        d = self.__dict__.copy()
        d.pop("event_sink", None)
        d["turn_order"] = self.turn_order[:]
        d["supply"] = self.supply.copy()
        d["players"] = [_copy_player(p) for p in self.players]
        d["milestones_gone"] = set(self.milestones_gone)
        d["milestones_this_turn"] = set(self.milestones_this_turn)
        d["marketing_supply"] = self.marketing_supply[:]
        d["pending"] = self.pending[:]
        d["queue"] = self.queue[:]
        d["passed"] = self.passed[:]
        d["spots"] = self.spots[:]
        d["turn"] = _copy_turn(self.turn)
        d["houses"] = {number: _copy_house(h) for number, h in self.houses.items()}
        d["house_supply"] = self.house_supply[:]
        d["campaigns"] = [_copy_campaign(c) for c in self.campaigns]
        new.__dict__ = d
        return new

    def seat_of(self, player: int) -> int:
        return self.turn_order.index(player)

    @property
    def uses_milestones(self) -> bool:
        return self.variant == "standard"

    def owned_cards(self, player: int) -> np.ndarray:
        """Every card ``player`` owns, the marketeers of its eternal campaigns included (the 1x limit).

        rules: First billboard placed — an eternal campaign's marketeer is unavailable for the
        rest of the game (never back to hand or supply) but remains the player's card.
        """
        owned = self.players[player].owned()
        for campaign in self.campaigns:
            if campaign.eternal and campaign.owner == player:
                owned[campaign.marketeer] += 1
        return owned

    def total_cards(self) -> np.ndarray:
        """Cards of each type in the game: supply + every player's cards, eternal marketeers included."""
        total = self.supply.copy()
        for p in self.players:
            total += self.owned_cards(p.player)
        return total


def initial_supply(num_players: int) -> np.ndarray:
    """Employee piles for a player count: all cards, 1x types reduced (C2, R05)."""
    supply = card_vector()
    for spec in EMPLOYEES:
        supply[spec.type] = spec.copies_in_play(num_players)
    return supply


# ------------------------------------------------------------------ the pieces of ``GameState.clone``


def _copy_campaign(campaign: Campaign) -> Campaign:
    new = object.__new__(Campaign)
    new.__dict__ = campaign.__dict__.copy()  # every field is immutable
    return new


def _copy_house(house: House) -> House:
    new = object.__new__(House)
    d = house.__dict__.copy()
    d["demand"] = house.demand[:]
    new.__dict__ = d
    return new


def _copy_player(player: PlayerState) -> PlayerState:
    new = object.__new__(PlayerState)
    d = player.__dict__.copy()
    d["hand"] = player.hand.copy()
    d["work"] = player.work.copy()
    d["beach"] = player.beach.copy()
    d["busy"] = player.busy.copy()
    d["restaurants"] = player.restaurants[:]  # frozen records: shared
    d["stock"] = player.stock.copy()
    d["milestones"] = set(player.milestones)
    d["fired"] = player.fired.copy()
    new.__dict__ = d
    return new


def _copy_turn(turn: TurnScratch) -> TurnScratch:
    new = object.__new__(TurnScratch)
    d = turn.__dict__.copy()
    d["trainers"] = turn.trainers[:]  # (type, actions left) tuples: immutable
    d["locked"] = turn.locked.copy()
    d["phantoms"] = turn.phantoms.copy()
    d["returned"] = turn.returned.copy()
    d["used"] = turn.used.copy()
    new.__dict__ = d
    return new

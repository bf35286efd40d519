"""The mutable game state as plain data (no closures), so it clones, saves and loads.

Card pools are count vectors indexed by ``EmployeeType`` (catanatron-style): a
player's hand, cards at work, cards on the beach, busy marketeers. The board is
immutable and shared between clones.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from enum import IntEnum

import numpy as np

from fcm_env.data import EMPLOYEES, EmployeeType, Good, Milestone

from .actions import Pending
from .board import Board

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


@dataclass
class Restaurant:
    """A 2x2 restaurant: anchor = top-left square, orientation = entrance corner (NW NE SE SW)."""

    row: int
    col: int
    orientation: int
    coming_soon: bool = False


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


@dataclass
class GameState:
    num_players: int
    variant: str
    seed: int
    board: Board
    max_rounds: int
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
    turn: TurnScratch = field(default_factory=TurnScratch)

    def clone(self) -> GameState:
        board = self.board
        memo = {id(board): board}  # the board is immutable: shared between clones
        return copy.deepcopy(self, memo)

    def seat_of(self, player: int) -> int:
        return self.turn_order.index(player)

    @property
    def uses_milestones(self) -> bool:
        return self.variant == "standard"

    def total_cards(self) -> np.ndarray:
        """Cards of each type in the game (supply + every player's cards)."""
        total = self.supply.copy()
        for p in self.players:
            total += p.owned()
        return total


def initial_supply(num_players: int) -> np.ndarray:
    """Employee piles for a player count: all cards, 1x types reduced (C2, R05)."""
    supply = card_vector()
    for spec in EMPLOYEES:
        supply[spec.type] = spec.copies_in_play(num_players)
    return supply

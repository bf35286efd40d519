"""What must hold after every action (money, cards and pieces conserved), as one reusable check.

Random-play tests and ``benchmarks/random_games.py`` call :func:`check_state`
after each action; a violation raises :class:`InvariantError` naming what broke.
"""

from __future__ import annotations

import numpy as np

from fcm_env.data import EMPLOYEES, HOUSES, MARKETING_TILES, EmployeeType
from fcm_env.engine.board.placement import restaurant_squares, static_occupied
from fcm_env.engine.state import GameState, initial_supply


class InvariantError(AssertionError):
    """An engine invariant does not hold (a bug in the engine, never in the caller)."""


def total_money(state: GameState) -> int:
    """Bank + players' cash - money the bank owes (written down after the final break; C23)."""
    return state.bank + sum(p.cash for p in state.players) - state.bank_debt


def expected_money(state: GameState, start: int) -> int:
    """``start`` (the bank at setup) plus the reserve cards added at the first break."""
    added = sum(p.reserve or 0 for p in state.players) if state.reserve_revealed else 0
    return start + added


def all_cards(state: GameState) -> np.ndarray:
    """Every employee card, wherever it is: supply, players' cards, eternal campaigns' marketeers."""
    return state.total_cards()


def check_state(state: GameState, start_money: int) -> None:
    """Raise ``InvariantError`` if money, cards, tiles, demand or the map's pieces are inconsistent."""
    if total_money(state) != expected_money(state, start_money):
        raise InvariantError(
            f"money is not conserved: bank {state.bank} + cash {[p.cash for p in state.players]} "
            f"- debt {state.bank_debt} != {expected_money(state, start_money)}"
        )
    if state.bank < 0 or any(p.cash < 0 for p in state.players):
        raise InvariantError("negative cash in the bank or with a player")
    expected = initial_supply(state.num_players)
    expected[EmployeeType.CEO] = state.num_players
    cards = all_cards(state)
    if not (cards == expected).all():
        diff = {EmployeeType(t).key: int(cards[t] - expected[t]) for t in np.flatnonzero(cards != expected)}
        raise InvariantError(f"employee cards are not conserved (extra/missing by type): {diff}")
    if (state.supply < 0).any():
        raise InvariantError("a supply pile is negative")
    for p in state.players:
        for name in ("hand", "work", "beach", "busy", "fired"):
            if (getattr(p, name) < 0).any():
                raise InvariantError(f"player {p.player}: negative count in {name}")
        owned = state.owned_cards(p.player)  # eternal campaigns' marketeers too (First billboard placed)
        for spec in EMPLOYEES:
            if spec.unique and owned[spec.type] > 1:
                raise InvariantError(f"player {p.player} holds two {spec.type.key} (1x card)")
        if len(p.restaurants) > 3:
            raise InvariantError(f"player {p.player} has {len(p.restaurants)} restaurants (3 in the box)")
        if (p.stock < 0).any():
            raise InvariantError(f"player {p.player}: negative stock")
    tiles = sorted(t.number for t in MARKETING_TILES if state.num_players in t.available_for_players)
    placed = [c.number for c in state.campaigns]
    if sorted(state.marketing_supply + placed) != tiles:
        raise InvariantError("marketing tiles are not conserved")
    for number, house in state.houses.items():
        limit = HOUSES.demand_limit_with_garden if house.has_garden else HOUSES.demand_limit
        if len(house.demand) > limit:
            raise InvariantError(f"house {number} holds {len(house.demand)} demand tokens (limit {limit})")
    placed_houses = sorted(n for n, h in state.houses.items() if h.placed)
    if sorted(placed_houses + state.house_supply) != sorted(HOUSES.numbers):
        raise InvariantError("house tokens are not conserved")
    gardens_used = sum(1 for h in state.houses.values() if h.has_garden and not h.placed)
    if gardens_used + state.gardens_left != HOUSES.garden_tokens:
        raise InvariantError("garden tokens are not conserved")
    _check_no_overlap(state)


def _check_no_overlap(state: GameState) -> None:
    cover = static_occupied(state.board).astype(np.int16)
    pieces = [sq for h in state.houses.values() if h.placed for sq in h.squares]
    pieces += [sq for h in state.houses.values() for sq in h.garden]
    pieces += [sq for c in state.campaigns for sq in c.squares]
    pieces += [sq for p in state.players for r in p.restaurants for sq in restaurant_squares(r.row, r.col, r.orientation)]
    for sq in pieces:
        cover[sq] += 1
    if (cover > 1).any():
        r, c = (int(x) for x in np.argwhere(cover > 1)[0])
        raise InvariantError(f"two pieces cover square {(r, c)}")

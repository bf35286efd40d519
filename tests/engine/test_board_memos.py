"""The board's faster read-only helpers answer exactly as the plain computations they replace.

``Board.ranges_from_each`` (one batch for many squares), ``Board.distance``'s memo,
``occupancy.occupied`` (the houses' part remembered per layout), ``occupancy.entrances_of`` (the
entrance of a well-formed restaurant computed in place) and ``occupancy.houses_key`` are compared
with straightforward versions written here, at positions of seeded random games where houses,
gardens, campaigns, drive-ins and closed restaurants come and go, and after edits by hand.

Every test here is Python-only: the memos are the Python engine's caches, with no outcome in play of their
own (the facts they hold, what is occupied and where the entrances are, are checked on both engines through
the placements offered and the distances at Dinnertime: tests/engine/test_placement.py, test_board.py).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from fcm_env.data import EmployeeType
from fcm_env.engine.board import UNREACHABLE, occupancy
from fcm_env.engine.board.placement import restaurant_entrance, restaurant_squares, static_occupied
from fcm_env.engine.game import Game
from fcm_env.engine.invariants.random_sim import pick
from fcm_env.engine.state import Phase, Restaurant


def _positions(num_players: int, seed: int, every: int = 5):
    """Clones of every ``every``-th position of a seeded game, half heuristic, half random, where every
    player is handed a new business developer and a local manager (gardens, drive-ins, closed restaurants)."""
    from fcm_agents.heuristic import HeuristicAgent

    game = Game.new(num_players, seed=seed, max_rounds=10)
    agent = HeuristicAgent(seed=seed)
    rng = random.Random(seed)
    gifted = False
    index = 0
    while not game.is_over:
        state = game.state
        if not gifted and state.round == 2 and state.phase == Phase.RESTRUCTURING:
            gifted = True
            for p in state.players:
                for t in (EmployeeType.NEW_BUSINESS_DEVELOPER, EmployeeType.LOCAL_MANAGER):
                    if state.supply[t] > 0:
                        state.supply[t] -= 1
                        p.hand[t] += 1
            game.advance()
        if index % every == 0:
            yield game.clone()
        index += 1
        player = game.current_player
        game.apply(agent.act_on_game(game, player) if rng.random() < 0.5 else pick(rng, game.legal_actions()))


def _occupied_plain(state) -> np.ndarray:
    grid = static_occupied(state.board).copy()
    squares = [sq for p in state.players for r in p.restaurants
               for sq in restaurant_squares(r.row, r.col, r.orientation)]
    squares.extend(sq for house in state.houses.values() for sq in house.all_squares)
    squares.extend(sq for campaign in state.campaigns for sq in campaign.squares)
    for sq in squares:
        grid[sq] = True
    return grid


def _entrances_plain(state, player: int, open_only: bool) -> tuple:
    drive_in = occupancy.has_drive_in(state, player)
    squares = set()
    for r in state.players[player].restaurants:
        if open_only and r.coming_soon:
            continue
        squares.update(occupancy.entrance_squares(r, drive_in))
    return tuple(sorted(squares))


def test_occupied_and_entrances_match_the_plain_computation():
    # python-only: the Python board memos (occupied grid, entrances) against plain computations; a cache has
    # no outcome in play (what is occupied is seen in the placements offered: tests/engine/test_placement.py)
    seen_drive_in = seen_closed = seen_garden = 0
    for game in (g for n in (2, 3, 4, 5) for seed in (300 + n, 400 + n) for g in _positions(n, seed)):
        state = game.state
        num_players = state.num_players
        assert (occupancy.occupied(state) == _occupied_plain(state)).all()
        for p in range(num_players):
            for open_only in (True, False):
                want = _entrances_plain(state, p, open_only)
                assert occupancy.entrances_of(state, p, open_only=open_only) == want
            seen_drive_in += occupancy.has_drive_in(state, p) and bool(state.players[p].restaurants)
            seen_closed += any(r.coming_soon for r in state.players[p].restaurants)
        seen_garden += any(h.garden for h in state.houses.values())
    assert seen_drive_in and seen_closed and seen_garden


def test_occupied_sees_a_house_edited_by_hand_at_once():
    # python-only: the occupied memo's key after an edit by hand (a cache invalidation; no move edits so)
    game = Game.new(3, seed=4)
    state = game.state
    before = occupancy.occupied(state)
    house = next(iter(state.houses.values()))
    free = tuple(int(x) for x in np.argwhere(~before)[0])
    house.garden = (free,)  # not a real garden: only the covered squares matter here; no move, no advance()
    after = occupancy.occupied(state)
    assert after[free] and not before[free]
    assert (after == _occupied_plain(state)).all()
    after[free] = False  # the returned masks are the caller's own
    assert occupancy.occupied(state)[free]


def test_a_malformed_restaurant_is_still_refused():
    # python-only: the memo's argument check on a restaurant the loader refuses (test_validate.py)
    game = Game.new(2, seed=1)
    game.state.players[0].restaurants.append(Restaurant(0, 0, 7))
    with pytest.raises(ValueError, match="orientation"):
        occupancy.occupied(game.state)
    with pytest.raises(ValueError, match="orientation"):
        occupancy.entrances_of(game.state, 0)


def test_houses_key_tells_layouts_apart():
    # python-only: the memo key of the house layout (an internal cache key)
    game = Game.new(2, seed=3)
    twin = game.clone()
    assert occupancy.houses_key(game.state) == occupancy.houses_key(twin.state)
    house = next(iter(twin.state.houses.values()))
    house.garden = ((0, 0), (0, 1))
    assert occupancy.houses_key(game.state) != occupancy.houses_key(twin.state)
    other_board = Game.new(2, seed=3).state  # the same tiles, another Board object
    assert occupancy.houses_key(other_board) != occupancy.houses_key(game.state)


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_ranges_from_each_is_ranges_from_of_each_square(num_players):
    # python-only: the batched range helper against the single one (the same table, computed faster)
    board = Game.new(num_players, seed=10 + num_players).board
    squares = [(r, c) for r in range(board.height) for c in range(board.width)]
    each = board.ranges_from_each(squares)
    assert each.shape == (len(squares), *board.shape) and each.dtype == np.int32
    for sq, grid in zip(squares, each):
        assert (grid == board.ranges_from([sq])).all(), sq
    assert (each < UNREACHABLE).any() and (each == UNREACHABLE).any()
    assert board.ranges_from_each([]).shape == (0, *board.shape)


def test_distance_remembers_nothing_it_should_not():
    # python-only: ``Board.distance``'s memo against the plain computation
    rng = random.Random(5)
    board = Game.new(4, seed=5).board
    squares = [(r, c) for r in range(board.height) for c in range(board.width)]
    for _ in range(300):
        a = tuple(rng.sample(squares, rng.randint(1, 6)))
        b = tuple(rng.sample(squares, rng.randint(1, 4)))
        want = board._distance(a, b)
        assert board.distance(a, b) == want
        assert board.distance(a, b) == want  # remembered
        assert board.distance(list(a), iter(b)) == want  # not tuples: computed
    assert board.distance(((1, 1), [2, 2]), ((3, 3),)) == board._distance(((1, 1), (2, 2)), ((3, 3),))
    assert board.distance((), ((3, 3),)) == UNREACHABLE == board.distance(((3, 3),), ())


def test_entrances_of_a_restaurant_without_drive_in_is_its_printed_corner():
    # python-only: the in-place entrance computation of the memo against the helper (which corner is the
    # entrance is seen at Dinnertime: tests/engine/test_board.py, the *_at_dinnertime tests)
    game = Game.new(2, seed=2)
    state = game.state
    state.players[0].restaurants = [Restaurant(4, 5, o) for o in range(4)]
    assert occupancy.entrances_of(state, 0) == tuple(sorted(restaurant_entrance(4, 5, o) for o in range(4)))

"""Map scenarios on either engine (the ``engine`` fixture): a hand-given 2-player map (3 x 3 tiles, the size
the loader accepts), a position at the decision that places a piece, loaded on the engine under test and read
through its face (``legal_actions``, ``apply``, ``snapshot()``); and the road distance Dinnertime sees.

* ``setup_game``: the first restaurants (INITIAL_RESTAURANT), player 1 asked first (reverse turn order).
* ``working_game``: Working 9-5 of round 2 with player 0's cards at work, its recruiting and training passed
  on the engine: the next decision is its first later sub-step (MARKETEER, NEW_BUSINESS, RESTAURANT_MANAGER).
* ``offered`` / ``inside``: the placements a decision offers, and those whose footprint lies in a window of
  the map (a small map of the placement rules drawn on the top-left tiles of a 3 x 3 map).
* ``dinner_distance``: the distance from a chain's entrances to a house, read from who serves the house at
  Dinnertime (``distance_at_dinner``'s docstring says how).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from on_engine import dine, full, load

from fcm_env.data import EmployeeType, Good, marketing_tile
from fcm_env.engine.actions import Action, ActionKind, Decision
from fcm_env.engine.board import Board
from fcm_env.engine.game import Game
from fcm_env.engine.phases import setup, working
from fcm_env.engine.state import GameState, Phase, Restaurant
from fcm_env.engines import GameLike

Spot = tuple[int, int, int]


def board_state(layout: str, *, round_: int = 2) -> GameState:
    """A fresh 2-player state on ``Board.from_tiles(layout)`` (turn order 0, 1)."""
    state = Game.new(2, seed=0, board=Board.from_tiles(layout)).state
    state.turn_order = [0, 1]
    state.round = round_
    return state


def setup_game(engine: str, layout: str, prepare: Callable[[GameState], None] | None = None) -> GameLike:
    """Setup's first restaurants on ``layout``: INITIAL_RESTAURANT of player 1 (reverse turn order), then 0."""
    state = board_state(layout, round_=0)
    if prepare is not None:
        prepare(state)
    setup.start(state)
    game = load(engine, state)
    assert game.pending.decision == Decision.INITIAL_RESTAURANT and game.pending.player == 1
    return game


def working_game(engine: str, layout: str, restaurants: Mapping[int, Iterable[Spot]], *,
                 work: Mapping[int, int] | None = None,
                 prepare: Callable[[GameState], None] | None = None) -> GameLike:
    """Round 2, Working 9-5 on ``layout``: ``restaurants`` maps player -> spots (row, col, entrance corner),
    ``work`` gives player 0 cards at work (from the supply), ``prepare(state)`` runs last; loaded on ``engine``,
    which is then told player 0's recruiting and training are passed."""
    state = board_state(layout)
    for p, spots in restaurants.items():
        state.players[p].restaurants = [Restaurant(*spot) for spot in spots]
    for etype, count in (work or {}).items():
        state.supply[etype] -= count
        state.players[0].work[etype] += count
    if prepare is not None:
        prepare(state)
    working.start(state)
    game = load(engine, state)
    while game.pending.player == 0 and game.pending.decision in (Decision.RECRUIT, Decision.TRAIN):
        game.apply(Action.pass_())
    return game


def offered(game: GameLike, kind: ActionKind) -> list[tuple[int, ...]]:
    """The arguments of the legal actions of ``kind`` (sorted: the engines list them in this order)."""
    return [a.args for a in game.legal_actions() if a.kind == kind]


def campaign_place(game: GameLike, marketeer: int, number: int) -> list[Spot]:
    """The spots CAMPAIGN_PLACE offers ``number`` launched by ``marketeer`` (player 0's MARKETEER decision)."""
    assert game.pending.decision == Decision.MARKETEER and game.pending.player == 0, game.pending
    game.apply(Action.select_marketeer(marketeer))
    game.apply(Action.choose_tile(number))
    assert game.pending.decision == Decision.CAMPAIGN_PLACE
    return offered(game, ActionKind.PLACE_CAMPAIGN)


def footprint(kind: ActionKind, spot: Spot, number: int | None = None) -> tuple[int, int]:
    """Rows x cols a placement covers from its anchor: restaurant 2 x 2; house with garden 3 x 2 (garden N/S)
    or 2 x 3 (E/W); garden 1 x 2 (N/S of its house) or 2 x 1 (E/W); campaign tile ``number`` h x w or turned."""
    o = spot[2]
    if kind == ActionKind.PLACE_RESTAURANT:
        return 2, 2
    if kind == ActionKind.PLACE_HOUSE:
        return (3, 2) if o in (0, 2) else (2, 3)
    if kind == ActionKind.PLACE_GARDEN:
        return (1, 2) if o in (0, 2) else (2, 1)
    tile = marketing_tile(number)
    return (tile.h, tile.w) if o == 0 else (tile.w, tile.h)


def inside(spots: Iterable[Spot], kind: ActionKind, rows: int, cols: int, number: int | None = None) -> list[Spot]:
    """The spots whose whole footprint lies in rows 0..rows-1 and cols 0..cols-1."""
    out = []
    for spot in spots:
        h, w = footprint(kind, spot, number)
        if spot[0] + h <= rows and spot[1] + w <= cols:
            out.append(tuple(spot))
    return out


# ------------------------------------------------------------------ distances seen at Dinnertime


def distance_at_dinner(engine: str, build: Callable[[], GameState], house: int, *, theirs: int = 0,
                       handicap: int = 0, most: int = 6) -> int | None:
    """The road distance from player 0's restaurants to ``house`` as Dinnertime sees it (Phase 4: lowest unit
    price + distance wins; R34: a tie goes to more waitresses).

    ``build()`` gives a position with player 0's restaurants (measured from) and player 1's, which are at the
    known distance ``theirs`` from ``house`` and get ``handicap`` pricing managers (unit price 10 - handicap:
    as if they were ``handicap`` nearer). Both hold a burger and the house wants one; player 0 is first in turn
    order and has a waitress (player 1 none), so a tie on price + distance is player 0's. Player 0 gets ``s``
    pricing managers (unit price 10 - s) and serves the house exactly when 10 - s + d <= 10 - handicap +
    theirs, i.e. when s >= d - (theirs - handicap): d is theirs - handicap plus the smallest such s in
    0..``most`` (player 0 serving it at s = 0 would only say d <= theirs - handicap: refused unless that is 0).
    None when player 1 serves the house even at s = ``most`` (no road from player 0's entrances, or farther)."""
    level = theirs - handicap
    for reductions in range(most + 1):
        state = build()
        state.turn_order = [0, 1]
        for p in (0, 1):
            state.players[p].stock[Good.BURGER] = 1
        state.houses[house].demand = [int(Good.BURGER)]
        for player, etype, count in ((0, EmployeeType.WAITRESS, 1), (0, EmployeeType.PRICING_MANAGER, reductions),
                                     (1, EmployeeType.PRICING_MANAGER, handicap)):
            state.supply[etype] -= count
            state.players[player].work[etype] += count
        after = dine(engine, state)
        assert after.houses[house].demand == [], "nobody served the house: no chain reaches it"
        if after.players[0].stock[Good.BURGER] == 0:
            assert reductions or not level, f"player 0 is not farther than player 1's {level}: not measured"
            assert after.players[0].cash == 10 - reductions + 3  # its price and the waitress's tip
            return level + reductions
        assert after.players[1].stock[Good.BURGER] == 0 and after.players[1].cash == 10 - handicap
    return None


def dinner_position(layout: str, mine: Iterable[Spot], theirs: Iterable[Spot],
                    prepare: Callable[[GameState], None] | None = None) -> Callable[[], GameState]:
    """``build`` for ``distance_at_dinner``: round 2 after Working 9-5 on ``layout``, player 0's restaurants
    ``mine``, player 1's ``theirs``; ``prepare(state)`` runs last (a drive-in, a placed house, ...)."""

    def build() -> GameState:
        state = board_state(layout)
        state.phase = Phase.WORKING
        state.pending = []
        state.queue = []
        state.players[0].restaurants = [Restaurant(*spot) for spot in mine]
        state.players[1].restaurants = [Restaurant(*spot) for spot in theirs]
        if prepare is not None:
            prepare(state)
        return state

    return build


# ------------------------------------------------------------------ what a campaign reaches at Marketing


def reached(engine: str, layout: str, number: int, spot: Spot, *, owner: int = 0,
            prepare: Callable[[GameState], None] | None = None) -> set[int]:
    """The houses that campaign tile ``number`` at ``spot`` (row, col, orientation; airplanes: the edge anchor)
    gives a demand token at Marketing (phase 6): round 2 in phase MARKETING with nothing pending (still to
    run), the campaign of ``owner`` advertising burgers with one turn left; ``prepare(state)`` runs first (a
    garden, a placed house). Read back after the engine ran Marketing and Clean-up (demand stays)."""
    from late_builders import add_campaign

    state = board_state(layout)
    if prepare is not None:
        prepare(state)
    state.phase = Phase.MARKETING
    state.pending = []
    state.queue = []
    add_campaign(state, number, owner, Good.BURGER, row=spot[0], col=spot[1], orientation=spot[2], remaining=1)
    after = full(load(engine, state).advance())
    assert after.round == 3 and not [c for c in after.campaigns if c.number == number]  # ran once, retired
    wanting = {n for n, h in after.houses.items() if h.demand}
    assert all(after.houses[n].demand == [int(Good.BURGER)] for n in wanting)
    return wanting

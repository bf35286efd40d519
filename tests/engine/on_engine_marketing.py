"""Phase 3 (campaigns, houses, restaurants) and phase 6 (Marketing) positions on either engine (the ``engine``
fixture): ``phase3`` opens player 0's Working 9-5 turn on a hand-built map, loads it on the engine under test
and answers player 0's recruiting and training there (pass), so the engine itself picks the first later
sub-step with something to do (or skips to the next player); ``market`` runs the engine's Marketing (and the
Clean-up after it) on a hand-built position and reads the whole position back."""

from __future__ import annotations

from collections.abc import Callable

from on_engine import document, full, settle

from fcm_env.data import marketing_tile
from fcm_env.engine.actions import Action, Decision
from fcm_env.engine.board import Board
from fcm_env.engine.board.placement import campaign_squares, restaurant_squares
from fcm_env.engine.game import Game
from fcm_env.engine.phases import working
from fcm_env.engine.state import GameState, Phase, Restaurant
from fcm_env.engines import GameLike, load_game


def phase3_state(layout: str, restaurants, *, num_players: int = 2, work=None, beach=None, milestones=(),
                 supply=None, marketing=None, prepare: Callable[[GameState], None] | None = None) -> GameState:
    """``builders.phase3_game``'s position (round 2, phase 3 on ``Board.from_tiles(layout)``, player 0 first in
    turn order) at its very first decision: player 0's RECRUIT (nothing answered yet).

    ``restaurants`` maps player -> [(row, col, orientation[, coming_soon])]; ``work`` / ``beach`` map
    EmployeeType -> count for player 0 (taken from the supply); ``supply`` overrides pile sizes;
    ``marketing`` replaces the campaign tile supply; ``prepare(state)`` runs last, before phase 3 starts."""
    state = Game.new(num_players, 0, board=Board.from_tiles(layout)).state
    state.round = 2
    state.turn_order = list(range(num_players))
    for p, spots in restaurants.items():
        state.players[p].restaurants = [Restaurant(*spot) for spot in spots]
    player = state.players[0]
    for vec, cards in ((player.work, work), (player.beach, beach)):
        for etype, count in (cards or {}).items():
            state.supply[etype] -= count
            vec[etype] += count
    player.milestones.update(milestones)
    for etype, count in (supply or {}).items():
        state.supply[etype] = count
    if marketing is not None:
        state.marketing_supply = list(marketing)
    if prepare is not None:
        prepare(state)
    working.start(state)
    return state


def phase3(engine: str, layout: str, restaurants, **kw) -> GameLike:
    """``phase3_state``'s position on ``engine``, player 0's recruiting and training passed there: the game
    waits at the first decision the engine asks after them."""
    game = load_game(engine, document(phase3_state(layout, restaurants, **kw)))
    while game.pending.player == 0 and game.pending.decision in (Decision.RECRUIT, Decision.TRAIN):
        game.apply(Action.pass_())
    return game


def options(game: GameLike) -> list[tuple[int, ...]]:
    """The arguments of the legal actions (the placements a CAMPAIGN_PLACE / HOUSE_PLACE / RESTAURANT_PLACE
    decision offers)."""
    return [tuple(a.args) for a in game.legal_actions()]


def place_options(game: GameLike, marketeer, tile) -> list[tuple[int, ...]]:
    """Select the marketeer and the tile; return the legal placements (the game waits there)."""
    assert game.pending.decision == Decision.MARKETEER, game.pending
    game.apply(Action.select_marketeer(marketeer))
    assert game.pending.decision == Decision.CAMPAIGN_TILE, game.pending
    game.apply(Action.choose_tile(tile))
    assert game.pending.decision == Decision.CAMPAIGN_PLACE, game.pending
    return options(game)


def whole_tiles(board: Board, tile_number: int, placements) -> set[int]:
    """Map tiles that hold at least one of the campaign placements ``placements`` entirely."""
    tile = marketing_tile(tile_number)
    found = set()
    for row, col, orientation in placements:
        tiles = {board.tile_at(*sq) for sq in campaign_squares(row, col, orientation, tile)}
        if len(tiles) == 1:
            found |= tiles
    return found


def restaurant_tiles(board: Board, spot) -> set[int]:
    """Map tiles a restaurant placement covers."""
    return {board.tile_at(*sq) for sq in restaurant_squares(*spot)}


def market(engine: str, state: GameState) -> GameState:
    """``state`` put in phase MARKETING with nothing pending (the campaigns still to run, D47), run by
    ``engine`` (its Marketing, then Clean-up, up to the next round's first decision) and read back whole.
    Marketing's outcome (houses' demand, campaigns, marketing supply, busy and returned marketeers) is what
    Clean-up leaves: it moves work and beach cards home, never busy ones nor a house's demand or a campaign."""
    state.phase = Phase.MARKETING
    state.pending = []
    state.queue = []
    game = settle(engine, state)
    after = full(game)
    assert after.round == state.round + 1 and after.phase != Phase.MARKETING, (after.phase, game.pending)
    return after

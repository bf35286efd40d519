"""Working 9-5, Restructuring and setup positions on either engine (the ``engine`` fixture), built the way
``builders.working_turn`` and ``test_structure``'s round two build them, then loaded through the state
document (``on_engine.load``): everything after the opened decision is the engine's."""

from __future__ import annotations

from collections.abc import Callable

from builders import play_setup
from on_engine import award, full, load

from fcm_env.engine.game import Game
from fcm_env.engine.phases import working
from fcm_env.engine.state import GameState, PlayerState
from fcm_env.engines import GameLike


def working_turn(engine: str, num_players: int = 2, *, work=None, beach=None, hand=None, milestones=(),
                 supply=None, seed: int = 0, prepare: Callable[[GameState], None] | None = None) -> GameLike:
    """``builders.working_turn``'s position on ``engine``: phase 3 of round 2 after the deterministic setup,
    the first seat (``game.current_player``) holding the given cards and ``milestones`` (claimed in an earlier
    turn), its first RECRUIT decision open. ``work``/``beach``/``hand`` map EmployeeType -> count (taken from
    the supply); ``supply`` overrides pile sizes; ``prepare(state)`` runs last, before phase 3 starts."""
    game = Game.new(num_players, seed)
    play_setup(game)
    state = game.state
    state.round = 2
    first = state.turn_order[0]
    player = state.players[first]
    for vec, cards in ((player.work, work), (player.beach, beach), (player.hand, hand)):
        for etype, count in (cards or {}).items():
            state.supply[etype] -= count
            vec[etype] += count
    for milestone in milestones:
        award(state, first, milestone)
    for etype, count in (supply or {}).items():
        state.supply[etype] = count
    if prepare is not None:
        prepare(state)
    working.start(state)
    return load(engine, state)


def me(game: GameLike) -> PlayerState:
    """The player to move, read back whole."""
    return full(game).players[game.current_player]


def round_two(engine: str, num_players: int = 3, seed: int = 0, *, hands=None, milestones=None,
              ceo_slots: int | None = None) -> GameLike:
    """Phase 1 of round 2 on ``engine``, its first RESTRUCTURE decision open (``test_structure``'s position):
    the setup and round 1's Order of Business played with the first legal actions, then every player given a
    waitress in hand (so that everyone is asked, D53). ``hands`` maps a seat (0 = first in the turn order) to
    EmployeeType -> count: that seat's hand instead (the waitress back to the supply); ``milestones`` maps a
    seat to milestones claimed in an earlier turn; ``ceo_slots`` other than 3 comes from an opened reserve
    (the bank broke once)."""
    from fcm_env.data import EmployeeType
    from fcm_env.engine.phases import restructuring

    game = Game.new(num_players, seed)
    play_setup(game)
    while game.phase.name == "ORDER_OF_BUSINESS":  # round 1: choose spots in the offered order
        game.apply(game.legal_actions()[0])
    state = game.state
    state.round = 2
    waitress = int(EmployeeType.WAITRESS)
    for p in state.players:
        p.hand[waitress] += 1
        state.supply[waitress] -= 1
    for seat, cards in (hands or {}).items():
        p = state.players[state.turn_order[seat]]
        state.supply += p.hand
        p.hand[:] = 0
        for etype, count in cards.items():
            state.supply[etype] -= count
            p.hand[etype] += count
    for seat, held in (milestones or {}).items():
        for milestone in held:
            award(state, state.turn_order[seat], milestone)
    if ceo_slots is not None:
        state.ceo_slots = ceo_slots
        state.bank_breaks, state.reserve_revealed = 1, True
    restructuring.start_restructuring(state)
    return load(engine, state)


def buyers_on(engine: str, layout: str | None, restaurants, *, work=None, milestones=(), num_players: int = 2,
              seed: int = 0) -> GameLike:
    """Round 2, phase 3 on the map ``Board.from_tiles(layout)`` (None: the map ``Game.new(num_players, seed)``
    draws) on ``engine`` (``builders.phase3_game``'s position): player 0 first in turn order with
    ``restaurants`` [(row, col, orientation)], the cards ``work`` (EmployeeType -> count, from the supply) and
    ``milestones`` (claimed in an earlier turn); the other players hold nothing. The engine answers player 0's
    recruiting and training with "done" and stops at its next decision (PRODUCE when a card of player 0 can
    bring something; else a later one, or the next player's turn)."""
    from fcm_env.engine.actions import Action, Decision
    from fcm_env.engine.board import Board
    from fcm_env.engine.state import Restaurant

    board = None if layout is None else Board.from_tiles(layout)
    state = Game.new(num_players, seed, board=board).state
    state.round = 2
    state.turn_order = list(range(num_players))
    state.players[0].restaurants = [Restaurant(*spot) for spot in restaurants]
    for etype, count in (work or {}).items():
        state.supply[etype] -= count
        state.players[0].work[etype] += count
    for milestone in milestones:
        award(state, 0, milestone)
    working.start(state)
    game = load(engine, state)
    while game.pending.player == 0 and game.pending.decision in (Decision.RECRUIT, Decision.TRAIN):
        game.apply(Action.pass_())
    return game


def offered_hauls(game: GameLike, etype) -> list[tuple[int, int, int]]:
    """The (beer, lemonade, soda) hauls offered to player 0's ``etype`` buyer, sorted, repeats kept (none
    when player 0 is not asked for food and drinks)."""
    from fcm_env.engine.actions import ActionKind, Decision

    if game.pending is None or game.pending.player != 0 or game.pending.decision != Decision.PRODUCE:
        return []
    return sorted(tuple(a.args[1:]) for a in game.legal_actions()
                  if a.kind == ActionKind.HAUL and a.args[0] == int(etype))

"""Shared builders for engine scenario tests."""

from __future__ import annotations

from fcm_env.engine.actions import ActionKind
from fcm_env.engine.game import Game
from fcm_env.engine.phases import working


def play_setup(game: Game) -> None:
    """Finish setup with the first legal placement/reserve for everyone (deterministic)."""
    while game.phase.name.startswith("SETUP"):
        actions = game.legal_actions()
        placements = [a for a in actions if a.kind == ActionKind.PLACE_RESTAURANT]
        game.apply(placements[0] if placements else actions[0])


def working_turn(num_players: int = 2, *, work=None, beach=None, hand=None, milestones=(), supply=None,
                 seed: int = 0) -> Game:
    """A game in phase 3 of round 2 where the first seat holds the given cards.

    ``work``/``beach``/``hand`` map EmployeeType -> count (taken from the supply).
    """
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
    player.milestones.update(milestones)
    for etype, count in (supply or {}).items():
        state.supply[etype] = count
    working.start(state)
    game._legal_cache = None
    return game



def fingerprint(state) -> str:
    """A text snapshot of everything mutable in a state (for "unchanged" checks)."""
    parts = [
        state.phase, state.round, state.turn_order, state.bank, state.supply.tolist(), state.ceo_slots,
        sorted(state.milestones_gone), sorted(state.milestones_this_turn), state.marketing_supply,
        state.pending, state.queue, state.passed, state.spots, state.structure_revealed,
        state.turn.hires, state.turn.recruits_left, state.turn.trainers, state.turn.locked.tolist(),
        state.turn.phantoms.tolist(),
    ]
    for p in state.players:
        parts.append((p.cash, p.hand.tolist(), p.work.tolist(), p.beach.tolist(), p.busy.tolist(),
                      p.restaurants, p.stock.tolist(), sorted(p.milestones), p.reserve, p.recruit_discounts))
    return repr(parts)


def next_round(game: Game) -> None:
    """Bridge to the next round's Restructuring as Clean-up does (cards back to hand)."""
    from fcm_env.engine.phases import restructuring as structure
    from fcm_env.engine.rules import milestones

    state = game.state
    for p in state.players:
        ceo = p.work[0]
        p.hand += p.work + p.beach
        p.hand[0] -= ceo
        p.work[:] = 0
        p.work[0] = ceo
        p.beach[:] = 0
    milestones.close_turn(state)
    state.round += 1
    structure.start_restructuring(state)
    game._advance()


# ---------------------------------------------------------------- phase 3 on a hand-built map


def phase3_game(layout: str, restaurants, *, num_players: int = 2, work=None, beach=None, milestones=(),
                supply=None, marketing=None, prepare=None) -> Game:
    """Round 2, phase 3 on ``Board.from_tiles(layout)``, player 0 first in turn order, its
    recruiting and training already passed (the next decision is its first later sub-step).

    ``restaurants`` maps player -> [(row, col, orientation[, coming_soon])]; ``work`` /
    ``beach`` map EmployeeType -> count for player 0 (taken from the supply); ``supply``
    overrides pile sizes; ``marketing`` replaces the campaign tile supply; ``prepare(state)``
    runs last, before phase 3 starts.
    """
    from fcm_env.engine.actions import Action, Decision
    from fcm_env.engine.board import Board
    from fcm_env.engine.state import Restaurant

    game = Game.new(num_players, 0, board=Board.from_tiles(layout))
    state = game.state
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
    game._legal_cache = None
    while game.pending.player == 0 and game.pending.decision in (Decision.RECRUIT, Decision.TRAIN):
        game.apply(Action.pass_())
    return game


def apply_raw(game: Game, action) -> None:
    """Check and apply one action without the engine's flow steps afterwards (to look at the
    state a phase module hands over, before ``flow.advance`` moves on)."""
    from fcm_env.engine.actions import IllegalActionError
    from fcm_env.engine.game import ROUTES

    pending = game.pending
    if action not in game.legal_actions():
        raise IllegalActionError(f"{action} is not legal for {pending.decision.name}")
    ROUTES[pending.decision][1](game.state, pending, action)
    game._legal_cache = None


def full_fingerprint(state) -> str:
    """``fingerprint`` plus the map contents and the turn's spent card actions."""
    extra = [state.campaigns, sorted(state.houses.items()), state.house_supply, state.gardens_left,
             state.turn.used.tolist()]
    return fingerprint(state) + repr(extra)

"""Shared builders for engine scenario tests."""

from __future__ import annotations

from fcm_env.engine import working
from fcm_env.engine.actions import ActionKind
from fcm_env.engine.game import Game


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
    from fcm_env.engine import milestones, structure

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

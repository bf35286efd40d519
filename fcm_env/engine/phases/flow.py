"""The engine's own steps between decisions: which phase follows which, and the game's end.

``advance`` runs every step that needs no player decision (phase changes,
Dinnertime, paying salaries, running campaigns, Clean-up) until a player must
decide or the game is over. A phase whose decisions are all taken leaves
``state.pending`` empty and ``state.phase`` at itself; ``advance`` then starts the
next one:

    WORKING -> Dinnertime (4) -> game over after the final bank break, else
    Payday (5; skipped in the introductory game) -> Marketing (6) -> Clean-up (7)
    -> next round's Restructuring, or game over when ``max_rounds`` is passed.

Dinnertime and Marketing ask nothing, so ``advance`` never stops in them: it runs each
together with the start of the phase after it. A position in ``DINNERTIME`` or
``MARKETING`` with nothing pending (only a hand-written one) is therefore one where that
phase is still to run, and ``advance`` runs it (D48).
"""

from __future__ import annotations

from fcm_env.engine.phases import cleanup, dinnertime, marketing, payday, restructuring, working
from fcm_env.engine.rules import bank
from fcm_env.engine.state import GameState, Phase


def advance(state: GameState) -> None:
    """Run the engine's own steps until a decision is pending or the game is over."""
    while not state.pending and state.phase != Phase.GAME_OVER:
        step(state)


def step(state: GameState) -> Phase:
    """One of the engine's own steps from a position with nothing pending (one phase's run); returns the phase
    it started from. ``advance`` loops over it; the lockstep tests compare it with the core's one step."""
    phase = state.phase
    if phase in (Phase.SETUP_RESTAURANTS, Phase.SETUP_RESERVE):
        state.round = 1
        restructuring.start_restructuring(state)
    elif phase == Phase.ORDER_OF_BUSINESS:
        working.start(state)
    elif phase in (Phase.WORKING, Phase.DINNERTIME):  # Working 9-5 is over / Dinnertime is to run (D48)
        dinnertime.run(state)
        if bank.is_broken_for_good(state):  # C23, R38: the game ends after phase 4
            state.phase = Phase.GAME_OVER
        else:
            payday.start(state)
    elif phase in (Phase.PAYDAY, Phase.MARKETING):  # Payday is over / the campaigns are to run (D48)
        marketing.run(state)
        cleanup.start(state)
    elif phase == Phase.CLEANUP:
        cleanup.finish(state)
    else:  # RESTRUCTURING always leaves a decision or moves on by itself; GAME_OVER has no step
        raise RuntimeError(f"no engine step in phase {phase.name}")
    return phase


def winners(state: GameState) -> tuple[int, ...]:
    """The winner once the game is over; () while it runs.

    C23: most cash; a tie goes to the tied player earliest in turn order. Bankrupt
    players cannot win; if every player went bankrupt, the same rule picks among
    them (D45).
    """
    if state.phase != Phase.GAME_OVER:
        return ()
    candidates = [p for p in state.turn_order if not state.players[p].bankrupt] or list(state.turn_order)
    if not candidates:
        return ()
    best = max(candidates, key=lambda p: (state.players[p].cash, -state.turn_order.index(p)))
    return (best,)

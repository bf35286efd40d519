"""The bank: every payment to or from a player goes through here.

rules: Phase 4, Breaking the bank; C23, C24, R38, R53; Introductory game.

Trigger (D30): the bank breaks as soon as a payment leaves it at $0 (R53), also
when that payment was covered exactly. The first break in the standard game opens
the reserve cards, adds their sum to the bank, sets the CEO slots, and the payment
goes on from the refilled bank. The second break (the first in the introductory
game, which has no reserve cards) is final: the bank pays what it has, the rest is
written down as ``bank_debt`` (the player's cash includes it), and the game ends
after Dinnertime. Money invariant: ``bank + sum(cash) - bank_debt`` equals the
starting bank plus the reserve money added.
"""

from __future__ import annotations

from collections import Counter

from fcm_env.engine import events
from fcm_env.engine.phases.setup import reserve_card_slots
from fcm_env.engine.state import GameState


def final_breaks(state: GameState) -> int:
    """How many breaks end the game: 2 (standard), 1 (introductory)."""
    return 2 if state.variant == "standard" else 1


def is_broken_for_good(state: GameState) -> bool:
    """True once the final break happened: the game ends after this Dinnertime."""
    return state.bank_breaks >= final_breaks(state)


def pay_out(state: GameState, player: int, amount: int) -> None:
    """The bank pays ``amount`` (>= 0) to ``player``, breaking (and refilling) as needed."""
    if amount < 0:
        raise ValueError(f"the bank pays non-negative amounts, got {amount}")
    target = state.players[player]
    remaining = amount
    while remaining > 0:
        if is_broken_for_good(state):
            state.bank_debt += remaining  # C23, R38: written down on paper
            target.cash += remaining
            return
        given = min(state.bank, remaining)
        state.bank -= given
        target.cash += given
        remaining -= given
        if state.bank == 0:
            break_bank(state)


def collect(state: GameState, player: int, amount: int) -> int:
    """``player`` pays up to ``amount`` (>= 0) into the bank; returns what was paid."""
    if amount < 0:
        raise ValueError(f"payments to the bank are non-negative, got {amount}")
    payer = state.players[player]
    paid = min(payer.cash, amount)
    payer.cash -= paid
    state.bank += paid
    return paid


def break_bank(state: GameState) -> None:
    """One break of the bank: the first (standard game) opens the reserve cards."""
    state.bank_breaks += 1
    if is_broken_for_good(state):
        events.emit(state, "bank_break", number=int(state.bank_breaks), final=True)
        return
    reveal_reserve(state)
    events.emit(state, "bank_break", number=int(state.bank_breaks), final=False,
                reserves={str(p.player): p.reserve for p in state.players if p.reserve is not None},
                added=int(sum(p.reserve for p in state.players if p.reserve is not None)),
                ceo_slots=int(state.ceo_slots))


def reveal_reserve(state: GameState) -> None:
    """C24: add the kept reserve cards to the bank; the commonest slot count (ties: highest) rules.

    The new CEO slot count applies from the next turn on; the field is read only in
    phases 1 and 2, so it is set at once.
    """
    state.reserve_revealed = True
    values = [p.reserve for p in state.players if p.reserve is not None]
    state.bank += sum(values)
    if values:
        counts = Counter(reserve_card_slots(v) for v in values)
        state.ceo_slots = max(counts, key=lambda slots: (counts[slots], slots))

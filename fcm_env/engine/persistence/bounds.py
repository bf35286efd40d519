"""The ranges of a state document's numbers: what both engines hold for the rest of any game.

Why: the types alone let a document carry ``cash = 2**63-1`` (the native core's int64 wraps 40 moves
later while Python's ints grow: the engines split), ``round = 2**31-1`` (the core's int wraps), a seed
the core cannot take (``-1``, ``2**70``), a demand token ``999`` (a later move fails on both engines)
or a million-entry queue. ``check_bounds`` refuses each with a ``StateFormatError`` naming the field and
its range, before the rule-level checks (``validate``) run; docs/state-format.md lists the ranges.

The limits leave room to play on: money up to 2**52 (exact in a float64 and in JavaScript; a game adds
far less than 2**62 to it in 2**30 rounds), rounds up to 2**30 (an uncapped game passes it only after a
billion rounds), counts of food and cards that the int16 piles hold with a whole round's production on top.
"""

from __future__ import annotations

from fcm_env.data import Good
from fcm_env.engine.persistence.dataclass_json import fail
from fcm_env.engine.state import GameState

#: cash, bank, bank debt; income lies in -MONEY_MAX..MONEY_MAX (a chain can pay out more than it took in)
MONEY_MAX = 2**52
#: rounds and max_rounds
ROUND_MAX = 2**30
#: a game's seed: numpy's generators and the core's uint64 both take 0 <= seed < SEED_LIMIT
SEED_LIMIT = 2**63
#: food in stock of one good (int16 piles: a round's production on top still fits)
STOCK_MAX = 30_000
#: the turn's counters (hires, recruits left, recruiting discounts) and its card piles
COUNTER_MAX = 1_000
#: a pending decision's context values (tile numbers, squares, goods, counts)
CONTEXT_MAX = 2**20
#: the engine asks one decision at a time
PENDING_MAX = 1
NUM_GOODS = len(Good)


def _within(path: str, value: int, low: int, high: int) -> None:
    if not low <= value <= high:
        fail(path, f"must be {low}..{high}, got {value}")


def check_bounds(state: GameState) -> None:
    """``StateFormatError`` naming the first number of ``state`` outside its range (module docstring)."""
    if not 0 <= state.seed < SEED_LIMIT:
        fail("seed", f"must be 0..2**63-1, got {state.seed}")
    if state.max_rounds is not None:
        _within("max_rounds", state.max_rounds, 1, ROUND_MAX)
    _within("round", state.round, 0, ROUND_MAX)
    _within("bank", state.bank, 0, MONEY_MAX)
    _within("bank_breaks", state.bank_breaks, 0, 2 if state.variant == "standard" else 1)  # the final break ends it
    _within("gardens_left", state.gardens_left, 0, COUNTER_MAX)
    _within("ceo_slots", state.ceo_slots, 0, COUNTER_MAX)
    _within("bank_debt", state.bank_debt, 0, MONEY_MAX)
    n = state.num_players
    for name in ("queue", "passed"):
        ids = getattr(state, name)
        if len(ids) > n or len(set(ids)) != len(ids):
            fail(name, f"lists each player at most once (at most {n} entries), got {len(ids)} entries")
    if len(state.spots) > n:
        fail("spots", f"one spot per player at most ({n}), got {len(state.spots)} entries")
    if len(state.pending) > PENDING_MAX:
        fail("pending", f"the engine asks one decision at a time: at most {PENDING_MAX} entry, "
                        f"got {len(state.pending)}")
    for i, pending in enumerate(state.pending):
        for j, value in enumerate(pending.context):
            _within(f"pending[{i}][2][{j}]", value, -CONTEXT_MAX, CONTEXT_MAX)
    for i, p in enumerate(state.players):
        where = f"players[{i}]"
        _within(f"{where}.cash", p.cash, 0, MONEY_MAX)
        _within(f"{where}.income", p.income, -MONEY_MAX, MONEY_MAX)
        _within(f"{where}.recruit_discounts", p.recruit_discounts, 0, COUNTER_MAX)
        for good, count in enumerate(p.stock.tolist()):
            _within(f"{where}.stock[{good}]", count, 0, STOCK_MAX)
    for number, house in state.houses.items():
        for j, good in enumerate(house.demand):
            if not 0 <= good < NUM_GOODS:
                fail(f"houses[{number}].demand[{j}]", f"a demand token is a good 0..{NUM_GOODS - 1}, got {good}")
    for i, c in enumerate(state.campaigns):
        if not 0 <= c.product < NUM_GOODS:
            fail(f"campaigns[{i}].product", f"a campaign's product is a good 0..{NUM_GOODS - 1}, got {c.product}")
        _within(f"campaigns[{i}].remaining", c.remaining, 0, COUNTER_MAX)
    turn = state.turn
    _within("turn.hires", turn.hires, 0, COUNTER_MAX)
    _within("turn.recruits_left", turn.recruits_left, 0, COUNTER_MAX)
    if len(turn.trainers) > COUNTER_MAX:
        fail("turn.trainers", f"at most {COUNTER_MAX} entries, got {len(turn.trainers)}")
    for name in ("locked", "phantoms", "returned", "used"):
        pile = getattr(turn, name).tolist()
        for t, count in enumerate(pile):
            _within(f"turn.{name}[{t}]", count, 0, COUNTER_MAX)

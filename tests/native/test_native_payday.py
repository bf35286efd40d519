"""Payday (phase 5) in the native core, scenario by scenario: salaries, discounts, firing, C27, C30, R41 and a
bankrupt chain (C21, D41). Each scenario is a hand-written 2-player standard position opened by the Python
engine's ``payday.start``; both engines then answer the same FIRE decisions (no engine step after them),
must leave the same state document, and the cash and cards must be what the rules give, worked out by hand
in each test ($5 per salaried card: PRICES.salary)."""

from __future__ import annotations

import numpy as np
import pytest

from fcm_env import native
from fcm_env.data import EmployeeType as E
from fcm_env.data import Milestone
from fcm_env.engine.actions import Action, Decision
from fcm_env.engine.board.occupancy import occupied
from fcm_env.engine.game import ROUTES, Game
from fcm_env.engine.persistence.serialize import state_from_dict
from fcm_env.engine.phases import payday
from fcm_env.engine.state import Campaign, GameState, Phase

PASS = Action.pass_()
MAILBOX_TILE = 9  # a 1x1 mailbox tile of every player count


def _table(num_players: int = 2) -> GameState:
    """A standard game in round 3 at the start of Payday: every chain holds its CEO only and $0."""
    state = Game.new(num_players, seed=3, variant="standard").state
    state.pending = []
    state.queue = []
    state.round = 3
    state.phase = Phase.DINNERTIME
    state.turn_order = list(range(num_players))
    return state


def _give(state: GameState, player: int, pool: str, etype: E, count: int = 1) -> None:
    """Cards from the supply to a player's hand/work/beach/busy (the box limit holds)."""
    state.supply[etype] -= count
    getattr(state.players[player], pool)[etype] += count


def _award(state: GameState, player: int, milestone: Milestone) -> None:
    """A milestone won in an earlier turn."""
    state.players[player].milestones.add(milestone)
    state.milestones_gone.add(milestone)


def _open(state: GameState) -> dict:
    """Python opens Payday; the position must be a valid document (the loader's checks)."""
    payday.start(state)
    document = Game(state).to_dict()
    Game.from_dict(document)  # raises on an invalid hand-written position
    return document


def _play(document: dict, actions: list[Action]) -> dict:
    """Both engines answer ``actions`` in order with the same legal lists; returns the (same) final
    document."""
    theirs = Game(state_from_dict(document))
    ours = native.Game.from_checked_dict(document)
    for action in actions:
        legal = theirs.legal_actions()
        assert ours.legal_actions() == [(int(a.kind), a.args) for a in legal]
        assert action in legal, f"{action} is not legal for {theirs.pending}: {[str(a) for a in legal]}"
        pending = theirs.pending
        ROUTES[pending.decision][1](theirs.state, pending, action)
        theirs = Game(theirs.state)
        ours.apply_no_advance(int(action.kind), list(action.args))
    assert theirs.pending is None, "the scenario ends at the reveal"
    assert ours.to_dict() == theirs.to_dict()
    return ours.to_dict()


def _legal(document: dict) -> set[Action]:
    ours = native.Game.from_checked_dict(document)
    found = {Action(kind, tuple(args)) for kind, args in ours.legal_actions()}
    assert found == set(Game(state_from_dict(document)).legal_actions())
    return found


def test_discounts_lower_the_salary():
    # R40: 1 unused recruiting-manager action is $5 off; First to train: $15 off. Player 0: recruiting
    # manager, 2 burger cooks at work, pizza cook and coach on the beach = 5 salaried cards = $25 - $5 - $15
    # = $5.
    state = _table()
    for pool, etype in [("work", E.RECRUITING_MANAGER), ("work", E.BURGER_COOK), ("work", E.BURGER_COOK),
                        ("beach", E.PIZZA_COOK), ("beach", E.COACH)]:
        _give(state, 0, pool, etype)
    state.players[0].recruit_discounts = 1
    _award(state, 0, Milestone.FIRST_TRAIN)
    state.players[0].cash = 12
    _give(state, 1, "work", E.WAITRESS)  # unsalaried: player 1 owes nothing
    state.players[1].cash = 3
    bank = state.bank
    document = _open(state)
    assert document["pending"] == [["FIRE", 0, []]]
    end = _play(document, [PASS, PASS])
    assert [p["cash"] for p in end["players"]] == [7, 3]
    assert end["bank"] == bank + 5
    assert end["firing_revealed"] and end["pending"] == []
    # a discount can never make the salary negative: nobody was paid $20, no milestone
    assert "FIRST_PAY_20_SALARIES" not in end["milestones_this_turn"]


def test_a_chain_that_cannot_pay_must_fire_first():
    # Player 0: $7, burger cook and pizza cook at work, truck driver on the beach: $15 due, "done" is illegal
    # until at most $7 is due. Firing the driver leaves $10, the pizza cook too leaves $5: then done.
    state = _table()
    for pool, etype in [("work", E.BURGER_COOK), ("work", E.PIZZA_COOK), ("beach", E.TRUCK_DRIVER)]:
        _give(state, 0, pool, etype)
    state.players[0].cash = 7
    supply = state.supply.copy()
    document = _open(state)
    assert _legal(document) == {Action.fire(E.BURGER_COOK), Action.fire(E.PIZZA_COOK),
                                Action.fire(E.TRUCK_DRIVER)}
    end = _play(document, [Action.fire(E.TRUCK_DRIVER), Action.fire(E.PIZZA_COOK), PASS])
    p0 = end["players"][0]
    assert p0["cash"] == 2
    assert p0["work"][E.CEO] == 1 and p0["work"][E.BURGER_COOK] == 1 and p0["work"][E.PIZZA_COOK] == 0
    assert sum(p0["beach"]) == 0 and sum(p0["fired"]) == 0
    want = supply.copy()
    want[E.TRUCK_DRIVER] += 1
    want[E.PIZZA_COOK] += 1
    assert end["supply"] == want.tolist()


def test_busy_marketeers_only_when_nothing_else_is_left_c30():
    # Player 0: $0, burger cook at work, a campaign manager busy on a mailbox: $10 due. First only the cook
    # may go; with the cook marked $5 is still due, so the busy campaign manager may be marked (C30). With
    # both marked nothing is due and nothing more can be marked: the chain is done without saying so.
    state = _table()
    _give(state, 0, "work", E.BURGER_COOK)
    _give(state, 0, "busy", E.CAMPAIGN_MANAGER)
    free = np.argwhere(~occupied(state))
    row, col = (int(x) for x in free[0])
    state.marketing_supply.remove(MAILBOX_TILE)
    state.campaigns.append(Campaign(number=MAILBOX_TILE, kind=1, owner=0, marketeer=int(E.CAMPAIGN_MANAGER),
                                    product=0, remaining=2, eternal=False, row=row, col=col, orientation=0,
                                    squares=((row, col),)))
    document = _open(state)
    assert _legal(document) == {Action.fire(E.BURGER_COOK)}
    theirs = Game(state_from_dict(document))
    ROUTES[Decision.FIRE][1](theirs.state, theirs.pending, Action.fire(E.BURGER_COOK))
    assert _legal(theirs.to_dict()) == {Action.fire(E.CAMPAIGN_MANAGER)}
    end = _play(document, [Action.fire(E.BURGER_COOK), Action.fire(E.CAMPAIGN_MANAGER)])
    p0 = end["players"][0]
    assert p0["cash"] == 0 and sum(p0["busy"]) == 0 and p0["work"][E.BURGER_COOK] == 0
    assert len(end["campaigns"]) == 1  # the fired marketeer's campaign stays


def test_first_to_have_100_must_fire_the_cfo_c27():
    # C27: with "First to have $100" the CFO must go; $200 pays the $5 easily, yet "done" is not offered
    # before the CFO is marked, and with it marked nothing is left to choose.
    state = _table()
    _give(state, 0, "work", E.CFO)
    _award(state, 0, Milestone.FIRST_HAVE_100)
    state.players[0].cash = 200
    document = _open(state)
    assert _legal(document) == {Action.fire(E.CFO)}
    end = _play(document, [Action.fire(E.CFO)])
    assert end["players"][0]["cash"] == 200
    assert end["players"][0]["work"][E.CFO] == 0 and end["supply"][E.CFO] == 1


@pytest.mark.parametrize("billboard", [False, True])
def test_pay_20_goes_to_every_chain_that_paid_20_r41(billboard):
    # R41: whoever actually pays $20 or more claims it, several chains in the same turn. Player 0: 4 cooks
    # = $20. Player 1: 3 cooks and a brand manager = $20, or $15 with "First billboard placed" (marketeers
    # draw no salary) and then no milestone.
    state = _table()
    _give(state, 0, "work", E.BURGER_COOK, 4)
    _give(state, 1, "work", E.PIZZA_COOK, 3)
    _give(state, 1, "beach", E.BRAND_MANAGER)
    if billboard:
        _award(state, 1, Milestone.FIRST_BILLBOARD)
    for p in state.players:
        p.cash = 50
    end = _play(_open(state), [PASS, PASS])
    assert end["players"][0]["cash"] == 30
    assert end["players"][1]["cash"] == (35 if billboard else 30)
    assert "FIRST_PAY_20_SALARIES" in end["players"][0]["milestones"]
    assert ("FIRST_PAY_20_SALARIES" in end["players"][1]["milestones"]) is not billboard


def test_a_bankrupt_chain_is_asked_too_c21():
    # C21, D41: a chain that went bankrupt this turn is still in the game until Clean-up: it is asked, cannot
    # pay its cook with $0 and must fire it; the other chain (CEO only) is not asked at all (D46).
    state = _table()
    state.players[1].bankrupt = True
    _give(state, 1, "beach", E.BURGER_COOK)
    document = _open(state)
    assert document["pending"] == [["FIRE", 1, []]]
    assert _legal(document) == {Action.fire(E.BURGER_COOK)}
    end = _play(document, [Action.fire(E.BURGER_COOK)])
    assert end["players"][1]["cash"] == 0 and end["players"][1]["beach"][E.BURGER_COOK] == 0

"""Every position the engines reach saves and loads, and a document past the ranges both engines hold is
refused by both loaders, naming the field (docs/state-format.md, "Ranges"; bounds.py).

rules: C21, C22, D33, D34, D55 — a chain that pays more at a negative price than it takes in has a
negative cash earned (``income``) until the next Dinnertime; the document holds it."""

from __future__ import annotations

import json

import numpy as np
import pytest
from late_builders import chain_that_cannot_pay
from on_engine import dined

from fcm_env.engine.persistence.dataclass_json import StateFormatError
from fcm_env.engines import load_game, new_game


def test_a_chain_that_could_not_pay_its_bill_leaves_a_position_that_saves_and_loads_on_both_engines(engine):
    # price 10 - 12 = -2: house 2's two burgers cost $4, the chain has $3: it pays 3, is bankrupt, and its
    # cash earned is -3 (test_dinnertime's scenario); the game stops at Payday's first FIRE decision
    game = dined(engine, chain_that_cannot_pay())
    document = json.loads(json.dumps(game.to_dict()))
    assert document["players"][0]["income"] == -3 and document["players"][0]["bankrupt"] is True
    for target in ("python", "native"):
        if target == "native":
            pytest.importorskip("fcm_env.native")
        loaded = load_game(target, document)
        assert loaded.to_dict() == document
        assert sorted(loaded.legal_ids().tolist()) == sorted(game.legal_ids().tolist())


def _document(players: int = 3) -> dict:
    game = new_game("python", players, 4, "standard", 20)
    for _ in range(12):
        game.apply_id(int(game.legal_ids()[0]))
    return json.loads(json.dumps(game.to_dict()))


CASES = [
    ("cash 2**63-1", lambda d: d["players"][0].update(cash=2**63 - 1), r"players\[0\]\.cash: must be 0\.\.4503599627370496"),
    ("income past the range", lambda d: d["players"][1].update(income=-(2**53)), r"players\[1\]\.income: must be -4503"),
    ("round 2**31-1", lambda d: d.update(round=2**31 - 1, max_rounds=None), r"round: must be 0\.\.1073741824, got 2147483647"),
    ("max_rounds 2**40", lambda d: d.update(max_rounds=2**40), r"max_rounds: must be 1\.\.1073741824"),
    ("seed -1", lambda d: d.update(seed=-1), r"seed: must be 0\.\.2\*\*63-1, got -1"),
    ("seed 2**70", lambda d: d.update(seed=2**70), r"seed: must be 0\.\.2\*\*63-1"),
    ("a demand token 999", lambda d: d["houses"][next(iter(d["houses"]))].update(demand=[999]),
     r"houses\[\d+\]\.demand\[0\]: a demand token is a good 0\.\.4, got 999"),
    ("a million-entry queue", lambda d: d.update(queue=[d["pending"][0][1]] * 10**6),
     r"queue: lists each player at most once"),
    ("10,000 pending entries", lambda d: d.update(pending=d["pending"] * 10_000), r"pending: the engine asks one"),
    ("a counter at 2**31-1", lambda d: d["turn"].update(hires=2**31 - 1), r"turn\.hires: must be 0\.\.1000"),
]


@pytest.mark.parametrize(("edit", "words"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_a_number_past_its_range_is_refused_by_both_loaders_naming_the_field(engine, edit, words):
    document = _document()
    edit(document)
    with pytest.raises(StateFormatError, match=words):
        load_game(engine, document)


def test_a_pickled_native_game_is_checked_as_any_document_is():
    pytest.importorskip("fcm_env.native")
    import pickle

    game = new_game("native", 2, 3)
    state = game.__getstate__()
    state["document"]["players"][0]["cash"] = 2**63 - 1
    clone = type(game).__new__(type(game))
    with pytest.raises(StateFormatError, match=r"players\[0\]\.cash: must be 0\.\."):
        clone.__setstate__(state)
    assert pickle.loads(pickle.dumps(game)).to_dict() == game.to_dict()


@pytest.mark.parametrize("seed", [-1, 2**63, 2**70])
def test_a_new_game_takes_only_seeds_a_saved_game_loads_with(engine, seed):
    with pytest.raises(ValueError, match=r"seed must be 0\.\.2\*\*63-1"):
        new_game(engine, 2, seed)
    assert new_game(engine, 2, 2**63 - 1).to_dict()["seed"] == 2**63 - 1


def _document_at(decision: str, players: int = 3) -> dict:
    """A document of a random game (fixed seeds) whose pending decision is ``decision``."""
    for seed in range(40):
        game = new_game("python", players, seed, "standard", 12)
        rng = np.random.default_rng(seed)
        while not game.is_over:
            if game.pending.decision.name == decision:
                return json.loads(json.dumps(game.to_dict()))
            ids = game.legal_ids()
            game.apply_id(int(ids[rng.integers(len(ids))]))
    raise AssertionError(f"no {decision} in 40 games")


def _off_road_spot(d: dict) -> None:  # the campaign's spot moved onto the map's first square (a road or a house)
    d["pending"][0][2][2:4] = [0, 0]


STRUCTURE = [  # found by tools/fuzz_documents.py: each loaded, and a later move broke or could not be loaded
    ("a campaign spot no placement offers", "CAMPAIGN_PRODUCT", _off_road_spot,
     r"pending\[0\]\[2\]\[2\]: tile \d+ at \(0, 0, \d\) is not a placement its marketeer may make here"),
    ("a campaign tile not in the supply", "CAMPAIGN_PLACE", lambda d: d.update(marketing_supply=[]),
     r"pending\[0\]\[2\]\[1\]: tile \d+ is not in marketing_supply"),
    ("a reserve offer taken away", "RESERVE_CARD", lambda d: d["players"][d["pending"][0][1]].update(reserve_offer=[]),
     r"players\[\d\]\.reserve_offer: a player still to keep a reserve card holds the dealt"),
    ("a reserve offer taken before the restaurants", "INITIAL_RESTAURANT",
     lambda d: d["players"][0].update(reserve_offer=[]),
     r"players\[0\]\.reserve_offer: a player still to keep a reserve card holds the dealt"),
    ("a chooser dropped from the queue", "TURN_ORDER", lambda d: d.update(queue=d["queue"][:1]),
     r"queue: in ORDER_OF_BUSINESS the queue holds the players without a spot"),
    ("a pending player not first in the queue", "RECRUIT",
     lambda d: d["pending"][0].__setitem__(1, d["queue"][-1] if d["queue"][-1] != d["pending"][0][1] else d["queue"][0]),
     r"pending\[0\]\[1\]: WORKING asks the first player of queue"),
    ("the turn order emptied", "INITIAL_RESTAURANT", lambda d: d.update(turn_order=[]),
     r"turn_order: players \[0, 1, 2\] are missing: only a bankrupt chain leaves the turn order"),
]


@pytest.mark.parametrize(("decision", "edit", "words"), [c[1:] for c in STRUCTURE], ids=[c[0] for c in STRUCTURE])
def test_a_document_whose_next_moves_could_not_go_on_is_refused_by_both_loaders(engine, decision, edit, words):
    document = _document_at(decision)
    load_game(engine, document)  # as played: it loads
    edit(document)
    with pytest.raises(StateFormatError, match=words):
        load_game(engine, document)

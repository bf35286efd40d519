"""Tampered state documents are refused on load with a message naming the field, and a move that fails midway
leaves the game as it was (docs/state-format.md, "What loading checks"; fcm_env/engine/persistence/validate.py).

The documents are the outside probe's (a restaurant off the map, a decision of another phase, a negative
cash, two restaurants on one square, ...) plus one per field family of the state document. Loading is on both
engines' face (``fcm_env.engines.load_game``, the ``engine`` fixture): a document either engine refuses is
refused with the same ``StateFormatError``, one it accepts is the same position read back (``full``)."""

from __future__ import annotations

import copy
import json

import pytest
from on_engine import full
from tampered_states import TAMPERED, _play_to, restructuring_document

from fcm_agents.heuristic import HeuristicAgent
from fcm_env.engine.game import Game
from fcm_env.engine.persistence.serialize import StateFormatError, state_diff, state_to_dict
from fcm_env.engines import load_game


@pytest.fixture(scope="module")
def restructuring() -> dict:
    return restructuring_document()


@pytest.mark.parametrize(("mutate", "message"), TAMPERED, ids=[m for _, m in TAMPERED])
def test_a_tampered_document_is_refused_naming_the_field(engine, restructuring, mutate, message):
    doc = copy.deepcopy(restructuring)
    mutate(doc)
    with pytest.raises(StateFormatError) as refused:
        load_game(engine, json.loads(json.dumps(doc)))
    assert str(refused.value).startswith(message), str(refused.value)


def test_the_untouched_document_loads(engine, restructuring):
    game = load_game(engine, copy.deepcopy(restructuring))
    assert state_diff(full(game), Game.from_dict(restructuring).state) == []
    assert game.to_dict() == restructuring and game.pending.decision.name == "RESTRUCTURE"


def test_a_pending_decision_with_no_legal_answer_is_refused(engine, restructuring):
    # the types and the phase agree, but player 0 has no card a recruiter could hire: nothing to answer
    doc = copy.deepcopy(restructuring)
    doc["phase"] = "WORKING"
    doc["pending"] = [["CAMPAIGN_TILE", 0, [25]]]  # a brand manager it does not have, asked for a tile
    doc["marketing_supply"] = []
    with pytest.raises(StateFormatError, match=r"^pending\[0\]: CAMPAIGN_TILE of player 0 has no legal answer"):
        load_game(engine, doc)


def test_every_position_of_heuristic_games_loads(engine):
    # the validator accepts everything the engine itself reaches, at every table size, and the engine under
    # test holds the same position (its document) and asks the same question
    for players in (2, 3, 4, 5):
        game = Game.new(players, seed=players, max_rounds=8)
        agents = [HeuristicAgent(seed=p) for p in range(players)]
        while not game.is_over:
            doc = game.to_dict()
            loaded = load_game(engine, doc)
            assert loaded.to_dict() == doc and loaded.pending == game.pending
            p = game.current_player
            game.apply(agents[p].act_on_game(game, p))
        assert load_game(engine, game.to_dict()).is_over


# ------------------------------------------------------------------ a move is atomic


def test_a_move_that_fails_midway_leaves_the_game_exactly_as_it_was(monkeypatch):
    # python-only: the failure is injected into the Python engine's Dinnertime module (monkeypatch) and the
    # move is the Python Game's ``apply(atomic=True)`` with its history and event log; the C++ core has no
    # such seam to break a phase midway
    from fcm_env.engine.phases import dinnertime

    real_run = dinnertime.run

    def broken(state):
        real_run(state)  # the sales are made, the cash paid out ...
        raise RuntimeError("injected failure in dinnertime")  # ... and then the phase breaks

    game = _play_to(2, 3, lambda g: g.state.round == 2 and g.phase.name == "WORKING")
    game.history = []
    log = game.record_events()
    agents = [HeuristicAgent(seed=p) for p in range(2)]
    monkeypatch.setattr(dinnertime, "run", broken)
    for _ in range(200):  # the last move of Working 9-5 runs Dinnertime
        before, history, logged = state_to_dict(game.state), list(game.history), list(log)
        player = game.current_player
        action = agents[player].act_on_game(game, player)
        try:
            game.apply(action, atomic=True)
        except RuntimeError as exc:
            assert str(exc) == "injected failure in dinnertime"
            break
    else:
        pytest.fail("Dinnertime never ran")
    assert state_to_dict(game.state) == before  # not one sale, coin or stamp of the failed move is left
    assert game.history == history and game.events == logged and game.events is log
    assert game.current_player == player and action in game.legal_actions()
    monkeypatch.setattr(dinnertime, "run", real_run)
    game.apply(action, atomic=True)  # the same move now plays, and the log goes on in the same list
    assert game.phase.name != "WORKING" and log[len(logged):] and game.history == [*history, action]

"""Tampered state documents are refused on load with a message naming the field, and a move that fails midway
leaves the game as it was (docs/state-format.md, "What loading checks"; fcm_env/engine/persistence/validate.py).

The documents are the outside probe's (a restaurant off the map, a decision of another phase, a negative
cash, two restaurants on one square, ...) plus one per field family of the state document."""

from __future__ import annotations

import copy
import json

import pytest

from fcm_agents.heuristic import HeuristicAgent
from fcm_env.engine.game import Game
from fcm_env.engine.persistence.serialize import StateFormatError, state_diff, state_to_dict


def _play_to(players: int, seed: int, stop) -> Game:
    game = Game.new(players, seed=seed)
    agents = [HeuristicAgent(seed=p) for p in range(players)]
    while not stop(game):
        p = game.current_player
        game.apply(agents[p].act_on_game(game, p))
    return game


@pytest.fixture(scope="module")
def restructuring() -> dict:
    """Round 2, RESTRUCTURING, player 0 to put a card to work; a restaurant each (player 0's at (9, 8))."""
    game = _play_to(2, 0, lambda g: g.state.round == 2 and g.phase.name == "RESTRUCTURING")
    return game.to_dict()


def _restaurant(row, col, orientation):
    return {"row": row, "col": col, "orientation": orientation, "coming_soon": False}


def _set(path, value):
    """A mutation that sets ``doc[path...] = value``."""
    def mutate(doc):
        target = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return mutate


def _both(*mutations):
    def mutate(doc):
        for m in mutations:
            m(doc)
    return mutate


TAMPERED = [
    # the outside probe's documents
    (_set(["players", 0, "restaurants", 0, "row"], 1000), "players[0].restaurants[0]: restaurant at anchor (1000, 8) covers 2x2 squares and does not fit"),
    (_set(["players", 0, "restaurants", 0, "row"], -1), "players[0].restaurants[0]: restaurant anchor (-1, 8) is outside the map (negative coordinate)"),
    (_set(["players", 0, "restaurants", 0, "orientation"], 9), "players[0].restaurants[0]: restaurant orientation"),
    (_set(["pending"], [["RECRUIT", 0, [999]]]), "pending[0][0]: RECRUIT is asked in WORKING, the game is in RESTRUCTURING"),
    (_set(["players", 0, "cash"], -50), "players[0].cash: must not be negative, got -50"),
    (_set(["players", 1, "restaurants"], [_restaurant(9, 8, 3)]), "players[1].restaurants[0]: square (9, 8) is also covered by players[0].restaurants[0]"),
    (_set(["players", 0, "restaurants"], [_restaurant(9, 8, 3)] * 200), "players[0].restaurants: a chain has 3 restaurants in the box, got 200"),
    (_set(["players", 0, "restaurants", 0], _restaurant(2, 13, 0)), "players[0].restaurants[0]: square (2, 13) is not empty on the printed map"),
    # one per field family: the frame, the bank, players, cards, the map, marketing, bookkeeping, pending
    (_set(["round"], -3), "round: must be 0 (setup) or more, got -3"),
    (_both(_set(["phase"], "SETUP_RESERVE"), _set(["pending"], [])), "phase: SETUP_RESERVE in round 2: the setup is round 0"),
    (_set(["bank"], -1), "bank: must not be negative, got -1"),
    (_set(["bank_debt"], 40), "bank_debt: the bank owes money only after its second break (C23)"),
    (_set(["ceo_slots"], 9), "ceo_slots: a CEO has [2, 3, 4] slots"),
    (_set(["turn_order"], [0, 0]), "turn_order: expected distinct player ids 0..1, got [0, 0]"),
    (_set(["queue"], [5]), "queue[0]: player 5 is not in a 2-player game"),
    (_set(["players", 1, "reserve"], 250), "players[1].reserve: 250 is not one of the dealt cards [100, 200, 300]"),
    (_set(["players", 0, "stock", 0], -2), "players[0].stock: negative count"),
    (_set(["players", 0, "hand", 6], -1), "players[0].hand[6]: negative count of waitress"),
    (_set(["players", 0, "work", 0], 0), "players[0].work: every chain has exactly one CEO, at work"),
    (_set(["players", 0, "hand", 5], 2), "players[0]: holds 2 executive_vice_president, a 1x card"),
    (_set(["supply", 6], 99), "supply: 99"),
    (_set(["players", 0, "fired", 6], 3), "players[0].fired[6]: more waitress marked to fire than the chain holds"),
    (_set(["houses", "13", "demand"], [0, 0, 0, 0]), "houses[13].demand: 4 demand tokens, the limit is 3"),
    (_set(["houses", "13", "garden"], [[2, 13], [2, 14]]), "houses[13].garden: square (2, 13) is not empty"),
    (_set(["houses", "13", "squares"], [[2, 13], [2, 14], [3, 13], [3, 99]]), "houses[13]: square (3, 99) is off the 15x15 map"),
    (_set(["house_supply"], [1, 1]), "house_supply[1]: house token 1 is not one of"),
    (_set(["gardens_left"], 30), "gardens_left: 30 garden tokens left: the box holds 8"),
    (_set(["marketing_supply"], [1, 1]), "marketing_supply[1]: tile 1 is not a 2-player tile listed once"),
    (_set(["milestones_gone"], ["FIRST_TRAIN"]), "milestones_gone: FIRST_TRAIN held by no player"),
    (_set(["turn", "hires"], -1), "turn.hires: must not be negative, got -1"),
    (_set(["pending"], [["RESTRUCTURE", 0, [1, 2]]]), "pending[0][2]: RESTRUCTURE carries 0 context value(s) (none), got 2"),
    (_set(["pending"], [["RESTRUCTURE", 9, []]]), "pending[0][1]: player 9 is not in a 2-player game"),
    (_set(["phase"], "GAME_OVER"), "pending: the game is over: nothing can be pending"),
]


@pytest.mark.parametrize(("mutate", "message"), TAMPERED, ids=[m for _, m in TAMPERED])
def test_a_tampered_document_is_refused_naming_the_field(restructuring, mutate, message):
    doc = copy.deepcopy(restructuring)
    mutate(doc)
    with pytest.raises(StateFormatError) as refused:
        Game.from_dict(json.loads(json.dumps(doc)))
    assert str(refused.value).startswith(message), str(refused.value)


def test_the_untouched_document_loads(restructuring):
    assert state_diff(Game.from_dict(restructuring).state, Game.from_dict(copy.deepcopy(restructuring)).state) == []


def test_a_pending_decision_with_no_legal_answer_is_refused(restructuring):
    # the types and the phase agree, but player 0 has no card a recruiter could hire: nothing to answer
    doc = copy.deepcopy(restructuring)
    doc["phase"] = "WORKING"
    doc["pending"] = [["CAMPAIGN_TILE", 0, [25]]]  # a brand manager it does not have, asked for a tile
    doc["marketing_supply"] = []
    with pytest.raises(StateFormatError, match=r"^pending\[0\]: CAMPAIGN_TILE of player 0 has no legal answer"):
        Game.from_dict(doc)


def test_every_position_of_heuristic_games_loads():
    # the validator accepts everything the engine itself reaches, at every table size
    for players in (2, 3, 4, 5):
        game = Game.new(players, seed=players, max_rounds=8)
        agents = [HeuristicAgent(seed=p) for p in range(players)]
        while not game.is_over:
            Game.from_dict(game.to_dict())
            p = game.current_player
            game.apply(agents[p].act_on_game(game, p))
        Game.from_dict(game.to_dict())


# ------------------------------------------------------------------ a move is atomic


def test_a_move_that_fails_midway_leaves_the_game_exactly_as_it_was(monkeypatch):
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

"""Tampered state documents and the error each must be refused with (docs/state-format.md, "What loading
checks"): the outside probe's, plus one per field family. Shared by the engine's, the server's and the web
table's tests, which must refuse them with the same message."""

from __future__ import annotations

from fcm_agents.heuristic import HeuristicAgent
from fcm_env.engine.game import Game


def _play_to(players: int, seed: int, stop) -> Game:
    game = Game.new(players, seed=seed)
    agents = [HeuristicAgent(seed=p) for p in range(players)]
    while not stop(game):
        p = game.current_player
        game.apply(agents[p].act_on_game(game, p))
    return game


def restructuring_document() -> dict:
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



"""The front-end protocol: JSON-safe views without hidden information, legal actions, validated moves."""

from __future__ import annotations

import json

import numpy as np
import pytest

from fcm_agents import HeuristicAgent, RandomAgent
from fcm_env.data import EmployeeType, Milestone
from fcm_env.encoding import legal_action_ids
from fcm_env.engine.actions import Action, ActionKind, Decision, IllegalActionError
from fcm_env.engine.game import Game
from fcm_env.engine.serialize import state_to_dict
from fcm_env.protocol import (
    PARAMS,
    ProtocolError,
    Session,
    apply,
    describe_action,
    legal_actions,
    parse_action,
    view,
)

E = EmployeeType


def snapshot(game: Game) -> str:
    return json.dumps(state_to_dict(game.state), sort_keys=True)


def play_until(game: Game, agents, stop) -> Game:
    while not game.is_over and not stop(game):
        player = game.current_player
        game.apply(agents[player].act_on_game(game, player))
    assert not game.is_over, "the position looked for never came"
    return game


def heuristic_game(seed: int = 0) -> tuple[Game, list]:
    return Game.new(2, seed=seed, max_rounds=8), [HeuristicAgent(), HeuristicAgent()]


# ------------------------------------------------------------------ views and legal actions


def test_views_and_legal_actions_are_json_and_match_the_engine_over_a_game():
    game = Game.new(3, seed=2, max_rounds=4)
    agents = [HeuristicAgent(), RandomAgent(seed=1), RandomAgent(seed=2)]
    steps = 0
    while not game.is_over:
        mover = game.current_player
        for player in range(3):
            text = json.dumps(view(game, player), allow_nan=False)  # plain JSON types only
            assert json.loads(text)["you"] == player
            described = legal_actions(game, player)
            if player != mover:
                assert described == []
                continue
            assert [d["id"] for d in described] == [describe_action(a)["id"] for a in game.legal_actions()]
            assert sorted(d["id"] for d in described) == list(legal_action_ids(game))
            for d, action in zip(described, game.legal_actions(), strict=True):
                # every description names its action back, in all three forms
                assert parse_action(game, d["id"]) == action
                assert parse_action(game, {"kind": d["kind"], "params": d["params"]}) == action
                assert parse_action(game, {"kind": d["kind"], "args": list(action.args)}) == action
                assert d["label"] == str(action)
        game.apply(agents[mover].act_on_game(game, mover))
        steps += 1
    final = view(game, 0)
    assert final["over"] and final["winners"] == list(game.winners) and final["pending"] is None
    assert steps == 60  # the seeded game: so the loop above really covered every phase


def test_view_shows_the_board_houses_restaurants_and_pending_decision():
    game = Game.new(2, seed=0)
    game.apply(Action.place_restaurant(0, 7, 2))  # player 1 opens at (0,7), entrance SE
    v = view(game, 0)
    assert v["map"]["tiles"] == [["K2", "I2", "H3"], ["P1", "D3", "E2"], ["B0", "A1", "S3"]]
    assert (v["map"]["height"], v["map"]["width"]) == (15, 15)
    # row 2 (see ``fcm map --players 2``): road, house 18, empty, roads, house 13
    assert v["map"]["squares"][2] == "#HH.#########HH"
    assert all(len(row) == 15 for row in v["map"]["squares"])
    assert v["restaurants"] == [{
        "owner": 1, "index": 0, "row": 0, "col": 7, "orientation": 2,
        "squares": [[0, 7], [0, 8], [1, 7], [1, 8]], "entrance": [1, 8], "coming_soon": False,
    }]
    house_13 = next(h for h in v["houses"] if h["number"] == 13)
    assert house_13["demand"] == [] and house_13["garden"] == [] and house_13["demand_limit"] == 3
    assert v["pending"] == {"player": 0, "decision": "INITIAL_RESTAURANT", "you": True,
                            "text": "place your first restaurant (in the first setup round you may pass)",
                            "context": [1], "fields": {"setup_round": 1}}
    assert v["players"][1]["restaurants"] == 1 and v["bank"] == 100  # rules: Setting up (2 players: $100)


def test_every_action_kind_has_named_params_matching_its_args():
    for kind in ActionKind:
        assert kind in PARAMS
    assert describe_action(Action.train(E.CEO, E.KITCHEN_TRAINEE, E.BURGER_COOK))["params"] == {
        "trainer": "pooled", "source": "kitchen_trainee", "target": "burger_cook",
    }
    assert describe_action(Action.haul(E.CART_OPERATOR, 1, 0, 2))["params"] == {
        "employee": "cart_operator", "beer": 1, "lemonade": 0, "soda": 2,
    }


# ------------------------------------------------------------------ moves


def test_apply_takes_an_id_or_a_structured_action():
    game = Game.new(2, seed=0)
    first = game.legal_actions()[1]
    by_id = game.clone()
    assert apply(by_id, 1, describe_action(first)["id"]) == first
    structured = game.clone()
    assert apply(structured, 1, {"kind": "place_restaurant", "params": {"row": first.args[0],
                                 "col": first.args[1], "orientation": first.args[2]}}) == first
    serialized = game.clone()
    assert apply(serialized, 1, ["PLACE_RESTAURANT", list(first.args)]) == first
    game.apply(first)
    assert snapshot(by_id) == snapshot(structured) == snapshot(serialized) == snapshot(game)


def test_names_of_employees_and_goods_are_read():
    game = Game.new(2, seed=0)
    assert parse_action(game, {"kind": "RECRUIT", "params": {"employee": "Kitchen Trainee"}}) == Action.recruit(
        E.KITCHEN_TRAINEE)
    assert parse_action(game, {"kind": "KEEP", "params": {"good": "soda"}}) == Action.keep(4)
    assert parse_action(game, {"kind": "RECRUIT", "params": {"employee": 28}}) == Action.recruit(28)


@pytest.mark.parametrize(("player", "action", "error", "message"), [
    (0, 0, ProtocolError, "not your turn: player 1 is to decide INITIAL_RESTAURANT"),
    (2, 0, ProtocolError, "player must be 0..1, got 2"),
    (True, 0, ProtocolError, "player must be an integer player id"),
    (1, {"kind": "JUMP"}, ProtocolError, "unknown action kind 'JUMP'"),
    (1, {"kind": "RECRUIT", "params": {"employee": "barista"}}, ProtocolError, "unknown employee 'barista'"),
    (1, {"kind": "RECRUIT", "params": {}}, ProtocolError, "RECRUIT takes params employee: missing employee"),
    (1, {"kind": "PASS", "params": {"x": 1}}, ProtocolError, "PASS takes params no params: unknown x"),
    (1, {"kind": "PASS", "args": [1]}, ProtocolError, "PASS takes 0 args"),
    (1, {"kind": "PASS", "params": {}, "args": []}, ProtocolError, "give 'params' or 'args', not both"),
    (1, {"params": {}}, ProtocolError, "needs a 'kind'"),
    (1, "pass", ProtocolError, "an action is an id"),
    (1, True, ProtocolError, "an action is an id"),
    (1, 10**6, IllegalActionError, "out of range"),
    (1, 5, IllegalActionError, "does not answer INITIAL_RESTAURANT"),  # a put-to-work id
    (1, {"kind": "PLACE_RESTAURANT", "params": {"row": 0, "col": 0, "orientation": 0}}, IllegalActionError,
     "is not one of the 88 legal actions of INITIAL_RESTAURANT"),
    (1, {"kind": "RECRUIT", "params": {"employee": "waitress"}}, IllegalActionError, "illegal action"),
])
def test_bad_moves_raise_a_clear_error_and_change_nothing(player, action, error, message):
    game = Game.new(2, seed=0)  # player 1 places first (seeded turn order)
    before = snapshot(game)
    with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)").replace("'", "'")):
        apply(game, player, action)
    assert snapshot(game) == before


def test_no_move_once_the_game_is_over():
    game = Game.new(2, seed=0, max_rounds=1)
    agents = [RandomAgent(seed=0), RandomAgent(seed=1)]
    while not game.is_over:
        game.apply(agents[game.current_player].act_on_game(game, game.current_player))
    with pytest.raises(ProtocolError, match="the game is over"):
        apply(game, 0, 0)
    assert legal_actions(game, 0) == legal_actions(game, 1) == []


# ------------------------------------------------------------------ hidden information


def views_after(game: Game, moves: list[Action]) -> Game:
    out = game.clone()
    for move in moves:
        out.apply(move)
    return out


def test_another_players_reserve_card_is_hidden_until_revealed():
    # rules: Setting goals (reserve cards face down); C26 (First to have $20 may look)
    game = play_until(*heuristic_game(), lambda g: g.pending.decision == Decision.RESERVE_CARD)
    first = game.current_player
    other = 1 - first
    low = views_after(game, [Action.choose_reserve(0)])
    high = views_after(game, [Action.choose_reserve(2)])
    assert low.current_player == high.current_player == other  # the other player still chooses
    assert view(low, other) == view(high, other)
    assert view(low, first)["players"][first]["reserve"] != view(high, first)["players"][first]["reserve"]
    assert view(low, other)["players"][first]["reserve"] is None
    # the same fact shows once the cards are open, or to a holder of First to have $20
    for g in (low, high):
        g.state.players[other].milestones.add(Milestone.FIRST_HAVE_20)
    assert view(low, other) != view(high, other)
    for g in (low, high):
        g.state.players[other].milestones.discard(Milestone.FIRST_HAVE_20)
        g.state.reserve_revealed = True
    assert view(low, other)["players"][first]["reserve"] != view(high, other)["players"][first]["reserve"]


def test_another_players_restructuring_is_hidden_until_revealed():
    # rules: Phase 1 (cards chosen face down, opened together)
    def asked_with_cards(g: Game) -> bool:
        p = g.pending
        return (p.decision == Decision.RESTRUCTURE and not g.state.structure_revealed
                and g.state.players[p.player].hand[1:].sum() > 0)

    game = play_until(*heuristic_game(), asked_with_cards)
    first = game.current_player
    other = 1 - first
    card = int(np.flatnonzero(game.state.players[first].hand[1:])[0]) + 1
    worked = views_after(game, [Action.put_to_work(card)])
    while worked.current_player == first:  # done with the structure
        worked.apply(Action.pass_())
    rested = views_after(game, [Action.pass_()])
    assert worked.current_player == rested.current_player == other
    assert worked.pending.decision == Decision.RESTRUCTURE and not worked.state.structure_revealed
    assert view(worked, other) == view(rested, other)
    mine_worked = view(worked, first)["players"][first]
    mine_rested = view(rested, first)["players"][first]
    assert mine_worked["work"] != mine_rested["work"]  # the player sees their own choice
    seen = view(worked, other)["players"][first]
    assert seen["structure_hidden"] and seen["work"] == {"ceo": 1}
    worked.state.structure_revealed = rested.state.structure_revealed = True
    assert view(worked, other) != view(rested, other)


def test_another_players_firing_is_hidden_until_revealed():
    # C30: fired cards are chosen secretly and revealed together
    game = play_until(*heuristic_game(), lambda g: g.pending.decision == Decision.FIRE)
    first = game.current_player
    other = 1 - first
    fire = next(a for a in game.legal_actions() if a.kind == ActionKind.FIRE)
    fired = views_after(game, [fire])
    while fired.current_player == first:
        fired.apply(Action.pass_())
    kept = views_after(game, [Action.pass_()])
    assert fired.current_player == kept.current_player == other
    assert fired.pending.decision == Decision.FIRE and not fired.state.firing_revealed
    assert view(fired, other) == view(kept, other)
    assert view(fired, first)["players"][first]["fired"] == {EmployeeType(fire.args[0]).key: 1}
    fired.state.firing_revealed = kept.state.firing_revealed = True
    assert view(fired, other) != view(kept, other)


def test_the_context_of_a_secret_decision_is_hidden_from_others():
    game = play_until(*heuristic_game(), lambda g: g.pending.decision == Decision.RESTRUCTURE)
    decider = game.current_player
    assert view(game, 1 - decider)["pending"]["context"] is None
    assert view(game, decider)["pending"]["context"] == list(game.pending.context)


# ------------------------------------------------------------------ the session


def test_session_replies_echo_ids_and_errors_never_raise():
    session = Session(lambda spec, seed: RandomAgent(seed=seed, name=spec))
    assert session.handle({"cmd": "record", "id": 3}) == {
        "ok": False, "error": 'no game: send {"cmd": "new", ...} first', "id": 3}
    assert session.handle("hello")["error"] == "a request is a JSON object, got str"
    reply = session.handle({"cmd": "new", "num_players": 2, "seed": 0, "bots": {"1": "random"}, "id": [1]})
    assert reply["ok"] and reply["id"] == [1] and reply["status"]["to_move"] == 0
    legal = session.handle({"cmd": "legal", "player": 0})["actions"]
    assert session.handle({"cmd": "act", "player": 0, "action": legal[0]})["ok"]  # a description, sent back
    record = session.handle({"cmd": "record"})["record"]
    assert record["format"] == "fcm-magnate/record" and record["agents"] == ["human", "random"]


def test_session_without_bots_refuses_bot_seats():
    reply = Session().handle({"cmd": "new", "num_players": 2, "bots": {"1": "heuristic"}})
    assert reply == {"ok": False, "error": "this server has no bots"}


def test_the_log_streams_each_players_events_with_a_cursor():
    # a game against a bot: player 1's face-down choices reach player 0's log only once opened
    session = Session(lambda spec, seed: RandomAgent(seed=seed, name=spec))
    session.handle({"cmd": "new", "num_players": 2, "seed": 3, "max_rounds": 3, "bots": {"1": "random"}})
    cursor, seen = 0, []
    while not session.handle({"cmd": "legal", "player": 0})["status"]["over"]:
        legal = session.handle({"cmd": "legal", "player": 0})["actions"]
        assert session.handle({"cmd": "act", "player": 0, "action": legal[-1]})["ok"]
        reply = session.handle({"cmd": "log", "player": 0, "since": cursor})
        assert reply["ok"] and reply["player"] == 0
        seen += reply["log"]
        cursor = reply["next"]
    game = session.game
    assert seen == game.events_for(0) and cursor == len(game.events)
    hidden = [e for e in game.events if e["visible_to"] == [1]]
    assert hidden and not any(e in seen for e in hidden)  # player 1's restructuring choices
    assert any(e["kind"] == "structure_revealed" and e["player"] == 1 for e in seen)  # opened to all
    assert session.handle({"cmd": "log", "player": 0, "since": cursor + 1})["error"] == (
        f"since must be 0..{cursor} (the log holds {cursor} events), got {cursor + 1}")

"""The front-end protocol: JSON-safe views without hidden information, legal actions, validated moves."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest

from fcm_agents import HeuristicAgent, RandomAgent
from fcm_apps.server import Session, encode_reply, serve
from fcm_env.data import EmployeeType, Milestone
from fcm_env.encoding import legal_action_ids
from fcm_env.engine.actions import Action, ActionKind, Decision, IllegalActionError
from fcm_env.engine.game import Game
from fcm_env.engine.persistence.records import GameRecord, replay
from fcm_env.engine.persistence.serialize import state_to_dict
from fcm_env.view import (
    PARAMS,
    ProtocolError,
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
    assert session.handle("hello")["error"] == "a request is a JSON object, got string"
    reply = session.handle({"cmd": "new", "num_players": 2, "seed": 0, "bots": {"1": "random"}, "id": "n1"})
    assert reply["ok"] and reply["id"] == "n1" and reply["game"] == "g1" and reply["status"]["to_move"] == 0
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
    game = session.games["g1"].game
    assert seen == game.events_for(0) and cursor == len(game.events)
    hidden = [e for e in game.events if e["visible_to"] == [1]]
    assert hidden and not any(e in seen for e in hidden)  # player 1's restructuring choices
    assert any(e["kind"] == "structure_revealed" and e["player"] == 1 for e in seen)  # opened to all
    assert session.handle({"cmd": "log", "player": 0, "since": cursor + 1})["error"] == (
        f"since must be 0..{cursor} (the log holds {cursor} events), got {cursor + 1}")


# ------------------------------------------------------------------ requests: fields, types, ids, lines


def bots_session() -> Session:
    return Session(lambda spec, seed: (HeuristicAgent if spec == "heuristic" else RandomAgent)(seed=seed, name=spec))


@pytest.mark.parametrize(("request_", "error"), [
    ({"cmd": "new", "num_player": 2},
     "new: unknown field 'num_player'; new takes num_players, seed, variant, max_rounds, bots (and id)"),
    ({"cmd": "quit", "now": True, "really": 1}, "quit: unknown fields 'now', 'really'; quit takes no fields (and id)"),
    ({"cmd": "legal", "player": 0, "actions": []},
     "legal: unknown field 'actions'; legal takes game, player (and id)"),
    ({"cmd": "new", "seed": -1}, "new.seed: input should be greater than or equal to 0, got -1"),
    ({"cmd": "new", "seed": 2**63}, "new.seed: input should be less than 9223372036854775808, got 9223372036854775808"),
    ({"cmd": "new", "seed": "7"}, "new.seed: input should be a valid integer, got '7'"),
    ({"cmd": "new", "num_players": 7}, "new.num_players: input should be less than or equal to 5, got 7"),
    ({"cmd": "new", "num_players": 2.0}, "new.num_players: input should be a valid integer, got 2.0"),
    ({"cmd": "new", "max_rounds": 0}, "new.max_rounds: input should be greater than or equal to 1, got 0"),
    ({"cmd": "new", "variant": "deluxe"}, "new.variant: input should be 'standard' or 'introductory', got 'deluxe'"),
    ({"cmd": "new", "bots": ["random"]}, "new.bots: input should be a valid dictionary, got ['random']"),
    ({"cmd": "new", "num_players": 2, "bots": {"01": "random"}}, "bots: '01' is not a player id 0..1"),
    ({"cmd": "legal"}, "legal needs 'player' (a player id)"),
    ({"cmd": "view", "player": True}, "view.player: input should be a valid integer, got True"),
    ({"cmd": "act", "player": 0}, "act needs 'action' (an id or a structured action)"),
    ({"cmd": "log", "player": 0, "since": -1}, "log.since: input should be greater than or equal to 0, got -1"),
    ({"cmd": "view", "player": 0, "game": 1}, "view.game: input should be a valid string, got 1"),
    ({"cmd": "load"}, "load: give a 'record' or a 'state', exactly one"),
    ({"cmd": "fly"}, "unknown cmd 'fly'; commands are act, close, games, legal, load, log, new, observe, quit, record, save, view"),
    ({"id": 1}, "no cmd; commands are act, close, games, legal, load, log, new, observe, quit, record, save, view"),
])
def test_unknown_fields_and_wrong_types_are_errors_naming_the_field(request_, error):
    session = bots_session()
    assert session.handle(request_) == {"ok": False, "error": error, **({"id": 1} if "id" in request_ else {})}
    assert session.handle({"cmd": "games"}) == {"ok": True, "games": []}  # nothing was opened


@pytest.mark.parametrize("rid", ["abc", 0, -5, 10**30, None])
def test_a_valid_request_id_is_echoed(rid):
    assert Session().handle({"cmd": "games", "id": rid}) == {"ok": True, "games": [], "id": rid}


@pytest.mark.parametrize(("rid", "kind"), [([1], "array"), ({"a": 1}, "object"), (1.5, "number"), (True, "boolean")])
def test_an_invalid_request_id_is_an_error_and_is_not_echoed(rid, kind):
    assert Session().handle({"cmd": "games", "id": rid}) == {
        "ok": False, "error": f"id must be a string, an integer or null, got {kind}"}


@pytest.mark.parametrize(("line", "error"), [
    ("", "empty line: send one JSON object per line"),
    ("  \t \r\n", "empty line: send one JSON object per line"),
    ("[" * 1000 + "]" * 1000, "not accepted: JSON nested deeper than 32 levels"),
    ('{"cmd": "act", "player": 0, "action": ' + "[" * 40 + "]" * 40 + "}",
     "not accepted: JSON nested deeper than 32 levels"),
    ("1" * 5000, "not accepted: integers have at most 4300 digits"),
    ('{"cmd": "new", "seed": ' + "9" * 4301 + "}", "not accepted: integers have at most 4300 digits"),
    ('{"cmd": "games", "id": NaN}', "not valid JSON: NaN is not a JSON value"),
    ('{"cmd": "games", "id": -Infinity}', "not valid JSON: -Infinity is not a JSON value"),
    ('{"cmd": "games", "id": 1e999}', "not valid JSON: the number 1e999 is out of range"),
    ('{"cmd": "games", "cmd": "quit"}', "not valid JSON: the key 'cmd' appears twice in one object"),
    ('{"cmd": "games"} x', "not valid JSON: Extra data: line 1 column 18 (char 17)"),
    ("\udcff{}", "not valid UTF-8 text"),
    (" " * 16_000_001, "not accepted: a request line holds at most 16,000,000 characters, got 16,000,001"),
])
def test_lines_that_are_not_one_strict_json_value_get_a_clear_error(line, error):
    assert Session().handle_line(line) == {"ok": False, "error": error}


def test_a_reply_that_is_not_strict_json_becomes_an_error_reply():
    reply = json.loads(encode_reply({"ok": True, "x": float("nan"), "id": 4}))
    assert reply["ok"] is False and reply["id"] == 4
    assert reply["error"].startswith("internal error: the reply is not JSON: ValueError: Out of range float values")


def test_serve_answers_every_line_with_one_strict_json_line_until_quit():
    lines = ["", "   ", "[" * 1000 + "]" * 1000, "1" * 5000, '{"cmd": "quit", "id": NaN}', '{"cmd": "games"}',
             '{"cmd": "new", "num_player": 2}', '{"cmd": "quit", "id": "q"}', '{"cmd": "games"}']
    out = io.StringIO()
    assert serve(io.StringIO("\n".join(lines) + "\n"), out) == 0
    replies = [json.loads(line, parse_constant=pytest.fail) for line in out.getvalue().splitlines()]
    assert [r["ok"] for r in replies] == [False, False, False, False, False, True, False, True]  # stops at quit
    assert replies[-1] == {"ok": True, "bye": True, "id": "q"}


# ------------------------------------------------------------------ several games, save and load


def test_several_games_are_served_side_by_side():
    session = bots_session()
    first = session.handle({"cmd": "new", "num_players": 2, "seed": 0, "bots": {"1": "heuristic"}})
    assert first["game"] == "g1" and session.handle({"cmd": "legal", "player": 0})["game"] == "g1"
    second = session.handle({"cmd": "new", "num_players": 3, "seed": 1})
    assert second["game"] == "g2" and second["setup"]["players"] == ["human"] * 3
    assert session.handle({"cmd": "view", "player": 0}) == {
        "ok": False, "error": "2 games are open (g1, g2): name one with 'game'"}
    assert session.handle({"cmd": "view", "player": 0, "game": "g3"}) == {
        "ok": False, "error": "no open game 'g3' (open games: g1, g2)"}
    assert session.handle({"cmd": "view", "player": 2, "game": "g2"})["view"]["num_players"] == 3
    assert session.handle({"cmd": "view", "player": 2, "game": "g1"})["error"] == "player must be 0..1, got 2"
    listed = session.handle({"cmd": "games"})["games"]
    assert [(g["game"], g["num_players"], g["players"]) for g in listed] == [
        ("g1", 2, ["human", "heuristic"]), ("g2", 3, ["human", "human", "human"])]
    to_move = second["status"]["to_move"]
    moved = session.handle({"cmd": "act", "game": "g2", "player": to_move, "action": {"kind": "PASS"}})
    assert moved["ok"] and moved["game"] == "g2"
    assert session.handle({"cmd": "close", "game": "g1"}) == {"ok": True, "game": "g1", "closed": True}
    assert session.handle({"cmd": "legal", "player": to_move})["game"] == "g2"  # the one open game again
    assert session.handle({"cmd": "new", "num_players": 2})["game"] == "g3"  # ids are never reused


def test_a_server_holds_at_most_32_open_games():
    session = Session()
    for _ in range(32):
        assert session.handle({"cmd": "new", "num_players": 2})["ok"]
    assert session.handle({"cmd": "new", "num_players": 2})["error"] == (
        "32 games are open, the most a server holds: close one first")


def played_session(moves: int) -> tuple[Session, dict]:
    """A 2-player game against the heuristic, ``moves`` of player 0's moves in (varied, seeded choices)."""
    session = bots_session()
    session.handle({"cmd": "new", "num_players": 2, "seed": 3, "max_rounds": 10, "bots": {"1": "heuristic"}})
    for move in range(moves):
        legal = session.handle({"cmd": "legal", "player": 0})["actions"]
        assert session.handle({"cmd": "act", "player": 0, "action": legal[3 * move % len(legal)]["id"]})["ok"]
    return session, session.handle({"cmd": "save"})


@pytest.mark.parametrize("source", ["record", "state"])
def test_a_saved_game_loads_and_plays_on_like_the_original(source):
    session, saved = played_session(12)
    assert saved["players"] == ["human", "heuristic"] and saved["bots"] == {"1": "heuristic"}
    assert saved["record"]["actions"] and saved["state"]["format"] == "fcm-magnate/state"
    other = bots_session()  # another server process, say
    loaded = other.handle({"cmd": "load", source: saved[source], "bots": saved["bots"]})
    assert loaded["ok"] and loaded["game"] == "g1" and loaded["events"] == []
    assert loaded["setup"] == {"num_players": 2, "seed": 3, "variant": "standard", "max_rounds": 10,
                               "players": ["human", "heuristic"]}
    assert other.handle({"cmd": "save"})["state"] == saved["state"]
    cursor = session.handle({"cmd": "log", "player": 0})["next"]
    for _ in range(10):  # the same moves give the same game, bot moves included
        legal = session.handle({"cmd": "legal", "player": 0})["actions"]
        assert other.handle({"cmd": "legal", "player": 0})["actions"] == legal
        a = session.handle({"cmd": "act", "player": 0, "action": legal[len(legal) // 2]["id"]})
        b = other.handle({"cmd": "act", "player": 0, "action": legal[len(legal) // 2]["id"]})
        assert a == b and a["ok"] and not a["status"]["over"]
    assert other.handle({"cmd": "save"})["state"] == session.handle({"cmd": "save"})["state"]
    log = other.handle({"cmd": "log", "player": 0})["log"]
    if source == "record":  # replayed with the event log on: the whole game's log
        assert log == session.handle({"cmd": "log", "player": 0})["log"]
        assert other.handle({"cmd": "record"})["record"] == session.handle({"cmd": "record"})["record"]
    else:  # a state holds no history: the log starts at the load, and there is no record
        assert log and log == session.handle({"cmd": "log", "player": 0, "since": cursor})["log"]
        assert other.handle({"cmd": "record"})["error"] == "game g1 was loaded from a state: it has no record of its moves"
        assert other.handle({"cmd": "save"})["record"] is None


def test_bots_resume_their_seats_after_load():
    _, saved = played_session(3)
    record = saved["record"]
    bot_turn = next(i for i in range(len(record["actions"]), 0, -1)
                    if replay(GameRecord.from_dict({**record, "actions": record["actions"][:i]})).current_player == 1)
    cut = {**record, "actions": record["actions"][:bot_turn]}
    session = bots_session()
    reply = session.handle({"cmd": "load", "record": cut, "bots": {"1": "heuristic"}})
    assert reply["ok"] and reply["events"] and reply["events"][0]["player"] == 1
    assert reply["status"]["to_move"] == 0  # the bot played until the human decides
    human = session.handle({"cmd": "load", "record": cut})  # without bots, the seat waits for a human
    assert human["events"] == [] and human["status"]["to_move"] == 1 and human["setup"]["players"] == ["human"] * 2


@pytest.mark.parametrize(("request_", "error"), [
    ({"record": {"format": "fcm-magnate/record"}},
     "record: version: unsupported version None; this engine reads version 1"),
    ({"record": "RECORD", "seed": -1}, "record.seed: must be 0..2**63-1, got -1"),
    ({"record": "RECORD", "actions": [["RECRUIT", [6]]]},
     "record.actions[0]: does not replay (round 0, SETUP_RESTAURANTS): recruit waitress is not legal"),
    ({"record": "RECORD", "result": {"winners": [0], "cash": [1, 2], "rounds": 4}},
     "record.result: the actions end with None, the record says"),
    ({"record": "RECORD", "num_players": 9}, "record: num_players: expected 2 to 5, got 9"),
    ({"state": "STATE", "round": "x"}, 'state: round: expected an integer, got "x"'),
    ({"state": "STATE", "seed": -3}, "state: seed: must be 0..2**63-1, got -3"),
    ({"state": "STATE", "bots": {"7": "random"}}, "bots: '7' is not a player id 0..1"),
    ({"state": {"format": "fcm-magnate/state"}}, "state: version: unsupported version None"),
    ({"state": "STATE", "record": "RECORD"}, "load: give a 'record' or a 'state', exactly one"),
])
def test_loading_a_malformed_save_is_an_error_and_opens_nothing(request_, error):
    session, saved = played_session(2)
    before = session.handle({"cmd": "save"})
    request = {"cmd": "load"}
    for key in ("record", "state"):
        if request_.get(key) in ("RECORD", "STATE"):
            request[key] = {**saved[key], **{k: v for k, v in request_.items() if k not in ("record", "state", "bots")}}
        elif key in request_:
            request[key] = request_[key]
    if "bots" in request_:
        request["bots"] = request_["bots"]
    reply = session.handle(request)
    assert reply["ok"] is False and reply["error"].startswith(error), reply["error"]
    assert [g["game"] for g in session.handle({"cmd": "games"})["games"]] == ["g1"]
    assert session.handle({"cmd": "save"}) == before
    assert session.handle({"cmd": "new", "num_players": 2})["game"] == "g2"

"""The web table's server through Starlette's TestClient: websocket messages, downloads, hidden information."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install 'fcm-magnate[web]')")

from starlette.testclient import TestClient

from fcm_agents.registry import make_agent
from fcm_apps.server import Session
from fcm_apps.web.app import create_app
from fcm_env.engine.game import Game
from fcm_env.view import view

# the server answers only its own names (docs/web.md, Security): TestClient's default "testserver" is refused
BASE, WS = "http://127.0.0.1:8000", "ws://127.0.0.1:8000/ws"


class Page:
    """One websocket connection, as the page holds it: one reply per message, in order."""

    def __init__(self, client: TestClient, ws):
        self.client, self.ws = client, ws
        self.texts: list[str] = []  # every raw reply, to search for leaks

    def ask(self, message: dict) -> dict:
        self.ws.send_text(json.dumps(message))
        text = self.ws.receive_text()
        self.texts.append(text)
        return json.loads(text)

    def start(self, **fields) -> dict:
        reply = self.ask({"type": "new", "num_players": 2, "human": 0, "bots": {"1": "heuristic"}, "seed": 0,
                          **fields})
        assert reply["type"] == "table", reply
        return reply

    def saved(self) -> dict:
        reply = self.ask({"type": "save"})
        assert reply["type"] == "saved", reply
        response = self.client.get(reply["url"])
        assert response.status_code == 200
        assert "attachment" in response.headers["content-disposition"]
        return response.json()


@pytest.fixture
def client():
    with TestClient(create_app(make_agent), base_url=BASE) as c:
        yield c


@pytest.fixture
def page(client):
    with client.websocket_connect(WS) as ws:
        yield Page(client, ws)


def first_choice(msg: dict) -> int:
    """A simple human: the first legal move that is not a pass (else pass); the last turn-order spot
    (so the bot chooses first), never fires (so restructuring has cards to choose from)."""
    legal = msg["legal"]
    if legal and legal[0]["kind"] == "TURN_SPOT":
        return legal[-1]["id"]
    if msg["status"]["decision"] == "FIRE":
        return next(a["id"] for a in legal if a["kind"] == "PASS")
    moves = [a for a in legal if a["kind"] != "PASS"] or legal
    return moves[0]["id"]


def test_the_page_and_its_static_files_are_served(client):
    index = client.get("/")
    assert index.status_code == 200 and "/static/table.js" in index.text
    for name in ("table.js", "table.css"):
        assert client.get(f"/static/{name}").status_code == 200
    assert client.get("/download/nope").status_code == 404


def test_a_new_game_sends_the_human_view_legal_moves_with_footprints_and_the_bots_moves(page):
    hello = page.ask({"type": "hello"})
    assert hello["bots"] == ["random", "heuristic", "policy", "search"] and hello["replay"] is None
    msg = page.start()
    assert msg["you"] == 0 and msg["view"]["you"] == 0 and msg["players"] == ["human", "heuristic"]
    assert msg["status"]["decision"] == "INITIAL_RESTAURANT" and msg["status"]["to_move"] == 0
    # the heuristic opened first (docs/protocol.md's worked example, seed 0): its move is in the log
    assert [e["text"] for e in msg["log"]] == ["player 1: place a restaurant at (0,7), entrance SE on (1,8)"]
    places = [a for a in msg["legal"] if a["kind"] == "PLACE_RESTAURANT"]
    assert places and all(a["shape"]["key"] == a["shape"]["entrance"] for a in places)
    for a in places:
        p = a["params"]
        assert sorted(a["shape"]["squares"]) == [[p["row"] + dr, p["col"] + dc] for dr in (0, 1) for dc in (0, 1)]
    assert "shape" not in next(a for a in msg["legal"] if a["kind"] == "PASS")


def test_acting_plays_the_move_and_the_bots_answer_in_the_log(page):
    msg = page.start()
    place = next(a for a in msg["legal"] if a["kind"] == "PLACE_RESTAURANT" and a["params"]["row"] == 10
                 and a["params"]["col"] == 8 and a["params"]["orientation"] == 2)
    msg = page.ask({"type": "act", "action": place["id"]})
    assert msg["type"] == "table"
    mine = [r for r in msg["view"]["restaurants"] if r["owner"] == 0]
    assert mine == [{"owner": 0, "index": 0, "row": 10, "col": 8, "orientation": 2,
                     "squares": [[10, 8], [10, 9], [11, 8], [11, 9]], "entrance": [11, 9], "coming_soon": False}]
    assert msg["status"]["decision"] == "RESERVE_CARD"
    assert [e["text"] for e in msg["log"]] == ["you: place a restaurant at (10,8), entrance SE on (11,9)"]
    msg = page.ask({"type": "act", "action": msg["legal"][1]["id"]})  # keep the $200 card
    assert msg["status"]["decision"] == "TURN_ORDER" and msg["view"]["players"][0]["reserve"] == 200
    texts = [e["text"] for e in msg["log"]]
    assert texts[0] == "you: keep the $200 reserve card"
    assert not any(t.startswith("player 1: keep the $") for t in texts)  # the bot's choice is face down
    msg = page.ask({"type": "act", "action": msg["legal"][-1]["id"]})  # spot 2: the bot works first
    assert msg["status"]["phase"] == "WORKING" and msg["status"]["to_move"] == 0
    assert any(e["player"] == 1 and e["kind"] == "action" and e["phase"] == "working" for e in msg["log"])


def test_an_illegal_or_malformed_move_is_refused_and_changes_nothing(page):
    before = page.start()
    legal_ids = {a["id"] for a in before["legal"]}
    illegal = next(i for i in range(2000) if i not in legal_ids)
    for bad in (illegal, "abc", {"kind": "NOPE"}, {"kind": "RECRUIT", "params": {"employee": "waitress"}}, True):
        reply = page.ask({"type": "act", "action": bad})
        assert reply["type"] == "error" and reply["error"], bad
    assert "does not answer INITIAL_RESTAURANT" in page.ask({"type": "act", "action": illegal})["error"]
    on_road = {"kind": "PLACE_RESTAURANT", "params": {"row": 2, "col": 0, "orientation": 0}}  # (2,0) is road
    assert page.ask({"type": "act", "action": on_road})["error"].startswith("illegal action: place restaurant")
    assert "unknown message type" in page.ask({"type": "fly"})["error"]
    assert page.ask({"type": "act"})["error"].startswith("act needs 'action'")
    page.ws.send_text("{not json")
    assert json.loads(page.ws.receive_text())["error"].startswith("not valid JSON")
    after = page.ask({"type": "refresh"})
    assert after["view"] == before["view"] and after["legal"] == before["legal"] and after["log"] == []


def test_bad_start_forms_get_clear_errors(page):
    assert "human seat must be 0..1" in page.ask({"type": "new", "num_players": 2, "human": 2})["error"]
    assert "bots are random, heuristic, policy, search" in page.ask(
        {"type": "new", "num_players": 2, "human": 0, "bots": {"1": "onnx:/etc/passwd"}})["error"]
    assert "seat 2 needs an agent" in page.ask(
        {"type": "new", "num_players": 3, "human": 0, "bots": {"1": "random"}})["error"]
    assert "num_players" in page.ask({"type": "new", "num_players": 9, "human": 0})["error"]
    assert page.ask({"type": "act", "action": 0})["error"] == "act: no game: start one first"


def test_the_human_never_receives_the_bots_secret_choices(page):
    """Play a whole game; whenever the bot's reserve card or face-down structure is secret, the page's
    message must not hold it, while the saved (full) state shows the secret is really there."""
    msg = page.start(max_rounds=6)
    checked_reserve = checked_structure = False
    while not msg["view"]["over"]:
        truth = Game.from_dict(page.saved()["state"])
        bot_true = view(truth, 1)["players"][1]
        bot_seen = msg["view"]["players"][1]
        if not truth.state.reserve_revealed and bot_true["reserve"] is not None:
            assert bot_seen["reserve"] is None and not bot_seen["reserve_known"]
            checked_reserve = True
        if bot_seen["structure_hidden"] and bot_true["work"] != {"ceo": 1}:
            assert bot_seen["work"] == {"ceo": 1} and bot_seen["hand"] != bot_true["hand"]
            checked_structure = True
        msg = page.ask({"type": "act", "action": first_choice(msg)})
        assert msg["type"] == "table", msg
    assert checked_reserve and checked_structure
    # nothing sent to the page names a face-down move of the bot before the rules open it
    for text in page.texts:
        reply = json.loads(text)
        for entry in reply.get("log", []):
            if entry["player"] == 1 and entry["kind"] == "action":
                assert not entry["text"].startswith(("player 1: keep the $", "player 1: put ", "player 1: fire "))


def test_save_and_load_resume_the_game_with_the_bots_in_their_seats(client, page):
    msg = page.start(seed=3)
    for _ in range(6):
        msg = page.ask({"type": "act", "action": first_choice(msg)})
    document = page.saved()
    assert document["format"] == "fcm-magnate/web-save" and document["bots"] == {"1": "heuristic"}
    with client.websocket_connect(WS) as ws:
        other = Page(client, ws)
        resumed = other.ask({"type": "load", "document": document})
        assert resumed["type"] == "table", resumed
        assert resumed["view"] == msg["view"] and resumed["legal"] == msg["legal"]
        assert resumed["players"] == ["human", "heuristic"] and resumed["you"] == 0
        assert len(resumed["log"]) > 5  # the record replays: the whole log comes back
        nxt = other.ask({"type": "act", "action": first_choice(resumed)})
        assert nxt["type"] == "table"
        assert other.ask({"type": "load", "document": {"format": "fcm-magnate/record"}})["error"].startswith(
            "load: this is a game record")
        broken = {**document, "record": None, "state": {**document["state"], "players": []}}
        assert other.ask({"type": "load", "document": broken})["type"] == "error"
        assert other.ask({"type": "load", "document": {**document, "bots": {"1": "policy:x"}}})["type"] == "error"
        assert other.ask({"type": "refresh"})["view"] == nxt["view"]  # the resumed game is unchanged by them


def _bot_record(seed: int = 1) -> dict:
    session = Session(make_agent)
    session.handle({"cmd": "new", "num_players": 2, "seed": seed, "bots": {"0": "heuristic", "1": "heuristic"}})
    return session.handle({"cmd": "record"})["record"]


def test_replay_steps_forwards_backwards_and_by_round(page):
    record = _bot_record()
    total = len(record["actions"])
    start = page.ask({"type": "replay_open", "record": record, "name": "g.json"})
    assert start["type"] == "replay" and start["step"] == 0 and start["total"] == total
    assert start["move"] is None and start["events"] == [] and start["view"]["full"] is True
    step1 = page.ask({"type": "replay_step", "step": 1})
    assert step1["move"]["player"] == step1["events"][0]["player"]
    assert step1["events"][0]["text"].startswith(f"player {step1['move']['player']}: place a restaurant at")
    assert len(step1["view"]["restaurants"]) == 1
    rounds = dict(start["rounds"])
    assert list(rounds)[:3] == [0, 1, 2] and rounds[0] == 0
    at_round_3 = page.ask({"type": "replay_step", "step": rounds[3]})
    assert at_round_3["view"]["round"] == 3
    assert page.ask({"type": "replay_step", "step": rounds[3] - 1})["view"]["round"] == 2
    again = page.ask({"type": "replay_step", "step": 1})
    assert again == step1  # stepping back gives the same position and events
    end = page.ask({"type": "replay_step", "step": total})
    assert end["status"]["over"] and end["result"]["winners"] == end["status"]["winners"]
    # full information: both reserve cards show
    assert all(p["reserve"] is not None for p in end["view"]["players"])
    assert "step must be an integer 0.." in page.ask({"type": "replay_step", "step": total + 1})["error"]
    bad = {**record, "actions": record["actions"][:3] + [["PASS", []]]}
    assert "does not replay" in page.ask({"type": "replay_open", "record": bad})["error"]


def test_a_record_given_on_the_command_line_is_offered_for_replay(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_bot_record(2)))
    app = create_app(make_agent, replay_path=path)
    with TestClient(app, base_url=BASE) as client, client.websocket_connect(WS) as ws:
        page = Page(client, ws)
        assert page.ask({"type": "hello"})["replay"] == "game.json"
        reply = page.ask({"type": "replay_open", "server": True})
        assert reply["type"] == "replay" and reply["name"] == "game.json" and reply["step"] == 0
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(ValueError, match="cannot read"):
        create_app(make_agent, replay_path=tmp_path / "bad.json")


def test_fcm_web_is_a_subcommand():
    from fcm_apps.cli import build_parser

    args = build_parser().parse_args(["web", "--port", "8123", "--replay", "g.json"])
    assert (args.host, args.port, args.open, args.replay) == ("127.0.0.1", 8123, False, "g.json")


def test_the_strong_bot_plays_a_whole_game(page):
    # the page's "search" bot: the information-set MCTS at its default budget (docs/search.md)
    msg = page.start(bots={"1": "search"}, max_rounds=3, seed=4)
    assert msg["players"] == ["human", "search"]
    while not msg["view"]["over"]:
        msg = page.ask({"type": "act", "action": first_choice(msg)})
        assert msg["type"] == "table", msg
    end = page.ask({"type": "refresh"})
    assert end["view"]["over"] and end["view"]["round"] == 3


def test_campaign_spots_carry_the_houses_they_reach():
    """docs/web.md: each PLACE_CAMPAIGN move names the houses it would reach (``reach``), the engine's
    ``campaign_reach`` on the true game (houses and the map are public)."""
    from fcm_apps.server import bot_move
    from fcm_apps.web.table import PlayTable
    from fcm_env.engine.queries import campaign_reach

    session = Session(make_agent)
    table = PlayTable.start(session, {"num_players": 2, "human": 1, "bots": {"0": "heuristic"}, "seed": 4})
    human = make_agent("heuristic", seed=41)  # plays the human's seat to its first campaign
    msg = table.message()
    while msg["status"]["decision"] != "CAMPAIGN_PLACE":
        move = str(bot_move(human, session.games[table.game].game, 1))
        msg = table.act(next(a["id"] for a in msg["legal"] if a["label"] == move))
    state = session.games[table.game].game.state
    tile = msg["view"]["pending"]["fields"]["tile"]
    spots = [a for a in msg["legal"] if a["kind"] == "PLACE_CAMPAIGN"]
    assert spots[1]["label"] == "place campaign at (0,12)" and spots[1]["reach"] == [15]
    for a in spots:
        p = a["params"]
        assert a["reach"] == list(campaign_reach(state, tile, p["row"], p["col"], p["orientation"]))


def _heuristic_table(stop, human: int = 0, seed: int = 1):
    """A table whose human seat a heuristic plays until ``stop(message, log entries so far)``:
    (session, table, every message's log entries, the last message)."""
    from fcm_apps.server import bot_move
    from fcm_apps.web.table import PlayTable

    session = Session(make_agent)
    table = PlayTable.start(session, {"num_players": 2, "human": human, "bots": {str(1 - human): "heuristic"},
                                      "seed": seed, "max_rounds": 8})
    player = make_agent("heuristic", seed=7)
    msg, entries = table.message(), []
    while True:
        entries += msg["log"]
        if stop(msg, entries):
            return session, table, entries, msg
        assert not msg["view"]["over"], "the game ended first"
        move = str(bot_move(player, session.games[table.game].game, human))
        msg = table.act(next(a["id"] for a in msg["legal"] if a["label"] == move))


def _at_a_firing(msg, entries) -> bool:
    """The human's first Payday firing with a card to fire; no other decision is explained."""
    if msg["status"]["decision"] == "FIRE" and any(a["kind"] == "FIRE" for a in msg["legal"]):
        return True
    assert msg["explain"] is None, msg["status"]
    return False


def test_a_payday_firing_says_what_is_owed_as_fcm_play_does():
    # rules: Phase 5 Payday; C27: fire until the salaries can be paid (docs/web.md: the table's `explain`)
    from fcm_env.data import EmployeeType
    from fcm_env.engine.phases import payday
    from fcm_env.text.explain import payday_text

    session, table, _, msg = _heuristic_table(_at_a_firing)
    game = session.games[table.game].game
    assert msg["explain"] == payday_text(game.state, 0, game.legal_actions())
    assert msg["explain"].endswith("pass to pay, or fire cards to pay less")
    me = game.state.players[0]
    me.beach[EmployeeType.BURGER_COOK] += 1  # a salaried card and no cash: the rules force a firing
    me.cash = 0
    game._legal_cache = None  # the state was changed by hand
    msg = table.message()
    assert all(a["kind"] != "PASS" for a in msg["legal"])
    due = payday.salary_due(game.state, 0)
    assert msg["explain"] == f"you owe ${due} in salaries and have $0: fire until you can pay"


def test_the_milestones_you_claim_say_what_they_do(page):
    from fcm_env.text.explain import milestone_effect
    from fcm_env.text.words import MILESTONE_NAMES

    hello = page.ask({"type": "hello"})
    assert set(hello["milestone_effects"]) == set(MILESTONE_NAMES)  # the companies panel's tooltips
    assert hello["milestone_effects"]["first_train"] == milestone_effect("first_train")
    def both_claimed(msg, entries) -> bool:
        return {e["player"] for e in entries if e["kind"] == "milestone"} == {0, 1}

    _, _, entries, _ = _heuristic_table(both_claimed)
    claims = [e for e in entries if e["kind"] == "milestone"]
    for e in claims:
        key = next(k for k, name in MILESTONE_NAMES.items() if f"a milestone: {name} " in e["text"])
        assert e["detail"] == (f"what it does: {milestone_effect(key)}" if e["player"] == 0 else None)
    assert all(e["detail"] is None for e in entries if e["kind"] != "milestone")


def test_a_refused_load_or_replay_open_changes_nothing(page):
    # docs/web.md: a refused message changes nothing; an outside probe found a tampered save that closed the
    # page's game and a bad step that replaced the open replay
    table = page.start()
    document = page.saved()
    tampered = json.loads(json.dumps(document))
    tampered["record"] = None  # the state alone, tampered: a restaurant off the map
    tampered["state"]["players"][0]["restaurants"] = [{"row": 1000, "col": 0, "orientation": 0}]
    refused = page.ask({"type": "load", "document": tampered})
    assert refused["type"] == "error" and "players[0].restaurants[0]" in refused["error"], refused
    again = page.ask({"type": "refresh"})
    assert again["type"] == "table" and again["game"] == table["game"] and again["view"] == table["view"]

    record = _bot_record()
    opened = page.ask({"type": "replay_open", "record": record, "name": "g.json", "step": 2})
    assert opened["step"] == 2
    for bad in ({"type": "replay_open", "record": record, "name": "other.json", "step": 10**6},
                {"type": "replay_open", "record": record, "name": "other.json", "step": "x"},
                {"type": "replay_open", "record": {"format": "nonsense"}, "name": "broken.json"}):
        assert page.ask(bad)["type"] == "error"
    still = page.ask({"type": "replay_step", "step": 2})
    assert still["name"] == "g.json" and still == {**opened}  # the replay that was open is still open


def test_one_fire_of_yours_is_one_line_of_the_log():
    """Your fire move is told once (``you: fire a ...``); the Payday reveal of your own firing, which the
    server's log also holds, is not told again (``fcm_env.text.sentences.repeats_own_moves``)."""
    session, table, entries, msg = _heuristic_table(_at_a_firing)
    fire = next(a for a in msg["legal"] if a["kind"] == "FIRE")
    msg = table.act(fire["id"])
    lines = list(msg["log"])
    fires = 1
    while msg["status"]["decision"] == "FIRE" and msg["legal"]:  # done firing: then the reveal, later phases
        move = next((a for a in msg["legal"] if a["kind"] == "PASS"), None) or msg["legal"][0]
        fires += move["kind"] == "FIRE"
        msg = table.act(move["id"])
        lines += msg["log"]
    assert any(e["kind"] == "salaries" for e in lines) or msg["view"]["phase"] != "PAYDAY"  # past the reveal
    told = [e["text"] for e in entries + lines if "fire" in e["text"] and e["player"] == 0]
    assert len(told) == fires and all(t.startswith("you: fire ") for t in told), told
    raw = session.handle({"cmd": "log", "game": table.game, "player": 0, "since": 0})["log"]
    assert [e for e in raw if e["kind"] == "fired" and e["player"] == 0]  # the reveal is there, not told

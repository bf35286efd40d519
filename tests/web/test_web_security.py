"""The web table against hostile input: other origins and hosts, malformed frames, floods, other pages' saves.

Why: ``fcm web`` runs on the player's machine with no login, and any page the browser shows may
try to talk to it. docs/web.md's "Security" section says what is accepted; these tests hold it.
"""

from __future__ import annotations

import json
import threading
import time

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install 'fcm-magnate[web]')")

from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from fcm_agents.registry import make_agent
from fcm_apps.server import Session
from fcm_apps.web import app as web_app
from fcm_apps.web.app import MAX_CONNECTIONS, MAX_SAVES, MAX_WAITING, create_app, is_loopback

BASE, WS = "http://127.0.0.1:8000", "ws://127.0.0.1:8000/ws"
NEW = {"type": "new", "num_players": 2, "human": 0, "bots": {"1": "heuristic"}, "seed": 0}


class Page:
    """One websocket, as the page holds it: one reply per message, in order."""

    def __init__(self, ws):
        self.ws = ws

    def ask(self, message: dict) -> dict:
        self.ws.send_text(json.dumps(message))
        return self.reply()

    def reply(self) -> dict:
        return json.loads(self.ws.receive_text())


def _client(**options) -> TestClient:
    return TestClient(create_app(options.pop("agent_factory", make_agent), port=8000, **options), base_url=BASE)


def _refused(client: TestClient, url: str = WS, **headers) -> int:
    """The close code of a websocket the server refuses before the handshake (fails if it is accepted)."""
    with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(url, headers=headers):
        pass
    return refused.value.code


# ------------------------------------------------------------------ origins and hosts


def test_pages_from_other_origins_cannot_open_the_websocket():
    with _client() as client:
        for origin in ("http://evil.example.com", "null", "http://127.0.0.1:9999", "http://localhost.evil.com:8000",
                       "file://", "http://attacker.example"):
            assert _refused(client, origin=origin) == 1008, origin
        for origin in ("http://127.0.0.1:8000", "http://localhost:8000", "http://[::1]:8000", None):
            headers = {} if origin is None else {"origin": origin}  # no Origin: not a browser page
            with client.websocket_connect(WS, headers=headers) as ws:
                assert Page(ws).ask({"type": "hello"})["type"] == "hello", origin


def test_requests_naming_another_host_are_refused():
    """DNS rebinding: a site re-pointed at 127.0.0.1 sends its own name in Host."""
    with _client() as client:
        for path in ("/", "/static/table.js", "/download/x"):
            response = client.get(path, headers={"host": "attacker.example"})
            assert response.status_code == 403 and "attacker.example" in response.text, path
        assert client.get("/", headers={"host": "127.0.0.1:8001"}).status_code == 403  # another port
        assert client.get("/", headers={"origin": "http://evil.example.com"}).status_code == 403
        assert _refused(client, "ws://attacker.example:8000/ws") == 1008
        assert _refused(client, "ws://attacker.example:8000/ws", origin="http://attacker.example:8000") == 1008
        for host in ("127.0.0.1:8000", "localhost:8000", "[::1]:8000", "LOCALHOST:8000"):
            assert client.get("/", headers={"host": host}).status_code == 200, host


def test_allow_origin_lets_in_the_named_origins_and_their_hosts():
    with _client(host="0.0.0.0", allow_origins=["http://table.lan:8000"]) as client:
        assert client.get("/", headers={"host": "table.lan:8000"}).status_code == 200
        assert client.get("/", headers={"host": "0.0.0.0:8000"}).status_code == 200  # the --host given
        with client.websocket_connect("ws://table.lan:8000/ws", headers={"origin": "http://table.lan:8000"}) as ws:
            assert Page(ws).ask({"type": "hello"})["type"] == "hello"
        assert _refused(client, origin="http://evil.example.com") == 1008
        assert client.get("/", headers={"host": "table.lan:9000"}).status_code == 403
    with _client(allow_origins=["*"]) as client:  # anything goes: documented as unsafe
        assert client.get("/", headers={"host": "anything.example"}).status_code == 200
        with client.websocket_connect(WS, headers={"origin": "null"}) as ws:
            assert Page(ws).ask({"type": "hello"})["type"] == "hello"
    with pytest.raises(ValueError, match="--allow-origin"):
        create_app(make_agent, allow_origins=["table.lan"])


def test_loopback_addresses_and_the_warning_for_others(monkeypatch, capsys):
    assert all(map(is_loopback, ("127.0.0.1", "127.0.0.2", "localhost", "::1", "[::1]")))
    assert not any(map(is_loopback, ("0.0.0.0", "::", "192.168.1.5", "example.com")))
    import uvicorn

    from fcm_apps.cli import build_parser, main

    args = build_parser().parse_args(["web", "--allow-origin", "http://a:1", "--allow-origin", "http://b:2"])
    assert args.allow_origin == ["http://a:1", "http://b:2"]
    served = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: served.append((app, kw)))
    assert main(["web", "--host", "0.0.0.0", "--port", "8123", "--allow-origin", "http://table.lan:8123"]) == 0
    err = capsys.readouterr().err
    assert "warning: --host 0.0.0.0 is not a loopback address" in err
    app, kw = served[0]
    assert kw["host"] == "0.0.0.0" and app.state.gate.host_ok("table.lan:8123")
    assert not app.state.gate.host_ok("table.lan:8000") and not app.state.gate.origin_ok("http://evil.example")
    assert main(["web"]) == 0
    assert "warning" not in capsys.readouterr().err
    assert main(["web", "--allow-origin", "ftp://x"]) == 2
    assert "--allow-origin: expected http://NAME[:PORT]" in capsys.readouterr().err


# ------------------------------------------------------------------ malformed frames


def test_malformed_frames_get_one_error_each_and_the_game_goes_on():
    with _client() as client, client.websocket_connect(WS) as ws:
        page = Page(ws)
        before = page.ask(NEW)
        assert before["type"] == "table"
        frames = {
            "1" * 5000: "integers have at most",
            '{"type": "act", "action": ' + "9" * 5000 + "}": "integers have at most",
            '{"type": "act", "action": ' + "[" * 995 + "]" * 995 + "}": "nested deeper than 32 levels",
            "[" * 100_000 + "]" * 100_000: "nested deeper than 32 levels",
            '{"type": "act", "action": NaN}': "NaN is not a JSON value",
            '{"type": "act", "action": -Infinity}': "-Infinity is not a JSON value",
            '{"type": "act", "action": 1e999}': "out of range",
            '{"type": "act", "type": "refresh"}': "the key 'type' appears twice",
            "{not json": "not valid JSON",
            " ": "empty message",
            "\udcff{}": "not valid UTF-8",
        }
        for text, error in frames.items():
            ws.send_text(text)
            reply = page.reply()
            assert reply["type"] == "error" and error in reply["error"], (text[:40], reply)
            assert "\n" not in reply["error"]
        ws.send_bytes(b'{"type": "refresh"}')
        assert page.reply() == {"type": "error",
                                "error": "binary frames are not accepted: send each message as JSON text"}
        after = page.ask({"type": "refresh"})
        assert after["type"] == "table" and after["game"] == before["game"]
        assert after["view"] == before["view"] and after["legal"] == before["legal"] and after["log"] == []


def test_the_web_table_and_fcm_serve_read_json_with_the_same_decoder(monkeypatch):
    serve = Session()
    with _client() as client, client.websocket_connect(WS) as ws:
        page = Page(ws)
        for text in ('{"a": NaN}', '{"a": 1, "a": 2}', "[" * 40 + "]" * 40, "7" * 4301):
            ws.send_text(text)
            assert page.reply()["error"] == serve.handle_line(text)["error"], text[:20]
        monkeypatch.setattr(web_app, "MAX_MESSAGE_CHARS", 100)  # the web's own size limit (8 MB)
        ws.send_text(" " * 101)
        assert page.reply()["error"] == "not accepted: a request message holds at most 100 characters, got 101"
        assert page.ask({"type": "hello"})["type"] == "hello"


# ------------------------------------------------------------------ work one page can make


def test_a_game_with_every_seat_a_bot_is_refused_before_it_is_played():
    made: list[str] = []

    def factory(spec: str, seed: int):
        made.append(spec)
        return make_agent(spec, seed)

    with _client(agent_factory=factory) as client, client.websocket_connect(WS) as ws:
        page = Page(ws)
        page.ask({**NEW, "max_rounds": 2})
        saved = page.ask({"type": "save"})
        document = client.get(saved["url"]).json()
        made.clear()
        for doc in ({**document, "bots": {"0": "heuristic", "1": "search"}},
                    {**document, "bots": {"0": "random", "1": "random"}, "record": None}):
            reply = page.ask({"type": "load", "document": doc})
            assert reply == {"type": "error", "request": "load",
                             "error": "load: every seat of this game is a bot: nobody to play"}
        assert made == []  # no bot was even made, so none played
        too_many = page.ask({"type": "new", "num_players": 10**9, "human": 0})  # no loop over a billion seats
        assert too_many["error"] == "new.num_players: 2 to 5 players, got 1000000000"
        assert page.ask({"type": "refresh"})["type"] == "table"  # the first game is still there


class GatedAgent:
    """The heuristic, holding every move until the test opens the gate: a request that takes its time."""

    def __init__(self, inner, gate: threading.Event):
        self.inner, self.gate = inner, gate

    def reset(self) -> None:
        self.inner.reset()

    def act_on_game(self, game, player):
        assert self.gate.wait(60), "the test never opened the gate"
        return self.inner.act_on_game(game, player)


def test_one_request_runs_at_a_time_a_few_wait_and_the_rest_are_refused_as_busy():
    gate = threading.Event()
    app = create_app(lambda spec, seed: GatedAgent(make_agent(spec, seed), gate), port=8000)
    with TestClient(app, base_url=BASE) as client, client.websocket_connect(WS) as ws:
        page = Page(ws)
        ws.send_text(json.dumps(NEW))  # the bot moves first (seed 0): held at the gate
        extra = MAX_WAITING + 3
        for _ in range(extra):
            ws.send_text(json.dumps({"type": "refresh"}))
        ws.send_text("{bad")
        (conn,) = app.state.connections
        deadline = time.monotonic() + 60  # a hang check: the frames arrive in milliseconds
        while conn.frames < extra + 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert conn.frames == extra + 2 and conn.requests == 1 + MAX_WAITING
        gate.set()
        replies = [page.reply() for _ in range(extra + 2)]
        assert [r["type"] for r in replies] == ["table"] * (1 + MAX_WAITING) + ["error"] * 4  # in order
        assert all(r["error"].startswith("busy: ") and r["request"] == "refresh" for r in replies[-4:-1])
        assert replies[-1]["error"].startswith("not valid JSON")
        assert page.ask({"type": "refresh"})["game"] == replies[0]["game"]  # free again once answered
        assert conn.requests == 0


# ------------------------------------------------------------------ connections and their downloads


def test_connections_are_capped_and_a_closed_one_is_freed():
    assert MAX_CONNECTIONS == 16 and create_app(make_agent).state.max_connections == MAX_CONNECTIONS
    with _client(max_connections=2) as client:
        app = client.app
        with client.websocket_connect(WS) as first:
            page = Page(first)
            page.ask(NEW)
            url = page.ask({"type": "save"})["url"]
            with client.websocket_connect(WS) as second:
                assert Page(second).ask({"type": "hello"})["type"] == "hello"
                with client.websocket_connect(WS) as third, pytest.raises(WebSocketDisconnect) as refused:
                    third.receive_text()
                assert refused.value.code == 1013 and "serves 2 pages at once" in refused.value.reason
                assert len(app.state.connections) == 2
            (conn,) = app.state.connections
            assert client.get(url).status_code == 200
        assert not app.state.connections and not conn.session.games and not conn.saves
        assert client.get(url).status_code == 404  # freed with its page
        with client.websocket_connect(WS) as again:  # room again
            assert Page(again).ask({"type": "hello"})["type"] == "hello"


def test_each_page_keeps_its_own_downloads():
    with _client() as client, client.websocket_connect(WS) as a, client.websocket_connect(WS) as b:
        first, other = Page(a), Page(b)
        first.ask(NEW)
        other.ask({**NEW, "seed": 1})
        mine = first.ask({"type": "save"})["url"]
        theirs = [other.ask({"type": "save"})["url"] for _ in range(MAX_SAVES + 3)]
        assert client.get(mine).status_code == 200  # another page's saves do not push mine out
        assert client.get(mine).json()["state"]["seed"] == 0
        assert [client.get(u).status_code for u in theirs[:3]] == [404] * 3  # each page keeps its latest 32
        assert all(client.get(u).status_code == 200 for u in theirs[3:])


def test_an_idle_page_gives_its_slot_up_with_a_reason_and_a_busy_one_does_not():
    with _client(max_connections=1, idle_timeout_s=0.5) as client:
        with client.websocket_connect(WS) as idle:
            assert Page(idle).ask({"type": "hello"})["type"] == "hello"
            with pytest.raises(WebSocketDisconnect) as closed:
                idle.receive_text()  # nothing sent for 0.5 s: the server closes the page
            assert closed.value.code == 1001
            assert closed.value.reason == "idle for 0.5 s: this page gave its connection up; reload it to go on"
        with client.websocket_connect(WS) as again:  # the slot is free again
            assert Page(again).ask({"type": "hello"})["type"] == "hello"

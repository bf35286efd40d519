"""``fcm serve`` and ``fcm web`` refuse the tampered state documents that ``Game.from_dict`` refuses, with the
same message naming the field, and their open games stay as they were (docs/state-format.md)."""

from __future__ import annotations

import copy
import json

import pytest
from starlette.testclient import TestClient
from tampered_states import TAMPERED, restructuring_document

from fcm_agents.registry import make_agent
from fcm_apps.server import Session
from fcm_apps.web.app import create_app


@pytest.fixture(scope="module")
def document() -> dict:
    return restructuring_document()


def _tampered(document, mutate) -> dict:
    doc = copy.deepcopy(document)
    mutate(doc)
    return json.loads(json.dumps(doc))


def test_fcm_serve_refuses_every_tampered_document_naming_the_field(document):
    session = Session(make_agent)
    assert session.handle({"cmd": "load", "state": document})["ok"]  # the document itself loads
    before = session.handle({"cmd": "games"})
    for mutate, message in TAMPERED:
        reply = session.handle({"cmd": "load", "state": _tampered(document, mutate)})
        assert reply["ok"] is False and reply["error"].startswith(f"state: {message}"), (message, reply)
    assert session.handle({"cmd": "games"}) == before  # nothing opened, nothing changed


def test_fcm_web_refuses_every_tampered_save_naming_the_field_and_keeps_its_game(document):
    app = create_app(make_agent, port=8000)
    with TestClient(app, base_url="http://127.0.0.1:8000") as client, \
            client.websocket_connect("ws://127.0.0.1:8000/ws") as ws:
        def ask(message: dict) -> dict:
            ws.send_text(json.dumps(message))
            return json.loads(ws.receive_text())

        table = ask({"type": "new", "num_players": 2, "human": 0, "bots": {"1": "heuristic"}, "seed": 0})
        for mutate, message in TAMPERED:
            save = {"format": "fcm-magnate/web-save", "human": 0, "players": ["human", "heuristic"],
                    "bots": {"1": "heuristic"}, "state": _tampered(document, mutate), "record": None}
            reply = ask({"type": "load", "document": save})
            assert reply["type"] == "error" and message in reply["error"], (message, reply)
        again = ask({"type": "refresh"})
        assert again["type"] == "table" and again["view"] == table["view"]

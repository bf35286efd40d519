"""A move that fails midway in the engine (a bug, injected here) changes nothing that a client can see, and
the server answers that request with one error line (docs/protocol.md, docs/state-format.md)."""

from __future__ import annotations

import json

from fcm_agents.registry import make_agent
from fcm_apps.server import Session
from fcm_env.engine.phases import dinnertime


def test_an_engine_failure_inside_act_is_one_error_line_and_the_game_is_unchanged(monkeypatch):
    session = Session(make_agent)
    session.handle({"cmd": "new", "num_players": 2, "seed": 3, "bots": {"1": "heuristic"}})
    human = make_agent("heuristic", 0)
    game = session.games["g1"].game
    real_run = dinnertime.run

    def broken(state):
        real_run(state)
        raise RuntimeError("injected failure in dinnertime")

    monkeypatch.setattr(dinnertime, "run", broken)
    for _ in range(300):  # the human's last Working 9-5 move (or a bot's after it) runs Dinnertime
        before = {"view": session.handle({"cmd": "view", "player": 0}), "log": session.handle(
            {"cmd": "log", "player": 0}), "legal": session.handle({"cmd": "legal", "player": 0})}
        action = human.act_on_game(game, 0)
        line = session.handle_line(json.dumps({"cmd": "act", "player": 0, "action": {"kind": action.kind.name,
                                                                                     "args": list(action.args)}}))
        if not line["ok"]:
            break
    else:
        raise AssertionError("Dinnertime never ran")
    assert line == {"ok": False, "error": "internal error: RuntimeError: injected failure in dinnertime"}
    after = {"view": session.handle({"cmd": "view", "player": 0}), "log": session.handle({"cmd": "log", "player": 0}),
             "legal": session.handle({"cmd": "legal", "player": 0})}
    assert after == before  # the human's move and the bots' answers before the failure: all undone
    monkeypatch.setattr(dinnertime, "run", real_run)
    assert session.handle({"cmd": "view", "player": 0})["ok"]  # the game is still served

"""``fcm serve --stdio``: a test client plays a whole game over JSON lines; errors never kill the server."""

from __future__ import annotations

import json
import random
import subprocess
import sys

from cli_helpers import ROOT, fcm_env_vars

from fcm_env.engine.persistence.records import GameRecord, replay


class Client:
    """Talks to one ``fcm serve --stdio`` process, one request line and one reply line at a time."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "fcm_apps", "serve", "--stdio"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, cwd=ROOT, env=fcm_env_vars(),
        )

    def send_line(self, line: str) -> dict:
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        reply = self.proc.stdout.readline()
        assert reply.endswith("\n"), f"no reply; stderr: {self.proc.stderr.read()}"
        return json.loads(reply)

    def send(self, **request) -> dict:
        return self.send_line(json.dumps(request))

    def close(self) -> int:
        reply = self.send(cmd="quit", id="bye")
        assert reply == {"ok": True, "bye": True, "id": "bye"}
        return self.proc.wait(timeout=30)


def test_a_whole_game_through_the_server_ends_with_a_winner():
    client = Client()
    try:
        reply = client.send(cmd="new", num_players=2, seed=4, max_rounds=3, bots={"1": "heuristic"}, id=1)
        assert reply["ok"] and reply["id"] == 1 and reply["game"] == "g1"
        assert reply["setup"]["players"] == ["human", "heuristic"]
        status = reply["status"]
        rng = random.Random(0)
        moves = 0
        while not status["over"]:
            assert status["to_move"] == 0  # the server plays seat 1 itself
            legal = client.send(cmd="legal", player=0)["actions"]
            choice = rng.choice(legal)
            # alternate the two ways of naming a move: the flat id, and kind + named params
            action = choice["id"] if moves % 2 else {"kind": choice["kind"], "params": choice["params"]}
            reply = client.send(cmd="act", player=0, action=action, id=moves)
            assert reply["ok"], reply
            assert reply["applied"] == choice and reply["id"] == moves
            status = reply["status"]
            moves += 1
            if moves == 3:  # errors in the middle of a game change nothing and keep the server up
                assert client.send_line("{not json")["ok"] is False
                wrong = client.send(cmd="act", player=1, action=0)
                assert wrong == {"ok": False, "error": "player 1 is played by the server (heuristic)"}
                before = client.send(cmd="view", player=0)["view"]
                bad = client.send(cmd="act", player=0, action={"kind": "NOPE"})
                assert bad["ok"] is False and "unknown action kind 'NOPE'" in bad["error"]
                assert client.send(cmd="view", player=0)["view"] == before
        assert status["winners"] and status["cash"] is not None
        final = client.send(cmd="view", player=0)["view"]
        assert final["over"] and final["winners"] == status["winners"]
        record = GameRecord.from_dict(client.send(cmd="record")["record"])
        game = replay(record)  # the server's record replays to the same end
        assert list(game.winners) == status["winners"]
        assert record.agents == ["human", "heuristic"]
        assert client.send(cmd="act", player=0, action=0)["error"] == "the game is over: no decision is pending"
        assert client.close() == 0
    finally:
        client.proc.kill()


def test_a_bots_only_game_is_played_by_new():
    client = Client()
    try:
        reply = client.send(cmd="new", num_players=3, seed=1, max_rounds=2,
                            bots={"0": "random", "1": "heuristic", "2": "random"})
        assert reply["ok"] and reply["status"]["over"] and len(reply["status"]["winners"]) == 1
        assert reply["events"] and all(e["player"] in (0, 1, 2) for e in reply["events"])
        # secret choices show their decision only (rules: Phase 1; Setting goals; C30)
        hidden = [e for e in reply["events"] if e.get("hidden")]
        assert {e["decision"] for e in hidden} >= {"RESERVE_CARD", "RESTRUCTURE"}
        assert all("action" not in e for e in hidden)
        assert client.close() == 0
    finally:
        client.proc.kill()


def test_bad_requests_get_errors_and_the_server_ends_at_eof():
    lines = [
        '{"cmd": "view", "player": 0, "id": "v"}',
        "[1, 2]",
        '{"cmd": "fly"}',
        '{"cmd": "new", "num_players": 7}',
        '{"cmd": "new", "num_players": 2, "bots": {"5": "random"}}',
        '{"cmd": "new", "num_players": 2, "bots": {"1": "nobody"}}',
        '{"cmd": "new", "num_players": 2, "variant": "deluxe"}',
        '{"cmd": "new", "num_players": 2}',
        '{"cmd": "legal"}',
        '{"cmd": "act", "player": 0}',
    ]
    done = subprocess.run([sys.executable, "-m", "fcm_apps", "serve", "--stdio"], input="\n".join(lines) + "\n",
                          check=False, capture_output=True, text=True, cwd=ROOT, env=fcm_env_vars(), timeout=60)
    assert done.returncode == 0, done.stderr
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(replies) == len(lines)
    assert replies[0] == {"ok": False, "error": 'no game: send {"cmd": "new", ...} first', "id": "v"}
    assert replies[1]["error"] == "a request is a JSON object, got array"
    assert replies[2]["error"].startswith("unknown cmd 'fly'")
    assert replies[3]["error"] == "new.num_players: input should be less than or equal to 5, got 7"
    assert replies[4]["error"] == "bots: '5' is not a player id 0..1"
    assert replies[5]["error"].startswith("bots.1: unknown agent 'nobody'")
    assert replies[6]["error"] == "new.variant: input should be 'standard' or 'introductory', got 'deluxe'"
    assert replies[7]["ok"] is True and replies[7]["setup"]["players"] == ["human", "human"]
    assert replies[8]["error"] == "legal needs 'player' (a player id)"
    assert replies[9]["error"] == "act needs 'action' (an id or a structured action)"


NASTY_LINES = [
    "[" * 1000 + "]" * 1000,  # once: RecursionError ended the process
    "1" * 5000,  # once: ValueError (int digits) ended the process
    '{"cmd": "new", "num_player": 2}',  # once: a 4-player game, the typo ignored
    '{"cmd": "games", "id": NaN}',  # once: echoed as NaN, not JSON
    '{"cmd": "games", "id": Infinity}',
    "",  # once: no reply at all
    "   \t",
    '{"cmd": "new", "seed": -1}',  # once: "internal error"
]


def test_nasty_lines_get_errors_and_the_server_answers_on():
    client = Client()
    try:
        for line in NASTY_LINES:
            reply = client.send_line(line)
            assert reply["ok"] is False and "id" not in reply, (line[:40], reply)
            assert not reply["error"].startswith("internal error"), reply
        raw = client.proc.stdin
        raw.buffer.write(b"\xff\xfe not utf-8\n")  # bytes no text encoding can read
        raw.flush()
        assert json.loads(client.proc.stdout.readline()) == {"ok": False, "error": "not valid UTF-8 text"}
        assert client.proc.poll() is None  # still running
        reply = client.send(cmd="new", num_players=2, seed=1, id="after")
        assert reply["ok"] and reply["id"] == "after" and reply["game"] == "g1"
        assert client.send(cmd="games")["games"][0]["players"] == ["human", "human"]
        assert client.close() == 0
    finally:
        client.proc.kill()

"""The worked example of ``docs/protocol.md`` is real: replaying its requests gives its replies."""

from __future__ import annotations

import json
import re

from cli_helpers import ROOT

from fcm_agents.registry import make_agent
from fcm_apps.server import Session

DOC = ROOT / "docs" / "protocol.md"
BELOW = "(the reply below)"


def transcripts() -> list[list[tuple[str, str]]]:
    """(request line, reply text) pairs of every ``text`` block of requests (``→``) and replies (``←``)."""
    text = DOC.read_text(encoding="utf-8")
    blocks = [b for b in re.findall(r"```text\n(.*?)```", text, re.DOTALL) if b.startswith("→ ")]
    out = []
    for block in blocks:
        lines = block.splitlines()
        pairs = []
        for request, reply in zip(lines[::2], lines[1::2], strict=True):
            assert request.startswith("→ ") and reply.startswith("← ")
            pairs.append((request[2:], reply[2:]))
        out.append(pairs)
    return out


def pretty_reply() -> dict:
    """The pretty-printed reply below the worked example's transcript."""
    text = DOC.read_text(encoding="utf-8").split("## Worked example", 1)[1]
    return json.loads(re.search(r"```json\n(.*?)```", text, re.DOTALL).group(1))


def test_every_transcript_replays_exactly():
    # each transcript is one server: its request lines go through handle_line, as fcm serve --stdio reads them
    blocks = transcripts()
    assert len(blocks) == 2 and len(blocks[1]) >= 8  # the errors-and-games example, then the worked example
    for pairs in blocks:
        session = Session(make_agent)
        for request, shown in pairs:
            got = session.handle_line(request)
            expected = pretty_reply() if shown == BELOW else json.loads(shown)
            assert got == expected, (
                f"docs/protocol.md is out of date at request {request}; regenerate its transcripts "
                "by sending their requests to fcm serve --stdio"
            )
            assert json.loads(json.dumps(got, allow_nan=False)) == got  # strict JSON both ways


def test_a_described_action_sent_back_must_agree_with_its_id():
    session = Session(make_agent)
    session.handle({"cmd": "new", "num_players": 2, "seed": 0, "bots": {"1": "heuristic"}})
    first, second = session.handle({"cmd": "legal", "player": 0})["actions"][1:3]
    mixed = {**first, "params": second["params"]}
    reply = session.handle({"cmd": "act", "player": 0, "action": mixed})
    assert reply["ok"] is False and f"id {first['id']} is {first['label']}" in reply["error"]
    assert session.handle({"cmd": "act", "player": 0, "action": first})["applied"] == first

"""The worked example of ``docs/protocol.md`` is real: replaying its requests gives its replies."""

from __future__ import annotations

import json
import re

from cli_helpers import ROOT

from fcm_agents.registry import make_agent
from fcm_env.protocol import Session

DOC = ROOT / "docs" / "protocol.md"
BELOW = "(the reply below)"


def worked_example() -> tuple[list[tuple[dict, str]], dict]:
    """(request, reply text) pairs of the transcript, and the pretty-printed reply below it."""
    text = DOC.read_text(encoding="utf-8").split("## Worked example", 1)[1]
    transcript = re.search(r"```text\n(.*?)```", text, re.DOTALL).group(1).splitlines()
    pretty = json.loads(re.search(r"```json\n(.*?)```", text, re.DOTALL).group(1))
    pairs = []
    for request, reply in zip(transcript[::2], transcript[1::2], strict=True):
        assert request.startswith("→ ") and reply.startswith("← ")
        pairs.append((json.loads(request[2:]), reply[2:]))
    return pairs, pretty


def test_the_worked_example_replays_exactly():
    pairs, pretty = worked_example()
    session = Session(make_agent)
    assert len(pairs) >= 8
    for request, shown in pairs:
        got = session.handle(request)
        expected = pretty if shown == BELOW else json.loads(shown)
        assert got == expected, (
            f"docs/protocol.md is out of date at request {request}; regenerate the worked example "
            "by sending its requests to fcm serve --stdio"
        )


def test_a_described_action_sent_back_must_agree_with_its_id():
    session = Session(make_agent)
    session.handle({"cmd": "new", "num_players": 2, "seed": 0, "bots": {"1": "heuristic"}})
    first, second = session.handle({"cmd": "legal", "player": 0})["actions"][1:3]
    mixed = {**first, "params": second["params"]}
    reply = session.handle({"cmd": "act", "player": 0, "action": mixed})
    assert reply["ok"] is False and f"id {first['id']} is {first['label']}" in reply["error"]
    assert session.handle({"cmd": "act", "player": 0, "action": first})["applied"] == first

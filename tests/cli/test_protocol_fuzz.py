"""Fuzzing the JSON-lines server: random and mangled lines never crash it, break its replies or touch a game.

Each example runs ``serve()`` on in-memory streams: a ``new`` game against a bot, then random
lines (random text, bytes read the way ``fcm serve --stdio`` reads them, random JSON values, and
valid requests with keys dropped, added or renamed, values of the wrong type, huge integers,
deep nesting, NaN), each followed by a ``save`` of that game. The checks: one reply line per
line until EOF or an accepted ``quit``; every reply is strict JSON with a bool ``ok``; a failure
has an ``error`` string that is not an internal error; and the saved game is the same before
and after every rejected line.
"""

from __future__ import annotations

import io
import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fcm_agents import HeuristicAgent, RandomAgent
from fcm_apps.server import Session, serve


def factory(spec: str, seed: int) -> Any:
    """Only the two quick bots: the fuzz is about the protocol, not about loading model files."""
    if spec == "heuristic":
        return HeuristicAgent(seed=seed, name=spec)
    if spec == "random":
        return RandomAgent(seed=seed, name=spec)
    raise ValueError(f"unknown agent {spec!r}")


START = {"cmd": "new", "num_players": 2, "seed": 7, "max_rounds": 3, "bots": {"1": "heuristic"}}
PROBE = json.dumps({"cmd": "save", "game": "g1", "id": "probe"})


def _saved() -> dict:
    session = Session(factory)
    session.handle(START)
    for _ in range(3):
        legal = session.handle({"cmd": "legal", "player": 0})["actions"]
        session.handle({"cmd": "act", "player": 0, "action": legal[0]["id"]})
    return session.handle({"cmd": "save"})


SAVED = _saved()

#: one valid request of every command (some change the game, which is allowed: only rejections must not)
VALID: list[dict] = [
    START,
    {"cmd": "new", "num_players": 3, "seed": 1, "variant": "introductory", "bots": {"0": "random"}},
    {"cmd": "games"},
    {"cmd": "view", "game": "g1", "player": 0},
    {"cmd": "legal", "game": "g1", "player": 0},
    {"cmd": "act", "game": "g1", "player": 0, "action": {"kind": "PASS", "params": {}}},
    {"cmd": "act", "game": "g1", "player": 0, "action": ["TURN_SPOT", [0]]},
    {"cmd": "act", "game": "g1", "player": 0, "action": 36},
    {"cmd": "log", "game": "g1", "player": 1, "since": 0},
    {"cmd": "record", "game": "g1"},
    {"cmd": "save", "game": "g1"},
    {"cmd": "load", "record": SAVED["record"], "bots": {"1": "random"}},
    {"cmd": "load", "state": SAVED["state"]},
    {"cmd": "close", "game": "g2"},
    {"cmd": "quit"},
]

NASTY: list[Any] = [
    None, True, False, 0, -1, 1, 2, 5, 2**63, -(2**63) - 1, 10**100, 1.5, -0.0, "", "x", "g1", "PASS", "human",
    [], [0], {}, {"kind": "PASS"}, ["RECRUIT", [6]], "\u0000", "\udcff",
]


def _deep(depth: int) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


def _paths(value: Any, path: tuple = ()) -> list[tuple]:
    """Every path into a JSON value (keys and indexes), the root included."""
    out = [path]
    if isinstance(value, dict):
        for key, child in value.items():
            out += _paths(child, (*path, key))
    elif isinstance(value, list):
        for index, child in enumerate(value[:6]):  # enough of a long list (a record's actions)
            out += _paths(child, (*path, index))
    return out


def _replace(value: Any, path: tuple, new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: _replace(value[head], rest, new)}
    return [_replace(v, rest, new) if i == head else v for i, v in enumerate(value)]


def mutate(request: dict, rnd: random.Random) -> str:
    """One request line, changed in one of several ways a careless or hostile client might."""
    how = rnd.randrange(9)
    keys = list(request)
    if how == 0 and keys:  # a key dropped
        drop = rnd.choice(keys)
        return json.dumps({k: v for k, v in request.items() if k != drop})
    if how == 1:  # a key added
        return json.dumps({**request, rnd.choice(["num_player", "gmae", "x", "", "id ", "Cmd"]): rnd.choice(NASTY)})
    if how == 2 and keys:  # a key renamed
        old = rnd.choice(keys)
        return json.dumps({(k + "s" if k == old else k): v for k, v in request.items()})
    if how == 3:  # a value anywhere replaced by one of the wrong type or range
        path = rnd.choice(_paths(request)[1:] or [()])
        return json.dumps(_replace(request, path, rnd.choice(NASTY + [_deep(rnd.randrange(20, 40))])))
    if how == 4:  # NaN / Infinity where a value goes
        path = rnd.choice(_paths(request)[1:] or [()])
        return json.dumps(_replace(request, path, rnd.choice([float("nan"), float("inf"), float("-inf")])))
    if how == 5:  # a huge integer literal
        text = json.dumps(_replace(request, rnd.choice(_paths(request)[1:] or [()]), "@@"))
        return text.replace('"@@"', "9" * rnd.choice([20, 400, 4300, 4301, 6000]))
    if how == 6:  # deep nesting
        depth = rnd.choice([31, 32, 33, 200, 1000, 5000])
        return json.dumps({**request, "id": "@@"}).replace('"@@"', "[" * depth + "]" * depth)
    if how == 7:  # the line cut short, or its bytes shuffled a little
        text = json.dumps(request)
        cut = rnd.randrange(len(text) + 1)
        return text[:cut] if rnd.random() < 0.5 else text[:cut] + rnd.choice("{}[],:\"\\ x0") + text[cut:]
    return json.dumps(request)  # unchanged


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(
        st.sampled_from(["cmd", "id", "game", "player", "action", "seed", "bots", "state", "record"]) | st.text(),
        children, max_size=4),
    max_leaves=12,
)

one_line = st.one_of(
    st.text(min_size=1, max_size=60),
    st.binary(min_size=1, max_size=60).map(lambda b: b.decode("utf-8", errors="surrogateescape")),
    json_values.map(json.dumps),
    st.builds(lambda v, cmd: json.dumps({"cmd": cmd, **v} if isinstance(v, dict) else v),
              json_values, st.sampled_from(["new", "act", "load", "view", "close", "games", "save", "log"])),
    st.builds(mutate, st.sampled_from(VALID), st.randoms(use_true_random=False)),
    st.builds(mutate, st.sampled_from(VALID), st.randoms(use_true_random=False)),
).map(lambda line: line.replace("\n", " "))  # one line each: a line ends at "\n" only


@settings(max_examples=450, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(lines=st.lists(one_line, min_size=4, max_size=20))
def test_random_and_mangled_lines_get_one_strict_reply_each_and_change_nothing(lines):
    sent = [json.dumps(START)]
    for line in lines:
        sent += [line, PROBE]
    out = io.StringIO()
    assert serve(io.StringIO("\n".join(sent) + "\n"), out, agent_factory=factory) == 0

    replies = [json.loads(text, parse_constant=_not_json) for text in out.getvalue().split("\n")[:-1]]
    bye = next((i for i, r in enumerate(replies) if r.get("ok") is True and r.get("bye") is True), None)
    assert len(replies) == (len(sent) if bye is None else bye + 1)  # until EOF, or the accepted quit
    assert bye is None or sent[bye] not in (PROBE, sent[0])
    for reply in replies:
        assert type(reply) is dict and type(reply["ok"]) is bool, reply
        if not reply["ok"]:
            assert type(reply["error"]) is str and reply["error"], reply
            assert not reply["error"].startswith("internal error"), reply
        if "id" in reply:
            assert reply["id"] is None or type(reply["id"]) in (str, int)
    assert replies[0]["ok"] and replies[0]["game"] == "g1"
    # the game as saved before and after each rejected line is the same
    for index in range(1, len(replies) - 1, 2):
        before, reply, after = replies[index - 1], replies[index], replies[index + 1]
        if reply["ok"] or not after["ok"]:
            continue  # an accepted line may change the game; a failed probe (g1 closed) has nothing to compare
        saved_before = before["state"] if "state" in before else _start_state()
        assert after["state"] == saved_before, (sent[index][:200], reply)


def _not_json(name: str) -> Any:
    raise AssertionError(f"a reply holds {name}, which is not JSON")


_START_STATE: list[dict] = []


def _start_state() -> dict:
    """The saved state of the START game (what the first probe compares with)."""
    if not _START_STATE:
        session = Session(factory)
        session.handle(START)
        _START_STATE.append(session.handle({"cmd": "save"})["state"])
    return _START_STATE[0]

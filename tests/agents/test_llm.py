"""The LLM agent (docs/llm.md) against a fake chat-completions server on 127.0.0.1: replies, retries,
fallbacks, request errors, a whole game, ``fcm evaluate``, and prompts without hidden facts.

No network: the fake endpoint is an ``http.server`` in a thread on a free local port, answering
POST /v1/chat/completions from a script.
"""

from __future__ import annotations

import json
import re
import socket
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib.util import find_spec
from typing import Any

import pytest

from fcm_agents.heuristic import HeuristicAgent
from fcm_agents.llm import (
    SYSTEM_PROMPT,
    LLMAgent,
    LLMConfig,
    LLMError,
    ReplyError,
    parse_llm_params,
    parse_reply,
    seat_prompt,
)
from fcm_agents.match import play_game
from fcm_agents.registry import make_agent, split_specs
from fcm_env.data import Milestone
from fcm_env.engine.actions import Action, Decision
from fcm_env.engine.game import Game

#: the tests that build an agent need the client (the ``llm`` extra); parsing and prompts do not
needs_openai = pytest.mark.skipif(find_spec("openai") is None,
                                  reason="the llm extra (openai) is not installed")
Answer = Callable[[dict[str, Any]], "str | int"]
CHOICE = re.compile(r"^(\d+)\) ", re.MULTILINE)


class FakeEndpoint:
    """A chat-completions server: ``answer(request)`` gives the reply's content, or an int: an HTTP error
    status."""

    def __init__(self, answer: Answer):
        self.answer = answer
        self.requests: list[dict[str, Any]] = []
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
                if self.path != "/v1/chat/completions":
                    self._send(404, {"error": {"message": f"no such path {self.path}"}})
                    return
                endpoint.requests.append(body)
                reply = endpoint.answer(body)
                if isinstance(reply, int):
                    error = {"message": f"scripted error {reply}", "type": "server_error"}
                    self._send(reply, {"error": error})
                    return
                self._send(200, {
                    "id": f"fake-{len(endpoint.requests)}", "object": "chat.completion", "created": 0,
                    "model": body["model"],
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": reply}}],
                    "usage": {"prompt_tokens": 100, "completion_tokens": 2, "total_tokens": 102},
                })

            def _send(self, status: int, doc: dict[str, Any]) -> None:
                data = json.dumps(doc).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:  # quiet
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def listed(request: dict[str, Any]) -> list[int]:
    """The choice numbers of the prompt (the first user message)."""
    return [int(n) for n in CHOICE.findall(request["messages"][1]["content"])]


def rotating(request: dict[str, Any]) -> str:
    """A legal answer read from the prompt, a different one from decision to decision."""
    numbers = listed(request)
    return str(numbers[len(request["messages"][1]["content"]) % len(numbers)])


def scripted(*replies: str | int) -> Answer:
    """These replies in order, then legal ones read from the prompt."""
    queue = list(replies)
    return lambda request: queue.pop(0) if queue else rotating(request)


@pytest.fixture
def endpoint() -> Iterator[Callable[[Answer], FakeEndpoint]]:
    if find_spec("openai") is None:
        pytest.skip("the llm extra (openai) is not installed")
    started: list[FakeEndpoint] = []

    def start(answer: Answer) -> FakeEndpoint:
        started.append(FakeEndpoint(answer))
        return started[-1]

    yield start
    for server in started:
        server.close()


def agent_for(server: FakeEndpoint, **keys: Any) -> LLMAgent:
    extra = "".join(f",{k}={v}" for k, v in keys.items())
    return make_agent(f"llm:base_url={server.url},model=fake-model,backoff=0{extra}", seed=0)


def first_decision() -> tuple[Game, int]:
    game = Game.new(2, seed=0, max_rounds=4)
    return game, game.current_player


# ------------------------------------------------------------------ parameters


def test_parameters_are_parsed_and_bad_ones_named():
    config = parse_llm_params("base_url=http://127.0.0.1:8000/v1, model=qwen2.5:7b,temperature=0.5,"
                              "max_illegal=5")
    assert config == LLMConfig(base_url="http://127.0.0.1:8000/v1", model="qwen2.5:7b", temperature=0.5,
                               max_illegal=5)
    base = "base_url=http://127.0.0.1:8000/v1,model=m"
    for text, message in [
        ("", "needs at least base_url and model"),
        ("model=m", "base_url is required"),
        ("base_url=http://127.0.0.1:8000/v1", "model is required"),
        (f"{base},modle=x", "unknown parameter 'modle'"),
        (f"{base},temperature=hot", "temperature='hot' is not a number"),
        (f"{base},retries=1.5", "retries='1.5' is not an integer"),
        (f"{base},retries=-1", "retries=-1 is not allowed"),
        (f"{base},max_illegal=0", "max_illegal=0 is not allowed"),
        (f"{base},timeout", "timeout needs a value"),
        (f"{base},fallback=random", "fallback='random' is not allowed: fallback is one of heuristic, first"),
        (f"{base},on_error=ignore", "on_error='ignore' is not allowed"),
        (f"{base},observation=picture", "observation='picture' is not allowed"),
        ("base_url=127.0.0.1:8000,model=m", "an http:// or https:// URL"),
        (f"{base},api_key=sk-secret", "the API key is not a spec key"),
    ]:
        with pytest.raises(ValueError, match=re.escape(message)):
            parse_llm_params(text)
    with pytest.raises(ValueError, match="base_url is required"):
        make_agent("llm:model=m")


@needs_openai
def test_an_api_key_variable_that_is_named_must_be_set(monkeypatch):
    monkeypatch.delenv("FCM_TEST_LLM_KEY", raising=False)
    spec = "llm:base_url=http://127.0.0.1:9/v1,model=m,api_key_env=FCM_TEST_LLM_KEY"
    with pytest.raises(ValueError, match="FCM_TEST_LLM_KEY.*not set"):
        make_agent(spec)
    monkeypatch.setenv("FCM_TEST_LLM_KEY", "sk-test")
    assert make_agent(spec).name == spec  # the spec names the agent; the key is not in it


def test_a_lineup_keeps_the_keys_of_an_llm_spec_together():
    spec = "llm:base_url=http://127.0.0.1:8000/v1,model=llama3.1:8b,temperature=0"
    assert split_specs(f"{spec},heuristic") == [spec, "heuristic"]
    assert split_specs(f"heuristic,{spec}") == ["heuristic", spec]


# ------------------------------------------------------------------ reading replies


@pytest.mark.parametrize(("reply", "number"), [
    ("3", 3), (" 12.\n", 12), ("**7**", 7), ("Action: 5", 5), ('{"action": 4}', 4), ('{"action": "2"}', 2),
    ('I will open a restaurant.\n{"action": 9}', 9), ("<think>3 or 5? 5 is better</think>\n5", 5),
    ("I hire a waitress: 6", 6), ("6) hire a waitress at (2,3)", 6), ("Thinking...\n\n11", 11),
])
def test_replies_name_a_choice(reply, number):
    assert parse_reply(reply, 20) == number


@pytest.mark.parametrize(("reply", "kind", "message"), [
    ("", "unparsable", "empty"),
    ("<think>I would say 3 but", "unparsable", "empty"),
    ("pass", "unparsable", "no number"),
    ("3 or 4", "unparsable", "2 different numbers"),
    ('{"action": "pass"}', "unparsable", '"action" must be a choice number'),
    ("0", "illegal", "0 is not one of the choices, which are numbered 1 to 20"),
    ("21", "illegal", "21 is not one of the choices"),
])
def test_bad_replies_say_what_was_wrong(reply, kind, message):
    with pytest.raises(ReplyError, match=re.escape(message)) as caught:
        parse_reply(reply, 20)
    assert caught.value.kind == kind


# ------------------------------------------------------------------ one decision against the fake endpoint


def test_a_number_reply_plays_that_choice_and_the_request_is_counted(endpoint):
    server = endpoint(scripted("2"))
    agent = agent_for(server)
    game, player = first_decision()
    prompt, actions = seat_prompt(game, player)
    assert agent.act_on_game(game, player) == actions[1]
    request = server.requests[0]
    assert request["model"] == "fake-model" and request["temperature"] == 0 and request["seed"] == 0
    assert request["messages"][0] == {"role": "system", "content": SYSTEM_PROMPT}
    assert request["messages"][1] == {"role": "user", "content": prompt}
    stats = agent.stats.to_dict()
    assert stats == {"decisions": 1, "forced": 0, "requests": 1, "replies": 1, "unparsable": 0, "illegal": 0,
                     "fallbacks": 0, "request_errors": 0, "prompt_tokens": 100, "completion_tokens": 2}
    assert agent.game_stats == agent.stats
    agent.reset()  # a new game: its counters start again, the totals stay
    assert agent.game_stats.decisions == 0 and agent.stats.decisions == 1


def test_a_json_reply_plays_that_choice(endpoint):
    agent = agent_for(endpoint(scripted('{"action": 5}')))
    game, player = first_decision()
    assert agent.act_on_game(game, player) == seat_prompt(game, player)[1][4]


def test_garbage_is_refused_with_the_reason_and_asked_again(endpoint):
    server = endpoint(scripted("I like burgers", "3"))
    agent = agent_for(server)
    game, player = first_decision()
    assert agent.act_on_game(game, player) == seat_prompt(game, player)[1][2]
    assert len(server.requests) == 2
    again = server.requests[1]["messages"]
    assert again[2] == {"role": "assistant", "content": "I like burgers"}
    assert again[3]["role"] == "user" and "refused" in again[3]["content"]
    assert "no number" in again[3]["content"]
    stats = agent.stats
    assert (stats.unparsable, stats.illegal, stats.replies, stats.fallbacks) == (1, 0, 2, 0)


def test_illegal_numbers_until_the_fallback_which_is_counted(endpoint):
    server = endpoint(lambda request: "999")
    game, player = first_decision()
    agent = agent_for(server, max_illegal=2)
    assert agent.act_on_game(game, player) == HeuristicAgent(seed=0).act_on_game(game, player)  # the default
    assert len(server.requests) == 2
    assert "999 is not one of the choices" in server.requests[1]["messages"][3]["content"]
    assert (agent.stats.illegal, agent.stats.fallbacks, agent.stats.decisions) == (2, 1, 1)
    first = agent_for(server, max_illegal=1, fallback="first")
    assert first.act_on_game(game, player) == game.legal_actions()[0]
    assert (first.stats.illegal, first.stats.fallbacks) == (1, 1)


def test_a_server_error_is_retried_then_raised_or_played_around(endpoint):
    server = endpoint(scripted(500, "4"))
    game, player = first_decision()
    agent = agent_for(server, retries=1)
    assert agent.act_on_game(game, player) == seat_prompt(game, player)[1][3]  # the retry got an answer
    assert (agent.stats.request_errors, agent.stats.requests, agent.stats.replies) == (1, 2, 1)

    down = endpoint(lambda request: 500)
    agent = agent_for(down, retries=2)
    with pytest.raises(LLMError, match=re.escape(f"request to {down.url} (model fake-model) failed after 3 "
                                                 "attempt(s): HTTP 500")):
        agent.act_on_game(game, player)
    assert agent.stats.request_errors == 3 and isinstance(LLMError("x"), OSError)  # fcm prints it as one line

    agent = agent_for(down, retries=0, on_error="fallback")
    assert agent.act_on_game(game, player) == HeuristicAgent(seed=0).act_on_game(game, player)
    assert (agent.stats.request_errors, agent.stats.fallbacks, agent.stats.replies) == (1, 1, 0)


def test_a_client_error_is_not_retried(endpoint):
    server = endpoint(lambda request: 404)
    agent = agent_for(server, retries=3)
    game, player = first_decision()
    with pytest.raises(LLMError, match="after 1 attempt.*HTTP 404"):
        agent.act_on_game(game, player)
    assert len(server.requests) == 1


@needs_openai
def test_no_server_at_the_url_is_a_connection_error():
    with socket.socket() as s:  # a free port that nothing listens on once closed
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    agent = make_agent(f"llm:base_url=http://127.0.0.1:{port}/v1,model=m,retries=1,backoff=0,timeout=5")
    game, player = first_decision()
    with pytest.raises(LLMError, match=f"127.0.0.1:{port}.*after 2 attempt.*APIConnectionError"):
        agent.act_on_game(game, player)


def test_the_log_gets_one_line_per_decision(endpoint, tmp_path):
    log = tmp_path / "llm.jsonl"
    agent = agent_for(endpoint(scripted("nope", "2")), log=log)
    game, player = first_decision()
    agent.act_on_game(game, player)
    (entry,) = [json.loads(line) for line in log.read_text().splitlines()]
    assert entry["replies"] == ["nope", "2"] and entry["choice"] == 2 and not entry["fallback"]
    assert entry["decision"] == "INITIAL_RESTAURANT" and entry["stats"]["unparsable"] == 1
    # the fixed system message is left out
    assert [m["role"] for m in entry["messages"]] == ["user", "assistant", "user"]


# ------------------------------------------------------------------ whole games


def test_an_llm_seat_plays_a_short_game_against_the_heuristic(endpoint):
    server = endpoint(rotating)
    llm = agent_for(server)
    result = play_game([llm, HeuristicAgent(seed=1)], seed=3, max_rounds=4)
    assert result.rounds == 4 and result.ended_by == "max_rounds"
    stats = llm.game_stats
    assert stats.decisions > 10 and stats.replies == stats.requests == len(server.requests) > 0
    assert stats.fallbacks == stats.unparsable == stats.illegal == stats.request_errors == 0
    assert stats.decisions == stats.forced + stats.replies
    assert stats.prompt_tokens == 100 * stats.replies
    for request in server.requests:  # every prompt ends with the numbered moves and the answer format
        assert listed(request) == list(range(1, len(listed(request)) + 1))


def test_fcm_evaluate_plays_an_llm_lineup(endpoint, tmp_path, capsys):
    from fcm_apps import cli

    server = endpoint(rotating)
    spec = f"llm:base_url={server.url},model=fake-model,backoff=0"
    out = tmp_path / "eval"
    code = cli.main(["evaluate", "--lineup", f"{spec},heuristic", "--games", "2", "--max-rounds", "1",
                     "--out", str(out), "--no-progress"])
    assert code == 0, capsys.readouterr().err
    summary = json.loads((out / "summary.json").read_text())
    assert spec in json.dumps(summary) and len(server.requests) > 0


def test_fcm_evaluate_stops_with_one_line_when_the_endpoint_fails(endpoint, tmp_path, capsys):
    from fcm_apps import cli

    server = endpoint(lambda request: 503)
    code = cli.main(["evaluate", "--lineup", f"llm:base_url={server.url},model=m,retries=0,heuristic",
                     "--games", "1", "--out", str(tmp_path / "eval"), "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2 and "fcm evaluate: error: llm: the request to" in err and "HTTP 503" in err


def test_fcm_evaluate_names_a_bad_llm_spec(capsys):
    from fcm_apps import cli

    lineup = "llm:base_url=http://127.0.0.1:9/v1,model=m,tempreature=0,heuristic"
    code = cli.main(["evaluate", "--lineup", lineup,
                     "--games", "1", "--no-progress"])
    assert code == 2 and "unknown parameter 'tempreature'" in capsys.readouterr().err


# ------------------------------------------------------------------ no hidden facts in the prompt


def _play_until(game: Game, stop: Callable[[Game], bool]) -> Game:
    agents = [HeuristicAgent(seed=p) for p in range(game.num_players)]
    while not stop(game):
        game.apply(agents[game.current_player].act_on_game(game, game.current_player))
    return game


def _twins(game: Game, a: Action, b: Action) -> tuple[Game, Game]:
    """Two copies of ``game``, one after ``a``, one after ``b``."""
    one, two = game.clone(), game.clone()
    one.apply(a)
    two.apply(b)
    return one, two


def _same_moves(one: Game, two: Game, rounds: int) -> Iterator[tuple[Game, Game]]:
    """Play the heuristic's moves in ``one`` and the same moves in ``two``; yields both at every decision."""
    agents = [HeuristicAgent(seed=p) for p in range(one.num_players)]
    while not one.is_over and one.state.round <= rounds:
        yield one, two
        move = agents[one.current_player].act_on_game(one, one.current_player)
        one.apply(move)
        two.apply(move)


@pytest.mark.parametrize("observation", ["text", "json"])
def test_the_prompt_does_not_show_the_other_players_reserve_card(observation):
    # rules: Setting goals (the kept reserve card is face down); C26 (First to have $20 may look)
    game = _play_until(Game.new(2, seed=0, max_rounds=8),
                       lambda g: g.pending.decision == Decision.RESERVE_CARD)
    first = game.current_player
    other = 1 - first
    low, high = _twins(game, Action.choose_reserve(0), Action.choose_reserve(2))
    asked = {first: 0, other: 0}
    for one, two in _same_moves(low, high, rounds=2):
        player = one.current_player
        may_look = Milestone.FIRST_HAVE_20 in one.state.players[other].milestones
        if player == other and (one.state.reserve_revealed or may_look):
            break
        if len(one.legal_actions()) < 2:  # the agent does not ask about a forced move
            continue
        asked[player] += 1
        mine, theirs = seat_prompt(one, player, observation), seat_prompt(two, player, observation)
        if player == other:
            assert mine == theirs
            if observation == "text":
                assert "reserve card: face down" in mine[0]
        else:
            assert mine[0] != theirs[0]  # the holder sees its own card
    assert asked[first] > 5 and asked[other] > 5


def test_the_prompt_does_not_show_the_other_players_face_down_restructuring():
    # rules: Phase 1 (cards are put to work face down)
    def asked_with_cards(g: Game) -> bool:
        p = g.pending
        return (p.decision == Decision.RESTRUCTURE and not g.state.structure_revealed
                and g.state.players[p.player].hand[1:].sum() > 0)

    game = _play_until(Game.new(2, seed=0, max_rounds=8), asked_with_cards)
    first = game.current_player
    other = 1 - first
    card = next(a for a in game.legal_actions() if a != Action.pass_())
    worked, passed = _twins(game, card, Action.pass_())
    for g in (worked, passed):  # the first player is done (the same way in both), the other one is asked
        while g.current_player == first:
            g.apply(Action.pass_())
    assert worked.pending.decision == passed.pending.decision == Decision.RESTRUCTURE
    assert worked.current_player == other
    assert seat_prompt(worked, other) == seat_prompt(passed, other)
    assert seat_prompt(worked, other, "json") == seat_prompt(passed, other, "json")

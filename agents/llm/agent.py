"""The LLM agent: one seat played by a language model behind an OpenAI-compatible chat endpoint.

Why through ``/v1/chat/completions``: OpenAI's API, vLLM, llama.cpp's server and Ollama all speak it,
so one client (``openai``, the ``llm`` extra) reaches a hosted model and a local one alike. Each
decision is one short conversation: the rules summary (the system message), the seat's view with
the numbered legal moves (``prompt.seat_prompt``), and the model's answer, asked again with what
was wrong when it names no listed move. After ``max_illegal`` bad replies the agent plays a
fallback move and counts it, so a weak model still finishes its games and the count says how weak.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from fcm_env.engine.actions import Action
from fcm_env.engine.game import Game

from ..heuristic import HeuristicAgent
from .config import LLMConfig
from .prompt import SYSTEM_PROMPT, ReplyError, parse_reply, retry_text, seat_prompt

#: HTTP statuses worth another try: timeout, conflict, rate limit (and every 5xx)
RETRY_STATUS = frozenset({408, 409, 429})
NO_KEY = "not-needed"  # local servers ignore the key, but the client wants one


class LLMError(ConnectionError):
    """The endpoint could not be used (after the retries): names the URL, the model and the last error.

    An ``OSError`` like other connection failures, so ``fcm evaluate`` prints it as one line."""


@dataclass
class LLMStats:
    """What the agent counted; ``LLMAgent.stats`` over its life, ``LLMAgent.game_stats`` since ``reset``."""

    decisions: int = 0  # moves the agent was asked for
    forced: int = 0  # of those, decisions with one legal move: played without asking the model
    requests: int = 0  # requests sent, each retry included
    replies: int = 0  # replies received
    unparsable: int = 0  # replies that named no number
    illegal: int = 0  # replies whose number is not a listed choice
    fallbacks: int = 0  # decisions settled by the fallback move (bad replies, or a failed request)
    request_errors: int = 0  # failed requests (connection errors, timeouts, HTTP errors), each try
    prompt_tokens: int = 0  # as the endpoint reports them (0 when it does not)
    completion_tokens: int = 0

    def add(self, **counts: int) -> None:
        for key, n in counts.items():
            setattr(self, key, getattr(self, key) + n)

    def to_dict(self) -> dict[str, int]:
        return asdict(self)


class LLMAgent:
    """Plays from the engine (``act_on_game``) by asking a chat model; see docs/llm.md."""

    def __init__(self, config: LLMConfig, seed: int | None = None, name: str | None = None,
                 api_key: str | None = None):
        try:
            import openai
        except ImportError:
            raise ImportError("the llm agent needs the openai client: "
                              "pip install 'fcm-magnate[llm]'") from None
        self.config = config
        self.name = name or f"llm:{config.model}"
        self._seed = seed
        if api_key is None:
            api_key = os.environ.get(config.api_key_env)
            if not api_key and config.api_key_env != LLMConfig.api_key_env:
                raise ValueError(f"llm: api_key_env={config.api_key_env}, "
                                 "but that environment variable is not set")
        self._openai = openai
        # the client's own retries are off: this agent retries, so that every failed try is counted
        self._client = openai.OpenAI(base_url=config.base_url, api_key=api_key or NO_KEY,
                                     timeout=config.timeout, max_retries=0)
        self.stats = LLMStats()
        self.game_stats = LLMStats()
        self._fallback_agent: HeuristicAgent | None = None

    # ------------------------------------------------------------------ the Agent protocol

    def reset(self) -> None:
        """A new game: the per-game counters start again (``stats`` keeps the totals)."""
        self.game_stats = LLMStats()
        if self._fallback_agent is not None:
            self._fallback_agent.reset()

    def act(self, observation: Any, action_mask: np.ndarray) -> int:
        raise TypeError("LLMAgent reads the engine state: call act_on_game(game, player) "
                        "(the tournament runner and the server do this for you)")

    def act_on_game(self, game: Game, player: int) -> Action:
        """Ask the model for ``player``'s move; a fallback move after ``max_illegal`` bad replies."""
        pending = game.pending
        if pending is None or pending.player != player:
            raise ValueError(f"player {player} is not the one to move")
        self._count(decisions=1)
        legal = game.legal_actions()
        if len(legal) == 1:
            self._count(forced=1)
            return legal[0]
        prompt, actions = seat_prompt(game, player, self.config.observation)
        messages = [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": prompt}]
        replies: list[str] = []
        errors: list[str] = []
        choice: int | None = None
        for _ in range(self.config.max_illegal):
            reply = self._ask(messages, errors)
            if reply is None:  # the request failed and on_error=fallback
                break
            replies.append(reply)
            try:
                choice = parse_reply(reply, len(actions))
            except ReplyError as exc:
                self._count(**{exc.kind: 1})
                errors.append(str(exc))
                messages += [{"role": "assistant", "content": reply},
                             {"role": "user", "content": retry_text(exc, len(actions))}]
                continue
            break
        if choice is None:
            self._count(fallbacks=1)
            action = self._fallback(game, player, actions)
        else:
            action = actions[choice - 1]
        self._log(game, player, messages, replies, errors, choice, action)
        return action

    # ------------------------------------------------------------------ talking to the endpoint

    def _ask(self, messages: list[dict[str, str]], errors: list[str]) -> str | None:
        """The model's reply text; None when every try failed and ``on_error`` is ``fallback``."""
        cfg = self.config
        request: dict[str, Any] = {"model": cfg.model, "messages": messages, "temperature": cfg.temperature}
        if cfg.max_tokens:
            request["max_tokens"] = cfg.max_tokens
        if self._seed is not None:
            request["seed"] = self._seed
        error = ""
        tries = 0
        for attempt in range(cfg.retries + 1):
            if attempt and cfg.backoff:
                time.sleep(cfg.backoff * 2 ** (attempt - 1))
            tries += 1
            self._count(requests=1)
            try:
                response = self._client.chat.completions.create(**request)
            except self._openai.APIStatusError as exc:
                error = f"HTTP {exc.status_code}: {_short(exc.message)}"
                retry = exc.status_code in RETRY_STATUS or exc.status_code >= 500
            except self._openai.APIConnectionError as exc:  # timeouts too
                error = f"{type(exc).__name__}: {_short(str(exc))}"
                retry = True
            except self._openai.OpenAIError as exc:  # a reply the client cannot read
                error = f"{type(exc).__name__}: {_short(str(exc))}"
                retry = False
            else:
                self._count(replies=1)
                usage = getattr(response, "usage", None)
                if usage is not None:
                    self._count(prompt_tokens=int(getattr(usage, "prompt_tokens", 0) or 0),
                                completion_tokens=int(getattr(usage, "completion_tokens", 0) or 0))
                choices = getattr(response, "choices", None) or []
                message = getattr(choices[0], "message", None) if choices else None
                return getattr(message, "content", None) or ""
            self._count(request_errors=1)
            errors.append(error)
            if not retry:
                break
        text = (f"llm: the request to {cfg.base_url} (model {cfg.model}) failed "
                f"after {tries} attempt(s): {error}")
        if cfg.on_error == "raise":
            raise LLMError(text)
        return None

    # ------------------------------------------------------------------ fallback, counters, log

    def _fallback(self, game: Game, player: int, actions: list[Action]) -> Action:
        """The heuristic's move (it reads only the seat's view), or the first legal action."""
        if self.config.fallback == "first":
            return actions[0]
        if self._fallback_agent is None:
            self._fallback_agent = HeuristicAgent(seed=self._seed, name="heuristic")
        return self._fallback_agent.act_on_game(game, player)

    def _count(self, **counts: int) -> None:
        self.stats.add(**counts)
        self.game_stats.add(**counts)

    def _log(self, game: Game, player: int, messages: list[dict[str, str]], replies: list[str],
             errors: list[str], choice: int | None, action: Action) -> None:
        if not self.config.log:
            return
        entry = {
            "agent": self.name, "seed": game.state.seed, "player": player, "round": game.state.round,
            "phase": game.phase.name,
            "decision": game.pending.decision.name, "messages": messages[1:],  # the system message is fixed
            "replies": replies, "errors": errors, "choice": choice, "fallback": choice is None,
            "action": str(action), "stats": self.game_stats.to_dict(),
        }
        with open(self.config.log, "a", encoding="utf-8") as out:
            out.write(json.dumps(entry) + "\n")


def _short(text: str, limit: int = 300) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."

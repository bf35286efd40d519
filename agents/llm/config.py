"""The LLM agent's parameters, and the ``llm:key=value,...`` spec that sets them.

A spec names the endpoint and the model, and only what else it changes:
``llm:base_url=http://127.0.0.1:8000/v1,model=NAME`` or ``...,temperature=0.7,max_illegal=5``.
An unknown key or a bad value raises ``ValueError`` naming the key, the value and what is allowed
(``parse_key_values`` of the search agent reads the text, so every spec kind reads alike). The API
key is never part of a spec: a spec is the agent's name, written into results and game records.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from ..search.config import parse_key_values

FALLBACKS = ("heuristic", "first")
ON_ERROR = ("raise", "fallback")
OBSERVATIONS = ("text", "json")
EXAMPLE = "llm:base_url=http://127.0.0.1:8000/v1,model=NAME"


@dataclass(frozen=True)
class LLMConfig:
    """How the agent talks to its endpoint and what it does with bad replies (docs/llm.md explains each)."""

    #: the OpenAI-compatible API root, e.g. http://127.0.0.1:8000/v1 (required)
    base_url: str = ""
    #: the model name the server knows (required)
    model: str = ""
    #: sampling temperature sent with every request
    temperature: float = 0.0
    #: extra tries of one request after a connection error, a timeout, HTTP 408 / 409 / 429 or 5xx
    retries: int = 2
    #: unreadable or illegal replies allowed in one decision; then the fallback move is played
    max_illegal: int = 3
    #: the environment variable that holds the API key (unset: a placeholder, as local servers need none)
    api_key_env: str = "OPENAI_API_KEY"
    #: seconds one request may take
    timeout: float = 120.0
    #: cap on the tokens of one reply (0: the server's default)
    max_tokens: int = 0
    #: the move played after ``max_illegal`` bad replies: the heuristic's choice or the first legal action
    fallback: str = "heuristic"
    #: when a request still fails after its retries: raise ``LLMError``, or play the fallback move (counted)
    on_error: str = "raise"
    #: the seat's view in the prompt: readable text, or the protocol's JSON view
    observation: str = "text"
    #: seconds before the first retry of a failed request; each later retry waits twice as long
    backoff: float = 1.0
    #: a file that gets one JSON line per decision (messages, replies, outcome); empty: no log
    log: str = ""

    def __post_init__(self) -> None:
        if not self.base_url:
            raise ValueError(f"llm: base_url is required, e.g. {EXAMPLE}")
        if not self.model:
            raise ValueError(f"llm: model is required (the name the server serves), e.g. {EXAMPLE}")
        checks = {
            "base_url": (self.base_url.startswith(("http://", "https://")), "an http:// or https:// URL"),
            "temperature": (0 <= self.temperature <= 2, "a number from 0 to 2"),
            "retries": (self.retries >= 0, "an integer >= 0"),
            "max_illegal": (self.max_illegal >= 1, "an integer >= 1"),
            "timeout": (self.timeout > 0, "a number > 0 (seconds)"),
            "max_tokens": (self.max_tokens >= 0, "an integer >= 0 (0: the server's default)"),
            "fallback": (self.fallback in FALLBACKS, f"one of {', '.join(FALLBACKS)}"),
            "on_error": (self.on_error in ON_ERROR, f"one of {', '.join(ON_ERROR)}"),
            "observation": (self.observation in OBSERVATIONS, f"one of {', '.join(OBSERVATIONS)}"),
            "backoff": (self.backoff >= 0, "a number >= 0 (seconds)"),
        }
        for key, (ok, allowed) in checks.items():
            if not ok:
                raise ValueError(f"llm: {key}={getattr(self, key)!r} is not allowed: {key} is {allowed}")


KEYS = tuple(f.name for f in fields(LLMConfig))


def parse_llm_params(text: str) -> LLMConfig:
    """``"base_url=...,model=NAME,temperature=0"`` -> an ``LLMConfig``; ``ValueError`` naming a bad key
    or value."""
    if not text.strip():
        raise ValueError(f"llm: needs at least base_url and model, e.g. {EXAMPLE}")
    keys = {item.partition("=")[0].strip() for item in text.split(",")}
    if "api_key" in keys:
        raise ValueError("llm: the API key is not a spec key (a spec is written into results and records); "
                         "put it in an environment variable and name that with api_key_env=NAME")
    return LLMConfig(**parse_key_values(text, LLMConfig, "llm"))

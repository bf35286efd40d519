"""An agent that plays through any OpenAI-compatible chat-completions endpoint (docs/llm.md).

``make_agent("llm:base_url=http://127.0.0.1:8000/v1,model=NAME")`` builds one (``parse_llm_params``
reads the keys); it reads the engine (``act_on_game``), prompts with the seat's view only and the
numbered legal moves, and counts its replies, bad replies, fallbacks and failed requests
(``LLMAgent.stats``). The ``openai`` client (the ``llm`` extra) is imported when an agent is built.
"""

from .agent import LLMAgent, LLMError, LLMStats
from .config import LLMConfig, parse_llm_params
from .prompt import SYSTEM_PROMPT, ReplyError, parse_reply, seat_prompt

__all__ = ["SYSTEM_PROMPT", "LLMAgent", "LLMConfig", "LLMError", "LLMStats", "ReplyError", "parse_llm_params",
           "parse_reply", "seat_prompt"]

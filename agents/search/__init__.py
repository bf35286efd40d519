"""Search agents: information-set MCTS over determinized worlds (docs/search.md).

``SearchAgent(config)`` plays from the engine (``act_on_game``); ``make_agent("search:iterations=400")``
builds one from a spec (``fcm_agents.search.config.parse_params`` reads the parameters).
"""

from .config import SearchConfig, parse_params
from .mcts import SearchAgent, SearchStats
from .value import score

__all__ = ["SearchAgent", "SearchConfig", "SearchStats", "parse_params", "score"]

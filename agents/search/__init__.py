"""Search agents: information-set MCTS over determinized worlds (docs/search.md).

``SearchAgent(config)`` plays from the engine (``act_on_game``); ``make_agent("search:iterations=400")``
builds one from a spec (``fcm_agents.search.config.parse_params`` reads the parameters).
``FlatSearchAgent`` (spec ``flat``) is flat Monte Carlo over determinized worlds: the yardstick.
"""

from .config import SearchConfig, parse_params
from .flat import FlatConfig, FlatSearchAgent, parse_flat_params
from .frame import SearchStats
from .mcts import SearchAgent
from .value import score

__all__ = ["FlatConfig", "FlatSearchAgent", "SearchAgent", "SearchConfig", "SearchStats", "parse_flat_params",
           "parse_params", "score"]

"""Search agents: information-set MCTS over determinized worlds (docs/search.md).

``SearchAgent(config)`` plays from the engine (``act_on_game``); ``make_agent("search:iterations=400")``
builds one from a spec (``fcm_agents.search.config.parse_params`` reads the parameters) with
``search_agent``: on the native core (``NativeSearchAgent``, ``engine=native``) where it is built.
``FlatSearchAgent`` (spec ``flat``) is flat Monte Carlo over determinized worlds: the yardstick.
"""

from .config import SearchConfig, parse_params
from .flat import FlatConfig, FlatSearchAgent, parse_flat_params
from .frame import SearchStats
from .mcts import SearchAgent
from .value import score


def search_agent(config: SearchConfig | None = None, seed: int | None = None, name: str = "search") -> SearchAgent:
    """The search agent ``config.engine`` asks for: ``NativeSearchAgent`` (engine native, or auto where the
    native players are built), else ``SearchAgent``; engine native without them is a clear error."""
    config = config or SearchConfig()
    if config.engine != "python":
        try:
            from .native_search import NativeSearchAgent
        except ImportError as exc:
            if config.engine == "native":
                raise ValueError(f"search: engine=native needs the native players, which this install lacks ({exc})") \
                    from None
        else:
            return NativeSearchAgent(config, seed=seed, name=name)
    return SearchAgent(config, seed=seed, name=name)


__all__ = ["FlatConfig", "FlatSearchAgent", "SearchAgent", "SearchConfig", "SearchStats", "parse_flat_params",
           "parse_params", "score", "search_agent"]

"""The strategist family: bots that play a whole plan, read the map and forecast their Dinnertime.

``StrategistAgent(archetype=NAME)`` plays one of six archetypes (``ARCHETYPES``: marketing, drinks,
discount, luxury, expansion, cfo); ``StrategistAgent()`` (spec ``strategist``) picks one per map and table
from its map reading. Specs: ``strategist``, ``strategist:archetype=NAME,seed=S`` (docs/strategist.md).

The modules, one job each:

- ``archetypes``: the six plans as tables (reserve card, hiring, play order, training, campaigns, products);
- ``reading``: the map reading of one seat, and the default's choice of archetype from it;
- ``forecast``: the shadow Dinnertime, the engine's own Dinnertime run on a what-if copy of the seat's view;
- ``agent``: ``StrategistAgent``, the heuristic's answers played from an archetype with those reads.
"""

from .agent import StrategistAgent
from .archetypes import ARCHETYPES, Archetype, parse_strategist_params
from .forecast import Forecast, shadow_dinnertime
from .reading import MapReading, choose_archetype, read_map

__all__ = [
           "ARCHETYPES",
           "Archetype",
           "Forecast",
           "MapReading",
           "StrategistAgent",
           "choose_archetype",
           "parse_strategist_params",
           "read_map",
           "shadow_dinnertime",
]

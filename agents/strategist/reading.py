"""The strategist's map reading: what the map offers one seat, and which archetype suits it.

Read from the seat's own restaurants (their entrances; the first restaurant is placed before the
reserve card, where the archetype is chosen): the houses it reaches and how near, the ones another
chain reaches first, the drink sources in a hauler's range, and the room for gardens and more
restaurants. The default strategist (``strategist`` with no archetype) picks its plan from this and the
number of players at the table.
"""

from __future__ import annotations

from dataclasses import dataclass

from fcm_env.engine.board import UNREACHABLE, occupancy
from fcm_env.engine.state import GameState

from ..heuristic.layout import reach

#: road range of the first haulers (an errand boy fetches one drink from range 0; a cart operator reaches 2)
HAUL_RANGE = 2
#: a house this near (road range) is "near": one the chain can sell to without a drive-in
NEAR = 2


@dataclass(frozen=True)
class MapReading:
    """What the map offers ``player`` now (all counts, all public facts)."""

    near_houses: int  # houses within ``NEAR`` of its entrances
    reached_houses: int  # houses it reaches at all
    contested: int  # houses it reaches that another chain reaches as near or nearer
    drink_sources: tuple[int, ...]  # the goods of the drink squares within ``HAUL_RANGE``
    gardens_possible: int  # reached houses without a garden yet (luxury's doubles)
    num_players: int


def read_map(state: GameState, player: int) -> MapReading:
    """The reading of ``state`` (a seat's view) for ``player``."""
    mine, reached = reach(state, player)
    others = [reach(state, q)[0] for q in range(state.num_players) if q != player]
    contested = sum(1 for n in reached if any(o[n] <= mine[n] for o in others))
    entrances = occupancy.entrances_of(state, player)
    drinks: tuple[int, ...] = ()
    if entrances:
        ranges = state.board.ranges_from(entrances)
        drinks = tuple(sorted(good for (r, c), good in state.board.drink_sources if ranges[r, c] <= HAUL_RANGE))
    return MapReading(
        near_houses=sum(1 for n in reached if mine[n] <= NEAR),
        reached_houses=len(reached),
        contested=contested,
        drink_sources=drinks,
        gardens_possible=sum(1 for n in reached if not state.houses[n].has_garden and mine[n] < UNREACHABLE),
        num_players=state.num_players,
    )


def choose_archetype(reading: MapReading) -> str:
    """The default strategist's plan for this map and table (the archetypes measured strongest against the
    heuristic, docs/strategist.md):

    * most of the houses it reaches contested by another chain: the price war, which wins them (R33);
    * otherwise the CFO racer, which takes half again on every sale where nobody contests them.
    """
    if reading.reached_houses and reading.contested * 2 >= reading.reached_houses:
        return "discount"
    return "cfo"

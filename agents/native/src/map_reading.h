// The strategist's map reading (fcm_agents.strategist.reading): what the map offers one seat (the houses it
// reaches and how near, those another chain reaches as near or nearer, the drink sources a hauler reaches),
// and the plan the default strategist picks from it.
#pragma once

#include <vector>

#include "state.h"

namespace fcm::players {

struct MapReading {
  int near_houses = 0, reached_houses = 0, contested = 0;
  std::vector<int> drink_sources;  // goods of the drink squares within the haul range, sorted
};

// the reading of ``s`` for ``player``; ``near`` and ``haul_range`` are reading.NEAR and HAUL_RANGE
MapReading read_map(const GameState& s, int player, int near, int haul_range);

}  // namespace fcm::players

// read_map (map_reading.h).
#include "map_reading.h"

#include <algorithm>

#include "board.h"
#include "cards.h"
#include "map_reads.h"
#include "occupancy.h"

namespace fcm::players {

MapReading read_map(const GameState& s, int player, int near, int haul_range) {
  MapReads reads(s);
  const std::vector<int32_t> mine = reads.distances(player);
  MapReading out;
  for (int i : reads.reached(player)) {
    ++out.reached_houses;
    out.near_houses += mine[at(i)] <= near;
    for (int q = 0; q < s.num_players; ++q) {
      if (q != player && reads.distances(q)[at(i)] <= mine[at(i)]) {
        ++out.contested;
        break;
      }
    }
  }
  const std::vector<Square> entrances = entrances_of(s, player);
  if (!entrances.empty()) {
    const std::vector<int32_t> ranges = ranges_grid(s, entrances);
    const auto& drink = s.board->drink();
    for (std::size_t i = 0; i < drink.size(); ++i) {
      if (drink[i] >= 0 && ranges[i] <= haul_range) out.drink_sources.push_back(drink[i]);
    }
    std::sort(out.drink_sources.begin(), out.drink_sources.end());
  }
  return out;
}

}  // namespace fcm::players

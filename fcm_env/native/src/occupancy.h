// What covers the map, derived from the state (never stored, so never stale): fcm_env.engine.board.
// occupancy's twin. Grids are row-major H x W vectors of the state's board.
#pragma once

#include <cstdint>
#include <vector>

#include "state.h"

namespace fcm {

// the entrance corner offsets in orientation order NW, NE, SE, SW (placement.RESTAURANT_ENTRANCE_OFFSETS)
constexpr std::array<std::array<int, 2>, 4> kRestaurantEntranceOffsets{{{0, 0}, {0, 1}, {1, 1}, {1, 0}}};

// squares the printed map covers (roads, bridges, houses, drinks): placement.static_occupied
std::vector<uint8_t> static_occupied(const Board& board);
// squares no new piece may cover: the printed map, houses and gardens, restaurants, campaign squares
std::vector<uint8_t> occupied(const GameState& s);
// house number on every house and garden square, 0 elsewhere
std::vector<int16_t> house_grid(const GameState& s);
// C11, R13: a local or regional manager at work gives every restaurant four entrances
bool has_drive_in(const GameState& s, int player);
// the printed entrance, or all four corners with a drive-in
std::vector<Square> entrance_squares(const Restaurant& r, bool drive_in);
// every entrance square of the player's restaurants, sorted, no repeats; open_only leaves out "coming soon"
std::vector<Square> entrances_of(const GameState& s, int player, bool open_only = true);
// the 2x2 squares of a restaurant, row by row
std::vector<Square> restaurant_squares(const Restaurant& r);
// the house with that number (throws for an unknown number)
const House& house_by_number(const GameState& s, int number);
House& house_by_number(GameState& s, int number);

}  // namespace fcm

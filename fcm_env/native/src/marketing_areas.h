// The map areas a running campaign reaches, as free functions over a Board: the twins of Board.block_at,
// houses_in_block, houses_near_tile, houses_next_to, houses_under_airplane (fcm_env/engine/board/geometry.py)
// and placement.airplane_from_anchor. ``grid`` is occupancy's house_grid (house numbers on house and garden
// squares, 0 elsewhere); every query returns house numbers ascending, without repeats.
// rules: Phase 6; Billboard, Mailbox (R45), Airplane (C15), Radio (R46) campaigns.
#pragma once

#include <cstdint>
#include <vector>

#include "board.h"

namespace fcm::marketing_areas {

// an airplane against one map edge (Direction N 0, E 1, S 2, W 3), flying over ``size`` full columns (N, S)
// or rows (E, W) from ``start`` (geometry.AirplaneLane)
struct AirplaneLane {
  int edge, start, size;
};
// placement.airplane_from_anchor: the lane of a plane anchored at (row, col) on its edge; throws
// std::invalid_argument as Python raises ValueError (bad orientation or size, anchor off the map or off
// its edge, a lane past the map corner)
AirplaneLane airplane_from_anchor(int row, int col, int orientation, int size, const Board& b);

// the mailbox block of a square, -1 on a road square (throws for an off-map square)
int block_at(const Board& b, int row, int col);

std::vector<int> houses_in_block(const Board& b, int block, const std::vector<int16_t>& grid);
// within the radio's tile and the up to 8 tiles around it (R46)
std::vector<int> houses_near_tile(const Board& b, int tile, const std::vector<int16_t>& grid);
// orthogonally next to the rows x cols rectangle anchored at (row, col), not on it (a billboard's reach)
std::vector<int> houses_next_to(const Board& b, int row, int col, int rows, int cols, const std::vector<int16_t>& grid);
std::vector<int> houses_under_airplane(const Board& b, const AirplaneLane& lane, const std::vector<int16_t>& grid);

}  // namespace fcm::marketing_areas

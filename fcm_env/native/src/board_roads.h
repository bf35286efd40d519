// The road and tile queries of the production and dinnertime phases, as free functions over a Board's fixed
// tables: the twins of Board.distance, segment_ranges_from, node_neighbors, tile_neighbors and
// radio_tiles in fcm_env/engine/board/geometry.py, computed from the same tables in the same way.
// rules: Concepts, Range; C9, C10, C19, R30, R46, R49.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "board.h"

namespace fcm::roads {

// fcm_env.data.Direction: N, E, S, W and their (row, col) steps
enum Direction : int { kNorth = 0, kEast = 1, kSouth = 2, kWest = 3 };
constexpr std::array<std::array<int, 2>, 4> kDeltas{{{-1, 0}, {0, 1}, {1, 0}, {0, -1}}};
// the road axis a step travels along (the two nodes of a bridge square, R49): 0 north-south, 1 east-west
inline int axis_of(int direction) { return direction == kNorth || direction == kSouth ? 0 : 1; }

inline bool in_bounds(const Board& b, int row, int col) {
  return row >= 0 && row < b.height() && col >= 0 && col < b.width();
}
// the row-major index of an in-bounds square; throws std::invalid_argument naming an off-map one
int flat_index(const Board& b, const Square& sq);

// range from the nearest of ``squares`` to every road segment (UNREACHABLE where none connects)
std::vector<int32_t> segment_ranges_from(const Board& b, const std::vector<Square>& squares);
// Board.distance: range by road between the nearest squares of two footprints, or kUnreachable (C10)
int distance(const Board& b, const std::vector<Square>& from, const std::vector<Square>& to);

// Board.node_neighbors: each road node's (direction, neighbour node) links, sorted as Python sorts them
using NodeLinks = std::vector<std::vector<std::array<int, 2>>>;
NodeLinks node_neighbors(const Board& b);

// tiles: index tile_row * tile_cols + tile_col
int tile_at(const Board& b, int row, int col);  // throws for an off-map square
std::vector<int> tile_neighbors(const Board& b, int tile);  // orthogonal, in N, E, S, W order (C19)
std::vector<int> radio_tiles(const Board& b, int tile);    // the tile and the up to 8 around it (R46)

}  // namespace fcm::roads

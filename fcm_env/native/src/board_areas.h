// Range queries over the fixed road tables of a Board, as free functions: the twins of the Board methods of
// fcm_env/engine/board/geometry.py that the setup, expansion and marketing-launch phases ask (range from a
// set of squares to every segment, square and tile). Range is tile borders crossed by road (rules:
// Concepts, Range; C9); a square reaches the road next to it at cost 0, or 1 onto another tile (R30).
#pragma once

#include <cstdint>
#include <vector>

#include "board.h"

namespace fcm {

// a square of the map? / its index in the row-major layers; the index throws std::invalid_argument naming
// ``what`` for a square off the map (squares come from the state, which may be malformed)
bool in_bounds(const Board& board, const Square& sq);
std::size_t square_index(const Board& board, const Square& sq, const char* what);
int tile_at(const Board& board, const Square& sq);  // Board.tile_at (throws off the map)

// Board.segment_ranges_from: range from the nearest of ``squares`` to every road segment
std::vector<int32_t> segment_ranges_from(const Board& board, const std::vector<Square>& squares);
// Board.ranges_from: range by road from the nearest of ``squares`` to every square (H x W, row-major);
// kUnreachable for a square with no road next to it
std::vector<int32_t> ranges_from(const Board& board, const std::vector<Square>& squares);
// Board.squares_within: the H x W mask of squares within ``max_range`` by road
std::vector<uint8_t> squares_within(const Board& board, const std::vector<Square>& squares, int max_range);
// Board.tile_ranges_from: range to the nearest road square of each tile (tile_rows x tile_cols, row-major)
std::vector<int32_t> tile_ranges_from(const Board& board, const std::vector<Square>& squares);

}  // namespace fcm

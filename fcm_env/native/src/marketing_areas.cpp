// The areas campaigns reach (marketing_areas.h), as geometry.py's masks select them.
#include "marketing_areas.h"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>

#include "board_roads.h"

namespace fcm::marketing_areas {

namespace {

const char* const kEdgeNames[4] = {"N", "E", "S", "W"};

std::string square_text(int row, int col) { return "(" + std::to_string(row) + ", " + std::to_string(col) + ")"; }

// House numbers on the squares of a mask (Board.houses_in), ascending without repeats. ``rects`` are
// numpy slices [r0, r1) x [c0, c1) with r0, c0 >= 0: clamped at the far edge as numpy clamps them.
class Mask {
 public:
  explicit Mask(const Board& b) : b_(b), on_(static_cast<std::size_t>(b.height() * b.width()), 0) {}
  void rect(int r0, int r1, int c0, int c1, uint8_t value) {
    for (int r = r0; r < std::min(r1, b_.height()); ++r) {
      for (int c = c0; c < std::min(c1, b_.width()); ++c) on_[static_cast<std::size_t>(r * b_.width() + c)] = value;
    }
  }
  void set(std::size_t i) { on_[i] = 1; }
  std::vector<int> houses(const std::vector<int16_t>& grid) const {
    if (grid.size() != on_.size()) throw std::invalid_argument("the house grid does not match the map");
    std::set<int> found;
    for (std::size_t i = 0; i < on_.size(); ++i) {
      if (on_[i] && grid[i] > 0) found.insert(grid[i]);
    }
    return {found.begin(), found.end()};
  }

 private:
  const Board& b_;
  std::vector<uint8_t> on_;
};

}  // namespace

AirplaneLane airplane_from_anchor(int row, int col, int orientation, int size, const Board& b) {
  if (orientation < 0 || orientation >= 4) {
    throw std::invalid_argument("airplane orientation must be an integer 0..3, got " + std::to_string(orientation));
  }
  if (size < 1) throw std::invalid_argument("airplane size must be positive, got " + std::to_string(size));
  const int H = b.height(), W = b.width();
  if (!roads::in_bounds(b, row, col)) {
    throw std::invalid_argument("airplane anchor " + square_text(row, col) + " is outside the " + std::to_string(H) +
                                "x" + std::to_string(W) + " map");
  }
  bool on_edge = false;
  int start = 0;
  switch (orientation) {
    case roads::kNorth: on_edge = row == 0; start = col; break;
    case roads::kEast: on_edge = col == W - 1; start = row; break;
    case roads::kSouth: on_edge = row == H - 1; start = col; break;
    default: on_edge = col == 0; start = row; break;
  }
  if (!on_edge) {
    throw std::invalid_argument("airplane anchor " + square_text(row, col) + " is not on the " +
                                kEdgeNames[orientation] + " edge of the map");
  }
  const int edge_length = orientation == roads::kNorth || orientation == roads::kSouth ? W : H;
  if (start + size > edge_length) {
    throw std::invalid_argument("airplane AirplaneLane(edge=<Direction." + std::string(kEdgeNames[orientation]) + ": " +
                                std::to_string(orientation) + ">, start=" + std::to_string(start) +
                                ", size=" + std::to_string(size) + ") would fly past the map corner");
  }
  return {orientation, start, size};
}

int block_at(const Board& b, int row, int col) {
  return b.block()[static_cast<std::size_t>(roads::flat_index(b, {row, col}))];
}

std::vector<int> houses_in_block(const Board& b, int block, const std::vector<int16_t>& grid) {
  Mask mask(b);  // R45: the block's squares, bounded by roads and the map edge
  for (std::size_t i = 0; i < b.block().size(); ++i) {
    if (b.block()[i] == block) mask.set(i);
  }
  return mask.houses(grid);
}

std::vector<int> houses_near_tile(const Board& b, int tile, const std::vector<int16_t>& grid) {
  const int tr = tile / b.tile_cols(), tc = tile % b.tile_cols();
  Mask mask(b);  // R46: the 3 x 3 tiles around the radio's, cut at the map edge
  mask.rect(std::max(tr - 1, 0) * kTileSize, std::min(tr + 2, b.tile_rows()) * kTileSize,
            std::max(tc - 1, 0) * kTileSize, std::min(tc + 2, b.tile_cols()) * kTileSize, 1);
  return mask.houses(grid);
}

std::vector<int> houses_next_to(const Board& b, int row, int col, int rows, int cols, const std::vector<int16_t>& grid) {
  if (row < 0 || col < 0) throw std::invalid_argument("a billboard anchor off the map: " + square_text(row, col));
  const int r1 = row + rows, c1 = col + cols;
  Mask mask(b);  // orthogonal neighbours only, no diagonals
  mask.rect(std::max(row - 1, 0), r1 + 1, col, c1, 1);
  mask.rect(row, r1, std::max(col - 1, 0), c1 + 1, 1);
  mask.rect(row, r1, col, c1, 0);
  return mask.houses(grid);
}

std::vector<int> houses_under_airplane(const Board& b, const AirplaneLane& lane, const std::vector<int16_t>& grid) {
  if (lane.start < 0) throw std::invalid_argument("an airplane lane starts off the map");
  Mask mask(b);  // C15: full columns (N, S edge) or full rows (E, W edge)
  if (lane.edge == roads::kNorth || lane.edge == roads::kSouth) {
    mask.rect(0, b.height(), lane.start, lane.start + lane.size, 1);
  } else {
    mask.rect(lane.start, lane.start + lane.size, 0, b.width(), 1);
  }
  return mask.houses(grid);
}

}  // namespace fcm::marketing_areas

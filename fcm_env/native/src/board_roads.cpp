// Road and tile queries over a Board's tables (board_roads.h), the way geometry.py computes them.
#include "board_roads.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace fcm::roads {

int flat_index(const Board& b, const Square& sq) {
  if (!in_bounds(b, sq[0], sq[1])) {
    throw std::invalid_argument("square (" + std::to_string(sq[0]) + ", " + std::to_string(sq[1]) +
                                ") is off the " + std::to_string(b.height()) + " x " + std::to_string(b.width()) +
                                " map");
  }
  return sq[0] * b.width() + sq[1];
}

std::vector<int32_t> segment_ranges_from(const Board& b, const std::vector<Square>& squares) {
  const std::size_t S = static_cast<std::size_t>(b.num_segments());
  std::vector<int32_t> out(S, kUnreachable);
  const auto& ssd = b.square_segment_distance();  // already capped at kUnreachable
  for (const Square& sq : squares) {
    const std::size_t row = static_cast<std::size_t>(flat_index(b, sq)) * S;
    for (std::size_t s = 0; s < S; ++s) out[s] = std::min(out[s], ssd[row + s]);
  }
  return out;
}

int distance(const Board& b, const std::vector<Square>& from, const std::vector<Square>& to) {
  const std::vector<int32_t> src = segment_ranges_from(b, from);
  const std::size_t S = static_cast<std::size_t>(b.num_segments());
  if (to.empty() || S == 0) {
    for (const Square& sq : to) flat_index(b, sq);  // an off-map square still raises, as numpy would
    return kUnreachable;
  }
  // each square of ``to`` reaches a segment at its access cost (+1 onto another tile, R30)
  int64_t best = INT64_MAX;
  const auto& access = b.access();
  for (const Square& sq : to) {
    const std::size_t row = static_cast<std::size_t>(flat_index(b, sq)) * S;
    for (std::size_t s = 0; s < S; ++s) best = std::min<int64_t>(best, int64_t{access[row + s]} + src[s]);
  }
  return static_cast<int>(std::min<int64_t>(best, kUnreachable));
}

NodeLinks node_neighbors(const Board& b) {
  const int H = b.height(), W = b.width();
  const auto& road = b.road_mask();
  const auto& node_of = b.node_of();
  NodeLinks links(static_cast<std::size_t>(b.num_nodes()));
  for (int r = 0; r < H; ++r) {
    for (int c = 0; c < W; ++c) {
      if (!road[static_cast<std::size_t>(r * W + c)]) continue;
      for (int d : {kEast, kSouth}) {  // each link once, from its west or north end (C31: across tiles too)
        const int rr = r + kDeltas[static_cast<std::size_t>(d)][0], cc = c + kDeltas[static_cast<std::size_t>(d)][1];
        if (rr >= H || cc >= W || !road[static_cast<std::size_t>(rr * W + cc)]) continue;
        const std::size_t axis = static_cast<std::size_t>(axis_of(d));
        const int a = node_of[static_cast<std::size_t>(r * W + c)][axis];
        const int n = node_of[static_cast<std::size_t>(rr * W + cc)][axis];
        links[static_cast<std::size_t>(a)].push_back({d, n});
        links[static_cast<std::size_t>(n)].push_back({(d + 2) % 4, a});
      }
    }
  }
  for (auto& l : links) std::sort(l.begin(), l.end());
  return links;
}

int tile_at(const Board& b, int row, int col) {
  return b.tile()[static_cast<std::size_t>(flat_index(b, {row, col}))];
}

std::vector<int> tile_neighbors(const Board& b, int tile) {
  const int tr = tile / b.tile_cols(), tc = tile % b.tile_cols();
  std::vector<int> out;
  for (const auto& [dr, dc] : kDeltas) {
    const int r = tr + dr, c = tc + dc;
    if (r >= 0 && r < b.tile_rows() && c >= 0 && c < b.tile_cols()) out.push_back(r * b.tile_cols() + c);
  }
  return out;
}

std::vector<int> radio_tiles(const Board& b, int tile) {
  const int tr = tile / b.tile_cols(), tc = tile % b.tile_cols();
  std::vector<int> out;
  for (int r = std::max(tr - 1, 0); r < std::min(tr + 2, b.tile_rows()); ++r) {
    for (int c = std::max(tc - 1, 0); c < std::min(tc + 2, b.tile_cols()); ++c) out.push_back(r * b.tile_cols() + c);
  }
  return out;
}

}  // namespace fcm::roads

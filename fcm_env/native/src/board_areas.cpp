// Range queries over a Board's tables (board_areas.h), computed as geometry.Board computes them.
#include "board_areas.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace fcm {

bool in_bounds(const Board& board, const Square& sq) {
  return sq[0] >= 0 && sq[0] < board.height() && sq[1] >= 0 && sq[1] < board.width();
}

std::size_t square_index(const Board& board, const Square& sq, const char* what) {
  if (!in_bounds(board, sq)) {
    throw std::invalid_argument(std::string(what) + " (" + std::to_string(sq[0]) + ", " + std::to_string(sq[1]) +
                                ") is outside the " + std::to_string(board.height()) + "x" +
                                std::to_string(board.width()) + " map");
  }
  return static_cast<std::size_t>(sq[0]) * static_cast<std::size_t>(board.width()) + static_cast<std::size_t>(sq[1]);
}

int tile_at(const Board& board, const Square& sq) { return board.tile()[square_index(board, sq, "square")]; }

std::vector<int32_t> segment_ranges_from(const Board& board, const std::vector<Square>& squares) {
  const auto S = static_cast<std::size_t>(board.num_segments());
  std::vector<int32_t> best(S, kUnreachable);
  const auto& table = board.square_segment_distance();
  for (const Square& sq : squares) {
    const std::size_t row = square_index(board, sq, "square") * S;
    for (std::size_t s = 0; s < S; ++s) best[s] = std::min(best[s], table[row + s]);
  }
  return best;
}

namespace {
// squares_within by the full table (a range as wide as "unreachable" itself: every square qualifies)
std::vector<uint8_t> ranges_mask(const Board& board, const std::vector<Square>& squares, int max_range) {
  const std::vector<int32_t> ranges = ranges_from(board, squares);
  std::vector<uint8_t> mask(ranges.size());
  for (std::size_t i = 0; i < ranges.size(); ++i) mask[i] = ranges[i] <= max_range;
  return mask;
}
}  // namespace

std::vector<int32_t> ranges_from(const Board& board, const std::vector<Square>& squares) {
  const std::size_t n = board.kind().size();
  const auto S = static_cast<std::size_t>(board.num_segments());
  const std::vector<int32_t> src = segment_ranges_from(board, squares);
  std::vector<int32_t> out(n, kUnreachable);
  // each square's best segment next to it (cost + range), walked from the segments' side: a segment out of
  // reach gives nothing (its sum would only clamp to unreachable), and each has few squares next to it
  const auto& next_to = board.segment_access();
  for (std::size_t s = 0; s < S; ++s) {
    if (src[s] >= kUnreachable) continue;
    for (const auto& [at, cost] : next_to[s]) {
      out[static_cast<std::size_t>(at)] = std::min(out[static_cast<std::size_t>(at)], std::min(cost + src[s], kUnreachable));
    }
  }
  return out;
}

std::vector<uint8_t> squares_within(const Board& board, const std::vector<Square>& squares, int max_range) {
  // ranges_from(...) <= max_range, through the segments within max_range and the squares next to each
  // (access costs are >= 0): the marketeers' and managers' reach is asked at every turn, and few segments
  // are that near
  if (max_range >= kUnreachable) return ranges_mask(board, squares, max_range);
  const std::size_t n = board.kind().size();
  const auto S = static_cast<std::size_t>(board.num_segments());
  std::vector<uint8_t> mask(n, 0);
  if (squares.empty()) return mask;
  const auto& table = board.square_segment_distance();
  std::size_t rows[8];
  const bool few = squares.size() <= 8;
  if (few) {
    for (std::size_t i = 0; i < squares.size(); ++i) rows[i] = square_index(board, squares[i], "square") * S;
  }
  const std::vector<int32_t> many = few ? std::vector<int32_t>{} : segment_ranges_from(board, squares);
  const auto& segment_access = board.segment_access();
  for (std::size_t s = 0; s < S; ++s) {
    int32_t src = kUnreachable;
    if (few) {
      for (std::size_t i = 0; i < squares.size(); ++i) src = std::min(src, table[rows[i] + s]);
    } else {
      src = many[s];
    }
    if (src > max_range) continue;
    const int32_t budget = max_range - src;
    for (const auto& [at, cost] : segment_access[s]) {
      if (cost <= budget) mask[static_cast<std::size_t>(at)] = 1;
    }
  }
  return mask;
}

std::vector<int32_t> tile_ranges_from(const Board& board, const std::vector<Square>& squares) {
  const std::vector<int32_t> src = segment_ranges_from(board, squares);
  std::vector<int32_t> best(static_cast<std::size_t>(board.tile_rows() * board.tile_cols()), kUnreachable);
  const auto& segment_tile = board.segment_tile();
  for (std::size_t s = 0; s < src.size(); ++s) {
    int32_t& slot = best[static_cast<std::size_t>(segment_tile[s])];
    slot = std::min(slot, src[s]);
  }
  return best;
}

}  // namespace fcm

// What covers the map (occupancy.h).
#include "occupancy.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "rules_data.h"

namespace fcm {

std::vector<uint8_t> static_occupied(const Board& board) { return board.printed_occupied(); }

std::vector<uint8_t> occupied(const GameState& s) {
  const Board& b = *s.board;
  std::vector<uint8_t> grid = static_occupied(b);
  const int W = b.width(), H = b.height();
  auto mark = [&](const Square& sq) {  // a piece off the map comes only from a hand-made state: refuse it
    if (sq[0] < 0 || sq[1] < 0 || sq[0] >= H || sq[1] >= W) {
      throw std::invalid_argument("a piece covers (" + std::to_string(sq[0]) + ", " + std::to_string(sq[1]) +
                                  "), outside the " + std::to_string(H) + "x" + std::to_string(W) + " map");
    }
    grid[static_cast<std::size_t>(sq[0] * W + sq[1])] = 1;
  };
  for (const auto& h : s.houses) {
    for (const auto& sq : h.squares) mark(sq);
    for (const auto& sq : h.garden) mark(sq);
  }
  for (const auto& p : s.players) {
    for (const auto& r : p.restaurants) {
      for (const auto& sq : restaurant_squares(r)) mark(sq);
    }
  }
  for (const auto& c : s.campaigns) {
    for (const auto& sq : c.squares) mark(sq);
  }
  return grid;
}

std::vector<int16_t> house_grid(const GameState& s) {
  const Board& b = *s.board;
  std::vector<int16_t> grid(static_cast<std::size_t>(b.height() * b.width()), 0);
  auto put = [&](const Square& sq, int number) {
    if (sq[0] < 0 || sq[1] < 0 || sq[0] >= b.height() || sq[1] >= b.width()) {
      throw std::invalid_argument("house " + std::to_string(number) + " covers a square outside the map");
    }
    grid[static_cast<std::size_t>(sq[0] * b.width() + sq[1])] = static_cast<int16_t>(number);
  };
  for (const auto& h : s.houses) {
    for (const auto& sq : h.squares) put(sq, h.number);
    for (const auto& sq : h.garden) put(sq, h.number);
  }
  return grid;
}

bool has_drive_in(const GameState& s, int player) {
  const auto& work = s.players[static_cast<std::size_t>(player)].work;
  return work[kLocalManager] || work[kRegionalManager];
}

std::vector<Square> entrance_squares(const Restaurant& r, bool drive_in) {
  if (r.orientation < 0 || r.orientation > 3) {
    throw std::invalid_argument("restaurant orientation must be 0..3, got " + std::to_string(r.orientation));
  }
  if (drive_in) {
    std::vector<Square> out;
    for (const auto& [dr, dc] : kRestaurantEntranceOffsets) out.push_back({r.row + dr, r.col + dc});
    return out;
  }
  const auto& [dr, dc] = kRestaurantEntranceOffsets[static_cast<std::size_t>(r.orientation)];
  return {{r.row + dr, r.col + dc}};
}

std::vector<Square> entrances_of(const GameState& s, int player, bool open_only) {
  const PlayerState& p = s.players[static_cast<std::size_t>(player)];
  std::vector<Square> out;
  if (p.restaurants.empty()) return out;
  const bool drive_in = has_drive_in(s, player);
  for (const auto& r : p.restaurants) {
    if (open_only && r.coming_soon) continue;
    for (const auto& sq : entrance_squares(r, drive_in)) out.push_back(sq);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<Square> restaurant_squares(const Restaurant& r) {
  return {{r.row, r.col}, {r.row, r.col + 1}, {r.row + 1, r.col}, {r.row + 1, r.col + 1}};
}

const House& house_by_number(const GameState& s, int number) {
  for (const auto& h : s.houses) {
    if (h.number == number) return h;
  }
  throw std::invalid_argument("no house number " + std::to_string(number));
}

House& house_by_number(GameState& s, int number) {
  return const_cast<House&>(house_by_number(static_cast<const GameState&>(s), number));
}

}  // namespace fcm

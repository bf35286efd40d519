// The heuristic's map reads (map_reads.h).
#include "map_reads.h"

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>

#include "board_areas.h"
#include "cards.h"
#include "marketing_areas.h"
#include "occupancy.h"

namespace fcm::players {

namespace {

// the range grid from one square and how many squares lie within range 2 of it
struct SquareRanges {
  std::vector<int32_t> grid;
  int64_t near = 0;
  bool ready = false;
};
struct BoardRanges {
  std::weak_ptr<const Board> board;
  std::vector<SquareRanges> squares;
};
constexpr std::size_t kBoardsKept = 4;
thread_local std::array<BoardRanges, kBoardsKept> t_boards;
thread_local std::size_t t_next = 0;

const SquareRanges& square_ranges(const std::shared_ptr<const Board>& board, const Square& sq) {
  const int H = board->height(), W = board->width();
  if (sq[0] < 0 || sq[0] >= H || sq[1] < 0 || sq[1] >= W) {
    throw std::invalid_argument("square (" + std::to_string(sq[0]) + ", " + std::to_string(sq[1]) + ") is off the map");
  }
  BoardRanges* found = nullptr;
  for (BoardRanges& kept : t_boards) {  // the same board object, still alive (not an address reused)
    if (!kept.board.expired() && !kept.board.owner_before(board) && !board.owner_before(kept.board)) found = &kept;
  }
  if (found == nullptr) {
    found = &t_boards[t_next++ % kBoardsKept];
    found->board = board;
    found->squares.assign(static_cast<std::size_t>(H * W), SquareRanges{});
  }
  SquareRanges& r = found->squares[static_cast<std::size_t>(sq[0] * W + sq[1])];
  if (!r.ready) {
    r.grid = ranges_from(*board, {sq});
    r.near = std::count_if(r.grid.begin(), r.grid.end(), [](int32_t x) { return x < 3; });
    r.ready = true;
  }
  return r;
}

}  // namespace

std::vector<int32_t> ranges_grid(const GameState& s, const std::vector<Square>& squares) {
  std::vector<int32_t> out(static_cast<std::size_t>(s.board->height() * s.board->width()), kUnreachable);
  for (const Square& sq : squares) {
    const std::vector<int32_t>& grid = square_ranges(s.board, sq).grid;
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = std::min(out[i], grid[i]);
  }
  return out;
}

std::vector<int32_t> house_ranges_from(const GameState& s, const std::vector<Square>& squares) {
  std::vector<const std::vector<int32_t>*> grids;
  for (const Square& sq : squares) grids.push_back(&square_ranges(s.board, sq).grid);
  const int W = s.board->width();
  std::vector<int32_t> out;
  out.reserve(s.houses.size());
  for (const House& h : s.houses) {
    int32_t best = kUnreachable;
    for (const auto* part : {&h.squares, &h.garden}) {
      for (const Square& q : *part) {
        const auto i = static_cast<std::size_t>(q[0] * W + q[1]);
        for (const auto* grid : grids) best = std::min(best, (*grid)[i]);
      }
    }
    out.push_back(best);
  }
  return out;
}

std::vector<int32_t> house_ranges(const GameState& s, const std::vector<int32_t>& grid) {
  const int W = s.board->width();
  std::vector<int32_t> out;
  out.reserve(s.houses.size());
  for (const House& h : s.houses) {
    int32_t best = kUnreachable;
    bool first = true;
    for (const auto* squares : {&h.squares, &h.garden}) {
      for (const Square& q : *squares) {
        const int32_t r = grid[static_cast<std::size_t>(q[0] * W + q[1])];
        if (first || r < best) best = r;
        first = false;
      }
    }
    out.push_back(best);
  }
  return out;
}

const std::vector<int32_t>& MapReads::distances(int player) {
  auto& slot = distances_[at(player)];
  if (!slot) {
    slot = house_ranges_from(s_, entrances_of(s_, player));
  }
  return *slot;
}

const std::vector<double>& MapReads::house_values(int player) {
  if (values_ && values_player_ == player) return *values_;
  const std::vector<int32_t> mine = distances(player);
  int top = 0;
  for (const House& h : s_.houses) top = std::max(top, h.number);
  std::vector<double> values(static_cast<std::size_t>(top + 1), 0.0);
  std::vector<const std::vector<int32_t>*> others;
  for (int q : s_.turn_order) {
    if (q != player) others.push_back(&distances(q));
  }
  const RulesData& rules = rules_data();
  for (std::size_t i = 0; i < s_.houses.size(); ++i) {
    const House& house = s_.houses[i];
    const bool garden = !house.garden.empty();
    const int limit = garden ? rules.demand_limit_with_garden : rules.demand_limit;
    if (static_cast<int>(house.demand.size()) >= limit) {
      values[at(house.number)] = 0.0;
      continue;
    }
    const int32_t d = mine[i];
    int32_t best_other = kUnreachable;
    for (const auto* o : others) best_other = std::min(best_other, (*o)[i]);
    double value;
    if (d >= kUnreachable) {
      value = 0.05;
    } else {
      value = 1.0 / (1.0 + 0.5 * d);
      if (best_other < d) value *= 0.3;
    }
    if (garden) value *= 2.0;
    values[at(house.number)] = value;
  }
  values_ = std::move(values);
  values_player_ = player;
  return *values_;
}

std::vector<int> MapReads::reached(int player) {
  const auto& d = distances(player);
  std::vector<int> out;
  for (std::size_t i = 0; i < d.size(); ++i) {
    if (d[i] < kUnreachable) out.push_back(static_cast<int>(i));
  }
  return out;
}

const std::vector<int16_t>& MapReads::grid() {
  if (!grid_) grid_ = house_grid(s_);
  return *grid_;
}

std::vector<double> entrance_scores(const GameState& s, const std::vector<Square>& entrances,
                                    const std::vector<int32_t>* other) {
  const Board& board = *s.board;
  const double size = static_cast<double>(board.height() * board.width());
  std::vector<double> out;
  out.reserve(entrances.size());
  for (const Square& e : entrances) {
    const SquareRanges& from = square_ranges(s.board, e);
    const std::vector<int32_t> ranges = house_ranges(s, from.grid);
    const int64_t near = from.near;
    const double room = 0.2 * static_cast<double>(near) / size;
    double total = 0.0;
    for (std::size_t i = 0; i < ranges.size(); ++i) {
      double value = 1.0 / (1.0 + ranges[i]);
      if (other != nullptr && (*other)[i] < ranges[i]) value = value * 0.3;
      if (ranges[i] >= kUnreachable) value = 0.0;
      total += value;
    }
    out.push_back(total + room);
  }
  return out;
}

std::vector<int> spot_houses(const GameState& s, const std::vector<int16_t>& grid, const MarketingTileSpec& tile,
                             int row, int col, int orientation) {
  const Board& b = *s.board;
  switch (tile.type) {
    case kBillboard: {
      const bool turned = orientation != 0;
      return marketing_areas::houses_next_to(b, row, col, turned ? tile.w : tile.h, turned ? tile.h : tile.w, grid);
    }
    case kAirplane:
      return marketing_areas::houses_under_airplane(
          b, marketing_areas::airplane_from_anchor(row, col, orientation, tile.along_edge, b), grid);
    case kRadio:
      return marketing_areas::houses_near_tile(b, b.tile()[static_cast<std::size_t>(row * b.width() + col)], grid);
    default:  // a mailbox
      return marketing_areas::houses_in_block(b, marketing_areas::block_at(b, row, col), grid);
  }
}

int main_food(const GameState& s, int player) {
  const PlayerState& p = player_of(s, player);
  const Cards owned = p.hand + p.work + p.beach + p.busy;
  const int pizza = owned[kPizzaCook] + owned[kPizzaChef];
  const int burger = owned[kBurgerCook] + owned[kBurgerChef];
  return pizza > burger ? kPizza : kBurger;
}

std::array<double, kNumGoods> wanted_goods(const GameState& s, MapReads& reads, int player) {
  std::array<double, kNumGoods> wanted{};
  for (int i : reads.reached(player)) {
    for (int good : s.houses[at(i)].demand) wanted[at(good)] += 1.0;
  }
  return wanted;
}

}  // namespace fcm::players

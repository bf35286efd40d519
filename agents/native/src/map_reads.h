// What the heuristic reads from the map (fcm_agents.heuristic.layout and views): road ranges from a chain's
// restaurants to every house, a house's worth, a restaurant entrance's worth, the houses a campaign spot
// reaches, the chain's main food and the goods its houses want. The arithmetic is the Python agent's, in
// the same order (the same doubles, so the same ties).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "rules_data.h"
#include "state.h"

namespace fcm::players {

// per house (in the state's order): the least value of a range grid over its squares and garden
std::vector<int32_t> house_ranges(const GameState& s, const std::vector<int32_t>& grid);

// Board.ranges_from(squares) (the range by road from the nearest of them to every square), from a grid per
// square remembered per board (per thread, while the board lives): the range from several squares is the
// least of their ranges, and a search asks the same few entrances thousands of times
std::vector<int32_t> ranges_grid(const GameState& s, const std::vector<Square>& squares);
// house_ranges(s, ranges_grid(s, squares)) without the grid
std::vector<int32_t> house_ranges_from(const GameState& s, const std::vector<Square>& squares);

// the reads of one position, each computed once when first asked
class MapReads {
 public:
  explicit MapReads(const GameState& s) : s_(s), distances_(static_cast<std::size_t>(s.num_players)) {}

  // road range from the player's open restaurants to every house (kUnreachable without one)
  const std::vector<int32_t>& distances(int player);
  // views._house_values: one more demand token's worth on each house, by house number (0 for none)
  const std::vector<double>& house_values(int player);
  // the houses the player reaches, in the state's order (layout.reach's second part), as house indexes
  std::vector<int> reached(int player);
  // occupancy.house_grid: house numbers on house and garden squares
  const std::vector<int16_t>& grid();

 private:
  const GameState& s_;
  std::vector<std::optional<std::vector<int32_t>>> distances_;
  std::optional<std::vector<double>> values_;
  int values_player_ = -1;
  std::optional<std::vector<int16_t>> grid_;
};

// layout.entrance_scores: each entrance's worth (the houses near it, less where ``other`` (per house, the
// other chains' range) is nearer; plus room to grow), in ``entrances`` order
std::vector<double> entrance_scores(const GameState& s, const std::vector<Square>& entrances,
                                    const std::vector<int32_t>* other);
// layout.spot_reach: the houses (numbers, ascending) a campaign of ``tile`` at (row, col, orientation) reaches
std::vector<int> spot_houses(const GameState& s, const std::vector<int16_t>& grid, const MarketingTileSpec& tile,
                             int row, int col, int orientation);
// views._main_food: pizza when the chain has more pizza cooks and chefs than burger ones
int main_food(const GameState& s, int player);
// production._wanted_goods: demand on the houses the player reaches, per good
std::array<double, kNumGoods> wanted_goods(const GameState& s, MapReads& reads, int player);

}  // namespace fcm::players

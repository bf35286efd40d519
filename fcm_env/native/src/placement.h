// Where a piece may go on the map: restaurants, houses, gardens and campaign tiles. The twin of
// fcm_env/engine/board/placement.py, with its conventions (the flat action codec is built on them):
//
//   * masks are H x W row-major vectors of 0/1 (``occupied``: squares no new piece may cover; ``reach``:
//     squares a manager or marketeer reaches);
//   * a Legal answer is indexed by the anchor (the top-left square of the footprint) and an orientation:
//     restaurant 4 (the corner holding the printed entrance: 0 NW, 1 NE, 2 SE, 3 SW), house 4 (the side its
//     garden lies on, Direction 0 N .. 3 W), garden 4 (the side of its house; the anchor is the garden's
//     own top-left), campaign 2 (0: tile.h rows x tile.w cols, 1: rotated);
//   * airplanes lie beside the map: (edge, start) lanes, mapped into the anchor grid by airplane_anchor.
//
// Bad inputs (an orientation out of range, an anchor off the map, a mask of the wrong size) throw
// std::invalid_argument naming what was wrong, where Python raises ValueError.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "board.h"
#include "rules_data.h"
#include "state.h"

namespace fcm {

using Mask = std::vector<uint8_t>;
using Spot = std::array<int, 3>;  // (row, col, orientation)

constexpr int kRestaurantOrientations = 4, kHouseOrientations = 4, kGardenOrientations = 4;
constexpr int kCampaignOrientations = 2, kAirplaneEdges = 4;
enum Direction : int { kNorth = 0, kEast = 1, kSouth = 2, kWest = 3 };

// legal[H, W, O] of one piece
struct Legal {
  int height = 0, width = 0, orientations = 0;
  std::vector<uint8_t> cells;  // ((row * width) + col) * orientations + orientation
  Legal(int h, int w, int o) : height(h), width(w), orientations(o), cells(static_cast<std::size_t>(h * w * o), 0) {}
  uint8_t& at(int row, int col, int o) {
    return cells[(static_cast<std::size_t>(row) * width + col) * orientations + o];
  }
  bool any() const;
  std::vector<Spot> list() const;  // list_placements: the set (row, col, orientation), sorted
};

// placement.static_occupied lives in occupancy.h (static_occupied). occupancy's occupied(state), after
// checking that every piece of the state lies on the map (a loaded document may put one anywhere; Python
// raises there too): throws std::invalid_argument naming the piece
Mask occupied_on_map(const GameState& s);

// the 2x2 squares of a restaurant, row by row (C6); with ``board`` the footprint must fit the map
std::vector<Square> restaurant_squares(int row, int col, int orientation, const Board* board = nullptr);
// rules: Placing the first restaurants; Place or move restaurants; C6, C8. ``initial``: no two initial
// entrances on one tile (``entrance_tiles_taken``); ``reach`` (may be null) must cover one of the 4 squares
Legal restaurant_placements(const Board& board, const Mask& occupied, bool initial = false,
                            const std::vector<int>& entrance_tiles_taken = {}, const Mask* reach = nullptr);

// (4 house squares, 2 garden squares) of a placed house whose 2x3 rectangle is anchored at (row, col)
std::pair<std::vector<Square>, std::vector<Square>> house_footprint(int row, int col, int orientation,
                                                                    const Board* board = nullptr);
// rules: Place new houses and gardens (empty 2x3 rectangle, a road next to any of its squares)
Legal house_placements(const Board& board, const Mask& occupied);

// printed houses without a garden, in the order the caller gives (number, its 2x2 squares)
using HouseList = std::vector<std::pair<int, std::vector<Square>>>;
std::vector<Square> garden_squares(int row, int col, int orientation, const Board* board = nullptr);
// the house a garden at this anchor and side completes (the first in ``houses`` order), if any
std::optional<int> garden_target(int row, int col, int orientation, const HouseList& houses_without_garden);
// rules: Place new houses and gardens (a garden joins a printed house into a 2x3 rectangle, empty squares)
Legal garden_placements(const Board& board, const Mask& occupied, const HouseList& houses_without_garden);

// squares of a billboard, mailbox or radio (orientation 1: the rotated footprint of a rotatable tile)
std::vector<Square> campaign_squares(int row, int col, int orientation, const MarketingTileSpec& tile,
                                     const Board* board = nullptr);
// rules: Initiate marketing campaigns; C13, C14, C17. ``reach`` null: unlimited (still needs a road)
Legal campaign_placements(const Board& board, const Mask& occupied, const MarketingTileSpec& tile,
                          const Mask* reach = nullptr);
// whether campaign_placements(...) has any spot, stopping at the first (the launch asks it per tile)
bool any_campaign_placement(const Board& board, const Mask& occupied, const MarketingTileSpec& tile,
                            const Mask* reach);

// an airplane against one map edge, over ``size`` full rows (E/W) or columns (N/S) from ``start``
struct AirplaneLane {
  int edge, start, size;
};
// (edge, start) of every lane the airplane fits, sorted (C15: other planes never block)
std::vector<std::array<int, 2>> airplane_placements(const Board& board, const MarketingTileSpec& tile);
// the lane's anchor: N (0, start, 0), E (start, W-1, 1), S (H-1, start, 2), W (start, 0, 3)
Spot airplane_anchor(const AirplaneLane& lane, const Board& board);

}  // namespace fcm

// Where a piece may go (placement.h): every window test over the whole map at once, as placement.py does
// with shifted boolean arrays; here plain loops over the (small) map.
#include "placement.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "occupancy.h"

namespace fcm {

namespace {

constexpr std::array<std::array<int, 2>, 4> kEntranceOffsets{{{0, 0}, {0, 1}, {1, 1}, {1, 0}}};  // NW NE SE SW
// where a garden's top-left square lies relative to its house's top-left square, per side N E S W
constexpr std::array<std::array<int, 2>, 4> kGardenOffset{{{-1, 0}, {0, 2}, {2, 0}, {0, -1}}};

std::string pair_text(int row, int col) { return "(" + std::to_string(row) + ", " + std::to_string(col) + ")"; }

int check_orientation(int orientation, int count, const char* piece) {
  if (orientation < 0 || orientation >= count) {
    throw std::invalid_argument(std::string(piece) + " orientation must be an integer 0.." + std::to_string(count - 1) +
                                ", got " + std::to_string(orientation));
  }
  return orientation;
}

// an anchor off the map: negative always, past the far edge when a board is given
void check_anchor(int row, int col, int rows, int cols, const Board* board, const char* piece) {
  if (row < 0 || col < 0) {
    throw std::invalid_argument(std::string(piece) + " anchor " + pair_text(row, col) +
                                " is outside the map (negative coordinate)");
  }
  if (board != nullptr && (row + rows > board->height() || col + cols > board->width())) {
    throw std::invalid_argument(std::string(piece) + " at anchor " + pair_text(row, col) + " covers " +
                                std::to_string(rows) + "x" + std::to_string(cols) + " squares and does not fit on the " +
                                std::to_string(board->height()) + "x" + std::to_string(board->width()) + " map");
  }
}

void check_mask(const Board& board, const Mask& mask, const char* name) {
  if (mask.size() != static_cast<std::size_t>(board.height()) * static_cast<std::size_t>(board.width())) {
    throw std::invalid_argument(std::string(name) + " must have the board's shape (" + std::to_string(board.height()) +
                                ", " + std::to_string(board.width()) + "), got " + std::to_string(mask.size()) +
                                " squares");
  }
}

std::vector<Square> rect(int row, int col, int rows, int cols) {
  std::vector<Square> out;
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) out.push_back({row + r, col + c});
  }
  return out;
}

// the rows x cols window anchored at each square: every square set (all) or one set (!all); 0 where the
// window leaves the map
Mask window(const Mask& mask, int H, int W, int rows, int cols, bool all) {
  Mask out(mask.size(), 0);
  if (rows > H || cols > W) return out;
  for (int r = 0; r + rows <= H; ++r) {
    for (int c = 0; c + cols <= W; ++c) {
      bool acc = all;
      for (int dr = 0; dr < rows && acc == all; ++dr) {
        for (int dc = 0; dc < cols; ++dc) {
          const bool set = mask[static_cast<std::size_t>((r + dr) * W + c + dc)] != 0;
          if (set != all) {
            acc = !all;
            break;
          }
        }
      }
      out[static_cast<std::size_t>(r * W + c)] = acc;
    }
  }
  return out;
}

Mask negated(const Mask& mask) {
  Mask out(mask.size());
  for (std::size_t i = 0; i < mask.size(); ++i) out[i] = !mask[i];
  return out;
}

const std::vector<std::array<int, 2>>& campaign_shapes(const MarketingTileSpec& tile) {
  if (tile.type == kAirplane) {
    throw std::invalid_argument("marketing tile " + std::to_string(tile.number) +
                                " is an airplane: use airplane_placements");
  }
  return tile.footprints;
}

int edge_length(const Board& board, int edge) {
  return edge == kNorth || edge == kSouth ? board.width() : board.height();
}

// a printed house's top-left square; it must be a 2x2 block
Square house_corner(int number, const std::vector<Square>& squares) {
  std::vector<Square> cells = squares;
  std::sort(cells.begin(), cells.end());
  const Square first = cells.empty() ? Square{0, 0} : cells[0];
  const int r = first[0], c = first[1];
  const std::vector<Square> block{{r, c}, {r, c + 1}, {r + 1, c}, {r + 1, c + 1}};
  if (cells != block) {
    std::string got;
    for (const Square& sq : squares) got += (got.empty() ? "" : ", ") + pair_text(sq[0], sq[1]);
    throw std::invalid_argument("house " + std::to_string(number) + " must cover a 2x2 block of squares, got (" + got +
                                ")");
  }
  return first;
}

}  // namespace

bool Legal::any() const { return std::any_of(cells.begin(), cells.end(), [](uint8_t v) { return v != 0; }); }

std::vector<Spot> Legal::list() const {
  std::vector<Spot> out;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (!cells[i]) continue;
    const int cell = static_cast<int>(i) / orientations;
    out.push_back({cell / width, cell % width, static_cast<int>(i) % orientations});
  }
  return out;
}

Mask occupied_on_map(const GameState& s) {
  const Board& board = *s.board;
  // the piece's name is built only for the message (this runs at every placement question)
  auto check = [&board](const std::vector<Square>& squares, auto&& piece) {
    for (const Square& sq : squares) {
      if (sq[0] < 0 || sq[0] >= board.height() || sq[1] < 0 || sq[1] >= board.width()) {
        throw std::invalid_argument(piece() + " covers " + pair_text(sq[0], sq[1]) + ", outside the " +
                                    std::to_string(board.height()) + "x" + std::to_string(board.width()) + " map");
      }
    }
  };
  for (const House& h : s.houses) {
    check(h.squares, [&h] { return "house " + std::to_string(h.number); });
    check(h.garden, [&h] { return "the garden of house " + std::to_string(h.number); });
  }
  for (const PlayerState& p : s.players) {
    for (const Restaurant& r : p.restaurants) {
      check(restaurant_squares(r.row, r.col, r.orientation),
            [&p] { return "a restaurant of player " + std::to_string(p.player); });
    }
  }
  for (const Campaign& c : s.campaigns) check(c.squares, [&c] { return "campaign " + std::to_string(c.number); });
  return occupied(s);
}

// ------------------------------------------------------------------ restaurants

std::vector<Square> restaurant_squares(int row, int col, int orientation, const Board* board) {
  check_orientation(orientation, kRestaurantOrientations, "restaurant");
  check_anchor(row, col, 2, 2, board, "restaurant");
  return rect(row, col, 2, 2);
}

Legal restaurant_placements(const Board& board, const Mask& occupied, bool initial,
                            const std::vector<int>& entrance_tiles_taken, const Mask* reach) {
  check_mask(board, occupied, "occupied");
  const int H = board.height(), W = board.width();
  Mask free4 = window(negated(occupied), H, W, 2, 2, true);
  if (reach != nullptr) {
    check_mask(board, *reach, "reach");
    const Mask near = window(*reach, H, W, 2, 2, false);
    for (std::size_t i = 0; i < free4.size(); ++i) free4[i] = free4[i] && near[i];
  }
  Mask door_ok = board.has_road_access();
  if (initial) {  // C8: one initial entrance per tile
    const int tiles = board.tile_rows() * board.tile_cols();
    std::vector<uint8_t> taken(static_cast<std::size_t>(tiles), 0);
    for (int t : entrance_tiles_taken) {
      if (t < 0 || t >= tiles) {
        throw std::invalid_argument("entrance_tiles_taken holds tile index " + std::to_string(t) + ", not 0.." +
                                    std::to_string(tiles - 1));
      }
      taken[static_cast<std::size_t>(t)] = 1;
    }
    for (std::size_t i = 0; i < door_ok.size(); ++i) door_ok[i] = door_ok[i] && !taken[board.tile()[i]];
  }
  Legal legal(H, W, kRestaurantOrientations);
  for (int r = 0; r < H; ++r) {
    for (int c = 0; c < W; ++c) {
      if (!free4[static_cast<std::size_t>(r * W + c)]) continue;
      for (int o = 0; o < kRestaurantOrientations; ++o) {
        const int rr = r + kEntranceOffsets[o][0], cc = c + kEntranceOffsets[o][1];
        legal.at(r, c, o) = rr < H && cc < W && door_ok[static_cast<std::size_t>(rr * W + cc)];
      }
    }
  }
  return legal;
}

// ------------------------------------------------------------------ houses and gardens

std::pair<std::vector<Square>, std::vector<Square>> house_footprint(int row, int col, int orientation,
                                                                    const Board* board) {
  const int o = check_orientation(orientation, kHouseOrientations, "house");
  const bool north_south = o == kNorth || o == kSouth;
  check_anchor(row, col, north_south ? 3 : 2, north_south ? 2 : 3, board, "house");
  switch (o) {
    case kNorth: return {rect(row + 1, col, 2, 2), rect(row, col, 1, 2)};
    case kSouth: return {rect(row, col, 2, 2), rect(row + 2, col, 1, 2)};
    case kEast: return {rect(row, col, 2, 2), rect(row, col + 2, 2, 1)};
    default: return {rect(row, col + 1, 2, 2), rect(row, col, 2, 1)};
  }
}

Legal house_placements(const Board& board, const Mask& occupied) {
  check_mask(board, occupied, "occupied");
  const int H = board.height(), W = board.width();
  const Mask free = negated(occupied);
  Legal legal(H, W, kHouseOrientations);
  // a 3 x 2 rectangle with the garden N or S, 2 x 3 with it E or W; the road may touch any square
  const std::array<std::array<int, 4>, 2> shapes{{{3, 2, kNorth, kSouth}, {2, 3, kEast, kWest}}};
  for (const auto& [rows, cols, side_a, side_b] : shapes) {
    const Mask all_free = window(free, H, W, rows, cols, true);
    const Mask road = window(board.has_road_access(), H, W, rows, cols, false);
    for (int r = 0; r < H; ++r) {
      for (int c = 0; c < W; ++c) {
        const std::size_t i = static_cast<std::size_t>(r * W + c);
        legal.at(r, c, side_a) = legal.at(r, c, side_b) = all_free[i] && road[i];
      }
    }
  }
  return legal;
}

std::vector<Square> garden_squares(int row, int col, int orientation, const Board* board) {
  const int o = check_orientation(orientation, kGardenOrientations, "garden");
  const bool north_south = o == kNorth || o == kSouth;
  const int rows = north_south ? 1 : 2, cols = north_south ? 2 : 1;
  check_anchor(row, col, rows, cols, board, "garden");
  return rect(row, col, rows, cols);
}

std::optional<int> garden_target(int row, int col, int orientation, const HouseList& houses_without_garden) {
  const int o = check_orientation(orientation, kGardenOrientations, "garden");
  std::vector<Square> corners;  // every house is checked first, as placement._house_corners does
  for (const auto& [number, squares] : houses_without_garden) corners.push_back(house_corner(number, squares));
  for (std::size_t i = 0; i < corners.size(); ++i) {
    if (corners[i][0] == row - kGardenOffset[o][0] && corners[i][1] == col - kGardenOffset[o][1]) {
      return houses_without_garden[i].first;
    }
  }
  return std::nullopt;
}

Legal garden_placements(const Board& board, const Mask& occupied, const HouseList& houses_without_garden) {
  check_mask(board, occupied, "occupied");
  const int H = board.height(), W = board.width();
  Legal legal(H, W, kGardenOrientations);
  std::vector<Square> corners;
  for (const auto& [number, squares] : houses_without_garden) corners.push_back(house_corner(number, squares));
  for (const Square& corner : corners) {
    for (int side = 0; side < kGardenOrientations; ++side) {
      const bool north_south = side == kNorth || side == kSouth;
      const int r0 = corner[0] + kGardenOffset[side][0], c0 = corner[1] + kGardenOffset[side][1];
      const int r1 = r0 + (north_south ? 0 : 1), c1 = c0 + (north_south ? 1 : 0);
      if (r0 < 0 || c0 < 0 || r1 >= H || c1 >= W) continue;
      if (!occupied[static_cast<std::size_t>(r0 * W + c0)] && !occupied[static_cast<std::size_t>(r1 * W + c1)]) {
        legal.at(r0, c0, side) = 1;
      }
    }
  }
  return legal;
}

// ------------------------------------------------------------------ billboards, mailboxes, radios

std::vector<Square> campaign_squares(int row, int col, int orientation, const MarketingTileSpec& tile,
                                     const Board* board) {
  const int o = check_orientation(orientation, kCampaignOrientations, "campaign");
  const auto& shapes = campaign_shapes(tile);
  if (o >= static_cast<int>(shapes.size())) {
    throw std::invalid_argument("marketing tile " + std::to_string(tile.number) + " (" + std::to_string(tile.h) + "x" +
                                std::to_string(tile.w) + ", rotatable=" + (tile.rotatable ? "True" : "False") +
                                ") has no rotated orientation 1");
  }
  const auto [rows, cols] = shapes[static_cast<std::size_t>(o)];
  check_anchor(row, col, rows, cols, board, "campaign");
  return rect(row, col, rows, cols);
}

Legal campaign_placements(const Board& board, const Mask& occupied, const MarketingTileSpec& tile, const Mask* reach) {
  const auto& shapes = campaign_shapes(tile);
  check_mask(board, occupied, "occupied");
  const int H = board.height(), W = board.width();
  Mask hook = board.has_road_access();  // squares a campaign may hang on the road from
  if (reach != nullptr) {  // C14: the same square is next to the road and in reach
    check_mask(board, *reach, "reach");
    for (std::size_t i = 0; i < hook.size(); ++i) hook[i] = hook[i] && (*reach)[i];
  }
  const Mask free = negated(occupied);
  Legal legal(H, W, kCampaignOrientations);
  for (std::size_t o = 0; o < shapes.size() && o < static_cast<std::size_t>(kCampaignOrientations); ++o) {
    const auto [rows, cols] = shapes[o];
    const Mask all_free = window(free, H, W, rows, cols, true);
    const Mask hooked = window(hook, H, W, rows, cols, false);
    for (int r = 0; r < H; ++r) {
      for (int c = 0; c < W; ++c) {
        const std::size_t i = static_cast<std::size_t>(r * W + c);
        legal.at(r, c, static_cast<int>(o)) = all_free[i] && hooked[i];
      }
    }
  }
  return legal;
}

bool any_campaign_placement(const Board& board, const Mask& occupied, const MarketingTileSpec& tile,
                            const Mask* reach) {
  const auto& shapes = campaign_shapes(tile);
  check_mask(board, occupied, "occupied");
  if (reach != nullptr) check_mask(board, *reach, "reach");
  const int H = board.height(), W = board.width();
  const Mask& access = board.has_road_access();
  auto hook = [&](std::size_t i) { return access[i] && (reach == nullptr || (*reach)[i]); };  // C14
  for (std::size_t o = 0; o < shapes.size() && o < static_cast<std::size_t>(kCampaignOrientations); ++o) {
    const auto [rows, cols] = shapes[o];
    for (int r = 0; r + rows <= H; ++r) {
      for (int c = 0; c + cols <= W; ++c) {
        bool free = true, hooked = false;
        for (int dr = 0; dr < rows && free; ++dr) {
          for (int dc = 0; dc < cols; ++dc) {
            const auto i = static_cast<std::size_t>((r + dr) * W + c + dc);
            if (occupied[i]) {
              free = false;
              break;
            }
            hooked = hooked || hook(i);
          }
        }
        if (free && hooked) return true;
      }
    }
  }
  return false;
}

// ------------------------------------------------------------------ airplanes

std::vector<std::array<int, 2>> airplane_placements(const Board& board, const MarketingTileSpec& tile) {
  if (tile.type != kAirplane) {
    throw std::invalid_argument("marketing tile " + std::to_string(tile.number) + " is not an airplane");
  }
  const int size = tile.along_edge, longest = std::max(board.height(), board.width());
  std::vector<std::array<int, 2>> out;
  for (int edge = 0; edge < kAirplaneEdges; ++edge) {  // starts on the board (C15: planes never block)
    const int starts = std::min(std::max(0, edge_length(board, edge) - size + 1), longest);
    for (int start = 0; start < starts; ++start) out.push_back({edge, start});
  }
  return out;
}

Spot airplane_anchor(const AirplaneLane& lane, const Board& board) {
  if (lane.edge < 0 || lane.edge >= kAirplaneEdges || lane.start < 0 || lane.size < 1 ||
      lane.start + lane.size > edge_length(board, lane.edge)) {
    throw std::invalid_argument("airplane lane (edge " + std::to_string(lane.edge) + ", start " +
                                std::to_string(lane.start) + ", size " + std::to_string(lane.size) +
                                ") does not fit along the edge of the map");
  }
  const int H = board.height(), W = board.width();
  switch (lane.edge) {
    case kNorth: return {0, lane.start, kNorth};
    case kEast: return {lane.start, W - 1, kEast};
    case kSouth: return {H - 1, lane.start, kSouth};
    default: return {lane.start, 0, kWest};
  }
}

}  // namespace fcm

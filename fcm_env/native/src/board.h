// One assembled map and its fixed road tables: the native twin of fcm_env.engine.board.geometry.Board.
// Roads never change after setup, so the road graph (a bridge square holds two nodes, R49), the segments
// (road squares linked on one tile: range 0 apart), the ranges between segments (tile borders crossed,
// C9), each square's access to the segments next to it (cost 1 onto another tile, R30) and the mailbox
// blocks (R45) are built once per board. tests/native/test_native_board.py compares every table with
// Python's.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace fcm {

constexpr int kTileSize = 5;
constexpr int32_t kUnreachable = 9999;

enum Kind : int8_t { kEmpty = 0, kRoad = 1, kBridge = 2, kHouse = 3, kDrink = 4 };

// one printed map tile in rotation 0, as fcm_env/data/map_tiles.json gives it (set once by the package)
struct TileSpec {
  std::string id;                                           // "A".."T"
  std::array<std::string, kTileSize> grid;                  // rows of ". R X H b l s"
  std::vector<std::array<int, 3>> drinks;                   // (good, row, col)
  std::vector<std::pair<int, std::vector<std::array<int, 2>>>> houses;  // (number, cells)
};

void set_tile_specs(std::vector<TileSpec> specs);
bool tile_specs_set();

using Square = std::array<int, 2>;

class Board {
 public:
  // ``layout``: rows of "G2"-style placements (tile letter and clockwise quarter turns); throws
  // std::invalid_argument naming what is wrong
  explicit Board(const std::vector<std::vector<std::string>>& layout);

  int height() const { return height_; }
  int width() const { return width_; }
  int tile_rows() const { return tile_rows_; }
  int tile_cols() const { return tile_cols_; }
  int num_nodes() const { return static_cast<int>(node_square_.size()); }
  int num_segments() const { return num_segments_; }
  int num_blocks() const { return num_blocks_; }

  // square layers, row-major (height x width)
  const std::vector<int8_t>& kind() const { return kind_; }
  const std::vector<int8_t>& drink() const { return drink_; }  // a Good, or -1
  const std::vector<int16_t>& printed_house() const { return printed_house_; }
  const std::vector<int16_t>& tile() const { return tile_; }
  const std::vector<int16_t>& block() const { return block_; }
  const std::vector<uint8_t>& road_mask() const { return road_; }
  const std::vector<uint8_t>& has_road_access() const { return road_access_; }
  const std::vector<uint8_t>& printed_occupied() const { return printed_occupied_; }  // kind != empty
  const std::map<int, std::vector<Square>>& printed_houses() const { return printed_houses_; }
  // road graph: (NS node, EW node) of each square (-1 off road), each node's square and segment
  const std::vector<std::array<int32_t, 2>>& node_of() const { return node_of_; }
  const std::vector<int32_t>& node_square() const { return node_square_; }
  const std::vector<int32_t>& node_segment() const { return node_segment_; }
  const std::vector<int16_t>& segment_tile() const { return segment_tile_; }
  // S x S segment ranges; (H*W) x S access costs and square-to-segment ranges
  const std::vector<int32_t>& segment_distance() const { return segment_distance_; }
  const std::vector<int32_t>& access() const { return access_; }
  const std::vector<int32_t>& square_segment_distance() const { return square_segment_distance_; }
  // the access table inverted: for segment s, the (square, cost) pairs with a cost below unreachable
  // (squares_within asks few segments, and each has few squares next to it)
  const std::vector<std::vector<std::pair<int32_t, int32_t>>>& segment_access() const { return segment_access_; }

 private:
  void build_layers(const std::vector<std::vector<std::pair<std::size_t, int>>>& placements);
  void build_road_graph(std::vector<std::pair<int32_t, int32_t>>& links);
  void build_segments(const std::vector<std::pair<int32_t, int32_t>>& links);
  void build_range_tables();
  void build_blocks();

  int tile_rows_ = 0, tile_cols_ = 0, height_ = 0, width_ = 0;
  int num_segments_ = 0, num_blocks_ = 0;
  std::vector<int8_t> kind_, drink_;
  std::vector<int16_t> printed_house_, tile_, block_, segment_tile_;
  std::vector<uint8_t> road_, road_access_, printed_occupied_;
  std::map<int, std::vector<Square>> printed_houses_;
  std::vector<std::array<int32_t, 2>> node_of_;
  std::vector<int32_t> node_square_, node_segment_, segment_distance_, access_, square_segment_distance_;
  std::vector<std::vector<std::pair<int32_t, int32_t>>> segment_access_;
};

}  // namespace fcm

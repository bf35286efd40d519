// The native map (board.h says why). Every table is built the way fcm_env.engine.board.geometry builds
// it, in the same order, so node, segment and block numbers are the same as Python's.
#include "board.h"

#include <algorithm>
#include <numeric>
#include <set>
#include <stdexcept>

namespace fcm {

namespace {

std::vector<TileSpec> g_specs;

int8_t kind_of_char(char ch) {
  switch (ch) {
    case '.': return kEmpty;
    case 'R': return kRoad;
    case 'X': return kBridge;
    case 'H': return kHouse;
    case 'b': case 'l': case 's': return kDrink;
    default: throw std::invalid_argument(std::string("map tile grid: unknown square '") + ch + "'");
  }
}

// where a tile square lands after ``turns`` clockwise quarter turns (map_tiles.json's convention)
Square rotate_cell(int row, int col, int turns) {
  for (int t = 0; t < turns % 4; ++t) {
    const int old_row = row;
    row = col;
    col = kTileSize - 1 - old_row;
  }
  return {row, col};
}

std::pair<std::size_t, int> parse_placement(const std::string& text) {
  std::string t;
  for (char ch : text) {
    if (ch != ' ') t.push_back(static_cast<char>(ch >= 'a' && ch <= 'z' ? ch - 'a' + 'A' : ch));
  }
  if (t.empty() || t.size() > 2 || (t.size() == 2 && (t[1] < '0' || t[1] > '9'))) {
    throw std::invalid_argument("tile placement '" + text + "': expected a letter A-T and an optional rotation 0-3");
  }
  const int rotation = t.size() == 2 ? t[1] - '0' : 0;
  if (rotation > 3) {
    throw std::invalid_argument("tile rotation must be 0-3 quarter turns, got " + std::to_string(rotation));
  }
  for (std::size_t i = 0; i < g_specs.size(); ++i) {
    if (g_specs[i].id == t.substr(0, 1)) return {i, rotation};
  }
  throw std::invalid_argument("unknown map tile '" + t.substr(0, 1) + "'; expected a letter A-T");
}

}  // namespace

void set_tile_specs(std::vector<TileSpec> specs) {
  for (const TileSpec& spec : specs) {
    for (const std::string& row : spec.grid) {
      if (row.size() != static_cast<std::size_t>(kTileSize)) {
        throw std::invalid_argument("map tile " + spec.id + ": a grid row has " + std::to_string(row.size()) +
                                    " squares, not 5");
      }
      for (char ch : row) kind_of_char(ch);
    }
  }
  g_specs = std::move(specs);
}

bool tile_specs_set() { return !g_specs.empty(); }

Board::Board(const std::vector<std::vector<std::string>>& layout) {
  if (!tile_specs_set()) throw std::invalid_argument("the map tiles are not loaded (fcm_env.native loads them)");
  if (layout.empty() || layout[0].empty()) {
    throw std::invalid_argument("board layout must be a non-empty rectangle of tile placements");
  }
  std::vector<std::vector<std::pair<std::size_t, int>>> placements;
  std::set<std::size_t> used;
  for (const auto& row : layout) {
    if (row.size() != layout[0].size()) {
      throw std::invalid_argument("board layout must be a non-empty rectangle of tile placements");
    }
    placements.emplace_back();
    for (const std::string& text : row) {
      const auto placement = parse_placement(text);
      if (!used.insert(placement.first).second) {
        throw std::invalid_argument("board layout uses map tile " + g_specs[placement.first].id + " twice");
      }
      placements.back().push_back(placement);
    }
  }
  tile_rows_ = static_cast<int>(placements.size());
  tile_cols_ = static_cast<int>(placements[0].size());
  height_ = tile_rows_ * kTileSize;
  width_ = tile_cols_ * kTileSize;
  build_layers(placements);
  std::vector<std::pair<int32_t, int32_t>> links;
  build_road_graph(links);
  build_segments(links);
  build_range_tables();
  build_blocks();
}

void Board::build_layers(const std::vector<std::vector<std::pair<std::size_t, int>>>& placements) {
  const std::size_t n = static_cast<std::size_t>(height_) * width_;
  kind_.assign(n, kEmpty);
  drink_.assign(n, -1);
  printed_house_.assign(n, 0);
  tile_.assign(n, 0);
  for (int tr = 0; tr < tile_rows_; ++tr) {
    for (int tc = 0; tc < tile_cols_; ++tc) {
      const auto [index, turns] = placements[tr][tc];
      const TileSpec& spec = g_specs[index];
      const int r0 = tr * kTileSize, c0 = tc * kTileSize;
      for (int r = 0; r < kTileSize; ++r) {
        for (int c = 0; c < kTileSize; ++c) {
          const Square to = rotate_cell(r, c, turns);
          const std::size_t at = static_cast<std::size_t>(r0 + to[0]) * width_ + (c0 + to[1]);
          kind_[at] = kind_of_char(spec.grid[r][c]);
          tile_[at] = static_cast<int16_t>(tr * tile_cols_ + tc);
        }
      }
      for (const auto& [good, r, c] : spec.drinks) {
        const Square to = rotate_cell(r, c, turns);
        drink_[static_cast<std::size_t>(r0 + to[0]) * width_ + (c0 + to[1])] = static_cast<int8_t>(good);
      }
      for (const auto& [number, cells] : spec.houses) {
        std::vector<Square> rotated;
        for (const auto& cell : cells) rotated.push_back(rotate_cell(cell[0], cell[1], turns));
        std::sort(rotated.begin(), rotated.end());
        std::vector<Square> squares;
        for (const Square& sq : rotated) {
          printed_house_[static_cast<std::size_t>(r0 + sq[0]) * width_ + (c0 + sq[1])] = static_cast<int16_t>(number);
          squares.push_back({r0 + sq[0], c0 + sq[1]});
        }
        printed_houses_[number] = squares;
      }
    }
  }
  road_.assign(n, 0);
  printed_occupied_.assign(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    road_[i] = kind_[i] == kRoad || kind_[i] == kBridge;
    printed_occupied_[i] = kind_[i] != kEmpty;
  }
  road_access_.assign(n, 0);
  for (int r = 0; r < height_; ++r) {
    for (int c = 0; c < width_; ++c) {
      const std::size_t at = static_cast<std::size_t>(r) * width_ + c;
      if (road_[at]) continue;
      const bool near = (r > 0 && road_[at - width_]) || (r + 1 < height_ && road_[at + width_]) ||
                        (c > 0 && road_[at - 1]) || (c + 1 < width_ && road_[at + 1]);
      road_access_[at] = near;
    }
  }
}

void Board::build_road_graph(std::vector<std::pair<int32_t, int32_t>>& links) {
  const std::size_t n = static_cast<std::size_t>(height_) * width_;
  node_of_.assign(n, {-1, -1});
  for (std::size_t at = 0; at < n; ++at) {  // row-major, as numpy's argwhere
    if (!road_[at]) continue;
    const auto first = static_cast<int32_t>(node_square_.size());
    node_square_.push_back(static_cast<int32_t>(at));
    if (kind_[at] == kBridge) node_square_.push_back(static_cast<int32_t>(at));  // R49: two roads
    node_of_[at] = {first, static_cast<int32_t>(node_square_.size()) - 1};
  }
  for (std::size_t at = 0; at < n; ++at) {  // C31: links to the east and south neighbours
    if (!road_[at]) continue;
    const int r = static_cast<int>(at) / width_, c = static_cast<int>(at) % width_;
    if (c + 1 < width_ && road_[at + 1]) links.emplace_back(node_of_[at][1], node_of_[at + 1][1]);  // EW
    if (r + 1 < height_ && road_[at + width_]) links.emplace_back(node_of_[at][0], node_of_[at + width_][0]);  // NS
  }
}

void Board::build_segments(const std::vector<std::pair<int32_t, int32_t>>& links) {
  const int nodes = num_nodes();
  std::vector<int32_t> parent(static_cast<std::size_t>(nodes));
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&parent](int32_t x) {
    while (parent[x] != x) {
      parent[x] = parent[parent[x]];
      x = parent[x];
    }
    return x;
  };
  auto tile_of = [this](int32_t node) { return tile_[static_cast<std::size_t>(node_square_[node])]; };
  for (const auto& [a, b] : links) {
    if (tile_of(a) != tile_of(b)) continue;
    const int32_t ra = find(a), rb = find(b);
    if (ra != rb) parent[std::max(ra, rb)] = std::min(ra, rb);
  }
  std::vector<int32_t> segment_of_root(static_cast<std::size_t>(nodes), -1);  // numbered by first node
  node_segment_.assign(static_cast<std::size_t>(nodes), 0);
  num_segments_ = 0;
  for (int32_t node = 0; node < nodes; ++node) {
    int32_t& segment = segment_of_root[find(node)];
    if (segment < 0) segment = num_segments_++;
    node_segment_[node] = segment;
  }
  segment_tile_.assign(static_cast<std::size_t>(num_segments_), 0);
  for (int32_t node = 0; node < nodes; ++node) segment_tile_[node_segment_[node]] = tile_of(node);
  std::vector<std::vector<int32_t>> adjacent(static_cast<std::size_t>(num_segments_));
  for (const auto& [a, b] : links) {
    const int32_t sa = node_segment_[a], sb = node_segment_[b];
    if (sa != sb) {
      adjacent[sa].push_back(sb);
      adjacent[sb].push_back(sa);
    }
  }
  for (auto& next : adjacent) {  // in number order, once each (the breadth-first order below needs neither)
    std::sort(next.begin(), next.end());
    next.erase(std::unique(next.begin(), next.end()), next.end());
  }
  const auto S = static_cast<std::size_t>(num_segments_);
  segment_distance_.assign(S * S, kUnreachable);
  std::vector<int32_t> queue(S);
  for (std::size_t src = 0; src < S; ++src) {  // breadth-first: one tile border a step
    int32_t* row = &segment_distance_[src * S];
    row[src] = 0;
    std::size_t head = 0, tail = 0;
    queue[tail++] = static_cast<int32_t>(src);
    while (head < tail) {
      const int32_t s = queue[head++];
      for (int32_t t : adjacent[s]) {
        if (row[t] == kUnreachable) {
          row[t] = row[s] + 1;
          queue[tail++] = t;
        }
      }
    }
  }
}

void Board::build_range_tables() {
  const std::size_t n = static_cast<std::size_t>(height_) * width_;
  const auto S = static_cast<std::size_t>(num_segments_);
  access_.assign(n * S, kUnreachable);
  std::vector<std::pair<int32_t, int32_t>> touched;  // (square, segment) of every cost written
  for (int32_t node = 0; node < num_nodes(); ++node) {
    access_[static_cast<std::size_t>(node_square_[node]) * S + node_segment_[node]] = 0;
    touched.emplace_back(node_square_[node], node_segment_[node]);
  }
  static constexpr std::array<std::array<int, 3>, 4> kSteps{{{-1, 0, 0}, {0, 1, 1}, {1, 0, 0}, {0, -1, 1}}};  // N E S W
  for (int r = 0; r < height_; ++r) {
    for (int c = 0; c < width_; ++c) {
      const std::size_t at = static_cast<std::size_t>(r) * width_ + c;
      if (!road_access_[at]) continue;
      for (const auto& [dr, dc, axis] : kSteps) {
        const int rr = r + dr, cc = c + dc;
        if (rr < 0 || rr >= height_ || cc < 0 || cc >= width_) continue;
        const std::size_t there = static_cast<std::size_t>(rr) * width_ + cc;
        if (!road_[there]) continue;
        const int32_t segment = node_segment_[node_of_[there][axis]];
        const int32_t cost = tile_[at] != tile_[there] ? 1 : 0;  // R30: onto another tile
        int32_t& slot = access_[at * S + segment];
        slot = std::min(slot, cost);
        touched.emplace_back(static_cast<int32_t>(at), segment);
      }
    }
  }
  std::sort(touched.begin(), touched.end());
  touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
  // a square's range to every segment: through the segments next to it (only those have a cost)
  square_segment_distance_.assign(n * S, kUnreachable);
  segment_access_.assign(S, {});
  for (const auto& [at, near] : touched) {
    const int32_t cost = access_[static_cast<std::size_t>(at) * S + near];
    segment_access_[near].emplace_back(at, cost);
    const int32_t* from = &segment_distance_[static_cast<std::size_t>(near) * S];
    int32_t* row = &square_segment_distance_[static_cast<std::size_t>(at) * S];
    for (std::size_t seg = 0; seg < S; ++seg) row[seg] = std::min(row[seg], std::min(cost + from[seg], kUnreachable));
  }
}

void Board::build_blocks() {
  const std::size_t n = static_cast<std::size_t>(height_) * width_;
  block_.assign(n, -1);
  int16_t count = 0;
  std::vector<std::size_t> queue(n);
  for (std::size_t start = 0; start < n; ++start) {  // rules: Mailbox campaign; R45
    if (road_[start] || block_[start] >= 0) continue;
    block_[start] = count;
    std::size_t head = 0, tail = 0;
    queue[tail++] = start;
    while (head < tail) {
      const std::size_t at = queue[head++];
      const int r = static_cast<int>(at) / width_, c = static_cast<int>(at) % width_;
      const std::array<std::array<int, 2>, 4> steps{{{-1, 0}, {1, 0}, {0, -1}, {0, 1}}};
      for (const auto& [dr, dc] : steps) {
        const int rr = r + dr, cc = c + dc;
        if (rr < 0 || rr >= height_ || cc < 0 || cc >= width_) continue;
        const std::size_t there = static_cast<std::size_t>(rr) * width_ + cc;
        if (block_[there] < 0 && !road_[there]) {
          block_[there] = count;
          queue[tail++] = there;
        }
      }
    }
    ++count;
  }
  num_blocks_ = count;
}

}  // namespace fcm

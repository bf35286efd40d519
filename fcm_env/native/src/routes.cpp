// The hauls of the drink buyers (routes.h), enumerated as routes.py enumerates them.
#include "routes.h"

#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <unordered_set>
#include <utility>

#include "board_roads.h"

namespace fcm::routes {

namespace {

constexpr int32_t kNoPrev = -1;  // "previous node" of the first road square: the route came from the restaurant

int haul_slot(int good) {
  for (std::size_t i = 0; i < kHaulGoods.size(); ++i) {
    if (kHaulGoods[i] == good) return static_cast<int>(i);
  }
  throw std::invalid_argument("drink source of good " + std::to_string(good) + " is not a drink");
}

// A route's search state: where it is, where it came from (R23: never straight back) and what it holds.
struct RoadState {
  int32_t node, prev;
  uint64_t mask;
  bool operator==(const RoadState& o) const { return node == o.node && prev == o.prev && mask == o.mask; }
};
struct RoadStateHash {
  std::size_t operator()(const RoadState& s) const {
    uint64_t h = s.mask * 0x9E3779B97F4A7C15ULL;
    h ^= (static_cast<uint64_t>(static_cast<uint32_t>(s.node)) << 32) ^ static_cast<uint32_t>(s.prev);
    return static_cast<std::size_t>(h ^ (h >> 29));
  }
};

// the road graph as a route sees it: each node's source bits (R26, C18) and its costed moves (C9)
struct RoadTables {
  std::vector<uint64_t> source_mask;                      // by node
  std::vector<std::vector<std::pair<int, int>>> moves;    // by node: (next node, range cost)
  std::vector<int> slot_of_bit;                           // haul slot of each source bit

  explicit RoadTables(const Board& b) {
    const int H = b.height(), W = b.width();
    const auto& drink = b.drink();
    std::vector<int> bit_of_square(drink.size(), -1);
    for (std::size_t i = 0; i < drink.size(); ++i) {
      if (drink[i] < 0) continue;
      if (slot_of_bit.size() >= 64) throw std::invalid_argument("a map with more than 64 drink sources");
      bit_of_square[i] = static_cast<int>(slot_of_bit.size());
      slot_of_bit.push_back(haul_slot(drink[i]));
    }
    const auto& node_square = b.node_square();
    const auto& tile = b.tile();
    source_mask.assign(node_square.size(), 0);
    for (std::size_t n = 0; n < node_square.size(); ++n) {
      const int r = node_square[n] / W, c = node_square[n] % W;
      for (const auto& [dr, dc] : roads::kDeltas) {  // orthogonally next to the road square only (R26)
        const int rr = r + dr, cc = c + dc;
        if (rr < 0 || rr >= H || cc < 0 || cc >= W) continue;
        const int bit = bit_of_square[static_cast<std::size_t>(rr * W + cc)];
        if (bit >= 0) source_mask[n] |= uint64_t{1} << bit;
      }
    }
    const roads::NodeLinks links = roads::node_neighbors(b);
    moves.resize(node_square.size());
    for (std::size_t n = 0; n < node_square.size(); ++n) {
      const int here = tile[static_cast<std::size_t>(node_square[n])];
      for (const auto& [d, next] : links[n]) {
        (void)d;
        const int there = tile[static_cast<std::size_t>(node_square[static_cast<std::size_t>(next)])];
        moves[n].emplace_back(next, there != here ? 1 : 0);  // C9: one range per tile border
      }
    }
  }

  Haul haul_of(uint64_t mask) const {
    Haul counts{0, 0, 0};
    for (std::size_t bit = 0; mask; ++bit, mask >>= 1) {
      if (mask & 1) counts[static_cast<std::size_t>(slot_of_bit[bit])] += 1;
    }
    return counts;
  }
};

}  // namespace

Goods haul_drinks(const Haul& haul, int per_source) {
  Goods counts{};
  for (std::size_t i = 0; i < kHaulGoods.size(); ++i) {
    counts[static_cast<std::size_t>(kHaulGoods[i])] = static_cast<int16_t>(haul[i] * per_source);
  }
  return counts;
}

namespace {

std::vector<Haul> search_roads(const Board& b, const RoadTables& tables, const std::vector<Square>& entrances,
                               int max_range) {
  if (max_range < 0) return {};
  const int H = b.height(), W = b.width();
  for (const Square& sq : entrances) {
    if (!roads::in_bounds(b, sq[0], sq[1])) {
      throw std::invalid_argument("entrance square (" + std::to_string(sq[0]) + ", " + std::to_string(sq[1]) +
                                  ") is off the " + std::to_string(H) + " x " + std::to_string(W) + " map");
    }
  }
  const auto& road = b.road_mask();
  const auto& tile = b.tile();
  // levels[u]: states first reached having used u range (each is expanded once, at its least range)
  std::vector<std::vector<RoadState>> levels(static_cast<std::size_t>(max_range) + 1);
  for (const Square& sq : entrances) {
    const int r = sq[0], c = sq[1];
    for (int d = 0; d < 4; ++d) {
      const int rr = r + roads::kDeltas[static_cast<std::size_t>(d)][0];
      const int cc = c + roads::kDeltas[static_cast<std::size_t>(d)][1];
      if (rr < 0 || rr >= H || cc < 0 || cc >= W || !road[static_cast<std::size_t>(rr * W + cc)]) continue;
      // R29: every road the entrance touches is a way out; on a bridge the road running away from it
      const int node = b.node_of()[static_cast<std::size_t>(rr * W + cc)][static_cast<std::size_t>(roads::axis_of(d))];
      const int cost = tile[static_cast<std::size_t>(r * W + c)] != tile[static_cast<std::size_t>(rr * W + cc)];  // R30
      if (cost <= max_range) {
        levels[static_cast<std::size_t>(cost)].push_back({node, kNoPrev, tables.source_mask[static_cast<std::size_t>(node)]});
      }
    }
  }
  std::unordered_set<RoadState, RoadStateHash> seen;
  std::unordered_set<uint64_t> masks;
  std::vector<RoadState> stack;
  for (int used = 0; used <= max_range; ++used) {
    stack.clear();
    for (const RoadState& s : levels[static_cast<std::size_t>(used)]) {
      if (seen.insert(s).second) stack.push_back(s);
    }
    const bool can_cross = used < max_range;
    while (!stack.empty()) {
      const RoadState state = stack.back();
      stack.pop_back();
      masks.insert(state.mask);
      for (const auto& [next, cost] : tables.moves[static_cast<std::size_t>(state.node)]) {
        if (next == state.prev) continue;  // R23: no U-turn, not even at a dead end
        const RoadState nxt{next, state.node, state.mask | tables.source_mask[static_cast<std::size_t>(next)]};
        if (cost == 0) {
          if (seen.insert(nxt).second) stack.push_back(nxt);
        } else if (can_cross) {
          levels[static_cast<std::size_t>(used) + 1].push_back(nxt);
        }
      }
    }
  }
  std::set<Haul> hauls;
  for (uint64_t m : masks) hauls.insert(tables.haul_of(m));
  return {hauls.begin(), hauls.end()};
}

}  // namespace

std::vector<Haul> road_hauls(const Board& b, const std::vector<Square>& entrances, int max_range) {
  if (max_range < 0) return {};
  return search_roads(b, RoadTables(b), entrances, max_range);
}

std::vector<Haul> road_hauls(const std::shared_ptr<const Board>& b, const std::vector<Square>& entrances,
                             int max_range) {
  if (!b) throw std::invalid_argument("road_hauls: no board");
  if (max_range < 0) return {};
  // the tables of the last board seen: a weak pointer, so a new board at a freed one's address is not
  // mistaken for it
  thread_local std::weak_ptr<const Board> cached_board;
  thread_local std::unique_ptr<RoadTables> cached;
  if (!cached || cached_board.lock() != b) {
    cached = std::make_unique<RoadTables>(*b);
    cached_board = b;
  }
  return search_roads(*b, *cached, entrances, max_range);
}

std::vector<Haul> air_hauls(const Board& b, const std::vector<int>& start_tiles, int max_steps) {
  if (max_steps < 0) return {};
  const int T = b.tile_rows() * b.tile_cols();
  if (T > 64) throw std::invalid_argument("air_hauls: a map of more than 64 tiles");
  std::vector<Haul> per_tile(static_cast<std::size_t>(T), Haul{0, 0, 0});
  const auto& drink = b.drink();
  for (std::size_t i = 0; i < drink.size(); ++i) {
    if (drink[i] >= 0) per_tile[static_cast<std::size_t>(b.tile()[i])][static_cast<std::size_t>(haul_slot(drink[i]))] += 1;
  }
  std::vector<std::vector<int>> neighbors;
  for (int t = 0; t < T; ++t) neighbors.push_back(roads::tile_neighbors(b, t));
  std::set<Haul> hauls;
  std::map<std::pair<int, uint64_t>, int> best_left;  // (tile, visited tiles) -> most steps left seen

  // every prefix of a flight is an outcome (R22); a tile is never entered twice (C19)
  struct Flight {
    const std::vector<Haul>& per_tile;
    const std::vector<std::vector<int>>& neighbors;
    std::set<Haul>& hauls;
    std::map<std::pair<int, uint64_t>, int>& best_left;
    void fly(int tile, uint64_t visited, const Haul& haul, int left) {
      hauls.insert(haul);
      const auto key = std::make_pair(tile, visited);
      const auto it = best_left.find(key);
      if (it != best_left.end() && it->second >= left) return;
      best_left[key] = left;
      if (left == 0) return;
      for (int next : neighbors[static_cast<std::size_t>(tile)]) {
        if (visited >> next & 1) continue;
        const Haul& add = per_tile[static_cast<std::size_t>(next)];
        fly(next, visited | uint64_t{1} << next, {haul[0] + add[0], haul[1] + add[1], haul[2] + add[2]}, left - 1);
      }
    }
  } flight{per_tile, neighbors, hauls, best_left};

  for (int t : std::set<int>(start_tiles.begin(), start_tiles.end())) {
    if (t < 0 || t >= T) {
      throw std::invalid_argument("start tile " + std::to_string(t) + " is not one of the " + std::to_string(T) +
                                  " tiles");
    }
    flight.fly(t, uint64_t{1} << t, per_tile[static_cast<std::size_t>(t)], max_steps);
  }
  return {hauls.begin(), hauls.end()};
}

}  // namespace fcm::routes

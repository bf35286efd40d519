// The heuristic's answers on the map: restaurants, new houses and gardens (placement.py) and the campaign
// chain (marketing.py).
#include <algorithm>
#include <limits>
#include <map>

#include "board_areas.h"
#include "cards.h"
#include "heuristic.h"
#include "occupancy.h"
#include "phases.h"
#include "placement.h"
#include "rules_data.h"

namespace fcm::players {

// ------------------------------------------------------------------ restaurants

Answer Heuristic::initial_restaurant(const Position& pos, MapReads&) {
  const GameState& s = pos.s;
  std::vector<Square> others;
  for (int q = 0; q < s.num_players; ++q) {
    if (q == pos.player) continue;
    for (const Restaurant& r : s.players[at(q)].restaurants) {
      for (const Square& e : entrance_squares(r, false)) others.push_back(e);
    }
  }
  std::vector<int32_t> other;
  if (!others.empty()) other = house_ranges_from(s, others);
  // each legal placement's entrance (restaurant_entrance), scored once per square
  std::vector<Square> unique;
  std::vector<int> which(pos.legal.size(), -1);
  for (std::size_t i = 0; i < pos.legal.size(); ++i) {
    const Action& a = pos.legal[i];
    if (a.kind != ActionKind::kPlaceRestaurant) continue;
    const auto& off = kRestaurantEntranceOffsets[at(a[2])];
    const Square e{a[0] + off[0], a[1] + off[1]};
    auto found = std::find(unique.begin(), unique.end(), e);
    which[i] = static_cast<int>(found - unique.begin());
    if (found == unique.end()) unique.push_back(e);
  }
  const std::vector<double> score = entrance_scores(s, unique, others.empty() ? nullptr : &other);
  std::vector<double> scores(pos.legal.size(), -1.0);
  for (std::size_t i = 0; i < pos.legal.size(); ++i) {
    if (which[i] >= 0) scores[i] = score[at(which[i])];
  }
  return pick_spot(pos.legal, scores);
}

Action Heuristic::pick_spot(const std::vector<Action>& legal, const std::vector<double>& scores) {
  std::size_t best = 0;
  for (std::size_t i = 1; i < legal.size(); ++i) {
    if (scores[i] > scores[best]) best = i;
  }
  return legal[best];
}

Answer Heuristic::restaurant_manager(const Position& pos) {
  const auto opened = static_cast<int>(player_of(pos.s, pos.player).restaurants.size());
  for (const Action& a : pos.legal) {
    if (a.kind == ActionKind::kSelectRestaurant && a[1] == opened) return a;
  }
  return pass_action();
}

Answer Heuristic::restaurant_place(const Position& pos, MapReads& reads) { return initial_restaurant(pos, reads); }

// ------------------------------------------------------------------ houses and gardens

Answer Heuristic::new_business(const Position& pos, MapReads& reads) {
  const GameState& s = pos.s;
  const Action* best = nullptr;
  double best_score = 0.0;
  bool any_garden = false;
  for (const Action& a : pos.legal) {
    if (a.kind != ActionKind::kPlaceGarden) continue;
    // the printed house the garden joins: the first house square next to a garden square
    const std::vector<int16_t>& grid = reads.grid();
    const int H = s.board->height(), W = s.board->width();
    int target = -1;
    for (const Square& q : garden_squares(a[0], a[1], a[2])) {
      for (const auto& [dr, dc] : {std::pair{-1, 0}, std::pair{1, 0}, std::pair{0, -1}, std::pair{0, 1}}) {
        const int rr = q[0] + dr, cc = q[1] + dc;
        if (target < 0 && 0 <= rr && rr < H && 0 <= cc && cc < W) {
          const int number = grid[at(rr * W + cc)];
          if (number && !house_by_number(s, number).placed) target = number;
        }
      }
      if (target >= 0) break;
    }
    double score = 0.0;
    if (target >= 0) {
      const auto& dist = reads.distances(pos.player);
      std::size_t index = 0;
      while (s.houses[index].number != target) ++index;
      if (dist[index] < kUnreachable) {
        score = 1.0 / (1.0 + dist[index]) + 0.5 * static_cast<double>(s.houses[index].demand.size());
      }
    }
    if (!any_garden || score > best_score) best = &a, best_score = score;
    any_garden = true;
  }
  if (any_garden && best_score > 0) return *best;
  const Action* low = nullptr;
  for (const Action& a : pos.legal) {  // low numbers eat first
    if (a.kind == ActionKind::kChooseHouse && (low == nullptr || a[0] < (*low)[0])) low = &a;
  }
  return low ? *low : pass_action();
}

Answer Heuristic::house_place(const Position& pos) {
  const GameState& s = pos.s;
  const std::vector<Square> entrances = entrances_of(s, pos.player);
  if (entrances.empty()) return std::nullopt;
  const std::vector<int32_t> grid = ranges_grid(s, entrances);
  const int W = s.board->width();
  const Action* best = nullptr;
  int best_score = 0;
  for (const Action& a : pos.legal) {
    int nearest = std::numeric_limits<int>::max();
    for (const Square& q : house_footprint(a[0], a[1], a[2]).first) nearest = std::min(nearest, grid[at(q[0] * W + q[1])]);
    if (best == nullptr || -nearest > best_score) best = &a, best_score = -nearest;
  }
  return best ? Answer(*best) : std::nullopt;
}

// ------------------------------------------------------------------ campaigns

Answer Heuristic::marketeer(const Position& pos, MapReads& reads) {
  const Action* best = nullptr;
  for (const Action& a : pos.legal) {
    if (a.kind == ActionKind::kSelectMarketeer &&
        (best == nullptr || employee(a[0]).max_duration > employee((*best)[0]).max_duration)) {
      best = &a;
    }
  }
  if (best == nullptr) return std::nullopt;
  const auto& values = reads.house_values(pos.player);
  const double top = values.empty() ? 0.0 : *std::max_element(values.begin(), values.end());
  if (top <= 0.05) return pass_action();  // nothing worth advertising to
  return *best;
}

Answer Heuristic::campaign_tile(const Position& pos, MapReads& reads) {
  // a tile's number plays no part in where it may go or what it reaches: one shape is scored once
  const std::vector<double>& values = reads.house_values(pos.player);
  const Action* best = nullptr;
  double best_score = -1.0;
  std::vector<std::array<int, 5>> tried;
  std::vector<Action> spots;
  for (const Action& a : pos.legal) {
    const MarketingTileSpec& tile = marketing_tile(a[0]);
    const std::array<int, 5> shape{tile.type, tile.w, tile.h, tile.rotatable ? 1 : 0, tile.along_edge};
    if (std::find(tried.begin(), tried.end(), shape) != tried.end()) continue;
    tried.push_back(shape);
    Pending next{Decision::kCampaignPlace, pos.player, pos.pending.context};
    next.context.push_back(a[0]);
    spots.clear();
    legal_campaign_place(pos.s, next, spots);
    std::sort(spots.begin(), spots.end());
    const auto [spot, score] = best_placement(pos.s, pos.player, a[0], spots, values, reads);
    if (!spot) continue;
    if (score > best_score) best = &a, best_score = score;
  }
  return best ? Answer(*best) : std::nullopt;
}

Answer Heuristic::campaign_place(const Position& pos, MapReads& reads) {
  return best_placement(pos.s, pos.player, pos.pending.context.back(), pos.legal, reads.house_values(pos.player),
                        reads).first;
}

std::pair<Answer, double> Heuristic::best_placement(const GameState& s, int, int number,
                                                    const std::vector<Action>& legal,
                                                    const std::vector<double>& values, MapReads& reads) {
  const MarketingTileSpec& tile = marketing_tile(number);
  const std::vector<int16_t>& grid = reads.grid();
  std::map<std::vector<int>, double> scores;  // spots that reach the same houses score the same
  Answer best;
  double best_score = -std::numeric_limits<double>::infinity();
  for (const Action& a : legal) {
    std::vector<int> houses = spot_houses(s, grid, tile, a[0], a[1], a[2]);
    auto found = scores.find(houses);
    double score;
    if (found != scores.end()) {
      score = found->second;
    } else {
      score = 0.0;
      for (int n : houses) score += at(n) < values.size() ? values[at(n)] : 0.0;
      scores.emplace(std::move(houses), score);
    }
    if (score > best_score) best = a, best_score = score;
  }
  return {best, best_score};
}

Answer Heuristic::campaign_product(const Position& pos) {
  const int food = main_food(pos.s, pos.player);
  for (const Action& a : pos.legal) {
    if (a.n > 0 && a[0] == food) return a;
  }
  return std::nullopt;
}

Answer Heuristic::campaign_duration(const Position& pos) {
  const Action* best = nullptr;
  int best_key = 0;
  for (const Action& a : pos.legal) {
    const int key = a.kind == ActionKind::kChooseDuration ? a[0] : -1;
    if (best == nullptr || key > best_key) best = &a, best_key = key;
  }
  return best ? Answer(*best) : std::nullopt;
}

}  // namespace fcm::players

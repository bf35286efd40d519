// Phase 6 Marketing campaigns (fcm_env/engine/phases/marketing.py): every campaign on the board adds demand;
// no decisions. rules: Phase 6; First radio campaign; C15, C17, C21, C30; R45-R47; D39.
//
// Campaigns run in tile-number order. Each house a campaign reaches gets one demand token of the product
// (two from a radio of a player holding "First radio campaign"), as far as its limit allows (3, or 5 with
// a garden). Then a timed campaign loses one advertising token; at none left its tile returns to the
// supply and its marketeer to the owner's hand. Eternal campaigns keep their token for ever. Campaigns of
// a bankrupt chain run on as well (C21).

#include <algorithm>
#include <numeric>
#include <set>
#include <stdexcept>
#include <string>

#include "board_roads.h"
#include "marketing_areas.h"
#include "milestones.h"
#include "occupancy.h"
#include "phases.h"
#include "rules_data.h"

namespace fcm {

namespace {

namespace areas = marketing_areas;

// house numbers the campaign reaches, ascending (a garden square counts for its house)
std::vector<int> houses_reached(const GameState& s, const Campaign& c, const std::vector<int16_t>& grid) {
  const Board& b = *s.board;
  if (c.kind < kBillboard || c.kind > kRadio) throw std::invalid_argument(std::to_string(c.kind) + " is not a valid CampaignType");
  if (c.kind == kAirplane) {
    const int size = marketing_tile(c.number).along_edge;
    return areas::houses_under_airplane(b, areas::airplane_from_anchor(c.row, c.col, c.orientation, size, b), grid);
  }
  for (const Square& sq : c.squares) roads::flat_index(b, sq);  // squares off the map are malformed
  if (c.kind == kBillboard) {  // orthogonally next to the tile
    if (c.squares.empty()) throw std::invalid_argument("a billboard campaign covers no squares");
    int r0 = c.squares[0][0], c0 = c.squares[0][1], r1 = r0, c1 = c0;
    for (const Square& sq : c.squares) {
      r0 = std::min(r0, sq[0]);
      r1 = std::max(r1, sq[0]);
      c0 = std::min(c0, sq[1]);
      c1 = std::max(c1, sq[1]);
    }
    return areas::houses_next_to(b, r0, c0, r1 - r0 + 1, c1 - c0 + 1, grid);
  }
  std::set<int> places;  // mailbox: its blocks (R45); radio: its tiles (R46)
  for (const Square& sq : c.squares) {
    places.insert(c.kind == kMailbox ? areas::block_at(b, sq[0], sq[1]) : roads::tile_at(b, sq[0], sq[1]));
  }
  std::set<int> houses;
  for (int place : places) {
    const auto found = c.kind == kMailbox ? areas::houses_in_block(b, place, grid) : areas::houses_near_tile(b, place, grid);
    houses.insert(found.begin(), found.end());
  }
  return {houses.begin(), houses.end()};
}

const PlayerState& owner_of(const GameState& s, const Campaign& c) {
  if (c.owner < 0 || c.owner >= static_cast<int>(s.players.size())) {
    throw std::invalid_argument("campaign " + std::to_string(c.number) + " has no owner " + std::to_string(c.owner));
  }
  return s.players[static_cast<std::size_t>(c.owner)];
}

int tokens_per_house(const GameState& s, const Campaign& c) {
  if (c.kind == kRadio) {
    owner_of(s, c);
    if (has_milestone(s, c.owner, kFirstRadio)) return milestone_param(kFirstRadio, "radio_demand_per_house");
  }
  return 1;
}

void run_campaign(GameState& s, const Campaign& c, const std::vector<int16_t>& grid) {
  const int tokens = tokens_per_house(s, c);
  for (int number : houses_reached(s, c, grid)) {
    House& house = house_by_number(s, number);
    const auto& data = rules_data();
    const int limit = house.garden.empty() ? data.demand_limit : data.demand_limit_with_garden;
    const int room = limit - static_cast<int>(house.demand.size());
    house.demand.insert(house.demand.end(), static_cast<std::size_t>(std::max(0, std::min(tokens, room))), c.product);
  }
}

// a timed campaign ran out: the tile goes back; the marketeer too, unless fired (C30). With several
// campaigns of one marketeer type the fired card counts as the one whose campaign ends last (D39), so a
// card returns while ``busy`` holds one of the type. (The caller removes the campaign from the list.)
void retire(GameState& s, const Campaign& c) {
  auto& supply = s.marketing_supply;
  supply.insert(std::upper_bound(supply.begin(), supply.end(), c.number), c.number);  // bisect.insort
  owner_of(s, c);
  PlayerState& owner = s.players[static_cast<std::size_t>(c.owner)];
  if (c.marketeer < 0 || c.marketeer >= kNumTypes) {
    throw std::invalid_argument("campaign " + std::to_string(c.number) + ": unknown marketeer " + std::to_string(c.marketeer));
  }
  const auto m = static_cast<std::size_t>(c.marketeer);
  if (owner.busy[m] > 0) {
    owner.busy[m] -= 1;
    owner.hand[m] += 1;
  }
}

}  // namespace

void run_marketing(GameState& s) {
  s.phase = Phase::kMarketing;
  if (s.campaigns.empty()) return;
  for (const House& h : s.houses) {  // house_grid writes every house square: off the map is malformed
    for (const Square& sq : h.squares) roads::flat_index(*s.board, sq);
    for (const Square& sq : h.garden) roads::flat_index(*s.board, sq);
  }
  const std::vector<int16_t> grid = house_grid(s);
  std::vector<std::size_t> order(s.campaigns.size());  // tile-number order (a stable sort, as sorted())
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return s.campaigns[a].number < s.campaigns[b].number; });
  std::vector<bool> retired(s.campaigns.size(), false);
  for (std::size_t i : order) {
    Campaign& c = s.campaigns[i];
    run_campaign(s, c, grid);
    if (c.eternal) continue;
    c.remaining -= 1;
    if (c.remaining <= 0) {
      retire(s, c);
      retired[i] = true;
    }
  }
  std::vector<Campaign> kept;  // the list keeps its order, less the retired campaigns
  for (std::size_t i = 0; i < s.campaigns.size(); ++i) {
    if (!retired[i]) kept.push_back(std::move(s.campaigns[i]));
  }
  s.campaigns = std::move(kept);
}

}  // namespace fcm

// Phase 3 Working 9-5, the last two sub-steps: new houses and gardens, then restaurants
// (fcm_env/engine/phases/working/expansion.py). rules: Place new houses and gardens; Place or move
// restaurants; C6, C11, R13, R14, R31; D8.
//
// Houses (one action per new business developer at work): NEW_BUSINESS offers choose_house(number) for every
// house token left when a house fits somewhere (then HOUSE_PLACE), place_garden beside a printed house
// without one while garden tokens last, or done. A placed house token carries its own garden.
// Restaurants (one action per local or regional manager at work): RESTAURANT_MANAGER offers
// select_restaurant(manager, index): index == number of restaurants is a new one (at most 3 a chain), a
// smaller index moves or rotates that one (regional manager only); then RESTAURANT_PLACE. A local
// manager's restaurant is "coming soon"; what a regional manager places or moves is open at once.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "board_areas.h"
#include "cards.h"
#include "occupancy.h"
#include "phases.h"
#include "placement.h"
#include "rules_data.h"

namespace fcm {

namespace {

constexpr int kLocalRange = 3;  // rules: Place or move restaurants — "within a range of 3 tiles"

int unused(const GameState& s, int player, int etype) {
  return pending_player(s, player).work[static_cast<std::size_t>(etype)] - s.turn.used[static_cast<std::size_t>(etype)];
}

// the context value at ``i`` of the pending decision (the choices made so far in this chain)
int context_at(const Pending& p, std::size_t i, std::size_t size, const char* decision) {
  if (p.context.size() != size) {
    throw std::invalid_argument(std::string(decision) + "'s pending context must hold " + std::to_string(size) +
                                " values, got " + std::to_string(p.context.size()));
  }
  return p.context[i];
}

// ------------------------------------------------------------------ houses and gardens

// printed houses that may still get a garden, by number (a placed house came with one)
HouseList gardenless(const GameState& s) {
  HouseList out;
  for (const House& h : s.houses) {
    if (!h.placed && h.garden.empty()) out.emplace_back(h.number, h.squares);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<Action> new_business_actions(const GameState& s, int player) {
  std::vector<Action> out;
  if (unused(s, player, kNewBusinessDeveloper) <= 0) return out;
  const Mask grid = occupied_on_map(s);
  if (!s.house_supply.empty() && house_placements(*s.board, grid).any()) {
    std::vector<int> numbers = s.house_supply;
    std::sort(numbers.begin(), numbers.end());
    for (int n : numbers) out.push_back(Action::make(ActionKind::kChooseHouse, n));
  }
  if (s.gardens_left > 0) {
    for (const Spot& spot : garden_placements(*s.board, grid, gardenless(s)).list()) {
      out.push_back(Action::make(ActionKind::kPlaceGarden, spot[0], spot[1], spot[2]));
    }
  }
  return out;
}

void next_new_business(GameState& s, int player) {
  s.turn.used[kNewBusinessDeveloper] += 1;
  if (!new_business_actions(s, player).empty()) {
    s.pending = {Pending{Decision::kNewBusiness, player, {}}};
  } else {
    s.pending.clear();  // this sub-step is over: Game calls continue_turn
  }
}

// ------------------------------------------------------------------ restaurants

const EmployeeSpec& manager_spec(int manager) {
  if (manager < 0 || manager >= static_cast<int>(rules_data().employees.size())) {
    throw std::invalid_argument("employee type " + std::to_string(manager) + " does not exist");
  }
  return employee(manager);
}

// squares on tiles within range 3 by road of the chain's entrances, coming soon ones too (D8, D25)
Mask local_reach(const GameState& s, int player) {
  const Board& board = *s.board;
  const std::vector<int32_t> ranges = tile_ranges_from(board, entrances_of(s, player, false));
  Mask reach(board.tile().size());
  for (std::size_t i = 0; i < reach.size(); ++i) reach[i] = ranges[static_cast<std::size_t>(board.tile()[i])] <= kLocalRange;
  return reach;
}

// legal (row, col, orientation) for a new restaurant (index == count) or a move of one: the moved one's own
// squares count as free (rotating in place is legal, R14); putting it back as it was is no move (D26)
std::vector<Spot> restaurant_spots(const GameState& s, int player, int manager, int index) {
  const Board& board = *s.board;
  const auto& restaurants = pending_player(s, player).restaurants;
  const int count = static_cast<int>(restaurants.size());
  if (index < 0) throw std::invalid_argument("restaurant index " + std::to_string(index) + " is negative");
  Mask grid = occupied_on_map(s);
  Mask reach;
  bool limited = false;
  if (index < count) {
    const Restaurant& moved = restaurants[static_cast<std::size_t>(index)];
    for (const Square& sq : restaurant_squares(moved.row, moved.col, moved.orientation)) {
      grid[square_index(board, sq, "restaurant square")] = 0;
    }
  } else if (manager_spec(manager).restaurant_placement == kLocal) {
    reach = local_reach(s, player);
    limited = true;
  }
  std::vector<Spot> spots = restaurant_placements(board, grid, false, {}, limited ? &reach : nullptr).list();
  if (index < count) {
    const Restaurant& here = restaurants[static_cast<std::size_t>(index)];
    const Spot same{here.row, here.col, here.orientation};
    spots.erase(std::remove(spots.begin(), spots.end(), same), spots.end());
  }
  return spots;
}

std::vector<Action> manager_actions(const GameState& s, int player) {
  const int count = static_cast<int>(pending_player(s, player).restaurants.size());
  std::vector<Action> out;
  for (const EmployeeSpec& spec : rules_data().employees) {  // the managers in type order
    if (spec.restaurant_placement == kNoPlacement || unused(s, player, spec.type) <= 0) continue;
    std::vector<int> indices;
    if (spec.restaurant_placement == kRegional) {
      for (int i = 0; i < count; ++i) indices.push_back(i);
    }
    if (count < rules_data().prices.restaurants_per_player) indices.push_back(count);
    for (int i : indices) {
      if (!restaurant_spots(s, player, spec.type, i).empty()) {
        out.push_back(Action::make(ActionKind::kSelectRestaurant, spec.type, i));
      }
    }
  }
  return out;
}

}  // namespace

// ------------------------------------------------------------------ the decisions

bool begin_houses(GameState& s, int player) {
  if (new_business_actions(s, player).empty()) return false;
  s.pending = {Pending{Decision::kNewBusiness, player, {}}};
  return true;
}

void legal_new_business(const GameState& s, const Pending& p, std::vector<Action>& out) {
  out.push_back(Action::make(ActionKind::kPass));
  const std::vector<Action> actions = new_business_actions(s, p.player);
  out.insert(out.end(), actions.begin(), actions.end());
}

void apply_new_business(GameState& s, const Pending& p, const Action& a) {
  if (a.kind == ActionKind::kPass) {
    s.pending.clear();
    return;
  }
  if (a.kind == ActionKind::kChooseHouse) {
    s.pending = {Pending{Decision::kHousePlace, p.player, {a[0]}}};
    return;
  }
  // a garden for a printed house
  const auto number = garden_target(a[0], a[1], a[2], gardenless(s));
  if (!number) throw std::invalid_argument("the garden completes no printed house without a garden");
  house_by_number(s, *number).garden = garden_squares(a[0], a[1], a[2]);
  s.gardens_left -= 1;
  next_new_business(s, p.player);
}

void legal_house_place(const GameState& s, const Pending&, std::vector<Action>& out) {
  for (const Spot& spot : house_placements(*s.board, occupied_on_map(s)).list()) {
    out.push_back(Action::make(ActionKind::kPlaceHouse, spot[0], spot[1], spot[2]));
  }
}

void apply_house_place(GameState& s, const Pending& p, const Action& a) {
  const int number = context_at(p, 0, 1, "HOUSE_PLACE");
  auto [squares, garden] = house_footprint(a[0], a[1], a[2]);
  const auto token = std::find(s.house_supply.begin(), s.house_supply.end(), number);
  if (token == s.house_supply.end()) {
    throw std::invalid_argument("house " + std::to_string(number) + " is not in the house supply");
  }
  House placed{number, std::move(squares), std::move(garden), true, {}};
  // like a dict entry: a number already there keeps its place, a new one comes last
  const auto same = std::find_if(s.houses.begin(), s.houses.end(), [number](const House& h) { return h.number == number; });
  if (same != s.houses.end()) {
    *same = std::move(placed);
  } else {
    s.houses.push_back(std::move(placed));
  }
  s.house_supply.erase(token);
  next_new_business(s, p.player);
}

bool begin_restaurants(GameState& s, int player) {
  if (manager_actions(s, player).empty()) return false;
  s.pending = {Pending{Decision::kRestaurantManager, player, {}}};
  return true;
}

void legal_restaurant_manager(const GameState& s, const Pending& p, std::vector<Action>& out) {
  out.push_back(Action::make(ActionKind::kPass));
  const std::vector<Action> actions = manager_actions(s, p.player);
  out.insert(out.end(), actions.begin(), actions.end());
}

void apply_restaurant_manager(GameState& s, const Pending& p, const Action& a) {
  if (a.kind == ActionKind::kPass) {
    s.pending.clear();
    return;
  }
  s.pending = {Pending{Decision::kRestaurantPlace, p.player, {a[0], a[1]}}};
}

void legal_restaurant_place(const GameState& s, const Pending& p, std::vector<Action>& out) {
  const int manager = context_at(p, 0, 2, "RESTAURANT_PLACE"), index = context_at(p, 1, 2, "RESTAURANT_PLACE");
  for (const Spot& spot : restaurant_spots(s, p.player, manager, index)) {
    out.push_back(Action::make(ActionKind::kPlaceRestaurant, spot[0], spot[1], spot[2]));
  }
}

void apply_restaurant_place(GameState& s, const Pending& p, const Action& a) {
  const int manager = context_at(p, 0, 2, "RESTAURANT_PLACE"), index = context_at(p, 1, 2, "RESTAURANT_PLACE");
  auto& restaurants = pending_player(s, p.player).restaurants;
  const bool local = manager_spec(manager).restaurant_placement == kLocal;
  const Restaurant placed{a[0], a[1], a[2], local};  // rules: "COMING SOON" / open at once
  if (index == static_cast<int>(restaurants.size())) {
    restaurants.push_back(placed);
  } else if (index >= 0 && index < static_cast<int>(restaurants.size())) {
    restaurants[static_cast<std::size_t>(index)] = placed;
  } else {
    throw std::invalid_argument("restaurant index " + std::to_string(index) + " is not 0.." +
                                std::to_string(restaurants.size()));
  }
  s.turn.used[static_cast<std::size_t>(manager)] += 1;
  if (!manager_actions(s, p.player).empty()) {
    s.pending = {Pending{Decision::kRestaurantManager, p.player, {}}};
  } else {
    s.pending.clear();
  }
}

}  // namespace fcm

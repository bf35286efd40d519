// Phase 4 Dinnertime (fcm_env/engine/phases/dinnertime.py): houses eat, waitresses earn tips, CFOs add half;
// no decisions. rules: Phase 4; C10-C12, C21, C22, C26, C27; R29-R30, R33-R37.
//
// Houses with demand eat in ascending number. A chain qualifies when one of its open restaurants is
// connected by road to the house (or its garden) and its stock covers the whole demand; the house picks
// the lowest unit price + distance (R33), then most waitresses at work, then the earlier seat (R34). A
// house's bill: per item the unit price (doubled with a garden) plus the "First ... marketed" bonus. A
// positive bill is paid by the bank; a negative one (C21) by the chain, bankrupt if it cannot pay it all
// (it still serves, earns tips and its CFO share this turn). Then tips, then the CFO (or "First to have
// $100" from an earlier turn) adds half of the cash earned in the phase, rounded up (C22, R37).

#include <algorithm>
#include <array>
#include <numeric>
#include <stdexcept>
#include <string>

#include "bank.h"
#include "board_roads.h"
#include "milestones.h"
#include "occupancy.h"
#include "phases.h"
#include "rules_data.h"

namespace fcm {

namespace {

const std::array<int, 3> kMarketed{kFirstBurgerMarketed, kFirstPizzaMarketed, kFirstDrinkMarketed};
const char* const kGoodNames[kNumGoods] = {"burger", "pizza", "beer", "lemonade", "soda"};

PlayerState& player_of(GameState& s, int player) {
  if (player < 0 || player >= static_cast<int>(s.players.size())) {
    throw std::invalid_argument("no player " + std::to_string(player));
  }
  return s.players[static_cast<std::size_t>(player)];
}

int checked_good(int good) {
  if (good < 0 || good >= kNumGoods) throw std::invalid_argument("a demand token of unknown good " + std::to_string(good));
  return good;
}

// base $10 + pricing / discount / luxuries managers at work, -$1 with First to lower prices
int64_t unit_price(const GameState& s, int player) {
  const PlayerState& p = s.players[static_cast<std::size_t>(player)];
  int64_t price = rules_data().prices.base_unit_price;
  for (int t = 0; t < kNumTypes; ++t) price += int64_t{p.work[static_cast<std::size_t>(t)]} * employee(t).price_delta;
  static const int kLowerPrices = milestone_param(kFirstLowerPrices, "unit_price_delta");  // data: read once
  if (has_milestone(s, player, kFirstLowerPrices)) price += kLowerPrices;
  return price;
}

// the "First burger / pizza / drink marketed" bonus for one item of ``good`` (not doubled by a garden)
int64_t item_bonus(const GameState& s, int player, int good) {
  int64_t bonus = 0;
  for (int m : kMarketed) {
    if (!has_milestone(s, player, m)) continue;
    const auto& params = rules_data().milestone_params[static_cast<std::size_t>(m)];
    const auto it = params.find(std::string("bonus_per_item_sold.") + kGoodNames[good]);
    if (it != params.end()) bonus += it->second;
  }
  return bonus;
}

int64_t house_bill(const GameState& s, int player, const House& house) {
  const int64_t price = unit_price(s, player) * (house.garden.empty() ? 1 : 2);
  int64_t bill = 0;
  for (int good : house.demand) bill += price + item_bonus(s, player, good);
  return bill;
}

bool can_supply(const GameState& s, int player, const std::vector<int>& demand) {
  std::array<int, kNumGoods> wanted{};
  for (int good : demand) wanted[static_cast<std::size_t>(checked_good(good))] += 1;
  const Goods& stock = s.players[static_cast<std::size_t>(player)].stock;
  for (int g = 0; g < kNumGoods; ++g) {
    if (wanted[static_cast<std::size_t>(g)] && stock[static_cast<std::size_t>(g)] < wanted[static_cast<std::size_t>(g)]) return false;
  }
  return true;
}

// road range from the house (or its garden) to the chain's nearest open entrance (C10, C11)
int distance_to(const GameState& s, int player, const House& house) {
  const std::vector<Square> entrances = entrances_of(s, player);
  if (entrances.empty()) return kUnreachable;
  std::vector<Square> footprint = house.squares;
  footprint.insert(footprint.end(), house.garden.begin(), house.garden.end());
  return roads::distance(*s.board, footprint, entrances);
}

// the chain the house eats at, or -1: key (price + distance, -waitresses, seat), least wins (R33, R34)
int choose_chain(const GameState& s, const House& house) {
  std::array<int64_t, 3> best{};
  int chosen = -1;
  for (std::size_t seat = 0; seat < s.turn_order.size(); ++seat) {
    const int player = s.turn_order[seat];
    if (!can_supply(s, player, house.demand)) continue;  // bankrupt this turn still serves (C21)
    const int dist = distance_to(s, player, house);
    if (dist >= kUnreachable) continue;
    const int64_t waitresses = s.players[static_cast<std::size_t>(player)].work[kWaitress];
    const std::array<int64_t, 3> key{unit_price(s, player) + dist, -waitresses, static_cast<int64_t>(seat)};
    if (chosen < 0 || key < best) {
      best = key;
      chosen = player;
    }
  }
  return chosen;
}

// the bank pays (what it has, then on paper, bank.h); "First to have $20" at once (C26)
void pay(GameState& s, int player, int64_t amount) {
  pay_out(s, player, amount);
  if (s.players[static_cast<std::size_t>(player)].cash >= 20 && !is_broken_for_good(s)) {
    claim(s, player, kFirstHave20);
  }
}

// an income (bank pays) or a charge (the chain pays; bankrupt if it cannot, C21): the chain's cash change
int64_t settle(GameState& s, int player, int64_t amount) {
  if (amount >= 0) {
    pay(s, player, amount);
    return amount;
  }
  const int64_t owed = -amount;
  const int64_t paid = collect(s, player, owed);
  if (paid < owed) s.players[static_cast<std::size_t>(player)].bankrupt = true;
  return -paid;
}

void serve(GameState& s, int player, House& house) {
  PlayerState& p = s.players[static_cast<std::size_t>(player)];
  const int64_t bill = house_bill(s, player, house);
  for (int good : house.demand) p.stock[static_cast<std::size_t>(good)] -= 1;
  house.demand.clear();
  p.income += settle(s, player, bill);  // C22, D34: cash earned, a bill only as far as it was paid
}

int64_t waitress_tips(const GameState& s, int player) {
  const auto& prices = rules_data().prices;
  const int64_t per = has_milestone(s, player, kFirstWaitress) ? prices.waitress_tip_milestone : prices.waitress_tip;
  return per * s.players[static_cast<std::size_t>(player)].work[kWaitress];
}

// a CFO at work, or the CEO acting as one (First to have $100, claimed in an earlier turn: C27)
bool has_cfo(const GameState& s, int player) {
  if (s.players[static_cast<std::size_t>(player)].work[kCfo]) return true;
  const auto& now = s.milestones_this_turn;
  return has_milestone(s, player, kFirstHave100) && std::find(now.begin(), now.end(), kFirstHave100) == now.end();
}

// C22, R37: 50% of the cash earned in the phase, rounded towards +infinity (also when negative):
// Python's -((-income * percent) // 100) with its floor division
int64_t cfo_bonus(int64_t income) {
  const int64_t x = -income * rules_data().prices.cfo_bonus_percent;
  const int64_t floor_div = x / 100 - (x % 100 != 0 && x < 0 ? 1 : 0);
  return -floor_div;
}

}  // namespace

void run_dinnertime(GameState& s) {
  s.phase = Phase::kDinnertime;
  for (int player : s.turn_order) player_of(s, player);  // a turn order naming no player is malformed
  for (auto& p : s.players) p.income = 0;
  std::vector<std::size_t> order(s.houses.size());  // ascending house number
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return s.houses[a].number < s.houses[b].number; });
  for (std::size_t i : order) {
    House& house = s.houses[i];
    if (house.demand.empty()) continue;
    const int chain = choose_chain(s, house);
    if (chain >= 0) serve(s, chain, house);
  }
  for (int player : s.turn_order) {
    const int64_t tips = waitress_tips(s, player);
    s.players[static_cast<std::size_t>(player)].income += tips;
    pay(s, player, tips);  // R36: also without sales (and the $20 check even with no tips)
  }
  for (int player : s.turn_order) {
    if (has_cfo(s, player)) settle(s, player, cfo_bonus(s.players[static_cast<std::size_t>(player)].income));
  }
  if (!is_broken_for_good(s)) {
    for (int player : s.turn_order) {  // C27: First to have $100, at the end of Dinnertime
      if (s.players[static_cast<std::size_t>(player)].cash >= 100) claim(s, player, kFirstHave100);
    }
  }
}

}  // namespace fcm

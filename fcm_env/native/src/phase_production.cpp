// Phase 3 Working 9-5, fourth sub-step: get food & drinks (fcm_env/engine/phases/working/production.py).
// rules: Get food & drinks; C1, C18-C20, R22-R28, R52; milestones First errand boy played, First cart
// operator played, First burger / pizza produced (C28, R43).
//
// One PRODUCE decision per card use, until the player passes or no unused kitchen card or buyer is left:
// produce(type, good) for kitchen cards (their full amount, R52) and the errand boy (one drink kind);
// haul(type, beer, lemonade, soda) for cart operators, truck drivers and zeppelin pilots, one action per
// distinct non-empty haul (a route collecting nothing is the same as leaving the card unused, D22).
#include <stdexcept>
#include <string>

#include "board_roads.h"
#include "milestones.h"
#include "occupancy.h"
#include "phases.h"
#include "routes.h"
#include "rules_data.h"

namespace fcm {

namespace {

constexpr std::array<int, 3> kDrinks{kBeer, kLemonade, kSoda};  // fcm_env.data.DRINKS

// the card types that produce food (KITCHEN) and the drink buyers (BUYERS), in type order
const std::vector<int>& kitchen_types() {
  static const std::vector<int> types = [] {
    std::vector<int> out;
    for (const auto& spec : rules_data().employees) {
      if (!spec.produces.empty()) out.push_back(spec.type);
    }
    return out;
  }();
  return types;
}
const std::vector<int>& buyer_types() {
  static const std::vector<int> types = [] {
    std::vector<int> out;
    for (const auto& spec : rules_data().employees) {
      if (spec.drink_mode != kNoDrinks) out.push_back(spec.type);
    }
    return out;
  }();
  return types;
}

const PlayerState& player_of(const GameState& s, int player) {
  if (player < 0 || player >= static_cast<int>(s.players.size())) {
    throw std::invalid_argument("no player " + std::to_string(player));
  }
  return s.players[static_cast<std::size_t>(player)];
}

// cards at work of a type whose action is not spent yet (work - used, as numpy's int16 vectors give it)
int unused(const GameState& s, int player, int etype) {
  const auto t = static_cast<std::size_t>(etype);
  return static_cast<int16_t>(player_of(s, player).work[t] - s.turn.used[t]);
}

// the card's drinks per source symbol, +1 with First errand boy played (R25)
int per_source(const GameState& s, int player, int etype) {
  return employee(etype).drinks_per_source + (has_milestone(s, player, kFirstErrandBoy) ? 1 : 0);
}

// the distinct non-empty hauls of a cart operator, truck driver or zeppelin pilot: range +1 with First
// cart operator played; from the open restaurants' entrances (drive-ins: all corners, C11, R32); a
// zeppelin starts on the tile of any of them (C19)
std::vector<routes::Haul> buyer_hauls(const GameState& s, int player, int etype) {
  const EmployeeSpec& spec = employee(etype);
  const int steps = spec.buyer_range + (has_milestone(s, player, kFirstCartOperator) ? 1 : 0);
  const std::vector<Square> entrances = entrances_of(s, player);
  std::vector<routes::Haul> hauls;
  if (spec.drink_mode == kAirRoute) {
    std::vector<int> tiles;
    for (const Square& sq : entrances) tiles.push_back(roads::tile_at(*s.board, sq[0], sq[1]));
    hauls = routes::air_hauls(*s.board, tiles, steps);
  } else {
    hauls = routes::road_hauls(s.board, entrances, steps);
  }
  std::vector<routes::Haul> out;
  for (const auto& h : hauls) {
    if (h[0] || h[1] || h[2]) out.push_back(h);
  }
  return out;
}

// the produce / haul actions (production._actions); with ``out`` null, only whether there is any
bool actions(const GameState& s, int player, std::vector<Action>* out) {
  bool any = false;
  for (int etype : kitchen_types()) {
    if (unused(s, player, etype) <= 0) continue;
    for (int good : employee(etype).produces) {
      if (!out) return true;
      out->push_back(Action::make(ActionKind::kProduce, etype, good));
      any = true;
    }
  }
  for (int etype : buyer_types()) {
    if (unused(s, player, etype) <= 0) continue;
    if (employee(etype).drink_mode == kErrand) {  // an errand boy: one action per drink
      for (int good : kDrinks) {
        if (!out) return true;
        out->push_back(Action::make(ActionKind::kProduce, etype, good));
        any = true;
      }
      continue;
    }
    for (const auto& h : buyer_hauls(s, player, etype)) {
      if (!out) return true;
      out->push_back(Action::make(ActionKind::kHaul, etype, h[0], h[1], h[2]));
      any = true;
    }
  }
  return any;
}

// rules: First burger/pizza produced; C28, R43 - a cook onto the beach at once, if any is left
void first_produced(GameState& s, int player, int good) {
  const int milestone = good == kBurger ? kFirstBurgerProduced : kFirstPizzaProduced;
  const int cook = good == kBurger ? kBurgerCook : kPizzaCook;
  if (claim(s, player, milestone) && s.supply[static_cast<std::size_t>(cook)] > 0) {
    s.supply[static_cast<std::size_t>(cook)] -= 1;
    s.players[static_cast<std::size_t>(player)].beach[static_cast<std::size_t>(cook)] += 1;
  }
}

int checked_index(int value, int size, const char* what) {
  if (value < 0 || value >= size) throw std::invalid_argument(std::string("unknown ") + what + " " + std::to_string(value));
  return value;
}

}  // namespace

bool begin_production(GameState& s, int player) {
  if (!actions(s, player, nullptr)) return false;
  s.pending = {Pending{Decision::kProduce, player, {}}};
  return true;
}

void legal_produce(const GameState& s, const Pending& p, std::vector<Action>& out) {
  out.push_back(Action::make(ActionKind::kPass));
  actions(s, p.player, &out);
}

void apply_produce(GameState& s, const Pending& p, const Action& a) {
  const int player = p.player;
  if (a.kind == ActionKind::kPass) {
    s.pending.clear();  // the sub-step is over: Game asks the next one (continue_turn)
    return;
  }
  player_of(s, player);
  PlayerState& ps = s.players[static_cast<std::size_t>(player)];
  const int etype = checked_index(a[0], kNumTypes, "employee type");
  if (a.kind == ActionKind::kHaul) {
    const Goods gained = routes::haul_drinks({a[1], a[2], a[3]}, per_source(s, player, etype));
    for (int g = 0; g < kNumGoods; ++g) ps.stock[static_cast<std::size_t>(g)] += gained[static_cast<std::size_t>(g)];
  } else {
    const int good = checked_index(a[1], kNumGoods, "good");
    const EmployeeSpec& spec = employee(etype);
    // an errand boy brings 1 drink, or 2 of one kind with First errand boy played (R25)
    const int amount = spec.drink_mode == kErrand ? per_source(s, player, etype) : spec.produce_amount;
    ps.stock[static_cast<std::size_t>(good)] += static_cast<int16_t>(amount);
    if (good == kBurger || good == kPizza) first_produced(s, player, good);
  }
  s.turn.used[static_cast<std::size_t>(etype)] += 1;
  if (!actions(s, player, nullptr)) s.pending.clear();
}

}  // namespace fcm

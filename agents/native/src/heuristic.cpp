// The heuristic's dispatch and its staff answers: the reserve card, Restructuring, turn order, recruiting,
// training and firing (staffing.py, from_legal.py); production and the freezer (production.py). The map's
// answers (placement.py, marketing.py) are in heuristic_map.cpp.
#include "heuristic.h"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "cards.h"
#include "hidden.h"
#include "phases.h"
#include "rules_data.h"

namespace fcm::players {

bool contains(const std::vector<Action>& legal, const Action& a) {
  return std::find(legal.begin(), legal.end(), a) != legal.end();
}

Action Heuristic::act(Game& game, int player) {
  const Pending* pending = game.pending();
  if (pending == nullptr || pending->player != player) {
    throw std::invalid_argument("player " + std::to_string(player) + " is not the one to move");
  }
  const std::vector<Action>& legal = game.legal_actions();
  if (legal.size() == 1) return legal[0];
  // the seat's view: other players' hidden facts erased, built only where the answer may read one (a state
  // copy costs more than most answers; Python's view is a shallow copy)
  const HiddenFacts hidden = hidden_from(game.state(), player);
  if (!reads_hidden(pending->decision, hidden)) {
    return answer(Position{game.state(), *pending, player, legal}).value_or(legal[0]);
  }
  GameState view = game.state();
  erase_hidden(view, hidden);
  return answer(Position{view, *pending, player, legal}).value_or(legal[0]);
}

bool Heuristic::reads_hidden(Decision decision, const HiddenFacts& hidden) const {
  // no answer reads another player's kept reserve card or firing marks; only the campaign chain's house
  // values read other players' cards (a local or regional manager at work gives their restaurants drive-ins)
  return !hidden.structures.empty() && (decision == Decision::kMarketeer || decision == Decision::kCampaignTile ||
                                        decision == Decision::kCampaignPlace);
}

Answer Heuristic::answer(const Position& pos) {
  MapReads reads(pos.s);
  switch (pos.pending.decision) {
    case Decision::kInitialRestaurant: return initial_restaurant(pos, reads);
    case Decision::kReserveCard: return reserve_card(pos);
    case Decision::kRestructure: return restructure(pos);
    case Decision::kTurnOrder: return turn_order(pos);
    case Decision::kRecruit: return recruit(pos);
    case Decision::kTrain: return train(pos);
    case Decision::kMarketeer: return marketeer(pos, reads);
    case Decision::kCampaignTile: return campaign_tile(pos, reads);
    case Decision::kCampaignPlace: return campaign_place(pos, reads);
    case Decision::kCampaignProduct: return campaign_product(pos);
    case Decision::kCampaignDuration: return campaign_duration(pos);
    case Decision::kProduce: return produce(pos, reads);
    case Decision::kNewBusiness: return new_business(pos, reads);
    case Decision::kHousePlace: return house_place(pos);
    case Decision::kRestaurantManager: return restaurant_manager(pos);
    case Decision::kRestaurantPlace: return restaurant_place(pos, reads);
    case Decision::kFire: return fire(pos);
    case Decision::kFreezer: return freezer(pos, reads);
  }
  return std::nullopt;
}

// ------------------------------------------------------------------ staffing

Answer Heuristic::reserve_card(const Position& pos) {
  const auto& offer = player_of(pos.s, pos.player).reserve_offer;
  // the $200 card (3 CEO slots) keeps the CEO as it is
  const Action* best = nullptr;
  int best_gap = 0;
  for (const Action& a : pos.legal) {
    const int gap = std::abs(offer.at(at(a[0])) - 200);
    if (best == nullptr || gap < best_gap) best = &a, best_gap = gap;
  }
  return best ? Answer(*best) : std::nullopt;
}

Answer Heuristic::restructure(const Position& pos, const std::vector<int>* priority) {
  const GameState& s = pos.s;
  const PlayerState& p = player_of(s, pos.player);
  std::array<const Action*, kNumTypes> puts{};
  bool any_put = false;
  for (const Action& a : pos.legal) {
    if (a.kind == ActionKind::kPutToWork) puts[at(checked_type(a[0]))] = &a, any_put = true;
  }
  if (!any_put) return std::nullopt;
  const Cards& hand = p.hand;
  const int keep_on_beach = train_reserve(s, pos.player);
  int staff_waiting = keep_on_beach >= 0 ? -1 : 0;
  for (int t : staff_types()) staff_waiting += hand[at(t)];
  // the managers on offer, most slots first (a stable sort of the legal order)
  int best_manager = -1;
  for (int t = 0; t < kNumTypes; ++t) {
    if (puts[at(t)] && employee(t).is_manager &&
        (best_manager < 0 || employee(t).manager_slots > employee(best_manager).manager_slots)) {
      best_manager = t;
    }
  }
  if (best_manager >= 0 && staff_waiting > open_slots(p.work, s.ceo_slots) - 1) return *puts[at(best_manager)];
  for (int t : (priority != nullptr ? *priority : tables().play_priority)) {
    if (puts[at(t)] && !(t == keep_on_beach && hand[at(t)] <= 1)) return *puts[at(t)];
  }
  if (contains(pos.legal, pass_action())) return pass_action();
  return std::nullopt;
}

int Heuristic::train_reserve(const GameState& s, int player) {
  const PlayerState& p = player_of(s, player);
  const Cards& hand = p.hand;
  const int trainers = hand[kTrainer] + hand[kCoach] + hand[kGuru] + p.work[kTrainer];
  if (!trainers || p.cash < 2 * rules_data().prices.salary * (1 + salaried(s, player))) return -1;
  for (int t : tables().train_reserve) {
    if (hand[at(t)] > 0) return t;
  }
  return -1;
}

Answer Heuristic::turn_order(const Position& pos) {
  const Action* best = &pos.legal[0];
  for (const Action& a : pos.legal) {
    if (a[0] < (*best)[0]) best = &a;
  }
  return *best;
}

Answer Heuristic::recruit(const Position& pos) {
  std::array<const Action*, kNumTypes> hires{};
  for (const Action& a : pos.legal) {
    if (a.kind == ActionKind::kRecruit) hires[at(checked_type(a[0]))] = &a;
  }
  const auto counts = owned_lines(pos.s, pos.player);
  for (const auto& [line, want] : tables().hiring_plan) {
    if (hires[at(line)] && counts[at(line)] < want) return *hires[at(line)];
  }
  for (int line : tables().extra_hires) {
    if (hires[at(line)] && counts[at(line)] < tables().extra_cap) return *hires[at(line)];
  }
  return pass_action();
}

Answer Heuristic::train(const Position& pos) {
  const GameState& s = pos.s;
  const PlayerState& p = player_of(s, pos.player);
  std::vector<const Action*> moves;
  for (const Action& a : pos.legal) {
    if (a.kind == ActionKind::kTrain) moves.push_back(&a);
  }
  if (moves.empty()) return std::nullopt;
  const bool must = !contains(pos.legal, pass_action());  // a phantom hire must be trained
  const bool affordable = p.cash >= rules_data().prices.salary * (tables().train_margin + salaried(s, pos.player));
  if (!(affordable || must)) return pass_action();
  for (const auto& [source, goals] : tables().train_goals) {
    for (int goal : goals) {
      for (const Action* move : moves) {
        if ((*move)[1] == source && (*move)[2] == goal) return *move;
      }
    }
  }
  return must ? *moves[0] : pass_action();
}

Answer Heuristic::fire(const Position& pos) {
  if (contains(pos.legal, pass_action())) return pass_action();  // only fire when the salaries cannot be paid
  const PlayerState& p = player_of(pos.s, pos.player);
  const int unlisted = static_cast<int>(tables().play_priority.size());
  auto order = [&](int t) {
    int found = unlisted;
    for (int i = 0; i < unlisted; ++i) {
      if (tables().play_priority[at(i)] == t) found = i;  // a dict of the order: the last index wins
    }
    return found;
  };
  // an idle card on the beach goes first, then the salaried, then the last in the play order
  const Action* best = nullptr;
  std::array<int, 3> best_key{};
  for (const Action& a : pos.legal) {
    if (a.kind != ActionKind::kFire) continue;
    const int t = checked_type(a[0]);
    const int idle = p.beach[at(t)] - p.fired[at(t)] > 0 ? 1 : 0;
    const std::array<int, 3> key{-idle, -static_cast<int>(employee(t).salary), -order(t)};
    if (best == nullptr || key < best_key) best = &a, best_key = key;
  }
  return best ? Answer(*best) : std::nullopt;
}

// ------------------------------------------------------------------ production

Answer Heuristic::produce(const Position& pos, MapReads& reads) {
  const int food = main_food(pos.s, pos.player);
  const auto wanted = wanted_goods(pos.s, reads, pos.player);
  const Action* best = nullptr;
  double best_score = 0.0;
  for (const Action& a : pos.legal) {
    double score;
    if (a.kind == ActionKind::kProduce) {
      const int good = a[1];
      score = 2.0 + wanted.at(at(good)) + (good == food ? 1.0 : 0.0);
    } else if (a.kind == ActionKind::kHaul) {
      score = 1.0;
      double drinks = 0.0;  // Python's sum() of the three terms, then added
      drinks += a[1] * (1.0 + wanted[kBeer]);
      drinks += a[2] * (1.0 + wanted[kLemonade]);
      drinks += a[3] * (1.0 + wanted[kSoda]);
      score += drinks;
    } else {
      continue;
    }
    if (score > best_score) best = &a, best_score = score;
  }
  return best ? *best : pass_action();
}

Answer Heuristic::freezer(const Position& pos, MapReads& reads) {
  const auto wanted = wanted_goods(pos.s, reads, pos.player);
  const int food = main_food(pos.s, pos.player);
  const Action* best = nullptr;
  std::pair<double, int> best_key{};
  for (const Action& a : pos.legal) {
    if (a.kind != ActionKind::kKeep) continue;
    const std::pair<double, int> key{wanted.at(at(a[0])), a[0] == food ? 1 : 0};
    if (best == nullptr || key > best_key) best = &a, best_key = key;
  }
  return best ? Answer(*best) : std::nullopt;
}

}  // namespace fcm::players

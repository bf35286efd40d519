// A native game (game.h): the dispatch of decisions to the phase files (phases.h) and flow.advance.
#include "game.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "bank.h"
#include "phases.h"

namespace fcm {

namespace {

struct Route {
  LegalFn legal;
  ApplyFn apply;
  int step;  // the working sub-step the decision belongs to (continue_turn), or kNotWorking
};
constexpr int kNotWorking = -100;

const Route& route(Decision d) {
  static const Route kRoutes[] = {
      {legal_initial_restaurant, apply_initial_restaurant, kNotWorking},
      {legal_reserve_card, apply_reserve_card, kNotWorking},
      {legal_restructure, apply_restructure, kNotWorking},
      {legal_turn_order, apply_turn_order, kNotWorking},
      {legal_recruit, apply_recruit, kTrainingDone},
      {legal_train, apply_train, kTrainingDone},
      {legal_marketeer, apply_marketeer, kMarketingStep},
      {legal_campaign_tile, apply_campaign_tile, kMarketingStep},
      {legal_campaign_place, apply_campaign_place, kMarketingStep},
      {legal_campaign_product, apply_campaign_product, kMarketingStep},
      {legal_campaign_duration, apply_campaign_duration, kMarketingStep},
      {legal_produce, apply_produce, kProductionStep},
      {legal_new_business, apply_new_business, kHousesStep},
      {legal_house_place, apply_house_place, kHousesStep},
      {legal_restaurant_manager, apply_restaurant_manager, kRestaurantsStep},
      {legal_restaurant_place, apply_restaurant_place, kRestaurantsStep},
      {legal_fire, apply_fire, kNotWorking},
      {legal_freezer, apply_freezer, kNotWorking},
  };
  const int i = static_cast<int>(d);
  if (i < 0 || i >= static_cast<int>(sizeof(kRoutes) / sizeof(kRoutes[0]))) {
    throw std::invalid_argument("unknown decision " + std::to_string(i));
  }
  return kRoutes[i];
}

}  // namespace

const std::vector<Action>& Game::legal_actions() {
  if (!legal_valid_) {
    legal_.clear();
    if (!s_.pending.empty()) {
      const Pending pending = s_.pending.back();
      route(pending.decision).legal(s_, pending, legal_);
      // most decisions list their actions in order already
      if (!std::is_sorted(legal_.begin(), legal_.end())) std::sort(legal_.begin(), legal_.end());
    }
    legal_valid_ = true;
  }
  return legal_;
}

bool Game::is_legal(const Action& a) {
  const auto& legal = legal_actions();
  return std::binary_search(legal.begin(), legal.end(), a);
}

void Game::apply(const Action& a) {
  if (s_.pending.empty()) {
    throw IllegalAction(std::string("no decision is pending (phase ") + phase_name(s_.phase) + ")");
  }
  if (!is_legal(a)) {
    const Pending& p = s_.pending.back();
    throw IllegalAction(std::string("the action is not legal for ") + decision_name(p.decision) + " of player " +
                        std::to_string(p.player));
  }
  apply_legal(a);
}

void Game::move(const Action& a) {
  const Pending pending = s_.pending.back();  // a copy: the apply changes the stack
  const Route& r = route(pending.decision);
  r.apply(s_, pending, a);
  if (r.step != kNotWorking && s_.pending.empty()) continue_turn(s_, pending.player, r.step);
  legal_valid_ = false;
}

void Game::apply_legal(const Action& a) {
  move(a);
  advance();
}

void Game::apply_no_advance(const Action& a) {
  if (s_.pending.empty() || !is_legal(a)) throw IllegalAction("apply_no_advance: the action is not legal");
  move(a);
}

bool Game::advance_one() {
  if (!s_.pending.empty() || s_.phase == Phase::kGameOver) return false;
  legal_valid_ = false;
  switch (s_.phase) {
    case Phase::kSetupRestaurants:
    case Phase::kSetupReserve:
      s_.round = 1;
      start_restructuring(s_);
      break;
    case Phase::kOrderOfBusiness:
      start_working(s_);
      break;
    case Phase::kWorking:
    case Phase::kDinnertime:  // Working 9-5 is over / Dinnertime is to run (D48)
      run_dinnertime(s_);
      if (is_broken_for_good(s_)) {  // C23, R38: the game ends after phase 4
        s_.phase = Phase::kGameOver;
      } else {
        start_payday(s_);
      }
      break;
    case Phase::kPayday:
    case Phase::kMarketing:  // Payday is over / the campaigns are to run (D48)
      run_marketing(s_);
      start_cleanup(s_);
      break;
    case Phase::kCleanup:
      finish_cleanup(s_);
      break;
    default:
      throw std::runtime_error(std::string("no decision pending in phase ") + phase_name(s_.phase));
  }
  return true;
}

void Game::advance() {
  while (advance_one()) {
  }
}

std::vector<int> Game::winners() const {
  if (s_.phase != Phase::kGameOver) return {};
  std::vector<int> candidates;
  for (int p : s_.turn_order) {
    if (!s_.players[static_cast<std::size_t>(p)].bankrupt) candidates.push_back(p);
  }
  if (candidates.empty()) candidates = s_.turn_order;
  if (candidates.empty()) return {};
  int best = candidates[0];
  for (int p : candidates) {  // turn order: a later player must have strictly more cash
    if (s_.players[static_cast<std::size_t>(p)].cash > s_.players[static_cast<std::size_t>(best)].cash) best = p;
  }
  return {best};
}

}  // namespace fcm

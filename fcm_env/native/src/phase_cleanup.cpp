// Phase 7 Clean-up: the freezer, cards back to hand, restaurants open, next round
// (fcm_env.engine.phases.cleanup's twin). rules: Phase 7; First to throw away drink/food; C21, C29.
//
// 1. Freezer (D43): a player who held "First to throw away" before this turn, has any stock and is not
//    bankrupt keeps one token at a time (the pending context: the tokens kept so far) until 10 are kept,
//    the whole stock is kept, or the player says done.
// 2. Everybody else discards all food and drinks; discarding at least one token claims "First to throw
//    away", for a chain bankrupt this turn too (C21, D33, D43).
// 3. Cards at work (except the CEO) and on the beach go back to hand; "coming soon" restaurants open;
//    milestones claimed this turn are gone for the others.
// 4. Bankrupt players are out (C21). Then the next round starts, unless max_rounds is reached (a cap, not a
//    rule: truncated end) or nobody is left (D45).
#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

#include "cards.h"
#include "milestones.h"
#include "phases.h"
#include "rules_data.h"

namespace fcm {

namespace {

// held since an earlier turn: a freezer won this turn stores nothing yet
bool has_freezer(const GameState& s, int player) {
  return has_milestone(s, player, kFirstThrowAway) &&
         std::find(s.milestones_this_turn.begin(), s.milestones_this_turn.end(), int{kFirstThrowAway}) ==
             s.milestones_this_turn.end();
}

bool any_stock(const Goods& stock) {
  return std::any_of(stock.begin(), stock.end(), [](int16_t x) { return x != 0; });
}

void ask_next(GameState& s) {
  if (!s.queue.empty()) {
    s.pending = {Pending{Decision::kFreezer, s.queue.front(), std::vector<int>(kNumGoods, 0)}};
  } else {
    s.pending.clear();
  }
}

// the tokens kept so far, one count per good
const std::vector<int>& kept_of(const Pending& p) {
  if (p.context.size() != static_cast<std::size_t>(kNumGoods)) {
    throw std::invalid_argument("FREEZER context holds " + std::to_string(p.context.size()) + " counts, not " +
                                std::to_string(kNumGoods));
  }
  return p.context;
}

}  // namespace

void start_cleanup(GameState& s) {
  s.phase = Phase::kCleanup;
  s.pending.clear();
  s.queue.clear();
  for (int player : s.turn_order) {
    const PlayerState& p = player_of(s, player);
    if (!p.bankrupt && has_freezer(s, player) && any_stock(p.stock)) s.queue.push_back(player);
  }
  ask_next(s);
}

void legal_freezer(const GameState& s, const Pending& pending, std::vector<Action>& out) {
  const Goods& stock = player_of(s, pending.player).stock;
  const std::vector<int>& kept = kept_of(pending);
  out.push_back(Action::make(ActionKind::kPass));
  if (std::accumulate(kept.begin(), kept.end(), 0) < rules_data().prices.freezer_capacity) {
    for (int g = 0; g < kNumGoods; ++g) {
      if (kept[at(g)] < stock[at(g)]) out.push_back(Action::make(ActionKind::kKeep, g));
    }
  }
}

void apply_freezer(GameState& s, const Pending& pending, const Action& a) {
  std::vector<int> kept = kept_of(pending);
  PlayerState& p = player_of(s, pending.player);
  if (a.kind == ActionKind::kKeep) {
    const int g = a[0];
    if (g < 0 || g >= kNumGoods) throw std::invalid_argument("no good " + std::to_string(g));
    kept[at(g)] += 1;
    bool whole_stock = true;
    for (int i = 0; i < kNumGoods; ++i) whole_stock = whole_stock && kept[at(i)] == p.stock[at(i)];
    if (std::accumulate(kept.begin(), kept.end(), 0) < rules_data().prices.freezer_capacity && !whole_stock) {
      s.pending = {Pending{Decision::kFreezer, pending.player, kept}};  // something left to choose
      return;
    }
  }
  // the rest is thrown away
  for (int i = 0; i < kNumGoods; ++i) p.stock[at(i)] = static_cast<int16_t>(kept[at(i)]);
  pop_front(s.queue, "queue");
  ask_next(s);
}

void finish_cleanup(GameState& s) {
  for (int player : s.turn_order) {
    PlayerState& p = player_of(s, player);
    // chose in the freezer decision (or had nothing); a bankrupt chain keeps nothing (D43)
    if (has_freezer(s, player) && !p.bankrupt) continue;
    if (!any_stock(p.stock)) continue;  // nothing to throw away
    claim(s, player, kFirstThrowAway);  // bankrupt this turn too (C21, D43)
    p.stock.fill(0);
  }
  for (PlayerState& p : s.players) {
    const int16_t ceo = p.work[kCeo];
    p.hand += p.work + p.beach;
    p.hand[kCeo] = static_cast<int16_t>(p.hand[kCeo] - ceo);
    p.work.fill(0);
    p.work[kCeo] = ceo;
    p.beach.fill(0);
    for (Restaurant& r : p.restaurants) r.coming_soon = false;  // the restaurants open
    p.recruit_discounts = 0;
    p.income = 0;
    p.fired.fill(0);
  }
  close_milestone_turn(s);
  s.turn = TurnScratch{};
  s.queue.clear();
  std::vector<int> active;
  for (int player : s.turn_order) {
    if (!player_of(s, player).bankrupt) active.push_back(player);
  }
  if (active.empty()) {  // D45: nobody is left to play; the turn order stays for the tie-break
    s.phase = Phase::kGameOver;
    return;
  }
  s.turn_order = active;  // C21: bankrupt players are out
  if (s.max_rounds && s.round >= *s.max_rounds) {  // a cap (not a rule): truncated end
    s.truncated = true;
    s.phase = Phase::kGameOver;
    return;
  }
  s.round += 1;
  start_restructuring(s);
}

}  // namespace fcm

// Phase 5 Payday: fire cards (hidden, revealed together), then pay salaries to the bank
// (fcm_env.engine.phases.payday's twin). rules: Phase 5; C27, C30; R39-R41, R43. The introductory game
// skips this phase.
//
// Each chain in turn order (bankrupt ones too: they are in the game until the end of the turn, C21, D41)
// marks cards to fire one at a time, then says done. Any card at work (never the CEO) or on the beach may
// be fired. Done is legal only when the player can pay what remains due after the marked firings, and,
// once they hold "First to have $100", only when their CFO is marked (C27). A busy marketeer may be marked
// only when every other salaried card is marked and the salary still cannot be paid (C30). A player whose
// only move would be done is not asked (D46). At the reveal fired cards return to the supply, salaries go
// to the bank, and "First to pay $20 or more in salaries" goes to whoever actually paid $20 or more (R41).
#include <algorithm>
#include <array>

#include "bank.h"
#include "cards.h"
#include "milestones.h"
#include "phases.h"
#include "rules_data.h"

namespace fcm {

namespace {

constexpr int64_t kPay20 = 20;  // R41: the amount actually paid that wins the milestone

// 0/1 per type: cards of this type cost a salary (rules: First billboard placed — none for marketeers)
const Cards& paid_weights(const GameState& s, int player) {
  // the two possible weight vectors, from the card data (loaded once, before any game): with and without
  // First billboard (its marketeers draw no salary)
  static const std::array<Cards, 2> kWeights = [] {
    std::array<Cards, 2> w{};
    for (int billboard = 0; billboard < 2; ++billboard) {
      for (int t = 0; t < kNumTypes; ++t) {
        const EmployeeSpec& spec = employee(t);
        w[static_cast<std::size_t>(billboard)][at(t)] = spec.salary && !(billboard && spec.is_marketeer()) ? 1 : 0;
      }
    }
    return w;
  }();
  return kWeights[has_milestone(s, player, kFirstBillboard) ? 1 : 0];
}

// $5 per salaried card, less $5 per unused recruiting action (R40) and $15 with First to train; >= 0
int64_t after_discounts(const GameState& s, const PlayerState& p, int64_t salaried_cards) {
  const int64_t salary = rules_data().prices.salary;
  const int64_t gross = salary * salaried_cards;
  int64_t discount = salary * p.recruit_discounts;
  static const int kTrainDiscount = milestone_param(kFirstTrain, "salary_discount_per_payday");  // data: read once
  if (has_milestone(s, p.player, kFirstTrain)) discount += kTrainDiscount;
  return std::max<int64_t>(0, gross - discount);
}

// what the player owes with the cards marked so far (salary_due)
int64_t salary_due(const GameState& s, const PlayerState& p) {
  return after_discounts(s, p, dot(p.work + p.beach + p.busy - p.fired, paid_weights(s, p.player)));
}

// C27: holding "First to have $100" and a CFO not yet marked
bool must_fire_cfo(const GameState& s, const PlayerState& p) {
  if (!has_milestone(s, p.player, kFirstHave100)) return false;
  return p.fired[kCfo] < p.work[kCfo] + p.beach[kCfo];
}

// whether p may stop marking now; markable: the types of which one more card may be marked
bool fire_options(const GameState& s, const PlayerState& p, std::array<bool, kNumTypes>& markable) {
  const Cards& weights = paid_weights(s, p.player);
  const Cards free = p.work + p.beach;
  const int64_t due = salary_due(s, p);
  const bool can_pass = due <= p.cash && !must_fire_cfo(s, p);
  Cards limits = free;
  if (due > p.cash) {
    int64_t unmarked = 0;  // salaried cards outside campaigns not yet marked
    for (int t = 0; t < kNumTypes; ++t) {
      unmarked += int64_t{weights[at(t)]} * (free[at(t)] - std::min(p.fired[at(t)], free[at(t)]));
    }
    // C30: every salaried card outside campaigns is marked and the salary still cannot be paid: the busy
    // marketeers may be marked too
    if (unmarked == 0) {
      for (int t = 0; t < kNumTypes; ++t) {
        limits[at(t)] = static_cast<int16_t>(free[at(t)] + p.busy[at(t)] * weights[at(t)]);
      }
    }
  }
  limits[kCeo] = 0;  // rules: Payday — the CEO is never fired
  for (int t = 0; t < kNumTypes; ++t) markable[at(t)] = p.fired[at(t)] < limits[at(t)];
  return can_pass;
}

// legal_fire would offer only "done"
bool only_done(const GameState& s, int player) {
  std::array<bool, kNumTypes> markable{};
  const bool can_pass = fire_options(s, player_of(s, player), markable);
  return can_pass && std::none_of(markable.begin(), markable.end(), [](bool m) { return m; });
}

// marked cards go back to the supply: beach first, then work, then busy (their campaigns stay)
void dismiss(GameState& s, PlayerState& p) {
  for (int t = 0; t < kNumTypes; ++t) {
    int left = p.fired[at(t)];
    if (left == 0) continue;
    for (Cards* pool : {&p.beach, &p.work, &p.busy}) {
      const int take = std::min(left, static_cast<int>((*pool)[at(t)]));
      (*pool)[at(t)] = static_cast<int16_t>((*pool)[at(t)] - take);
      s.supply[at(t)] = static_cast<int16_t>(s.supply[at(t)] + take);
      left -= take;
    }
  }
}

// all choices are opened: fired cards leave, salaries are paid (R39: at the same time)
void reveal(GameState& s) {
  s.pending.clear();
  s.firing_revealed = true;
  for (int player : s.turn_order) {
    PlayerState& p = player_of(s, player);
    const int64_t due = salary_due(s, p);  // with the marked cards gone
    if (any(p.fired)) dismiss(s, p);
    const int64_t paid = collect(s, player, due);
    if (paid >= kPay20) claim(s, player, kFirstPay20Salaries);
  }
  for (PlayerState& p : s.players) p.fired.fill(0);
}

void ask_next(GameState& s) {
  while (!s.queue.empty() && only_done(s, s.queue.front())) s.queue.erase(s.queue.begin());
  if (!s.queue.empty()) {
    s.pending = {Pending{Decision::kFire, s.queue.front(), {}}};
  } else {
    reveal(s);
  }
}

}  // namespace

bool fire_can_choose(const GameState& s, int player) { return !only_done(s, player); }

bool fire_mark(GameState& s, int player, int etype) {
  PlayerState& p = s.players.at(static_cast<std::size_t>(player));
  if (etype < 0 || etype >= kNumTypes) throw std::invalid_argument("fire: no card type " + std::to_string(etype));
  p.fired[static_cast<std::size_t>(etype)] = static_cast<int16_t>(p.fired[static_cast<std::size_t>(etype)] + 1);
  return !only_done(s, player);
}

void start_payday(GameState& s) {
  s.phase = Phase::kPayday;
  s.pending.clear();
  if (s.variant != "standard") return;  // the introductory game skips Payday
  s.firing_revealed = false;
  s.queue = s.turn_order;  // D41: chains bankrupt this turn too (out at its end, C21)
  ask_next(s);
}

void legal_fire(const GameState& s, const Pending& pending, std::vector<Action>& out) {
  std::array<bool, kNumTypes> markable{};
  if (fire_options(s, player_of(s, pending.player), markable)) out.push_back(Action::make(ActionKind::kPass));
  for (int t = 0; t < kNumTypes; ++t) {
    if (markable[at(t)]) out.push_back(Action::make(ActionKind::kFire, t));
  }
}

void apply_fire(GameState& s, const Pending& pending, const Action& a) {
  if (a.kind == ActionKind::kFire) {
    // mark one card; the choice goes on while the player has more than "done"
    player_of(s, pending.player).fired[at(checked_type(a[0]))] += 1;
    if (!only_done(s, pending.player)) return;
  }
  pop_front(s.queue, "queue");
  ask_next(s);
}

}  // namespace fcm

// Phase 3 Working 9-5, the first two sub-steps: recruit and train (fcm_env.engine.phases.working.
// recruit_train's twin).
//
// Recruit: one hire per recruiting action, entry-level cards only. A card whose pile is empty may be hired
// only if it is trained at once (R15): a phantom the training step must train; such a hire, and any
// training move, is offered only while every phantom can still be trained. A phantom may not become a card
// that training returned to the stock this turn (official FAQ).
// Train: a move trains one card one or more steps with one trainer card (a card trained this turn cannot
// be trained again), or, with "First to pay $20 or more in salaries", any mix of training actions on one
// card (trainer field POOLED). Among trainers of one type the one with the fewest actions left that
// suffices is used. Both decisions leave pending empty when the player's training is over.
#include <algorithm>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>

#include "cards.h"
#include "milestones.h"
#include "phases.h"
#include "rules_data.h"

namespace fcm {

namespace {

constexpr int kPooled = kCeo;  // trainer field of a pooled training move ("First to pay $20")
using Trainers = std::vector<std::array<int, 2>>;  // (trainer type, actions left) per trainer card at work

const std::map<int, int>& steps_from(int source) {
  static const std::map<int, int> kNone;
  const auto& all = rules_data().train_steps;
  const auto it = all.find(checked_type(source));
  return it == all.end() ? kNone : it->second;
}

bool pooled_training(const GameState& s, int player) { return has_milestone(s, player, kFirstPay20Salaries); }

bool target_ok(const GameState& s, int player, int target, const Cards& supply, const Cards& owned) {
  if (supply[at(target)] <= 0) return false;
  if (employee(target).unique && owned[at(target)] > 0) return false;  // rules: Train — one copy of each 1x card
  return !(target == kCfo && has_milestone(s, player, kFirstHave100));  // C27: no CFO after First to have $100
}

// the trainer card to use (best fit within the type; -1: pooled), or nothing
std::optional<int> pick_trainer(const Trainers& trainers, int trainer_type, int steps, bool pooled) {
  if (pooled) {
    int total = 0;
    for (const auto& tr : trainers) total += tr[1];
    return total >= steps ? std::optional<int>(-1) : std::nullopt;
  }
  std::optional<int> best;
  for (std::size_t i = 0; i < trainers.size(); ++i) {
    const auto& tr = trainers[i];
    if (tr[0] == trainer_type && tr[1] >= steps && (!best || tr[1] < trainers[at(*best)][1])) {
      best = static_cast<int>(i);
    }
  }
  return best;
}

Trainers consume(Trainers trainers, int index, int steps) {
  if (index >= 0) {
    trainers[at(index)][1] -= steps;
    return trainers;
  }
  for (auto& tr : trainers) {  // pooled: any actions, in order
    const int use = std::min(tr[1], steps);
    tr[1] -= use;
    steps -= use;
  }
  return trainers;
}

// the trainer types a move may name: POOLED alone, or each type with an action left, ascending
std::vector<int> trainer_kinds(const Trainers& trainers, bool pooled) {
  if (pooled) return {kPooled};
  std::vector<int> kinds;
  for (const auto& tr : trainers) {
    if (tr[1] > 0) kinds.push_back(tr[0]);
  }
  std::sort(kinds.begin(), kinds.end());
  kinds.erase(std::unique(kinds.begin(), kinds.end()), kinds.end());
  return kinds;
}

// whether every phantom hire can still get a training move (small exhaustive search)
bool phantoms_trainable(const GameState& s, int player, const Cards& phantoms, const Trainers& trainers,
                        const Cards& supply) {
  std::vector<int> todo;
  for (int t = 0; t < kNumTypes; ++t) {
    for (int k = 0; k < phantoms[at(t)]; ++k) todo.push_back(t);
  }
  const bool pooled = pooled_training(s, player);
  struct Search {
    const GameState& s;
    int player;
    bool pooled;
    const std::vector<int>& todo;
    bool operator()(std::size_t i, const Trainers& trainers, const Cards& supply, const Cards& owned) const {
      if (i == todo.size()) return true;
      const std::vector<int> kinds = trainer_kinds(trainers, pooled);
      for (const auto& [target, steps] : steps_from(todo[i])) {
        if (!target_ok(s, player, target, supply, owned)) continue;
        for (int kind : kinds) {
          const std::optional<int> index = pick_trainer(trainers, kind, steps, pooled);
          if (!index) continue;
          Cards s2 = supply, o2 = owned;
          s2[at(target)] -= 1;
          o2[at(target)] += 1;
          if ((*this)(i + 1, consume(trainers, *index, steps), s2, o2)) return true;
        }
      }
      return false;
    }
  };
  // FAQ: a phantom may not become a card returned to the stock this turn
  return Search{s, player, pooled, todo}(0, trainers, supply - s.turn.returned, owned_cards(s, player));
}

// the training moves (before the phantom check); with out == nullptr only whether there is one
bool train_moves(const GameState& s, int player, std::vector<Action>* out) {
  const PlayerState& p = player_of(s, player);
  const bool pooled = pooled_training(s, player);
  const Trainers& trainers = s.turn.trainers;
  if (std::none_of(trainers.begin(), trainers.end(), [](const auto& tr) { return tr[1] > 0; })) {
    return false;  // no training action left (every move takes at least one)
  }
  const Cards owned = owned_cards(s, player);  // eternal marketeers count for 1x
  const std::vector<int> kinds = trainer_kinds(trainers, pooled);
  const Cards phantom_supply = s.supply - s.turn.returned;  // FAQ: not into a returned card
  // phantoms, and beach cards not yet trained this turn (any beach card when pooled)
  const Cards trainable = s.turn.phantoms + (pooled ? p.beach : p.beach - s.turn.locked);
  bool found = false;
  for (int source = 0; source < kNumTypes; ++source) {
    if (trainable[at(source)] <= 0) continue;
    // a move from a type with a phantom trains the phantom (do_train)
    const Cards& stock = s.turn.phantoms[at(source)] > 0 ? phantom_supply : s.supply;
    for (const auto& [target, steps] : steps_from(source)) {
      if (!target_ok(s, player, target, stock, owned)) continue;
      for (int kind : kinds) {
        if (!pick_trainer(trainers, kind, steps, pooled)) continue;
        if (out == nullptr) return true;
        out->push_back(Action::make(ActionKind::kTrain, kind, source, target));
        found = true;
      }
    }
  }
  return found;
}

void do_train(GameState& s, int player, const Action& a) {
  const int trainer_type = a[0], source = checked_type(a[1]), target = checked_type(a[2]);
  PlayerState& p = player_of(s, player);
  const auto& steps_of = steps_from(source);
  const auto it = steps_of.find(target);
  const bool pooled = pooled_training(s, player);
  if (it == steps_of.end()) {
    throw IllegalAction("employee type " + std::to_string(target) + " is not a training target of " +
                        std::to_string(source));
  }
  const int steps = it->second;
  const std::optional<int> index = pick_trainer(s.turn.trainers, trainer_type, steps, pooled);
  if (!index) throw IllegalAction("no trainer can train " + std::to_string(steps) + " step(s) with this move");
  s.turn.trainers = consume(s.turn.trainers, *index, steps);
  if (s.turn.phantoms[at(source)] > 0) {
    s.turn.phantoms[at(source)] -= 1;  // the phantom never existed: nothing returns to the pile
  } else {
    p.beach[at(source)] -= 1;
    s.supply[at(source)] += 1;  // rules: Train — the trained card returns to the stock
    s.turn.returned[at(source)] += 1;
  }
  s.supply[at(target)] -= 1;
  p.beach[at(target)] += 1;
  if (!pooled) s.turn.locked[at(target)] += 1;  // may not be trained again this turn
  claim(s, player, kFirstTrain);
}

// R40: unused recruiting-manager / HR-director actions give a $5 salary discount each
void close_recruiting(GameState& s, PlayerState& p) {
  int64_t discount_actions = 0, all_actions = 0;
  for (int t = 0; t < kNumTypes; ++t) {
    const EmployeeSpec& spec = employee(t);
    all_actions += int64_t{p.work[at(t)]} * spec.recruit;
    if (spec.recruit_unused_discount) discount_actions += int64_t{p.work[at(t)]} * spec.recruit;
  }
  const int64_t free_actions = all_actions - discount_actions;
  const int64_t excess = std::max<int64_t>(0, s.turn.hires - free_actions);
  p.recruit_discounts = static_cast<int>(std::max<int64_t>(0, discount_actions - excess));
}

void start_training(GameState& s, int player) {
  close_recruiting(s, player_of(s, player));
  if (train_moves(s, player, nullptr) || any(s.turn.phantoms)) {
    s.pending = {Pending{Decision::kTrain, player, {}}};
  } else {
    s.pending.clear();  // training is over: Game goes on with continue_turn (R12)
  }
}

}  // namespace

// ------------------------------------------------------------------ recruit

void legal_recruit(const GameState& s, const Pending& p, std::vector<Action>& out) {
  out.push_back(Action::make(ActionKind::kPass));
  if (s.turn.recruits_left <= 0) return;
  for (int t = 0; t < kNumTypes; ++t) {
    if (!employee(t).entry_level) continue;
    bool ok = s.supply[at(t)] > 0;
    if (!ok) {  // R15: a phantom hire, if every phantom can still be trained
      Cards phantoms = s.turn.phantoms;
      phantoms[at(t)] += 1;
      ok = phantoms_trainable(s, p.player, phantoms, s.turn.trainers, s.supply);
    }
    if (ok) out.push_back(Action::make(ActionKind::kRecruit, t));
  }
}

void apply_recruit(GameState& s, const Pending& pending, const Action& a) {
  const int player = pending.player;
  PlayerState& p = player_of(s, player);
  TurnScratch& turn = s.turn;
  if (a.kind == ActionKind::kPass) {
    start_training(s, player);
    return;
  }
  const int t = checked_type(a[0]);
  if (s.supply[at(t)] > 0) {
    s.supply[at(t)] -= 1;
    p.beach[at(t)] += 1;
  } else {
    turn.phantoms[at(t)] += 1;  // R15: never taken from the pile; must be trained this turn
  }
  turn.recruits_left -= 1;
  turn.hires += 1;
  if (turn.hires == 3 && claim(s, player, kFirstHire3)) {
    // rules: First to hire three people in one turn (two management trainees, as the Python engine
    // hard-codes); R44 — onto the beach before training
    const int16_t gained = std::min<int16_t>(2, s.supply[kManagementTrainee]);
    s.supply[kManagementTrainee] -= gained;
    p.beach[kManagementTrainee] += gained;
  }
  if (turn.recruits_left == 0) start_training(s, player);
}

// ------------------------------------------------------------------ train

void legal_train(const GameState& s, const Pending& p, std::vector<Action>& out) {
  const bool phantoms = any(s.turn.phantoms);
  if (!phantoms) out.push_back(Action::make(ActionKind::kPass));  // phantoms must be trained first
  std::vector<Action> moves;
  train_moves(s, p.player, &moves);
  for (const Action& move : moves) {
    if (!phantoms) {
      out.push_back(move);
      continue;
    }
    GameState trial = s;  // the board is shared; everything else is copied
    do_train(trial, p.player, move);
    if (phantoms_trainable(trial, p.player, trial.turn.phantoms, trial.turn.trainers, trial.supply)) {
      out.push_back(move);
    }
  }
}

void apply_train(GameState& s, const Pending& p, const Action& a) {
  if (a.kind == ActionKind::kPass) {
    s.pending.clear();
    return;
  }
  do_train(s, p.player, a);
  if (!train_moves(s, p.player, nullptr) && !any(s.turn.phantoms)) s.pending.clear();
}

}  // namespace fcm

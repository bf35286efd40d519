// Phase 3 Working 9-5: one player's turn, sub-step by sub-step (fcm_env.engine.phases.working's twin).
// rules: Phase 3 — each player does all their actions before the next (R12), in the rulebook order:
// recruit and train, initiate marketing campaigns, get food & drinks, place houses and gardens, place or
// move restaurants. A sub-step's applies leave pending empty when it is over; Game then calls
// continue_turn, which asks the next sub-step with something to do or hands the turn on.
#include "cards.h"
#include "phases.h"
#include "rules_data.h"

namespace fcm {

namespace {

void start_player(GameState& s) {
  if (s.queue.empty()) {
    s.pending.clear();
    return;
  }
  const PlayerState& p = player_of(s, s.queue.front());
  TurnScratch turn;
  for (int t = 0; t < kNumTypes; ++t) {
    const EmployeeSpec& spec = employee(t);
    turn.recruits_left += p.work[at(t)] * spec.recruit;
    // one entry per trainer card at work, trainer types ascending (TRAINER_STEPS order)
    if (spec.train) {
      for (int k = 0; k < p.work[at(t)]; ++k) turn.trainers.push_back({t, spec.train});
    }
  }
  s.turn = turn;
  s.pending = {Pending{Decision::kRecruit, p.player, {}}};
}

}  // namespace

void start_working(GameState& s) {
  s.phase = Phase::kWorking;
  s.queue = s.turn_order;
  start_player(s);
}

void continue_turn(GameState& s, int player, int done_step) {
  // LATER_STEPS: each begin asks its first decision and returns true, or false: nothing to do there
  using Begin = bool (*)(GameState&, int);
  static const Begin kLaterSteps[] = {begin_marketing_launch, begin_production, begin_houses, begin_restaurants};
  for (int step = done_step + 1; step <= kRestaurantsStep; ++step) {
    if (step < 0) continue;
    if (kLaterSteps[step](s, player)) return;
  }
  pop_front(s.queue, "queue");
  start_player(s);
}

}  // namespace fcm

// Claiming milestones (rules: Milestones; C29): fcm_env.engine.rules.milestones' twin. Every player who
// reaches a milestone in the same turn claims it; at Clean-up the milestones claimed this turn are gone.
// The introductory variant plays without milestones.
#pragma once

#include "state.h"

namespace fcm {

bool uses_milestones(const GameState& s);
bool can_claim(const GameState& s, int player, int milestone);
bool claim(GameState& s, int player, int milestone);  // true if awarded
inline bool has_milestone(const GameState& s, int player, int milestone) {
  const std::vector<int>& held = s.players[static_cast<std::size_t>(player)].milestones;  // sorted, a few
  for (int m : held) {
    if (m >= milestone) return m == milestone;
  }
  return false;
}
void close_milestone_turn(GameState& s);  // rules: Phase 7; C29

}  // namespace fcm

// Milestones (milestones.h). The sets are sorted vectors of Milestone numbers, as the document lists them.
#include "milestones.h"

#include <algorithm>

namespace fcm {

namespace {
bool contains(const std::vector<int>& sorted, int m) { return std::binary_search(sorted.begin(), sorted.end(), m); }
void insert(std::vector<int>& sorted, int m) {
  const auto it = std::lower_bound(sorted.begin(), sorted.end(), m);
  if (it == sorted.end() || *it != m) sorted.insert(it, m);
}
}  // namespace

bool uses_milestones(const GameState& s) { return s.variant == "standard"; }

bool can_claim(const GameState& s, int player, int milestone) {
  return uses_milestones(s) && !contains(s.milestones_gone, milestone) &&
         !contains(s.players[static_cast<std::size_t>(player)].milestones, milestone);
}

bool claim(GameState& s, int player, int milestone) {
  if (!can_claim(s, player, milestone)) return false;
  insert(s.players[static_cast<std::size_t>(player)].milestones, milestone);
  insert(s.milestones_this_turn, milestone);
  return true;
}

void close_milestone_turn(GameState& s) {
  for (int m : s.milestones_this_turn) insert(s.milestones_gone, m);
  s.milestones_this_turn.clear();
}

}  // namespace fcm

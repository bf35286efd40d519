// The heuristic's plan tables (fcm_agents.heuristic.plan): whom to hire, play and train, in what order. They
// have one home, the Python package, which hands them over when it loads (fcm_agents.native); a strategist's
// archetype is another set of the same tables.
#pragma once

#include <array>
#include <utility>
#include <vector>

#include "state.h"

namespace fcm::players {

struct PlanTables {
  std::vector<std::pair<int, int>> hiring_plan;           // (entry-level line, how many by then), in order
  std::vector<int> play_priority;                         // which card goes to work first in Restructuring
  std::vector<std::pair<int, std::vector<int>>> train_goals;  // source -> goals, in the plan's order
  std::vector<int> train_reserve;                         // cards kept on the beach for a trainer, by preference
  int train_margin = 2;                                   // training waits for this many salaries more
  std::vector<int> extra_hires;                           // after the plan: these lines ...
  int extra_cap = 5;                                      // ... each up to this many cards
};

// the heuristic's own tables and its STAFF (the non-manager types of its play order, which every plan's
// Restructuring counts as the staff waiting), set once by fcm_agents.native after the rules data (the
// career lines are derived from it there)
void set_heuristic_tables(PlanTables tables, std::vector<int> staff);
const PlanTables& heuristic_tables();
const std::vector<int>& staff_types();

// the entry-level card each type is trained from (its career line), -1 for none (plan.LINE)
int career_line(int type);
// cards of ``player`` that draw a salary, at work, on the beach or busy (plan._salaried)
int salaried(const GameState& s, int player);
// cards owned per career line, eternal campaigns' marketeers included; the CEO is in none (_owned_lines)
std::array<int, kNumTypes> owned_lines(const GameState& s, int player);

}  // namespace fcm::players

// The plan tables' store and the reads every plan shares (heuristic_plan.h).
#include "heuristic_plan.h"

#include <stdexcept>

#include "cards.h"
#include "rules_data.h"

namespace fcm::players {

namespace {

PlanTables g_tables;
std::vector<int> g_staff;
std::array<int, kNumTypes> g_line{};

void check_types(const std::vector<int>& types, const char* what) {
  for (int t : types) {
    if (t < 0 || t >= kNumTypes) throw std::invalid_argument(std::string(what) + ": no employee type " + std::to_string(t));
  }
}

}  // namespace

void set_heuristic_tables(PlanTables tables, std::vector<int> staff) {
  check_types(tables.play_priority, "play_priority");
  check_types(tables.train_reserve, "train_reserve");
  check_types(tables.extra_hires, "extra_hires");
  check_types(staff, "staff");
  g_tables = std::move(tables);
  g_staff = std::move(staff);
  // plan.LINE: the first entry-level type (in type order) whose training tree holds the type
  g_line.fill(-1);
  for (int entry = 0; entry < kNumTypes; ++entry) {
    if (!employee(entry).entry_level) continue;
    std::vector<int> todo{entry};
    while (!todo.empty()) {
      const int t = todo.back();
      todo.pop_back();
      if (g_line[at(t)] < 0) g_line[at(t)] = entry;
      for (int u : employee(t).trains_to) todo.push_back(u);
    }
  }
}

const PlanTables& heuristic_tables() { return g_tables; }
const std::vector<int>& staff_types() { return g_staff; }

int career_line(int type) { return g_line[at(type)]; }

int salaried(const GameState& s, int player) {
  const PlayerState& p = player_of(s, player);
  int n = 0;
  for (int t = 0; t < kNumTypes; ++t) {
    if (employee(t).salary) n += p.work[at(t)] + p.beach[at(t)] + p.busy[at(t)];
  }
  return n;
}

std::array<int, kNumTypes> owned_lines(const GameState& s, int player) {
  std::array<int, kNumTypes> counts{};
  const Cards owned = owned_cards(s, player);
  for (int t = 1; t < kNumTypes; ++t) {
    const int line = career_line(t);
    if (owned[at(t)] && line >= 0) counts[at(line)] += owned[at(t)];
  }
  return counts;
}

}  // namespace fcm::players

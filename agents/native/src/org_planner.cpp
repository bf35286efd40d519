// plan_organisation (org_planner.h), step for step as planner.py.
#include "org_planner.h"

#include <algorithm>
#include <array>
#include <deque>

#include "cards.h"
#include "heuristic_plan.h"
#include "rules_data.h"

namespace fcm::players {

namespace {

constexpr int kHorizon = 3;      // rounds of training planned before another trainer is asked for
constexpr int kMaxTrainers = 2;  // trainer cards hired for a plan at most
constexpr int kNone = -1;

// (trainings from each type to each type, the type after the first of them): BFS over trains_to
struct Distances {
  std::array<std::array<int, kNumTypes>, kNumTypes> dist{}, next{};
  Distances() {
    for (auto& row : dist) row.fill(kNone);
    for (auto& row : next) row.fill(kNone);
    for (int source = 0; source < kNumTypes; ++source) {
      dist[at(source)][at(source)] = 0;
      std::deque<std::pair<int, int>> queue{{source, kNone}};
      while (!queue.empty()) {
        const auto [t, first] = queue.front();
        queue.pop_front();
        for (int u : employee(t).trains_to) {
          if (dist[at(source)][at(u)] == kNone) {
            dist[at(source)][at(u)] = dist[at(source)][at(t)] + 1;
            next[at(source)][at(u)] = first != kNone ? first : u;
            queue.emplace_back(u, next[at(source)][at(u)]);
          }
        }
      }
    }
  }
};

const Distances& distances() {
  static const Distances table;  // the rules data is loaded before any plan is made
  return table;
}

int training_cards(int type) { return employee(type).train; }

// the trainer types (rules: trainer 1, coach 2, guru 3), in type order
std::vector<int> trainer_types() {
  std::vector<int> out;
  for (int t = 0; t < kNumTypes; ++t) {
    if (employee(t).train) out.push_back(t);
  }
  return out;
}

int adds_salary(int before, int after) {
  return static_cast<int>(employee(after).salary) - static_cast<int>(employee(before).salary);
}

}  // namespace

int OrgPlan::kept_on_beach(int type) const {
  for (const auto& [t, n] : beach) {
    if (t == type) return n;
  }
  return 0;
}

OrgPlan plan_organisation(const Cards& available, const Cards& owned, const std::vector<std::pair<int, int>>& targets,
                          int64_t cash, int salaried, int margin,
                          const std::vector<std::pair<int, std::vector<int>>>& goals,
                          const std::vector<int>& spare_to_train) {
  const Distances& d = distances();
  const int salary = rules_data().prices.salary;
  std::array<int, kNumTypes> pool{};
  for (int t = 1; t < kNumTypes; ++t) pool[at(t)] = available[at(t)];  // the CEO is never assigned
  OrgPlan plan;
  for (const auto& [goal, count] : targets) {
    for (int k = 0; k < count; ++k) {
      int card = kNone;
      for (int t = 0; t < kNumTypes; ++t) {  // the nearest card to the goal, the lowest type on a tie
        if (pool[at(t)] > 0 && d.dist[at(t)][at(goal)] != kNone &&
            (card == kNone || d.dist[at(t)][at(goal)] < d.dist[at(card)][at(goal)])) {
          card = t;
        }
      }
      if (card != kNone) {
        pool[at(card)] -= 1;
        plan.assignments.push_back({goal, card, d.dist[at(card)][at(goal)]});
      } else {
        const int line = career_line(goal);
        plan.assignments.push_back({goal, kNone, d.dist[at(line)][at(goal)] + 1});  // +1: the hire
      }
    }
  }
  int left = 0;
  for (const Assignment& a : plan.assignments) {
    if (a.card == kNone) {
      plan.hires.push_back(career_line(a.goal));
      left += a.steps - 1;
    } else {
      left += a.steps;
    }
  }
  int capacity = 0, trainers_owned = 0;
  for (int t : trainer_types()) {
    capacity += training_cards(t) * owned[at(t)];
    trainers_owned += owned[at(t)];
  }
  if (left > capacity * kHorizon && trainers_owned < kMaxTrainers) plan.hires.push_back(kTrainer);
  auto keep = [&plan](int card) {
    for (auto& [t, n] : plan.beach) {
      if (t == card) {
        ++n;
        return;
      }
    }
    plan.beach.emplace_back(card, 1);
  };
  int budget = capacity;
  for (const Assignment& a : plan.assignments) {
    if (a.card == kNone || a.steps == 0 || budget == 0) continue;
    const int after = d.next[at(a.card)][at(a.goal)];
    const int adds = adds_salary(a.card, after);
    if (cash < salary * (margin + salaried + adds)) break;  // the plan's order: a later training waits
    salaried += adds;
    plan.trainings.emplace_back(a.card, after);
    keep(a.card);
    --budget;
  }
  int spare = 1;  // like the heuristic, one card a round kept off work for its trainer beside the targets'
  if (!goals.empty()) {
    for (int card : spare_to_train) {
      const std::vector<int>* wanted = nullptr;
      for (const auto& [source, list] : goals) {
        if (source == card) wanted = &list;
      }
      bool stop = false;
      for (int k = 0; k < pool[at(card)] && !stop; ++k) {
        if (budget == 0 || spare == 0 || wanted == nullptr || wanted->empty()) {
          stop = true;
          break;
        }
        --spare;
        const int after = (*wanted)[0];
        const int adds = adds_salary(card, after);
        if (cash < salary * (margin + salaried + adds)) break;
        salaried += adds;
        plan.trainings.emplace_back(card, after);
        keep(card);
        --budget;
      }
    }
  }
  int need = static_cast<int>(plan.trainings.size());
  std::vector<int> strongest = trainer_types();
  std::stable_sort(strongest.begin(), strongest.end(),
                   [](int a, int b) { return training_cards(a) > training_cards(b); });
  for (int t : strongest) {
    int k = 0;
    while (need > 0 && k < owned[at(t)]) {
      need -= training_cards(t);
      ++k;
    }
    if (k) plan.trainers.emplace_back(t, k);
  }
  return plan;
}

}  // namespace fcm::players

// The organisation planner (fcm_agents.strategist.planner): the path through the employee tree to a plan's
// target structure, within the CEO's slots and the salaries the chain can pay. Each round it assigns every
// owned card to the nearest target it can become (fewest trainings), turns a target nobody is on the way to
// into a hire, asks for trainers when the trainings left outrun them, and picks this round's trainings as
// far as the trainers and the cash reach; the cards to train stay on the beach (rules: Recruiting &
// Training), their trainers go to work first.
#pragma once

#include <optional>
#include <utility>
#include <vector>

#include "state.h"

namespace fcm::players {

struct Assignment {
  int goal;
  int card;  // -1: not owned yet, a hire of the goal's career line
  int steps;
};

struct OrgPlan {
  std::vector<Assignment> assignments;
  std::vector<int> hires;                       // entry-level cards to recruit, in order
  std::vector<std::pair<int, int>> trainings;   // (card, the type it becomes) this round, in order
  std::vector<std::pair<int, int>> beach;       // card type -> how many kept off work, in first-kept order
  std::vector<std::pair<int, int>> trainers;    // trainer type -> how many wanted at work, strongest first

  int kept_on_beach(int type) const;
};

// planner.plan_organisation: ``available`` the cards per type that can be trained or put to work, ``owned``
// every card per type, ``targets`` (type, how many) in order, ``margin`` the plan's training margin in
// salaries, ``goals`` the plan's training goals (source -> goals, in order) for one spare training of the
// first type of ``spare_to_train`` it owns
OrgPlan plan_organisation(const Cards& available, const Cards& owned, const std::vector<std::pair<int, int>>& targets,
                          int64_t cash, int salaried, int margin,
                          const std::vector<std::pair<int, std::vector<int>>>& goals,
                          const std::vector<int>& spare_to_train);

}  // namespace fcm::players

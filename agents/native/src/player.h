// A native player: answers the pending decision of a native game, as a Python agent's act_on_game does.
// The players of this folder are the twins of fcm_agents' Python agents (the heuristic, its hidden-choice
// model, the strategist family): the same answer in the same position, so a search can play its rollouts
// in C++ (tests/native_agents replays the Python agents' seeded games against them).
#pragma once

#include <optional>
#include <vector>

#include "action.h"
#include "game.h"
#include "state.h"

namespace fcm::players {

// one decision as a handler reads it: the position as the seat may know it (its view), the decision
// asked and its legal actions (sorted, from the real game)
struct Position {
  const GameState& s;
  const Pending& pending;
  int player;
  const std::vector<Action>& legal;
};

class Player {
 public:
  virtual ~Player() = default;
  // the answer to ``player``'s pending decision; std::invalid_argument when another player is to move
  virtual Action act(Game& game, int player) = 0;
  // a new game starts: forget what was kept between decisions (the seeded draws start again)
  virtual void reset() {}
};

// whether ``legal`` holds ``a``
bool contains(const std::vector<Action>& legal, const Action& a);
inline Action pass_action() { return Action::make(ActionKind::kPass); }

}  // namespace fcm::players

// HeuristicHiddenModel (hidden_model.h).
#include "hidden_model.h"

#include <cstdlib>
#include <stdexcept>

namespace fcm::players {

int HeuristicHiddenModel::reserve(const GameState&, int player, const std::vector<int>& values, Pcg64&) {
  if (values.empty()) throw std::invalid_argument("player " + std::to_string(player) + " was dealt no reserve");
  int best = values[0];
  for (int v : values) {
    if (std::abs(v - 200) < std::abs(best - 200)) best = v;
  }
  return best;
}

Action HeuristicHiddenModel::choose(const GameState& s, const Pending& pending, const std::vector<Action>& legal,
                                    Pcg64&) {
  const Position pos{s, pending, pending.player, legal};
  const Answer choice = pending.decision == Decision::kRestructure ? agent_.restructure(pos) : agent_.fire(pos);
  return choice && contains(legal, *choice) ? *choice : legal[0];
}

}  // namespace fcm::players

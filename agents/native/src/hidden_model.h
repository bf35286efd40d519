// The heuristic as a model of other players' hidden choices (fcm_agents.heuristic.HeuristicHiddenModel): a
// determinization (fcm::determinize) redraws another player's reserve card and face-down choices as the
// heuristic would make them from what the erased world leaves that player.
#pragma once

#include "heuristic.h"
#include "hidden.h"

namespace fcm::players {

class HeuristicHiddenModel : public HiddenChoiceModel {
 public:
  // the heuristic's rule: the $200 card
  int reserve(const GameState& s, int player, const std::vector<int>& values, Pcg64& rng) override;
  // the heuristic's Restructuring or firing answer on the world as it stands
  Action choose(const GameState& s, const Pending& pending, const std::vector<Action>& legal, Pcg64& rng) override;

 private:
  Heuristic agent_;
};

}  // namespace fcm::players

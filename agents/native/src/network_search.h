// The search's networks in the core: the policy's logits and the learned value computed by network.h's
// forward pass on the world's own observations, for the search's PolicyLogits and ValueCallback (search.h)
// without a Python call. They give the very numbers the Python models give on the native pass
// (fcm_agents.search.policy_model.PolicyModel._logits, learned_value.LearnedValue.__call__ through
// fcm_agents.native.network.NativeSession): the same observation bytes through the same functions at the
// same batch size, so the native search with networks in C++ builds the tree the Python search builds.
#pragma once

#include <vector>

#include "game.h"
#include "network.h"
#include "observation.h"
#include "player.h"

namespace fcm::players {

// the policy's most likely legal action by its logits by flat id (ties: the lower id): what a policy seat
// plays in the search's rollouts and as a player (and PolicyModel.act_on_game, OnnxAgent's greedy choice)
const Action& most_likely(const std::vector<float>& logits, const std::vector<Action>& legal);

class NetworkAsker {
 public:
  // the masked logits of ``mover``'s observation by flat id: the legal ids' logits (the action layer's rows
  // for those ids only), kIllegalLogit elsewhere (every id when ``mover`` is not the one to move)
  std::vector<float> policy_logits(const Network& net, Game& world, int mover);
  // LearnedValue's values of ``world``: a finished game's winners 1; else each seat's win probability
  // (sigmoid of its value logit, from its own observation, all seats in one batch), two seats combined as
  // v0 = (p0 + 1 - p1) / 2, more normalised to sum 1
  std::vector<double> values(const Network& net, Game& world);

 private:
  StaticPlanes planes_;
  NetworkScratch scratch_;  // its own: askers on threads may share a network
  std::vector<float> observations_, features_, hidden_, logits_;
};

// the policy as a native player: its most likely legal action (ties: the lower id), what OnnxAgent plays
// (deterministic) on the same network; the network is the caller's and must outlive the player
class PolicyPlayer : public Player {
 public:
  explicit PolicyPlayer(GuardedNetwork& network);
  Action act(Game& game, int player) override;

 private:
  GuardedNetwork& network_;
  NetworkAsker asker_;
};

}  // namespace fcm::players

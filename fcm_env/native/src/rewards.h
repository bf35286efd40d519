// The envs' rewards on a native game: fcm_env.env.rewards' twin (the final standing, the end-of-game
// reward schemes and the cash shaping potentials), for the batched vector env that steps in C++.
#pragma once

#include <vector>

#include "game.h"

namespace fcm {

enum class RewardScheme { kWin, kRank, kCashShare };
enum class Shaping { kNone, kCash, kCashLead };

std::vector<int> standings(const Game& g);                         // player ids, first to last (C23, D45)
std::vector<double> final_rewards(const Game& g, RewardScheme scheme);
std::vector<double> shaping_potential(const GameState& s, Shaping shaping);  // dollars

}  // namespace fcm

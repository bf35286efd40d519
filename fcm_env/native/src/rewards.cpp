// The envs' rewards (rewards.h), computed in the same order of float64 operations as numpy does for
// these few players, so the rewards are equal to the bit.
#include "rewards.h"

#include <algorithm>
#include <tuple>

namespace fcm {

std::vector<int> standings(const Game& g) {
  const GameState& s = g.state();
  const int n = s.num_players, last_seat = static_cast<int>(s.turn_order.size());
  std::vector<int> seat(static_cast<std::size_t>(n), -1);
  for (int i = 0; i < last_seat; ++i) seat[static_cast<std::size_t>(s.turn_order[static_cast<std::size_t>(i)])] = i;
  auto key = [&](int p) {
    const PlayerState& player = s.players[static_cast<std::size_t>(p)];
    const bool seated = seat[static_cast<std::size_t>(p)] >= 0;
    const int group = seated ? (player.bankrupt ? 1 : 0) : 2;
    return std::make_tuple(group, -player.cash, seated ? seat[static_cast<std::size_t>(p)] : last_seat, p);
  };
  std::vector<int> order(static_cast<std::size_t>(n));
  for (int p = 0; p < n; ++p) order[static_cast<std::size_t>(p)] = p;
  std::sort(order.begin(), order.end(), [&](int a, int b) { return key(a) < key(b); });
  const std::vector<int> champion = g.winners();  // the engine's winner rule has the last word on first place
  if (!champion.empty() && order[0] != champion[0]) {
    order.erase(std::find(order.begin(), order.end(), champion[0]));
    order.insert(order.begin(), champion[0]);
  }
  return order;
}

std::vector<double> final_rewards(const Game& g, RewardScheme scheme) {
  const GameState& s = g.state();
  const int n = s.num_players;
  std::vector<double> out(static_cast<std::size_t>(n), 0.0);
  if (scheme == RewardScheme::kWin) {
    std::fill(out.begin(), out.end(), -1.0 / (n - 1));
    out[static_cast<std::size_t>(standings(g)[0])] = 1.0;
  } else if (scheme == RewardScheme::kRank) {
    const std::vector<int> order = standings(g);
    for (int k = 0; k < n; ++k) out[static_cast<std::size_t>(order[static_cast<std::size_t>(k)])] = 1.0 - 2.0 * k / (n - 1);
  } else {
    double total = 0.0;
    for (const auto& p : s.players) total += static_cast<double>(p.cash);
    if (total > 0) {
      for (int p = 0; p < n; ++p) {
        out[static_cast<std::size_t>(p)] = static_cast<double>(s.players[static_cast<std::size_t>(p)].cash) / total - 1.0 / n;
      }
    }
  }
  return out;
}

std::vector<double> shaping_potential(const GameState& s, Shaping shaping) {
  const int n = s.num_players;
  std::vector<double> out(static_cast<std::size_t>(n));
  for (int p = 0; p < n; ++p) out[static_cast<std::size_t>(p)] = static_cast<double>(s.players[static_cast<std::size_t>(p)].cash);
  if (shaping == Shaping::kCashLead) {
    double sum = 0.0;
    for (double v : out) sum += v;
    for (double& v : out) v = v - (sum - v) / (n - 1);
  }
  return out;
}

}  // namespace fcm

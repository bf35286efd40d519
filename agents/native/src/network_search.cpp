#include "network_search.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "codec.h"

namespace fcm::players {

const Action& most_likely(const std::vector<float>& logits, const std::vector<Action>& legal) {
  const Action* best = nullptr;
  float best_logit = 0.0f;
  int best_id = 0;
  for (const Action& a : legal) {
    const int id = encode(a);
    if (id < 0 || id >= static_cast<int>(logits.size())) throw std::runtime_error("a legal action has no id");
    const float z = logits[static_cast<std::size_t>(id)];
    if (best == nullptr || z > best_logit || (z == best_logit && id < best_id)) best = &a, best_logit = z, best_id = id;
  }
  if (best == nullptr) throw std::invalid_argument("no legal action to choose");
  return *best;
}

std::vector<float> NetworkAsker::policy_logits(const Network& net, Game& world, int mover) {
  if (!net.has_policy()) throw std::invalid_argument("search: the policy network has no policy head");
  const NetworkShape& s = net.shape();
  observations_.resize(static_cast<std::size_t>(s.flat_size()));
  features_.resize(static_cast<std::size_t>(s.features()));
  hidden_.resize(static_cast<std::size_t>(s.policy_hidden));
  write_observation(world.state(), mover, observations_.data(), planes_);
  net.features(observations_.data(), 1, features_.data(), scratch_);
  net.policy_hidden(features_.data(), 1, hidden_.data());
  std::vector<float> logits(static_cast<std::size_t>(s.num_actions), kIllegalLogit);
  if (world.current_player() == mover) {
    for (const Action& a : world.legal_actions()) {
      const int id = encode(a);
      if (id < 0 || id >= s.num_actions) throw std::runtime_error("search: a legal action has no id");
      logits[static_cast<std::size_t>(id)] = net.action_logit(hidden_.data(), id);
    }
  }
  return logits;
}

std::vector<double> NetworkAsker::values(const Network& net, Game& world) {
  if (!net.has_value()) throw std::invalid_argument("search: the value network has no value head");
  const GameState& state = world.state();
  const int n = state.num_players;
  std::vector<double> out(static_cast<std::size_t>(n), 0.0);
  if (world.is_over()) {  // value.score of a finished game: the rules' winners take 1
    for (int w : world.winners()) out[static_cast<std::size_t>(w)] = 1.0;
    return out;
  }
  const NetworkShape& s = net.shape();
  observations_.resize(static_cast<std::size_t>(n) * s.flat_size());
  features_.resize(static_cast<std::size_t>(n) * s.features());
  logits_.resize(static_cast<std::size_t>(n));
  for (int p = 0; p < n; ++p) {
    write_observation(state, p, observations_.data() + static_cast<std::size_t>(p) * s.flat_size(), planes_);
  }
  net.features(observations_.data(), n, features_.data(), scratch_);
  net.value_logits(features_.data(), n, logits_.data());
  std::vector<double> win(static_cast<std::size_t>(n));
  for (int p = 0; p < n; ++p) win[static_cast<std::size_t>(p)] = 1.0 / (1.0 + std::exp(-static_cast<double>(logits_[static_cast<std::size_t>(p)])));
  if (n == 2) {
    const double v0 = 0.5 * (win[0] + 1.0 - win[1]);
    return {v0, 1.0 - v0};
  }
  double total = 0.0;
  for (double v : win) total += v;
  if (total == 0.0) total = 1.0;
  for (std::size_t p = 0; p < win.size(); ++p) out[p] = win[p] / total;
  return out;
}

PolicyPlayer::PolicyPlayer(GuardedNetwork& network) : network_(network) {
  if (!network.has_policy()) throw std::invalid_argument("PolicyPlayer: the network has no policy head");
}

Action PolicyPlayer::act(Game& game, int player) {
  check_free(network_.use, kNetwork);
  if (game.current_player() != player) {
    throw std::invalid_argument("PolicyPlayer: player " + std::to_string(player) + " is not the one to move");
  }
  return most_likely(asker_.policy_logits(network_, game, player), game.legal_actions());
}

}  // namespace fcm::players

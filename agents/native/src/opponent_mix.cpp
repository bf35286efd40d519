#include "opponent_mix.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "codec.h"
#include "network_search.h"
#include "strategist.h"

namespace fcm::players {

namespace {

int64_t seed31(Pcg64& rng) { return rng.integers(0, int64_t{1} << 31); }  // rng.integers(2**31)

class RandomSeat : public SeatPlayer {  // RandomAgent / RandomLegalPlayer: the k-th of the sorted legal list
 public:
  explicit RandomSeat(uint64_t seed) : rng_(seed) {}
  Action act(Game& game, int) override {
    const auto& legal = game.legal_actions();
    return legal[static_cast<std::size_t>(rng_.integers(0, static_cast<int64_t>(legal.size())))];
  }
  std::string name() const override { return "'random'"; }

 private:
  Pcg64 rng_;
};

class PlayerSeat : public SeatPlayer {  // a native player (the heuristic, a strategist)
 public:
  PlayerSeat(std::unique_ptr<Player> player, std::string name) : player_(std::move(player)), name_(std::move(name)) {}
  Action act(Game& game, int player) override { return player_->act(game, player); }
  std::string name() const override { return name_; }

 private:
  std::unique_ptr<Player> player_;
  std::string name_;
};

// OnnxAgent(deterministic=False)._choose: z = legal logits in float64 - max, p = exp(z), choice(legal, p=p/sum)
class SnapshotSeat : public SeatPlayer {
 public:
  SnapshotSeat(std::shared_ptr<const Network> network, int index, uint64_t seed)
      : network_(std::move(network)), index_(index), rng_(seed) {}
  Action act(Game& game, int player) override {
    const std::vector<float> logits = asker_.policy_logits(*network_, game, player);
    const auto& legal = game.legal_actions();
    ids_.clear();
    for (const Action& a : legal) ids_.push_back(encode(a));
    order_.resize(legal.size());
    for (std::size_t i = 0; i < order_.size(); ++i) order_[i] = i;
    std::sort(order_.begin(), order_.end(), [&](std::size_t a, std::size_t b) { return ids_[a] < ids_[b]; });
    p_.resize(legal.size());
    double top = -INFINITY;
    for (std::size_t i = 0; i < order_.size(); ++i) {
      p_[i] = static_cast<double>(logits[static_cast<std::size_t>(ids_[order_[i]])]);
      top = std::max(top, p_[i]);
    }
    for (double& z : p_) z = std::exp(z - top);
    const double total = pairwise_sum(p_.data(), p_.size());
    std::size_t pick = 0;
    if (!std::isfinite(total) || total <= 0.0) {
      pick = static_cast<std::size_t>(rng_.integers(0, static_cast<int64_t>(p_.size())));
    } else {
      double run = 0.0;
      for (double& v : p_) run += v / total, v = run;  // cumsum(p / total)
      const double last = p_.back();
      for (double& v : p_) v /= last;
      pick = static_cast<std::size_t>(choice_by_cdf(rng_, p_));
    }
    return legal[order_[pick]];
  }
  std::string name() const override { return "'snapshot" + std::to_string(index_) + "'"; }

 private:
  std::shared_ptr<const Network> network_;
  int index_;
  Pcg64 rng_;
  NetworkAsker asker_;
  std::vector<int> ids_;
  std::vector<std::size_t> order_;
  std::vector<double> p_;
};

class FrozenSeat : public SeatPlayer {  // OnnxAgent(deterministic=True): the most likely legal action
 public:
  explicit FrozenSeat(std::shared_ptr<const Network> network) : network_(std::move(network)) {}
  Action act(Game& game, int player) override {
    return most_likely(asker_.policy_logits(*network_, game, player), game.legal_actions());
  }
  std::string name() const override { return "'frozen'"; }

 private:
  std::shared_ptr<const Network> network_;
  NetworkAsker asker_;
};

}  // namespace

double pairwise_sum(const double* a, std::size_t n) {  // numpy's pairwise_sum (PW_BLOCKSIZE 128, 8 lanes)
  if (n < 8) {
    double res = 0.0;
    for (std::size_t i = 0; i < n; ++i) res += a[i];
    return res;
  }
  if (n <= 128) {
    double r[8];
    for (int j = 0; j < 8; ++j) r[j] = a[j];
    std::size_t i = 8;
    for (; i < n - (n % 8); i += 8) {
      for (int j = 0; j < 8; ++j) r[j] += a[i + static_cast<std::size_t>(j)];
    }
    double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) res += a[i];
    return res;
  }
  std::size_t n2 = n / 2;
  n2 -= n2 % 8;
  return pairwise_sum(a, n2) + pairwise_sum(a + n2, n - n2);
}

int choice_by_cdf(Pcg64& rng, const std::vector<double>& cdf) {  // cdf.searchsorted(random(), side="right")
  const double u = rng.random();
  const auto it = std::upper_bound(cdf.begin(), cdf.end(), u);
  return static_cast<int>(std::min<std::ptrdiff_t>(it - cdf.begin(), static_cast<std::ptrdiff_t>(cdf.size()) - 1));
}

LeagueMix::LeagueMix(MixSettings settings) : s_(std::move(settings)) {
  static const std::vector<std::string> known = {"frozen", "heuristic", "random", "snapshot", "strategist"};
  if (s_.kinds.empty() || s_.kinds.size() != s_.probs.size()) {
    throw std::invalid_argument("opponent mix: one probability per kind, and at least one kind");
  }
  double total = 0.0;
  for (std::size_t k = 0; k < s_.kinds.size(); ++k) {
    if (std::find(known.begin(), known.end(), s_.kinds[k]) == known.end()) {
      throw std::invalid_argument("opponent mix: unknown kind '" + s_.kinds[k] + "' (use frozen, heuristic, random, snapshot, strategist)");
    }
    if (!(s_.probs[k] >= 0.0) || !std::isfinite(s_.probs[k])) {
      throw std::invalid_argument("opponent mix: the probability of '" + s_.kinds[k] + "' must be a number >= 0");
    }
    total += s_.probs[k];
  }
  if (!(total > 0.0)) throw std::invalid_argument("opponent mix: the probabilities must sum to more than 0");
  if (s_.pool_size < 1) throw std::invalid_argument("opponent mix: pool_size must be at least 1");
  if (s_.strategists.empty()) throw std::invalid_argument("opponent mix: no strategist to draw from");
  if (!(s_.variation >= 0.0 && s_.variation <= 1.0)) throw std::invalid_argument("opponent mix: variation must lie in [0, 1]");
  double run = 0.0;
  for (double p : s_.probs) cdf_.push_back(run += p);
  const double last = cdf_.back();
  for (double& v : cdf_) v /= last;
}

void LeagueMix::add_snapshot(std::shared_ptr<const Network> network) {
  if (!network || !network->has_policy()) throw std::invalid_argument("opponent mix: a snapshot needs a policy head");
  const std::lock_guard<std::mutex> lock(mutex_);
  snapshots_.push_back(std::move(network));
  if (static_cast<int>(snapshots_.size()) > s_.pool_size) snapshots_.erase(snapshots_.begin());
}

void LeagueMix::set_frozen(std::shared_ptr<const Network> network) {
  if (!network || !network->has_policy()) throw std::invalid_argument("opponent mix: the frozen policy needs a policy head");
  const std::lock_guard<std::mutex> lock(mutex_);
  frozen_ = std::move(network);
}

int LeagueMix::snapshots() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return static_cast<int>(snapshots_.size());
}

std::vector<std::unique_ptr<SeatPlayer>> LeagueMix::draw(Pcg64& rng, int count) const {
  std::vector<std::shared_ptr<const Network>> pool;
  std::shared_ptr<const Network> frozen;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    pool = snapshots_;
    frozen = frozen_;
  }
  std::vector<std::unique_ptr<SeatPlayer>> out;
  for (int i = 0; i < count; ++i) {
    const std::string& kind = s_.kinds[static_cast<std::size_t>(choice_by_cdf(rng, cdf_))];
    if (kind == "snapshot" && !pool.empty()) {
      const auto k = static_cast<std::size_t>(rng.integers(0, static_cast<int64_t>(pool.size())));
      out.push_back(std::make_unique<SnapshotSeat>(pool[k], static_cast<int>(k), static_cast<uint64_t>(seed31(rng))));
    } else if (kind == "frozen") {
      if (!frozen) throw std::logic_error("opponent mix: a frozen seat was drawn, but no frozen policy is set");
      out.push_back(std::make_unique<FrozenSeat>(frozen));
    } else if (kind == "heuristic") {
      out.push_back(std::make_unique<PlayerSeat>(std::make_unique<Heuristic>(), "'heuristic'"));
    } else if (kind == "strategist") {
      const int archetype = s_.strategists[static_cast<std::size_t>(rng.integers(0, static_cast<int64_t>(s_.strategists.size())))];
      const auto seed = static_cast<uint64_t>(seed31(rng));
      out.push_back(std::make_unique<PlayerSeat>(std::make_unique<Strategist>(archetype, seed, s_.variation),
                                                 "'strategist'"));
    } else {  // random, and a snapshot before the first snapshot exists
      out.push_back(std::make_unique<RandomSeat>(static_cast<uint64_t>(seed31(rng))));
    }
  }
  return out;
}

}  // namespace fcm::players

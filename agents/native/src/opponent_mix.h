// The training league's opponents inside the native batch: fcm_training.sb3.opponents.OpponentPool's draw made
// in C++ (fcm_env's VecEnv asks it at every reset), its seats played by the native players (the random-legal
// player, the heuristic, the strategist family) and by policy snapshots through network.h's forward pass, so
// a learner's games and all their opponents step in the core without a Python call.
//
// The draws are the pool's, from the same generator in the same order: per seat a kind by the pool's
// probabilities (numpy's Generator.choice with p), then a snapshot's index and sampling seed, a strategist's
// archetype and seed, or a random player's seed (a frozen seat draws nothing). A snapshot seat samples its
// move as OnnxAgent does with deterministic=False (softmax of the legal logits in float64, Generator.choice
// with p); a frozen seat plays its policy's most likely legal action (OnnxAgent deterministic).
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "network.h"
#include "rng.h"
#include "vec_env.h"

namespace fcm::players {

struct MixSettings {
  std::vector<std::string> kinds;  // OpponentPool.kinds (frozen, heuristic, random, snapshot, strategist)
  std::vector<double> probs;       // OpponentPool.probs, in the kinds' order
  std::vector<int> strategists;    // the archetypes a strategist seat draws from (-1: the map's own plan)
  double variation = 0.06;         // the strategists' seeded variation (StrategistAgent's default)
  int pool_size = 1;               // snapshots kept (the oldest beyond it goes)
};

class LeagueMix : public OpponentMix {
 public:
  // std::invalid_argument naming a kind, probability or size that is not one
  explicit LeagueMix(MixSettings settings);
  std::vector<std::unique_ptr<SeatPlayer>> draw(Pcg64& rng, int count) const override;
  // a frozen policy joins the pool (it must have a policy head); episodes that drew one keep theirs
  void add_snapshot(std::shared_ptr<const Network> network);
  int snapshots() const;
  // the policy a ``frozen`` seat plays greedily (its most likely legal action: OnnxAgent deterministic),
  // set before the first draw (std::logic_error on a draw of a frozen seat without one)
  void set_frozen(std::shared_ptr<const Network> network);

 private:
  MixSettings s_;
  std::vector<double> cdf_;  // numpy's choice: cumsum(p) / its last
  mutable std::mutex mutex_;  // the snapshot list: added to between steps, read by the batch's threads
  std::vector<std::shared_ptr<const Network>> snapshots_;
  std::shared_ptr<const Network> frozen_;
};

// numpy's Generator.choice(n, p=p) of one value: the first index whose cdf exceeds a random() draw
int choice_by_cdf(Pcg64& rng, const std::vector<double>& cdf);
// numpy's pairwise sum of a float64 array (np.sum's order), so a softmax's total is numpy's to the bit
double pairwise_sum(const double* a, std::size_t n);

}  // namespace fcm::players

// determinize (hidden.h), step for step as the Python engine does it, drawing what UniformModel draws.
#include "hidden.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "game.h"
#include "milestones.h"
#include "phases.h"
#include "rules_data.h"

namespace fcm {

namespace {

bool contains(const std::vector<int>& v, int x) { return std::find(v.begin(), v.end(), x) != v.end(); }

// another player's face-down choice made again, one atomic choice at a time, as the phase would ask it
void choose_again(GameState& s, int player, Decision decision, Pcg64& rng, HiddenChoiceModel* model) {
  const bool restructure = decision == Decision::kRestructure;
  if (!(restructure ? restructure_can_choose(s, player) : fire_can_choose(s, player))) return;  // public: D53
  const Pending pending{decision, player, {}};
  std::vector<Action> legal;
  while (true) {
    legal.clear();
    (restructure ? legal_restructure : legal_fire)(s, pending, legal);
    std::sort(legal.begin(), legal.end());
    Action a;
    if (model == nullptr) {
      a = legal[static_cast<std::size_t>(rng.integers(0, static_cast<int64_t>(legal.size())))];
    } else {
      a = model->choose(s, pending, legal, rng);
      if (std::find(legal.begin(), legal.end(), a) == legal.end()) {
        throw std::invalid_argument("the model chose an action not legal for " + std::string(decision_name(decision)) +
                                    " of player " + std::to_string(player));
      }
    }
    if (a.n == 0) return;  // done
    if (!(restructure ? restructure_put_to_work(s, player, a[0]) : fire_mark(s, player, a[0]))) return;
  }
}

}  // namespace

HiddenFacts hidden_from(const GameState& s, int observer) {
  HiddenFacts hidden;
  const int n = s.num_players;
  if (!(s.reserve_revealed || has_milestone(s, observer, kFirstHave20))) {
    for (int p = 0; p < n; ++p) {
      if (p != observer && s.players[static_cast<std::size_t>(p)].reserve) hidden.reserves.push_back(p);
    }
  }
  if (!(s.structure_revealed && s.firing_revealed)) {
    for (int p = 0; p < n; ++p) {
      if (p == observer) continue;
      if (!s.structure_revealed) hidden.structures.push_back(p);
      if (!s.firing_revealed) hidden.firings.push_back(p);
    }
  }
  return hidden;
}

void erase_hidden(GameState& s, const HiddenFacts& hidden) {
  for (int p = 0; p < s.num_players; ++p) {
    PlayerState& player = s.players[static_cast<std::size_t>(p)];
    if (contains(hidden.reserves, p)) player.reserve.reset();
    if (contains(hidden.structures, p)) {
      const int16_t ceo = player.work[kCeo];
      for (int t = 0; t < kNumTypes; ++t) {
        player.hand[static_cast<std::size_t>(t)] = static_cast<int16_t>(player.hand[static_cast<std::size_t>(t)] +
                                                                        player.work[static_cast<std::size_t>(t)]);
      }
      player.hand[kCeo] = static_cast<int16_t>(player.hand[kCeo] - ceo);
      player.work.fill(0);
      player.work[kCeo] = ceo;
    }
    if (contains(hidden.firings, p)) player.fired.fill(0);
  }
}

GameState determinize(const GameState& real, int observer, Pcg64& rng, HiddenChoiceModel* model) {
  const int n = real.num_players;
  if (observer < 0 || observer >= n) {
    throw std::invalid_argument("observer must be a player id 0.." + std::to_string(n - 1) + ", got " +
                                std::to_string(observer));
  }
  GameState s = real;
  // 1. erase: nothing of the truth may reach the redraw (visibility.erase)
  const HiddenFacts hidden = hidden_from(s, observer);
  erase_hidden(s, hidden);
  // 2. redraw, player by player
  for (int p : hidden.reserves) {
    PlayerState& player = s.players[static_cast<std::size_t>(p)];
    const auto& values = player.reserve_offer;
    if (values.empty()) throw std::invalid_argument("determinize: player " + std::to_string(p) + " was dealt no reserve");
    player.reserve = model == nullptr
        ? values[static_cast<std::size_t>(rng.integers(0, static_cast<int64_t>(values.size())))]
        : model->reserve(s, p, values, rng);
  }
  if (s.phase == Phase::kRestructuring) {
    for (int p : hidden.structures) {
      if (!contains(s.queue, p)) choose_again(s, p, Decision::kRestructure, rng, model);
    }
  }
  if (s.phase == Phase::kPayday) {
    for (int p : hidden.firings) {
      if (!contains(s.queue, p)) choose_again(s, p, Decision::kFire, rng, model);
    }
  }
  return s;
}

}  // namespace fcm

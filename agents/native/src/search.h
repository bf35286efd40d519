// The search on the native core (fcm_agents.search.SearchAgent's information-set MCTS, step for step): each
// iteration determinizes the searcher's view, walks the tree of observed actions (PUCT over the first
// ``1 + widen * sqrt(n)`` actions of the prior's order, another player's face-down move one merged child),
// expands one node, plays a rollout by the seats' models to the horizon, and backs the value vector up. The
// same settings, generator state and models give the very tree the Python search builds. What the Python
// agent decides before searching (the others' models, the prior, the value) it hands over as parts; the
// networks it may ask (onnxruntime runs in Python) are callbacks.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <vector>

#include "game.h"
#include "heuristic.h"
#include "hidden_model.h"
#include "rng.h"
#include "strategist.h"

namespace fcm::players {

// who plays a seat's moves (rollouts and another player's face-down moves) or gives its tree priors
struct Part {
  enum Kind : int { kHeuristic = 0, kStrategist = 1, kPolicy = 2, kRandom = 3, kUniform = 4 };
  int kind = kHeuristic;
  int archetype = -1;  // kStrategist: the archetype (-1: the plan its map reading picks)
  int network = 0;     // kPolicy: 0 the shipped policy, 1 the searcher's own network (policy_model)
};

struct SearchSettings {
  int iterations = 0;      // per decision (0: none); with seconds, whichever ends first
  double seconds = 0.2;    // per decision (0: none)
  double opening = 1.0;    // the first restaurant's budget, in times
  int horizon = 6;         // rounds a rollout plays past the decision's
  int policy_rounds = 1;   // rounds a policy plays its seats in a rollout, then the heuristic
  double c_puct = 1.0, prior_weight = 0.5, widen = 1.0, scale = 60.0;
  bool heuristic_model = true;  // the others' hidden facts redrawn by the heuristic (else uniformly)
  bool learned_value = false;   // every rollout's end scored by the value callback (else value.score's cash lead)
  uint64_t random_seed = 0;     // the random rollout player's seed (a Part::kRandom seat)
};

// masked logits of the policy ``network`` for ``mover`` in ``world``, by flat action id
using PolicyLogits = std::function<std::vector<float>(int network, Game& world, int mover)>;
// the value of ``world`` (a stopped rollout or a finished game), one per player
using ValueCallback = std::function<std::vector<double>(Game& world)>;

struct SearchResult {
  Action best;
  std::vector<int> visits;    // per legal action of the root, in legal order (0: never tried)
  std::vector<double> priors; // the root edges' priors, in legal order (-1: never tried)
  int iterations = 0;
  int64_t rollout_moves = 0;
};

class Search {
 public:
  // one decision of ``me`` in ``real`` (two or more legal actions): ``rollout[p]`` plays seat p's rollout and
  // face-down moves, ``priors[p]`` orders its tree moves; ``rng`` (numpy's generator, handed over) draws the
  // worlds
  SearchResult run(Game& real, int me, const SearchSettings& settings, const std::vector<Part>& rollout,
                   const std::vector<Part>& priors, Pcg64& rng, const PolicyLogits& policy,
                   const ValueCallback& value);
  // the native player of a heuristic or strategist part: one per model, kept between decisions and games (the
  // Python search keeps its model agents alike; its inference of the others asks the same ones)
  Player& model(const Part& part);

 private:
  struct Edge;
  struct Node;
  struct Key {
    int decision, player;
    bool hidden;
    Action action;
    bool operator==(const Key& o) const {
      return decision == o.decision && player == o.player && hidden == o.hidden && (hidden || action == o.action);
    }
  };
  struct Edge {
    Key key;
    double prior;
    int visits = 0, available = 0;
    std::vector<double> value;  // sums of the backed-up values, one per player (empty: none yet)
    std::unique_ptr<Node> child;
    double mean(int player) const { return visits ? value[static_cast<std::size_t>(player)] / visits : 0.0; }
  };
  struct Node {
    int visits = 0;
    std::vector<std::unique_ptr<Edge>> edges;
    std::unique_ptr<std::vector<std::pair<Key, double>>> priors;  // a policy prior's answers, by observed action
    Edge* find(const Key& key) const;
    Edge& edge(const Key& key, double prior);
  };

  void iterate(const GameState& real, int me, Node& root);
  std::pair<Action, Edge*> select(Game& world, int me, int mover, Node& node, const std::vector<Action>& legal);
  Action play(const Part& part, Game& world, int mover);
  std::vector<double> softmax_priors(int network, Game& world, int mover, const std::vector<Action>& legal);
  std::vector<double> evaluate(Game& world);
  static Key key_of(const Pending& pending, const Action& action, int observer);

  Heuristic heuristic_;
  HeuristicHiddenModel hidden_model_;
  std::map<int, std::unique_ptr<Strategist>> strategists_;
  // this decision's
  const SearchSettings* settings_ = nullptr;
  const std::vector<Part>* rollout_ = nullptr;
  const std::vector<Part>* priors_ = nullptr;
  Pcg64* rng_ = nullptr;
  std::unique_ptr<Pcg64> random_;
  const PolicyLogits* policy_ = nullptr;
  const ValueCallback* value_ = nullptr;
  int horizon_ = 0;
  int64_t rollout_moves_ = 0;
};

}  // namespace fcm::players

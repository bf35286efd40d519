// The native search (search.h), each step as agents/search/mcts.py takes it.
#include "search.h"

#include "network_search.h"

#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "codec.h"
#include "hidden.h"
#include "names.h"

namespace fcm::players {

namespace {

constexpr double kUntried = 0.5;  // an action not yet tried counts as an even chance (mcts.UNTRIED)

}  // namespace

Search::Edge* Search::Node::find(const Key& key) const {
  for (const auto& e : edges) {
    if (e->key == key) return e.get();
  }
  return nullptr;
}

Search::Edge& Search::Node::edge(const Key& key, double prior) {
  if (Edge* found = find(key)) return *found;
  edges.push_back(std::make_unique<Edge>());
  Edge& made = *edges.back();
  made.key = key;
  made.prior = prior;
  return made;
}

Search::Key Search::key_of(const Pending& pending, const Action& action, int observer) {
  const bool hidden = is_hidden_decision(pending.decision) && pending.player != observer;
  return Key{static_cast<int>(pending.decision), pending.player, hidden, hidden ? Action{} : action};
}

Player& Search::model(const Part& part) {
  if (part.kind == Part::kStrategist) {
    auto& slot = strategists_[part.archetype];
    if (!slot) slot = std::make_unique<Strategist>(part.archetype, 0, 0.0);  // no variation: one answer per world
    return *slot;
  }
  if (part.kind != Part::kHeuristic) throw std::invalid_argument("search: only heuristic and strategist parts are players");
  return heuristic_;
}

Action Search::play(const Part& part, Game& world, int mover) {
  switch (part.kind) {
    case Part::kPolicy: {  // the policy's most likely legal action (ties: the lower id)
      return most_likely((*policy_)(part.network, world, mover), world.legal_actions());
    }
    case Part::kRandom: {
      const std::vector<Action>& legal = world.legal_actions();
      return legal[static_cast<std::size_t>(random_->integers(0, static_cast<int64_t>(legal.size())))];
    }
    default:
      return model(part).act(world, mover);
  }
}

std::vector<double> Search::softmax_priors(int network, Game& world, int mover, const std::vector<Action>& legal) {
  const std::vector<float> logits = (*policy_)(network, world, mover);
  std::vector<double> z;
  z.reserve(legal.size());
  for (const Action& a : legal) z.push_back(static_cast<double>(logits.at(static_cast<std::size_t>(encode(a)))));
  double top = z[0];
  for (double v : z) top = std::max(top, v);
  std::vector<double> e;
  double total = 0.0;
  for (double v : z) {
    e.push_back(std::exp(v - top));
    total += e.back();
  }
  for (double& v : e) v /= total;
  return e;
}

std::vector<double> Search::evaluate(Game& world) {
  const GameState& s = world.state();
  const auto n = static_cast<std::size_t>(s.num_players);
  std::vector<double> out(n, 0.0);
  if (settings_->learned_value) {  // the callback scores a finished game too (its own way)
    out = (*value_)(world);
    if (out.size() != n) throw std::runtime_error("search: the value callback gave a value per player of another table");
    return out;
  }
  if (world.is_over()) {  // the rules' winners take 1
    for (int w : world.winners()) out[static_cast<std::size_t>(w)] = 1.0;
    return out;
  }
  for (std::size_t i = 0; i < n; ++i) {  // value.score: (1 + tanh(lead / scale)) / 2
    int64_t best_other = std::numeric_limits<int64_t>::min();
    for (std::size_t j = 0; j < n; ++j) {
      if (j != i) best_other = std::max(best_other, s.players[j].cash);
    }
    out[i] = 0.5 * (1.0 + std::tanh(static_cast<double>(s.players[i].cash - best_other) / settings_->scale));
  }
  return out;
}

SearchResult Search::run(Game& real, int me, const SearchSettings& settings, const std::vector<Part>& rollout,
                         const std::vector<Part>& priors, Pcg64& rng, const PolicyLogits& policy,
                         const ValueCallback& value) {
  const Pending* pending = real.pending();
  if (pending == nullptr || pending->player != me) {
    throw std::invalid_argument("search: player " + std::to_string(me) + " is not the one to move");
  }
  const int n = real.state().num_players;
  if (static_cast<int>(rollout.size()) != n || static_cast<int>(priors.size()) != n) {
    throw std::invalid_argument("search: a rollout part and a prior part per seat");
  }
  if (!settings.iterations && !settings.seconds) throw std::invalid_argument("search: set iterations or seconds");
  settings_ = &settings;
  rollout_ = &rollout;
  priors_ = &priors;
  rng_ = &rng;
  policy_ = &policy;
  value_ = &value;
  random_ = std::make_unique<Pcg64>(settings.random_seed);
  horizon_ = settings.horizon;
  rollout_moves_ = 0;
  const std::vector<Action> legal = real.legal_actions();
  const double scale = pending->decision == Decision::kInitialRestaurant ? settings.opening : 1.0;
  const int budget = static_cast<int>(std::nearbyint(settings.iterations * scale));  // Python's round()
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const bool timed = settings.seconds > 0;
  const auto deadline = start + std::chrono::duration_cast<Clock::duration>(
                                    std::chrono::duration<double>(timed ? settings.seconds * scale : 0.0));
  Node root;
  int done = 0;
  while ((!budget || done < budget) && (done == 0 || !timed || Clock::now() < deadline)) {
    iterate(real.state(), me, root);
    ++done;
  }
  SearchResult result;
  result.iterations = done;
  result.rollout_moves = rollout_moves_;
  // the legal action whose child was visited most (ties: the higher prior, then the legal order)
  std::pair<int, double> best_key{-1, -1.0};
  result.best = legal[0];
  for (const Action& a : legal) {
    const Edge* edge = root.find(key_of(*pending, a, me));
    result.visits.push_back(edge ? edge->visits : 0);
    result.priors.push_back(edge ? edge->prior : -1.0);
    const std::pair<int, double> k = edge ? std::make_pair(edge->visits, edge->prior) : std::make_pair(-1, -1.0);
    if (k > best_key) result.best = a, best_key = k;
  }
  return result;
}

void Search::iterate(const GameState& real, int me, Node& root) {
  Game world(determinize(real, me, *rng_, settings_->heuristic_model ? &hidden_model_ : nullptr));
  const int end_round = world.state().round + horizon_;
  const int policy_end = world.state().round + settings_->policy_rounds;
  Node* node = &root;
  std::vector<Edge*> path;
  while (!world.is_over()) {
    const Pending pending = *world.pending();
    const int mover = pending.player;
    const std::vector<Action>& legal = world.legal_actions();
    const bool choice = legal.size() > 1;
    Action action;
    Edge* edge;
    if (!choice || (mover != me && is_hidden_decision(pending.decision))) {
      // no choice to search: a forced move, or a face-down move the searcher cannot see
      action = choice ? play((*rollout_)[static_cast<std::size_t>(mover)], world, mover) : legal[0];
      edge = &node->edge(key_of(pending, action, me), 1.0);
      edge->available += 1;
    } else {
      std::tie(action, edge) = select(world, me, mover, *node, legal);
    }
    path.push_back(edge);
    world.apply_legal(action);
    if (!edge->child) {
      edge->child = std::make_unique<Node>();
      if (choice) break;  // expanded: evaluate from here
    }
    node = edge->child.get();
  }
  while (!world.is_over() && world.state().round < end_round) {
    const int mover = world.current_player();
    const Part* part = &(*rollout_)[static_cast<std::size_t>(mover)];
    static const Part kHeuristicPart{};
    if (part->kind == Part::kPolicy && world.state().round >= policy_end) part = &kHeuristicPart;
    world.apply_legal(play(*part, world, mover));
    ++rollout_moves_;
  }
  const std::vector<double> values = evaluate(world);
  root.visits += 1;
  for (Edge* edge : path) {
    edge->visits += 1;
    if (edge->value.empty()) {
      edge->value = values;
    } else {
      for (std::size_t i = 0; i < values.size(); ++i) edge->value[i] += values[i];
    }
    if (edge->child) edge->child->visits += 1;
  }
}

std::pair<Action, Search::Edge*> Search::select(Game& world, int me, int mover, Node& node,
                                                const std::vector<Action>& legal_ref) {
  const std::vector<Action> legal = legal_ref;  // a model's answer may ask the world again
  const SearchSettings& cfg = *settings_;
  const Pending pending = *world.pending();
  const auto n = legal.size();
  const Part& prior = (*priors_)[static_cast<std::size_t>(mover)];
  std::vector<Action> order;
  std::vector<double> priors;
  if (prior.kind == Part::kHeuristic || prior.kind == Part::kStrategist) {
    const Action favourite = model(prior).act(world, mover);
    order.push_back(favourite);
    for (const Action& a : legal) {
      if (a != favourite) order.push_back(a);
    }
    const double rest = (1.0 - cfg.prior_weight) / static_cast<double>(n);  // the favourite gets prior_weight more
    priors.assign(n, rest);
    priors[0] = rest + cfg.prior_weight;
  } else if (prior.kind == Part::kPolicy) {
    // the policy's priors, asked once per node (again only for an action no earlier world offered)
    std::vector<Key> keys;
    for (const Action& a : legal) keys.push_back(key_of(pending, a, me));
    auto& known = node.priors;
    auto lookup = [&known](const Key& k) -> const double* {
      for (const auto& [key, p] : *known) {
        if (key == k) return &p;
      }
      return nullptr;
    };
    bool fresh = !known;
    for (std::size_t i = 0; !fresh && i < n; ++i) fresh = lookup(keys[i]) == nullptr;
    if (fresh) {
      const std::vector<double> asked = softmax_priors(prior.network, world, mover, legal);
      if (!known) known = std::make_unique<std::vector<std::pair<Key, double>>>();
      for (std::size_t i = 0; i < n; ++i) {  // {**known, **new}: a key asked again takes the new answer
        bool replaced = false;
        for (auto& [key, p] : *known) {
          if (key == keys[i]) p = asked[i], replaced = true;
        }
        if (!replaced) known->emplace_back(keys[i], asked[i]);
      }
    }
    std::vector<std::size_t> ranked(n);
    for (std::size_t i = 0; i < n; ++i) ranked[i] = i;
    std::vector<double> p(n);
    for (std::size_t i = 0; i < n; ++i) p[i] = *lookup(keys[i]);
    std::stable_sort(ranked.begin(), ranked.end(), [&p](std::size_t a, std::size_t b) { return -p[a] < -p[b]; });
    for (std::size_t i : ranked) {
      order.push_back(legal[i]);
      priors.push_back((1.0 - cfg.prior_weight) / static_cast<double>(n) + cfg.prior_weight * p[i]);
    }
  } else {
    order = legal;
    priors.assign(n, 1.0 / static_cast<double>(n));
  }
  const std::size_t width = std::min(n, static_cast<std::size_t>(1 + static_cast<int>(cfg.widen * std::sqrt(node.visits))));
  std::pair<Action, Edge*> best{legal[0], nullptr};
  double best_score = -std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < width; ++i) {
    Edge& edge = node.edge(key_of(pending, order[i], me), priors[i]);
    edge.available += 1;
    const double q = edge.visits ? edge.mean(mover) : kUntried;
    const double u = cfg.c_puct * edge.prior * std::sqrt(edge.available) / (1 + edge.visits);
    if (q + u > best_score) best = {order[i], &edge}, best_score = q + u;
  }
  return best;
}

}  // namespace fcm::players

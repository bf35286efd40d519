// The Python face of the native players (pybind11): fcm_agents.native._agents. It is compiled with its own
// copy of the engine's sources and takes the engine's games (fcm_env.native._core.Game) as they are: pybind11
// shares the registered type between the two modules. fcm_agents.native loads its data tables first.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "bind_data.h"
#include "bind_network.h"
#include "bind_opponent_mix.h"
#include "network_search.h"
#include "call_guard.h"
#include "game.h"
#include "heuristic.h"
#include "hidden.h"
#include "hidden_model.h"
#include "org_planner.h"
#include "playout.h"
#include "search.h"
#include "strategist.h"

namespace py = pybind11;
using fcm::players::PlanTables;

namespace {

std::vector<int> types_of(const py::handle& raw, const char* what) {
  auto out = raw.cast<std::vector<int>>();
  for (int t : out) {
    if (t < 0 || t >= fcm::kNumTypes) throw std::invalid_argument(std::string(what) + ": no employee type " + std::to_string(t));
  }
  return out;
}

// the tables of fcm_agents.heuristic.plan (or an archetype) as fcm_agents.native hands them over
PlanTables tables_from(const py::dict& raw) {
  PlanTables t;
  for (const auto& item : raw["hiring_plan"]) {
    const auto pair = item.cast<std::array<int, 2>>();
    if (pair[0] < 0 || pair[0] >= fcm::kNumTypes) throw std::invalid_argument("hiring_plan: no employee type " + std::to_string(pair[0]));
    t.hiring_plan.emplace_back(pair[0], pair[1]);
  }
  t.play_priority = types_of(raw["play_priority"], "play_priority");
  for (const auto& item : raw["train_goals"]) {
    const auto pair = item.cast<py::tuple>();
    t.train_goals.emplace_back(pair[0].cast<int>(), types_of(pair[1], "train_goals"));
  }
  t.train_reserve = types_of(raw["train_reserve"], "train_reserve");
  t.train_margin = raw["train_margin"].cast<int>();
  t.extra_hires = types_of(raw["extra_hires"], "extra_hires");
  t.extra_cap = raw["extra_cap"].cast<int>();
  return t;
}

}  // namespace

namespace {

// a search whose run calls back into Python: one call at a time (call_guard.h)
struct GuardedSearch : fcm::players::Search {
  fcm::InUse use;
};

}  // namespace

PYBIND11_MODULE(_agents, m) {
  m.doc() = "fcm-magnate's native players (C++): the heuristic, its hidden-choice model and the strategist family";
  fcm::bind_data(m);
  fcm::players::bind_network(m);
  fcm::players::bind_opponent_mix(m);

  m.def(
      "set_heuristic_tables",
      [](const py::dict& tables, const py::handle& staff) {
        fcm::players::set_heuristic_tables(tables_from(tables), types_of(staff, "staff"));
      },
      py::arg("tables"), py::arg("staff"),
      "load the heuristic's plan tables (fcm_agents.native does it from fcm_agents.heuristic.plan)");

  m.def(
      "set_archetypes",
      [](const py::list& archetypes, const py::dict& constants) {
        std::vector<fcm::players::Archetype> out;
        for (const auto& item : archetypes) {
          const auto raw = item.cast<py::dict>();
          fcm::players::Archetype a;
          a.name = raw["name"].cast<std::string>();
          a.reserve = raw["reserve"].cast<int>();
          a.tables = tables_from(raw["tables"].cast<py::dict>());
          a.campaign_kinds = raw["campaign_kinds"].cast<std::vector<int>>();
          a.products = raw["products"].cast<std::vector<int>>();
          a.targets = raw["targets"].cast<std::vector<std::pair<int, int>>>();
          out.push_back(std::move(a));
        }
        fcm::players::StrategistConstants k;
        k.opener = constants["opener"].cast<std::vector<std::pair<int, int>>>();
        k.swap = constants["swap"].cast<double>();
        k.extra_cap_low = constants["extra_cap_low"].cast<int>();
        k.extra_cap_high = constants["extra_cap_high"].cast<int>();
        k.ample = constants["ample"].cast<int>();
        k.near = constants["near"].cast<int>();
        k.haul_range = constants["haul_range"].cast<int>();
        k.drinks = constants["drinks"].cast<std::vector<int>>();
        fcm::players::set_archetypes(std::move(out), std::move(k));
      },
      py::arg("archetypes"), py::arg("constants"),
      "load the strategist's archetypes and constants (fcm_agents.native does it from fcm_agents.strategist)");

  py::class_<fcm::players::Player>(m, "Player", "a native player: answers a native game's pending decision")
      .def(
          "act",
          [](fcm::players::Player& p, fcm::Game& game, int player) { return fcm::action_tuple(p.act(game, player)); },
          py::arg("game"), py::arg("player"), "(kind, args): the answer to player's pending decision")
      .def("reset", &fcm::players::Player::reset, "a new game starts: the seeded draws start again");

  fcm::players::bind_policy_player(m);

  py::class_<fcm::players::Heuristic, fcm::players::Player>(m, "Heuristic",
                                                            "the heuristic as a native player (HeuristicAgent's twin)")
      .def(py::init<>())
      .def(py::init([](const py::dict& tables) { return fcm::players::Heuristic(tables_from(tables)); }),
           py::arg("tables"));

  py::class_<fcm::players::Strategist, fcm::players::Heuristic>(
      m, "Strategist", "a strategist of one archetype, or of the plan its map reading picks (StrategistAgent's twin)")
      .def(py::init([](const std::optional<std::string>& archetype, uint64_t seed, double variation) {
             if (!(variation >= 0.0 && variation <= 1.0)) {
               throw std::invalid_argument("variation must lie in [0, 1], got " + std::to_string(variation));
             }
             const int index = archetype && *archetype != "auto" ? fcm::players::archetype_index(*archetype) : -1;
             return fcm::players::Strategist(index, seed, variation);
           }),
           py::arg("archetype"), py::arg("seed"), py::arg("variation"));

  m.def(
      "plan_organisation",
      [](const std::vector<int>& available, const std::vector<int>& owned,
         const std::vector<std::pair<int, int>>& targets, int64_t cash, int salaried, int margin,
         const std::vector<std::pair<int, std::vector<int>>>& goals, const std::vector<int>& spare_to_train) {
        if (available.size() != fcm::kNumTypes || owned.size() != fcm::kNumTypes) {
          throw std::invalid_argument("plan_organisation: available and owned have 33 card counts");
        }
        auto check = [](int t) {
          if (t < 0 || t >= fcm::kNumTypes) throw std::invalid_argument("plan_organisation: no employee type " + std::to_string(t));
        };
        for (const auto& [t, n] : targets) check(t);
        for (const auto& [t, list] : goals) {
          check(t);
          for (int u : list) check(u);
        }
        for (int t : spare_to_train) check(t);
        fcm::Cards a{}, o{};
        for (int t = 0; t < fcm::kNumTypes; ++t) {
          a[static_cast<std::size_t>(t)] = static_cast<int16_t>(available[static_cast<std::size_t>(t)]);
          o[static_cast<std::size_t>(t)] = static_cast<int16_t>(owned[static_cast<std::size_t>(t)]);
        }
        const fcm::players::OrgPlan plan =
            fcm::players::plan_organisation(a, o, targets, cash, salaried, margin, goals, spare_to_train);
        py::list assignments;
        for (const auto& x : plan.assignments) {
          assignments.append(py::make_tuple(x.goal, x.card < 0 ? py::object(py::none()) : py::object(py::int_(x.card)),
                                            x.steps));
        }
        return py::make_tuple(assignments, plan.hires, plan.trainings, plan.beach, plan.trainers);
      },
      py::arg("available"), py::arg("owned"), py::arg("targets"), py::arg("cash"), py::arg("salaried"),
      py::arg("margin"), py::arg("goals"), py::arg("spare_to_train"),
      "planner.plan_organisation in C++: (assignments (goal, card or None, steps), hires, trainings, beach, trainers)");

  py::class_<GuardedSearch>(m, "Search",
                            "the information-set MCTS on the native core (SearchAgent's search, step for step)")
      .def(py::init<>())
      .def(
          "run",
          [](GuardedSearch& search, fcm::Game& game, int me, const py::dict& raw, const py::list& rollout,
             const py::list& priors, const py::dict& bit_generator, const py::object& policy, const py::object& value) {
            // the policy and value callbacks run Python, where another thread may take over: it may not enter
            // this search (its tree is being built), and what it does to ``game`` cannot reach the search,
            // which runs on a copy of the position
            const fcm::CallGuard guard(search.use, "this native Search");
            fcm::players::SearchSettings s;
            s.iterations = raw["iterations"].cast<int>();
            s.seconds = raw["seconds"].cast<double>();
            s.opening = raw["opening"].cast<double>();
            s.horizon = raw["horizon"].cast<int>();
            s.policy_rounds = raw["policy_rounds"].cast<int>();
            s.c_puct = raw["c_puct"].cast<double>();
            s.prior_weight = raw["prior_weight"].cast<double>();
            s.widen = raw["widen"].cast<double>();
            s.scale = raw["scale"].cast<double>();
            s.heuristic_model = raw["heuristic_model"].cast<bool>();
            s.learned_value = raw["learned_value"].cast<bool>();
            s.random_seed = raw["random_seed"].cast<uint64_t>();
            auto parts = [](const py::list& list) {
              std::vector<fcm::players::Part> out;
              for (const auto& item : list) {
                const auto t = item.cast<std::array<int, 3>>();
                if (t[0] < 0 || t[0] > fcm::players::Part::kUniform) throw std::invalid_argument("search: unknown part kind");
                out.push_back(fcm::players::Part{t[0], t[1], t[2]});
              }
              return out;
            };
            // the networks: native ones (a list [shipped, own] of Networks, a value Network) are asked in C++
            // with the GIL released; a Python callable is called back with it held
            using fcm::players::GuardedNetwork;
            std::vector<GuardedNetwork*> policy_nets;
            GuardedNetwork* value_net = nullptr;
            std::vector<std::unique_ptr<fcm::CallGuard>> held;  // each network used: one call at a time
            auto hold = [&held](GuardedNetwork* net) {
              held.push_back(std::make_unique<fcm::CallGuard>(net->use, fcm::players::kNetwork));
            };
            fcm::players::NetworkAsker asker;
            fcm::players::PolicyLogits policy_fn;
            if (py::isinstance<py::list>(policy)) {
              for (const auto& item : policy.cast<py::list>()) {
                policy_nets.push_back(item.is_none() ? nullptr : item.cast<GuardedNetwork*>());
              }
              for (std::size_t i = 0; i < policy_nets.size(); ++i) {
                bool seen = false;
                for (std::size_t j = 0; j < i; ++j) seen = seen || policy_nets[j] == policy_nets[i];
                if (policy_nets[i] != nullptr && !seen) hold(policy_nets[i]);
              }
              policy_fn = [&policy_nets, &asker](int network, fcm::Game& world, int mover) {
                if (network < 0 || network >= static_cast<int>(policy_nets.size()) || policy_nets[static_cast<std::size_t>(network)] == nullptr) {
                  throw std::invalid_argument("search: no native policy network " + std::to_string(network));
                }
                return asker.policy_logits(*policy_nets[static_cast<std::size_t>(network)], world, mover);
              };
            } else if (!policy.is_none()) {
              policy_fn = [policy](int network, fcm::Game& world, int mover) {
                py::gil_scoped_acquire with_gil;
                return policy(network, py::cast(&world, py::return_value_policy::reference), mover)
                    .cast<std::vector<float>>();
              };
            }
            fcm::players::ValueCallback value_fn;
            if (py::isinstance<GuardedNetwork>(value)) {
              value_net = value.cast<GuardedNetwork*>();
              bool seen = false;
              for (auto* net : policy_nets) seen = seen || net == value_net;
              if (!seen) hold(value_net);
              value_fn = [value_net, &asker](fcm::Game& world) { return asker.values(*value_net, world); };
            } else if (!value.is_none()) {
              value_fn = [value](fcm::Game& world) {
                py::gil_scoped_acquire with_gil;
                return value(py::cast(&world, py::return_value_policy::reference)).cast<std::vector<double>>();
              };
            }
            if (s.learned_value && !value_fn) throw std::invalid_argument("search: learned_value needs a value callback");
            fcm::Pcg64 rng = fcm::pcg64_from_numpy(bit_generator);
            fcm::Game root(game);
            const auto rollout_parts = parts(rollout), prior_parts = parts(priors);
            fcm::players::SearchResult result;
            {
              py::gil_scoped_release without_gil;  // the callbacks of Python take it back while they run
              result = search.run(root, me, s, rollout_parts, prior_parts, rng, policy_fn, value_fn);
            }
            return py::make_tuple(fcm::action_tuple(result.best), result.visits, result.priors, result.iterations,
                                  result.rollout_moves, fcm::pcg64_to_numpy(rng));
          },
          py::arg("game"), py::arg("me"), py::arg("settings"), py::arg("rollout"), py::arg("priors"),
          py::arg("bit_generator"), py::arg("policy"), py::arg("value"),
          "one decision: (best (kind, args), root visits per legal action, root priors (-1: untried), iterations, "
          "rollout moves, the generator's state after)")
      .def(
          "model_act",
          [](GuardedSearch& search, const std::array<int, 3>& part, fcm::Game& game, int player) {
            fcm::check_free(search.use, "this native Search");
            return fcm::action_tuple(search.model(fcm::players::Part{part[0], part[1], part[2]}).act(game, player));
          },
          py::arg("part"), py::arg("game"), py::arg("player"),
          "the answer of the search's own model player of a heuristic or strategist part (kept between decisions)");

  m.def(
      "play",
      [](fcm::Game& game, const std::vector<fcm::players::Player*>& seats, int max_decisions) {
        for (const auto* seat : seats) {
          if (seat == nullptr) throw std::invalid_argument("play: a seat has no player");
        }
        return fcm::players::play_out(game, seats, max_decisions);
      },
      py::arg("game"), py::arg("players"), py::arg("max_decisions") = -1,
      "play the game on in place, players[i] answering player i, to its end (or max_decisions): the decisions "
      "played");

  m.def(
      "play_seats",
      [](fcm::Game& game, const std::vector<fcm::players::Player*>& seats, int max_decisions) {
        std::vector<fcm::Action> played;  // the GIL stays held: the players are Python agents' and not shared safely
        py::object error = py::none();
        try {
          fcm::players::play_seats(game, seats, max_decisions, played);
        } catch (const std::exception& e) {  // the moves before it stand: the caller logs them, then raises
          error = py::str(e.what());
        }
        py::list out;
        for (const auto& a : played) out.append(fcm::action_tuple(a));
        return py::make_tuple(out, error);
      },
      py::arg("game"), py::arg("seats"), py::arg("max_decisions") = -1,
      "play the game on while the seat to move has a native player (None: a Python agent's seat, where the run "
      "stops), to its end or max_decisions moves: (the moves played as (kind, args) tuples, None or the error that "
      "stopped the run: the moves before it stand)");

  m.def(
      "play_heuristic",
      [](fcm::Game& game, int max_decisions) {
        std::vector<fcm::players::Heuristic> agents(static_cast<std::size_t>(game.state().num_players));
        std::vector<fcm::players::Player*> seats;
        for (auto& a : agents) seats.push_back(&a);
        return fcm::players::play_out(game, seats, max_decisions);
      },
      py::arg("game"), py::arg("max_decisions") = -1,
      "play the game on in place, one native heuristic per seat, to its end (or max_decisions): the decisions "
      "played");

  m.def(
      "determinize_heuristic",
      [](const fcm::Game& g, int observer, const py::dict& bit_generator) {
        fcm::Pcg64 rng = fcm::pcg64_from_numpy(bit_generator);
        fcm::players::HeuristicHiddenModel model;
        fcm::Game world(fcm::determinize(g.state(), observer, rng, &model));
        return py::make_tuple(std::move(world), fcm::pcg64_to_numpy(rng));
      },
      py::arg("game"), py::arg("observer"), py::arg("bit_generator"),
      "(world, the generator's state after): Game.determinize with HeuristicHiddenModel, numpy's PCG64 state in "
      "and out");
}

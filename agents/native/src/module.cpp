// The Python face of the native players (pybind11): fcm_agents.native._agents. It is compiled with its own
// copy of the engine's sources and takes the engine's games (fcm_env.native._core.Game) as they are: pybind11
// shares the registered type between the two modules. fcm_agents.native loads its data tables first.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <stdexcept>
#include <string>

#include "bind_data.h"
#include "game.h"
#include "heuristic.h"
#include "hidden.h"
#include "hidden_model.h"
#include "playout.h"

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

PYBIND11_MODULE(_agents, m) {
  m.doc() = "fcm-magnate's native players (C++): the heuristic and its hidden-choice model";
  fcm::bind_data(m);

  m.def(
      "set_heuristic_tables",
      [](const py::dict& tables, const py::handle& staff) {
        fcm::players::set_heuristic_tables(tables_from(tables), types_of(staff, "staff"));
      },
      py::arg("tables"), py::arg("staff"),
      "load the heuristic's plan tables (fcm_agents.native does it from fcm_agents.heuristic.plan)");

  py::class_<fcm::players::Heuristic>(m, "Heuristic", "the heuristic as a native player (HeuristicAgent's twin)")
      .def(py::init<>())
      .def(py::init([](const py::dict& tables) { return fcm::players::Heuristic(tables_from(tables)); }),
           py::arg("tables"))
      .def(
          "act",
          [](fcm::players::Heuristic& h, fcm::Game& game, int player) { return fcm::action_tuple(h.act(game, player)); },
          py::arg("game"), py::arg("player"), "(kind, args): the answer to player's pending decision");

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

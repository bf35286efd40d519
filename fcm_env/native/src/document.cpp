// The state document (format fcm-magnate/state, version 1) of a native state, both ways: the very dict
// fcm_env.engine.persistence.serialize.state_to_dict writes for the same position, and a native state
// read back from one. Reading trusts a document that fcm_env.native's loader has already checked with the
// Python engine's own validator (the same refusals, the same messages: docs/state-format.md).
#include "document.h"

#include <pybind11/stl.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "game.h"

namespace py = pybind11;

namespace fcm {

namespace {

template <std::size_t N>
py::list as_list(const std::array<int16_t, N>& values) {
  py::list out;
  for (int16_t v : values) out.append(static_cast<int>(v));
  return out;
}

py::list square_pairs(const std::vector<Square>& squares) {
  py::list out;
  for (const auto& sq : squares) {
    py::list pair;
    pair.append(sq[0]);
    pair.append(sq[1]);
    out.append(pair);
  }
  return out;
}

template <std::size_t N>
std::array<int16_t, N> int16s(const py::handle& raw) {
  const auto values = raw.cast<std::vector<int>>();
  if (values.size() != N) throw std::invalid_argument("state document: a vector of the wrong length");
  std::array<int16_t, N> out{};
  for (std::size_t i = 0; i < N; ++i) out[i] = static_cast<int16_t>(values[i]);
  return out;
}

std::vector<Square> squares_from(const py::handle& raw) {
  std::vector<Square> out;
  for (const auto& pair : raw.cast<std::vector<std::array<int, 2>>>()) out.push_back(pair);
  return out;
}

std::vector<int> milestone_numbers(const py::handle& raw, const py::list& names) {
  std::vector<int> out;
  for (const auto& item : raw) {
    const auto name = item.cast<std::string>();
    int found = -1;
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (names[i].cast<std::string>() == name) found = static_cast<int>(i);
    }
    if (found < 0) throw std::invalid_argument("state document: unknown milestone " + name);
    out.push_back(found);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

py::dict state_document(const GameState& s, const py::list& milestone_names) {
  auto names = [&milestone_names](const std::vector<int>& milestones) {  // Milestone numbers -> their names
    py::list out;
    for (int m : milestones) out.append(milestone_names[static_cast<std::size_t>(m)]);
    return out;
  };
  py::dict doc;
  doc["format"] = "fcm-magnate/state";
  doc["version"] = 1;
  doc["num_players"] = s.num_players;
  doc["variant"] = s.variant;
  doc["seed"] = s.seed;
  doc["board"] = s.layout;
  doc["max_rounds"] = s.max_rounds ? py::object(py::int_(*s.max_rounds)) : py::object(py::none());
  doc["round"] = s.round;
  doc["phase"] = phase_name(s.phase);
  doc["turn_order"] = s.turn_order;
  doc["bank"] = s.bank;
  doc["supply"] = as_list(s.supply);
  py::list players;
  for (const auto& p : s.players) {
    py::dict d;
    d["player"] = p.player;
    d["cash"] = p.cash;
    d["hand"] = as_list(p.hand);
    d["work"] = as_list(p.work);
    d["beach"] = as_list(p.beach);
    d["busy"] = as_list(p.busy);
    py::list restaurants;
    for (const auto& r : p.restaurants) {
      py::dict rd;
      rd["row"] = r.row;
      rd["col"] = r.col;
      rd["orientation"] = r.orientation;
      rd["coming_soon"] = r.coming_soon;
      restaurants.append(rd);
    }
    d["restaurants"] = restaurants;
    d["stock"] = as_list(p.stock);
    d["milestones"] = names(p.milestones);
    d["reserve_offer"] = p.reserve_offer;
    d["reserve"] = p.reserve ? py::object(py::int_(*p.reserve)) : py::object(py::none());
    d["recruit_discounts"] = p.recruit_discounts;
    d["fired"] = as_list(p.fired);
    d["income"] = p.income;
    d["bankrupt"] = p.bankrupt;
    players.append(d);
  }
  doc["players"] = players;
  doc["ceo_slots"] = s.ceo_slots;
  doc["milestones_gone"] = names(s.milestones_gone);
  doc["milestones_this_turn"] = names(s.milestones_this_turn);
  doc["marketing_supply"] = s.marketing_supply;
  py::list pending;
  for (const auto& p : s.pending) {
    py::list entry;
    entry.append(decision_name(p.decision));
    entry.append(p.player);
    entry.append(p.context);
    pending.append(entry);
  }
  doc["pending"] = pending;
  doc["queue"] = s.queue;
  doc["passed"] = s.passed;
  doc["spots"] = s.spots;
  doc["structure_revealed"] = s.structure_revealed;
  doc["firing_revealed"] = s.firing_revealed;
  py::dict turn;
  turn["hires"] = s.turn.hires;
  turn["recruits_left"] = s.turn.recruits_left;
  py::list trainers;
  for (const auto& t : s.turn.trainers) {
    py::list pair;
    pair.append(t[0]);
    pair.append(t[1]);
    trainers.append(pair);
  }
  turn["trainers"] = trainers;
  turn["locked"] = as_list(s.turn.locked);
  turn["phantoms"] = as_list(s.turn.phantoms);
  turn["returned"] = as_list(s.turn.returned);
  turn["used"] = as_list(s.turn.used);
  doc["turn"] = turn;
  py::dict houses;
  for (const auto& h : s.houses) {
    py::dict hd;
    hd["number"] = h.number;
    hd["squares"] = square_pairs(h.squares);
    hd["garden"] = square_pairs(h.garden);
    hd["placed"] = h.placed;
    hd["demand"] = h.demand;
    houses[py::str(std::to_string(h.number))] = hd;
  }
  doc["houses"] = houses;
  doc["house_supply"] = s.house_supply;
  doc["gardens_left"] = s.gardens_left;
  py::list campaigns;
  for (const auto& c : s.campaigns) {
    py::dict cd;
    cd["number"] = c.number;
    cd["kind"] = c.kind;
    cd["owner"] = c.owner;
    cd["marketeer"] = c.marketeer;
    cd["product"] = c.product;
    cd["remaining"] = c.remaining;
    cd["eternal"] = c.eternal;
    cd["row"] = c.row;
    cd["col"] = c.col;
    cd["orientation"] = c.orientation;
    cd["squares"] = square_pairs(c.squares);
    campaigns.append(cd);
  }
  doc["campaigns"] = campaigns;
  doc["bank_breaks"] = s.bank_breaks;
  doc["reserve_revealed"] = s.reserve_revealed;
  doc["bank_debt"] = s.bank_debt;
  doc["truncated"] = s.truncated;
  return doc;
}


GameState state_from_document(const py::dict& doc, const py::list& milestone_names) {
  GameState s;
  s.num_players = doc["num_players"].cast<int>();
  s.variant = doc["variant"].cast<std::string>();
  s.seed = doc["seed"].cast<uint64_t>();
  s.layout = doc["board"].cast<std::vector<std::vector<std::string>>>();
  s.board = std::make_shared<const Board>(s.layout);
  if (!doc["max_rounds"].is_none()) s.max_rounds = doc["max_rounds"].cast<int>();
  s.round = doc["round"].cast<int>();
  s.phase = phase_named(doc["phase"].cast<std::string>());
  s.turn_order = doc["turn_order"].cast<std::vector<int>>();
  s.bank = doc["bank"].cast<int64_t>();
  s.supply = int16s<kNumTypes>(doc["supply"]);
  for (const auto& raw : doc["players"]) {
    const auto d = raw.cast<py::dict>();
    PlayerState p;
    p.player = d["player"].cast<int>();
    p.cash = d["cash"].cast<int64_t>();
    p.hand = int16s<kNumTypes>(d["hand"]);
    p.work = int16s<kNumTypes>(d["work"]);
    p.beach = int16s<kNumTypes>(d["beach"]);
    p.busy = int16s<kNumTypes>(d["busy"]);
    for (const auto& r : d["restaurants"]) {
      const auto rd = r.cast<py::dict>();
      p.restaurants.push_back(Restaurant{rd["row"].cast<int>(), rd["col"].cast<int>(), rd["orientation"].cast<int>(),
                                         rd["coming_soon"].cast<bool>()});
    }
    p.stock = int16s<kNumGoods>(d["stock"]);
    p.milestones = milestone_numbers(d["milestones"], milestone_names);
    p.reserve_offer = d["reserve_offer"].cast<std::vector<int>>();
    if (!d["reserve"].is_none()) p.reserve = d["reserve"].cast<int>();
    p.recruit_discounts = d["recruit_discounts"].cast<int>();
    p.fired = int16s<kNumTypes>(d["fired"]);
    p.income = d["income"].cast<int64_t>();
    p.bankrupt = d["bankrupt"].cast<bool>();
    s.players.push_back(std::move(p));
  }
  s.ceo_slots = doc["ceo_slots"].cast<int>();
  s.milestones_gone = milestone_numbers(doc["milestones_gone"], milestone_names);
  s.milestones_this_turn = milestone_numbers(doc["milestones_this_turn"], milestone_names);
  s.marketing_supply = doc["marketing_supply"].cast<std::vector<int>>();
  for (const auto& raw : doc["pending"]) {
    const auto entry = raw.cast<py::list>();
    s.pending.push_back(Pending{
        decision_named(entry[0].cast<std::string>()),
        entry[1].cast<int>(), entry[2].cast<std::vector<int>>()});
  }
  s.queue = doc["queue"].cast<std::vector<int>>();
  s.passed = doc["passed"].cast<std::vector<int>>();
  s.spots = doc["spots"].cast<std::vector<int>>();
  s.structure_revealed = doc["structure_revealed"].cast<bool>();
  s.firing_revealed = doc["firing_revealed"].cast<bool>();
  const auto turn = doc["turn"].cast<py::dict>();
  s.turn.hires = turn["hires"].cast<int>();
  s.turn.recruits_left = turn["recruits_left"].cast<int>();
  s.turn.trainers = turn["trainers"].cast<std::vector<std::array<int, 2>>>();
  s.turn.locked = int16s<kNumTypes>(turn["locked"]);
  s.turn.phantoms = int16s<kNumTypes>(turn["phantoms"]);
  s.turn.returned = int16s<kNumTypes>(turn["returned"]);
  s.turn.used = int16s<kNumTypes>(turn["used"]);
  for (const auto& item : doc["houses"].cast<py::dict>()) {
    const auto hd = item.second.cast<py::dict>();
    s.houses.push_back(House{hd["number"].cast<int>(), squares_from(hd["squares"]), squares_from(hd["garden"]),
                             hd["placed"].cast<bool>(), hd["demand"].cast<std::vector<int>>()});
  }
  s.house_supply = doc["house_supply"].cast<std::vector<int>>();
  s.gardens_left = doc["gardens_left"].cast<int>();
  for (const auto& raw : doc["campaigns"]) {
    const auto cd = raw.cast<py::dict>();
    s.campaigns.push_back(Campaign{cd["number"].cast<int>(), cd["kind"].cast<int>(), cd["owner"].cast<int>(),
                                   cd["marketeer"].cast<int>(), cd["product"].cast<int>(), cd["remaining"].cast<int>(),
                                   cd["eternal"].cast<bool>(), cd["row"].cast<int>(), cd["col"].cast<int>(),
                                   cd["orientation"].cast<int>(), squares_from(cd["squares"])});
  }
  s.bank_breaks = doc["bank_breaks"].cast<int>();
  s.reserve_revealed = doc["reserve_revealed"].cast<bool>();
  s.bank_debt = doc["bank_debt"].cast<int64_t>();
  s.truncated = doc["truncated"].cast<bool>();
  return s;
}

}  // namespace fcm

// bind_data.h's loaders: each turns the dict fcm_env.native builds from fcm_env.data / fcm_env.encoding into
// the C++ tables, with a ValueError naming what is malformed.
#include "bind_data.h"

#include <pybind11/stl.h>

#include <limits>
#include <map>
#include <stdexcept>
#include <string>

#include "board.h"
#include "codec.h"
#include "names.h"
#include "observation.h"
#include "rules_data.h"
#include "state.h"

namespace py = pybind11;

namespace fcm {

Action action_from(int kind, const std::vector<int>& args) {
  if (kind < 0 || kind >= kNumActionKinds) throw IllegalAction("unknown action kind " + std::to_string(kind));
  if (args.size() > 4) throw IllegalAction("an action has at most 4 arguments");
  Action a;
  a.kind = static_cast<ActionKind>(kind);
  a.n = static_cast<int8_t>(args.size());
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] < -32768 || args[i] > 32767) throw IllegalAction("an action argument is out of range");
    a.a[i] = static_cast<int16_t>(args[i]);
  }
  return a;
}

py::tuple action_tuple(const Action& a) {
  py::tuple args(static_cast<std::size_t>(a.n));
  for (int i = 0; i < a.n; ++i) args[static_cast<std::size_t>(i)] = py::int_(a[i]);
  return py::make_tuple(static_cast<int>(a.kind), args);
}

Pcg64 pcg64_from_numpy(const py::dict& bit_generator) {
  // numpy's PCG64 state dict, checked: another generator's state or a number past 128 bits is refused
  if (!bit_generator.contains("bit_generator") || !py::isinstance<py::str>(bit_generator["bit_generator"]) ||
      bit_generator["bit_generator"].cast<std::string>() != "PCG64") {
    throw std::invalid_argument("the generator must be numpy's PCG64 (its bit_generator.state), got another");
  }
  const py::dict inner = bit_generator["state"];
  const py::object two128 = py::int_(1).attr("__lshift__")(128);
  for (const char* key : {"state", "inc"}) {
    const py::object v = inner[key];
    if (!py::isinstance<py::int_>(v) || v.attr("__lt__")(0).cast<bool>() || v.attr("__ge__")(two128).cast<bool>()) {
      throw std::invalid_argument(std::string("the PCG64 state's ") + key + " must be an int 0 <= x < 2**128");
    }
  }
  const py::int_ state = inner["state"], inc = inner["inc"];
  const py::int_ mask(std::numeric_limits<uint64_t>::max());
  auto half = [&mask](const py::int_& v, int shift) {
    return py::int_(v.attr("__rshift__")(shift).attr("__and__")(mask)).cast<uint64_t>();
  };
  return Pcg64::from_snapshot(Pcg64::Snapshot{
      {half(state, 64), half(state, 0), half(inc, 64), half(inc, 0)},
      bit_generator["has_uint32"].cast<int>() != 0, bit_generator["uinteger"].cast<uint32_t>()});
}

py::dict pcg64_to_numpy(const Pcg64& rng) {
  const Pcg64::Snapshot after = rng.snapshot();
  auto join = [](uint64_t hi, uint64_t lo) {
    return py::int_(py::int_(hi).attr("__lshift__")(64).attr("__or__")(py::int_(lo)));
  };
  py::dict inner;
  inner["state"] = join(after.words[0], after.words[1]);
  inner["inc"] = join(after.words[2], after.words[3]);
  py::dict out;
  out["bit_generator"] = "PCG64";
  out["state"] = inner;
  out["has_uint32"] = after.has_uint32 ? 1 : 0;
  out["uinteger"] = after.uinteger;
  return out;
}

namespace {

TileSpec tile_spec(const py::tuple& raw) {
  // (id, grid rows, [(good, row, col)], [(number, [(row, col)])]) from fcm_env.data.MAP_TILES
  TileSpec spec;
  spec.id = raw[0].cast<std::string>();
  const auto rows = raw[1].cast<std::vector<std::string>>();
  if (rows.size() != spec.grid.size()) throw std::invalid_argument("map tile " + spec.id + ": a grid has 5 rows");
  std::copy(rows.begin(), rows.end(), spec.grid.begin());
  spec.drinks = raw[2].cast<std::vector<std::array<int, 3>>>();
  for (const auto& house : raw[3].cast<std::vector<py::tuple>>()) {
    spec.houses.emplace_back(house[0].cast<int>(), house[1].cast<std::vector<std::array<int, 2>>>());
  }
  return spec;
}


RangeSpec range_from(const py::handle& raw) {
  if (raw.is_none()) return RangeSpec{};
  const auto pair = raw.cast<std::array<int, 2>>();
  return RangeSpec{pair[0], pair[1]};
}

RulesData rules_from(const py::dict& raw) {
  RulesData d;
  for (const auto& item : raw["employees"]) {
    const auto e = item.cast<py::dict>();
    EmployeeSpec s;
    s.type = e["type"].cast<int>();
    s.count_in_box = e["count_in_box"].cast<int>();
    s.entry_level = e["entry_level"].cast<bool>();
    s.salary = e["salary"].cast<bool>();
    s.unique = e["unique"].cast<bool>();
    s.is_manager = e["is_manager"].cast<bool>();
    s.manager_slots = e["manager_slots"].cast<int>();
    s.mandatory = e["mandatory"].cast<bool>();
    s.trains_to = e["trains_to"].cast<std::vector<int>>();
    s.trained_from = e["trained_from"].cast<std::vector<int>>();
    s.recruit = e["recruit"].cast<int>();
    s.recruit_unused_discount = e["recruit_unused_discount"].cast<bool>();
    s.train = e["train"].cast<int>();
    s.train_max_same = e["train_max_same"].cast<int>();
    s.campaign_types = e["campaign_types"].cast<std::vector<int>>();
    s.marketing_range = range_from(e["marketing_range"]);
    s.max_duration = e["max_duration"].cast<int>();
    s.produces = e["produces"].cast<std::vector<int>>();
    s.produce_amount = e["produce_amount"].cast<int>();
    s.drink_mode = e["drink_mode"].cast<int>();
    s.buyer_range = e["buyer_range"].cast<int>();
    s.drinks_per_source = e["drinks_per_source"].cast<int>();
    s.price_delta = e["price_delta"].cast<int>();
    s.waitress = e["waitress"].cast<bool>();
    s.cfo = e["cfo"].cast<bool>();
    s.places_house = e["places_house"].cast<bool>();
    s.restaurant_placement = e["restaurant_placement"].cast<int>();
    s.restaurant_range = range_from(e["restaurant_range"]);
    s.drive_in = e["drive_in"].cast<bool>();
    d.employees.push_back(std::move(s));
  }
  for (const auto& item : raw["marketing_tiles"]) {
    const auto t = item.cast<py::dict>();
    MarketingTileSpec m;
    m.number = t["number"].cast<int>();
    m.type = t["type"].cast<int>();
    m.w = t["w"].cast<int>();
    m.h = t["h"].cast<int>();
    m.rotatable = t["rotatable"].cast<bool>();
    m.available_for_players = t["available_for_players"].cast<std::vector<int>>();
    m.along_edge = t["along_edge"].cast<int>();
    m.footprints = t["footprints"].cast<std::vector<std::array<int, 2>>>();
    d.marketing_tiles.push_back(std::move(m));
  }
  const auto pr = raw["prices"].cast<py::dict>();
  d.prices = PricesSpec{pr["base_unit_price"].cast<int>(), pr["salary"].cast<int>(), pr["waitress_tip"].cast<int>(),
                        pr["waitress_tip_milestone"].cast<int>(), pr["cfo_bonus_percent"].cast<int>(),
                        pr["restaurants_per_player"].cast<int>(), pr["freezer_capacity"].cast<int>(),
                        pr["reserve_cards_per_player"].cast<int>()};
  for (const auto& item : raw["reserve_cards"]) {
    const auto c = item.cast<std::array<int, 3>>();
    d.reserve_cards.push_back(ReserveCardSpec{c[0], c[1], c[2]});
  }
  d.house_numbers = raw["house_numbers"].cast<std::vector<int>>();
  d.printed_house_numbers = raw["printed_house_numbers"].cast<std::vector<int>>();
  d.garden_tokens = raw["garden_tokens"].cast<int>();
  d.demand_limit = raw["demand_limit"].cast<int>();
  d.demand_limit_with_garden = raw["demand_limit_with_garden"].cast<int>();
  for (const auto& item : raw["setup"].cast<py::dict>()) {
    const int n = item.first.cast<int>();
    const auto t = item.second.cast<py::dict>();
    d.setup.at(static_cast<std::size_t>(n)) =
        SetupSpec{t["tile_rows"].cast<int>(), t["tile_cols"].cast<int>(), t["bank"].cast<int>(),
                  t["bank_introductory"].cast<int>(), t["one_x_copies"].cast<int>(),
                  t["billboards_removed"].cast<std::vector<int>>()};
  }
  const auto params = raw["milestone_params"].cast<std::vector<std::map<std::string, int>>>();
  if (params.size() != static_cast<std::size_t>(kNumMilestones)) throw std::invalid_argument("rules: 18 milestones");
  for (std::size_t i = 0; i < params.size(); ++i) d.milestone_params[i] = params[i];
  d.train_steps = raw["train_steps"].cast<std::map<int, std::map<int, int>>>();
  return d;
}

CodecTable codec_from(const py::dict& raw) {
  CodecTable t;
  for (const auto& item : raw["actions"]) {
    const auto pair = item.cast<py::tuple>();
    t.actions.push_back(action_from(pair[0].cast<int>(), pair[1].cast<std::vector<int>>()));
  }
  t.names = raw["names"].cast<std::vector<std::string>>();
  t.board_rows = raw["board_rows"].cast<int>();
  t.board_cols = raw["board_cols"].cast<int>();
  t.board_orientations = raw["board_orientations"].cast<int>();
  t.decision_kinds = raw["decision_kinds"].cast<std::vector<std::vector<int>>>();
  t.board_kind = raw["board_kind"].cast<std::vector<int>>();
  return t;
}

ObservationLayout layout_from(const py::dict& raw) {
  ObservationLayout L;
  L.channels = raw["channels"].cast<int>();
  L.rows = raw["rows"].cast<int>();
  L.cols = raw["cols"].cast<int>();
  L.vector_size = raw["vector_size"].cast<int>();
  L.block_size = raw["block_size"].cast<int>();
  L.max_players = raw["max_players"].cast<int>();
  L.channel = raw["channel"].cast<std::map<std::string, int>>();
  L.field = raw["field"].cast<std::map<std::string, int>>();
  L.block = raw["block"].cast<std::map<std::string, int>>();
  const auto scales = raw["scales"].cast<std::map<std::string, double>>();
  L.money_scale = scales.at("money");
  L.supply_scale = scales.at("supply");
  L.stock_scale = scales.at("stock");
  L.price_scale = scales.at("price");
  L.house_number_scale = scales.at("house_number");
  L.duration_scale = scales.at("duration");
  L.context_scale = scales.at("context");
  L.round_scale = scales.at("round");
  const auto ints = raw["ints"].cast<std::map<std::string, int>>();
  L.context_slots = ints.at("context_slots");
  L.min_players = ints.at("min_players");
  L.default_max_rounds = ints.at("default_max_rounds");
  L.garden_tokens = ints.at("garden_tokens");
  L.restaurants_per_player = ints.at("restaurants_per_player");
  L.base_unit_price = ints.at("base_unit_price");
  L.lower_prices_delta = ints.at("lower_prices_delta");
  const auto lists = raw["lists"].cast<std::map<std::string, std::vector<int>>>();
  L.ceo_slot_values = lists.at("ceo_slot_values");
  L.marketeer_types = lists.at("marketeer_types");
  L.manager_types = lists.at("manager_types");
  L.trainer_types = lists.at("trainer_types");
  L.tile_numbers = lists.at("tile_numbers");
  L.house_numbers = lists.at("house_numbers");
  L.reserve_values = lists.at("reserve_values");
  return L;
}

}  // namespace

void bind_data(py::module_& m) {
  m.def(
      "set_names",
      [](const py::dict& raw) {
        Names n;
        n.phases = raw["phases"].cast<std::vector<std::string>>();
        n.decisions = raw["decisions"].cast<std::vector<std::string>>();
        n.action_kinds = raw["action_kinds"].cast<std::vector<std::string>>();
        n.hidden.assign(n.decisions.size(), false);
        for (int d : raw["hidden"].cast<std::vector<int>>()) {
          if (d < 0 || d >= static_cast<int>(n.hidden.size())) throw std::invalid_argument("set_names: hidden decision out of range");
          n.hidden[static_cast<std::size_t>(d)] = true;
        }
        set_names(std::move(n));
      },
      py::arg("names"), "load the enums' names and the face-down decisions (fcm_env.native does it from fcm_env.engine)");
  m.def("names", [] {
    const Names& n = names();
    std::vector<int> hidden;
    for (std::size_t d = 0; d < n.hidden.size(); ++d) {
      if (n.hidden[d]) hidden.push_back(static_cast<int>(d));
    }
    py::dict out;
    out["phases"] = n.phases;
    out["decisions"] = n.decisions;
    out["action_kinds"] = n.action_kinds;
    out["hidden"] = hidden;
    return out;
  }, "the names the core holds (set_names)");
  m.def("set_observation_layout", [](const py::dict& raw) { set_observation_layout(layout_from(raw)); },
        py::arg("layout"), "load the observation layout (fcm_env.native does it from fcm_env.encoding)");
  m.def("set_rules_data", [](const py::dict& raw) { set_rules_data(rules_from(raw)); }, py::arg("data"),
        "load the rules' component facts (fcm_env.native does it from fcm_env.data)");
  m.def("set_codec", [](const py::dict& raw) { set_codec(codec_from(raw)); }, py::arg("table"),
        "load the flat action codec's table (fcm_env.native does it from fcm_env.encoding)");
  m.def(
      "set_map_tiles",
      [](const std::vector<py::tuple>& tiles) {
        std::vector<TileSpec> specs;
        for (const auto& raw : tiles) specs.push_back(tile_spec(raw));
        set_tile_specs(std::move(specs));
      },
      py::arg("tiles"), "load the printed map tiles (fcm_env.native does it from fcm_env.data.MAP_TILES)");

  m.def(
      "set_components",
      [](const py::dict& raw) {
        Components c;
        for (int n = 2; n <= 5; ++n) {
          const auto key = py::int_(n);
          const auto supply = raw["supply"][key].cast<std::vector<int>>();
          if (supply.size() != static_cast<std::size_t>(kNumTypes)) {
            throw std::invalid_argument("components: a supply has 33 card types");
          }
          for (int t = 0; t < kNumTypes; ++t) c.supply[n][t] = static_cast<int16_t>(supply[t]);
          c.bank[n] = raw["bank"][key].cast<int>();
          c.bank_intro[n] = raw["bank_intro"][key].cast<int>();
          c.tiles[n] = raw["tiles"][key].cast<std::array<int, 2>>();
          c.marketing[n] = raw["marketing"][key].cast<std::vector<int>>();
        }
        c.reserve_values = raw["reserve_values"].cast<std::vector<int>>();
        c.house_tokens = raw["house_tokens"].cast<std::vector<int>>();
        c.garden_tokens = raw["garden_tokens"].cast<int>();
        c.num_map_tiles = raw["num_map_tiles"].cast<int>();
        set_components(std::move(c));
      },
      py::arg("components"), "load the components' facts (fcm_env.native does it from fcm_env.data)");

}

}  // namespace fcm

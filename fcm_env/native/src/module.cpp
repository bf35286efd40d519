// The Python face of the native core (pybind11): fcm_env.native._core. Bad input raises ValueError with a
// message naming the argument (pybind11 turns std::invalid_argument into ValueError), never a crash.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <stdexcept>
#include <string>

#include "bind_data.h"
#include "bind_game.h"
#include "board.h"
#include "document.h"
#include "rng.h"
#include "state.h"

namespace py = pybind11;

namespace {

uint64_t checked_seed(py::int_ seed) {
  if (py::int_(0) > seed || seed >= (py::int_(1) << py::int_(64))) {
    throw std::invalid_argument("seed must be an integer 0 <= seed < 2**64, got " + std::string(py::str(seed)));
  }
  return seed.cast<uint64_t>();
}

// a copy of a board table as a numpy array of ``shape`` (tests and readers; the engine reads the vectors)
template <typename T>
py::array_t<T> as_array(const std::vector<T>& values, std::vector<py::ssize_t> shape) {
  py::array_t<T> out(shape);
  std::copy(values.begin(), values.end(), out.mutable_data());
  return out;
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "fcm-magnate's native core (C++): the rules engine, its random numbers and its map";
  fcm::bind_data(m);
  fcm::bind_game(m);

  py::class_<fcm::Pcg64>(m, "Pcg64",
                         "numpy.random.default_rng(seed)'s generator, bit for bit: the same seed draws the same "
                         "numbers as numpy does")
      .def(py::init([](py::int_ seed) { return fcm::Pcg64(checked_seed(seed)); }), py::arg("seed"))
      .def("next64", &fcm::Pcg64::next64, "one 64-bit draw: numpy's bit_generator.random_raw()")
      .def("next32", &fcm::Pcg64::next32, "one 32-bit draw (numpy's next_uint32)")
      .def("random", &fcm::Pcg64::random, "Generator.random(): one double in [0, 1)")
      .def(
          "integers",
          [](fcm::Pcg64& rng, int64_t low, int64_t high) {
            if (low >= high) {
              throw std::invalid_argument("integers: high must be greater than low, got low=" + std::to_string(low) +
                                          ", high=" + std::to_string(high));
            }
            return rng.integers(low, high);
          },
          py::arg("low"), py::arg("high"), "Generator.integers(low, high): one int64 in [low, high)")
      .def(
          "permutation",
          [](fcm::Pcg64& rng, int64_t n) {
            if (n < 0) {
              throw std::invalid_argument("permutation: n must be non-negative, got " + std::to_string(n));
            }
            return rng.permutation(n);
          },
          py::arg("n"), "Generator.permutation(n): a shuffle of 0..n-1")
      .def(
          "choice",
          [](fcm::Pcg64& rng, int64_t pop, int64_t size) {
            if (pop < 0 || size < 0 || size > pop) {
              throw std::invalid_argument("choice: need 0 <= size <= pop, got pop=" + std::to_string(pop) +
                                          ", size=" + std::to_string(size));
            }
            return rng.choice_without_replacement(pop, size);
          },
          py::arg("pop"), py::arg("size"), "Generator.choice(pop, size, replace=False)")
      .def("interval", &fcm::Pcg64::interval, py::arg("max"),
           "a value in [0, max] by masked rejection (numpy's random_interval, as Generator.shuffle draws)")
      .def("state_words", &fcm::Pcg64::state_words, "(state high, state low, inc high, inc low)");

  m.def(
      "seed_sequence_pool",
      [](py::int_ seed) { return fcm::SeedSequence(checked_seed(seed)).pool(); }, py::arg("seed"),
      "numpy.random.SeedSequence(seed).pool");

  py::class_<fcm::Board>(m, "Board", "an assembled map and its road tables (fcm_env.engine.board.Board's twin)")
      .def(py::init<const std::vector<std::vector<std::string>>&>(), py::arg("layout"))
      .def_property_readonly("height", &fcm::Board::height)
      .def_property_readonly("width", &fcm::Board::width)
      .def_property_readonly("tile_rows", &fcm::Board::tile_rows)
      .def_property_readonly("tile_cols", &fcm::Board::tile_cols)
      .def_property_readonly("num_nodes", &fcm::Board::num_nodes)
      .def_property_readonly("num_segments", &fcm::Board::num_segments)
      .def_property_readonly("num_blocks", &fcm::Board::num_blocks)
      .def_property_readonly("printed_houses", &fcm::Board::printed_houses)
      .def("tables", [](const fcm::Board& b) {
        const py::ssize_t H = b.height(), W = b.width(), S = b.num_segments(), N = b.num_nodes();
        std::vector<int32_t> node_of;
        for (const auto& pair : b.node_of()) node_of.insert(node_of.end(), pair.begin(), pair.end());
        py::dict out;
        out["kind"] = as_array(b.kind(), {H, W});
        out["drink"] = as_array(b.drink(), {H, W});
        out["printed_house"] = as_array(b.printed_house(), {H, W});
        out["tile"] = as_array(b.tile(), {H, W});
        out["block"] = as_array(b.block(), {H, W});
        out["road_mask"] = as_array(b.road_mask(), {H, W});
        out["has_road_access"] = as_array(b.has_road_access(), {H, W});
        out["node_of"] = as_array(node_of, {H, W, 2});
        out["node_square"] = as_array(b.node_square(), {N});
        out["node_segment"] = as_array(b.node_segment(), {N});
        out["segment_tile"] = as_array(b.segment_tile(), {S});
        out["segment_distance"] = as_array(b.segment_distance(), {S, S});
        out["access"] = as_array(b.access(), {H * W, S});
        out["square_segment_distance"] = as_array(b.square_segment_distance(), {H * W, S});
        return out;
      }, "every table as a numpy array (copies), keyed as fcm_env.engine.board.Board names them");

  py::class_<fcm::GameState>(m, "GameState", "a native game's state (fcm_env.engine.state.GameState's twin)")
      .def(
          "to_dict",
          [](const fcm::GameState& s) {
            return fcm::state_document(s, py::module_::import("fcm_env.native").attr("MILESTONE_NAMES"));
          },
          "the state document, as Game.to_dict writes it");

  m.def(
      "new_game",
      [](int num_players, py::int_ seed, const std::string& variant, std::optional<int> max_rounds) {
        return fcm::new_game(num_players, checked_seed(seed), variant, max_rounds);
      },
      py::arg("num_players") = 4, py::arg("seed") = 0, py::arg("variant") = "standard",
      py::arg("max_rounds") = py::none(), "Game.new: the same map, turn order and setup for the same arguments");
}

// The Python face of the native core (pybind11): fcm_env.native._core. Bad input raises ValueError with a
// message naming the argument (pybind11 turns std::invalid_argument into ValueError), never a crash.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <stdexcept>
#include <string>

#include "rng.h"

namespace py = pybind11;

namespace {

uint64_t checked_seed(py::int_ seed) {
  if (py::int_(0) > seed || seed >= (py::int_(1) << py::int_(64))) {
    throw std::invalid_argument("seed must be an integer 0 <= seed < 2**64, got " + std::string(py::str(seed)));
  }
  return seed.cast<uint64_t>();
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "fcm-magnate's native core (C++): numpy-compatible random numbers so far";

  py::class_<fcm::Pcg64>(m, "Pcg64",
                         "numpy.random.default_rng(seed)'s generator, bit for bit: the same seed draws the same "
                         "numbers as numpy does")
      .def(py::init([](py::int_ seed) { return fcm::Pcg64(checked_seed(seed)); }), py::arg("seed"))
      .def("next64", &fcm::Pcg64::next64, "one 64-bit draw: numpy's bit_generator.random_raw()")
      .def("next32", &fcm::Pcg64::next32, "one 32-bit draw (numpy's next_uint32)")
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
}

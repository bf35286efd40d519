#include "bind_network.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "call_guard.h"
#include "network.h"
#include "network_search.h"

namespace py = pybind11;

namespace fcm::players {

namespace {


std::vector<float> weight(const py::dict& weights, const char* name) {
  if (!weights.contains(name)) return {};
  auto a = py::array_t<float, py::array::c_style | py::array::forcecast>::ensure(weights[name]);
  if (!a) throw std::invalid_argument(std::string("network weight ") + name + ": not a float array");
  return std::vector<float>(a.data(), a.data() + a.size());
}

int size_of(const py::dict& shape, const char* name, int fallback) {
  return shape.contains(name) ? shape[name].cast<int>() : fallback;
}

GuardedNetwork make(const py::dict& shape, const py::dict& weights) {
  NetworkShape s;
  s.mix = size_of(shape, "mix", s.mix);
  s.conv1 = size_of(shape, "conv1", s.conv1);
  s.conv2 = size_of(shape, "conv2", s.conv2);
  s.board_features = size_of(shape, "board_features", s.board_features);
  s.vector_hidden = size_of(shape, "vector_hidden", s.vector_hidden);
  s.policy_hidden = size_of(shape, "policy_hidden", 0);
  s.num_actions = size_of(shape, "num_actions", 0);
  s.value_hidden = size_of(shape, "value_hidden", 0);
  NetworkWeights w;
  w.mix = weight(weights, "mix");
  w.mix_bias = weight(weights, "mix_bias");
  w.conv1 = weight(weights, "conv1");
  w.conv1_bias = weight(weights, "conv1_bias");
  w.conv2 = weight(weights, "conv2");
  w.conv2_bias = weight(weights, "conv2_bias");
  w.board = weight(weights, "board");
  w.board_bias = weight(weights, "board_bias");
  w.vector = weight(weights, "vector");
  w.vector_bias = weight(weights, "vector_bias");
  w.policy = weight(weights, "policy");
  w.policy_bias = weight(weights, "policy_bias");
  w.action = weight(weights, "action");
  w.action_bias = weight(weights, "action_bias");
  w.value = weight(weights, "value");
  w.value_bias = weight(weights, "value_bias");
  w.value_out = weight(weights, "value_out");
  w.value_out_bias = weight(weights, "value_out_bias");
  return GuardedNetwork(s, std::move(w));
}

}  // namespace

void bind_network(py::module_& m) {
  py::class_<GuardedNetwork>(m, "Network",
                             "the policy-value network's forward pass in C++ (fcm_agents.native.network builds it "
                             "from an ONNX file)")
      .def(py::init(&make), py::arg("shape"), py::arg("weights"),
           "shape: the layer sizes by name; weights: float arrays by name, as the ONNX file holds them")
      .def_property_readonly("has_policy", &Network::has_policy)
      .def_property_readonly("has_value", &Network::has_value)
      .def(
          "forward",
          [](GuardedNetwork& net, py::array observations, py::object masks) {
            const NetworkShape& s = net.shape();
            auto obs = py::array_t<float, py::array::c_style>::ensure(observations);
            if (!obs || obs.ndim() != 2 || obs.shape(1) != s.flat_size()) {
              throw std::invalid_argument("observations must be a float32 array of shape (batch, " +
                                          std::to_string(s.flat_size()) + ")");
            }
            const auto batch = static_cast<int>(obs.shape(0));
            py::array_t<float, py::array::c_style> mask;
            if (net.has_policy()) {
              if (masks.is_none()) throw std::invalid_argument("a policy network needs masks (batch, num_actions)");
              mask = py::array_t<float, py::array::c_style | py::array::forcecast>::ensure(masks);
              if (!mask || mask.ndim() != 2 || mask.shape(0) != batch || mask.shape(1) != s.num_actions) {
                throw std::invalid_argument("masks must be an array of shape (batch, " + std::to_string(s.num_actions) +
                                            "), float32 or int8, as the observations' batch");
              }
            }
            py::dict out;
            py::array_t<int64_t> action(net.has_policy() ? batch : 0);
            py::array_t<float> logits(std::vector<py::ssize_t>{net.has_policy() ? batch : 0, s.num_actions});
            py::array_t<float> value(net.has_value() ? batch : 0);
            {
              CallGuard guard(net.use, kNetwork);
              const float* o = obs.data();
              const float* mk = net.has_policy() ? mask.data() : nullptr;
              int64_t* act = action.mutable_data();
              float* lg = logits.mutable_data();
              float* v = value.mutable_data();
              py::gil_scoped_release release;
              std::vector<float> features(static_cast<std::size_t>(batch) * s.features());
              net.features(o, batch, features.data());
              if (net.has_policy()) {
                std::vector<float> hidden(static_cast<std::size_t>(batch) * s.policy_hidden);
                net.policy_hidden(features.data(), batch, hidden.data());
                net.action_logits(hidden.data(), batch, lg);
                for (int b = 0; b < batch; ++b) {
                  float* row = lg + static_cast<std::size_t>(b) * s.num_actions;
                  const float* m = mk + static_cast<std::size_t>(b) * s.num_actions;
                  int64_t best = 0;
                  for (int a = 0; a < s.num_actions; ++a) {
                    if (!(m[a] > 0.5f)) row[a] = kIllegalLogit;
                    if (row[a] > row[best]) best = a;  // the first of equal maxima, as ONNX's ArgMax
                  }
                  act[b] = best;
                }
              }
              if (net.has_value()) net.value_logits(features.data(), batch, v);
            }
            if (net.has_policy()) {
              out["action"] = action;
              out["masked_logits"] = logits;
            }
            if (net.has_value()) out["value_logit"] = value;
            return out;
          },
          py::arg("observations"), py::arg("masks") = py::none(),
          "the ONNX graph's outputs by name: action (int64[batch]) and masked_logits (float32[batch, actions]) "
          "of a policy, value_logit (float32[batch]) of a value head");
}

void bind_policy_player(py::module_& m) {
  py::class_<PolicyPlayer, Player>(m, "PolicyPlayer",
                                   "the policy as a native player: its most likely legal action (ties: the lower id)")
      .def(py::init([](GuardedNetwork& network) { return new PolicyPlayer(network); }), py::arg("network"),
           py::keep_alive<1, 2>());
}

}  // namespace fcm::players

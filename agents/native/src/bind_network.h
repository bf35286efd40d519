// The Python face of the native forward pass (fcm_agents.native._agents.Network): network.h's Network built
// from the weights fcm_agents.native.network reads out of an ONNX file, run on numpy batches.
#pragma once

#include <pybind11/pybind11.h>

#include "call_guard.h"
#include "network.h"

namespace fcm::players {

constexpr const char* kNetwork = "this native Network";

// a Network with its one-call-at-a-time flag: its calls release the GIL and use the network's scratch (a
// search that plays on a network holds the flag for its whole run)
struct GuardedNetwork : Network {
  using Network::Network;
  InUse use;
};

void bind_network(pybind11::module_& m);

}  // namespace fcm::players

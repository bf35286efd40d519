// The Python face of the native forward pass (fcm_agents.native._agents.Network): network.h's Network built
// from the weights fcm_agents.native.network reads out of an ONNX file, run on numpy batches.
#pragma once

#include <pybind11/pybind11.h>

#include "network.h"

namespace fcm::players {

void bind_network(pybind11::module_& m);
// PolicyPlayer (after the Player base class is bound)
void bind_policy_player(pybind11::module_& m);

}  // namespace fcm::players

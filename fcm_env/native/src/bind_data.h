// The loaders of what the native code reads from the Python side once (the printed map tiles, the
// component facts, the rules' numbers, the action codec's table, the observation layout), bound into a
// module: fcm_env.native._core and any other extension compiled with the engine's sources (their globals
// are their own, so each module is loaded by fcm_env.native.load_data).
#pragma once

#include <pybind11/pybind11.h>

#include <vector>

#include "action.h"
#include "rng.h"

namespace fcm {

// an Action from (kind, args) as Python passes it; IllegalAction naming what is wrong
Action action_from(int kind, const std::vector<int>& args);

// an Action as Python takes it: (kind, args)
pybind11::tuple action_tuple(const Action& a);

// numpy's PCG64 state (``Generator.bit_generator.state``) as a generator, and a generator's state back:
// native draws continue a numpy generator's stream and hand it back advanced
Pcg64 pcg64_from_numpy(const pybind11::dict& bit_generator);
pybind11::dict pcg64_to_numpy(const Pcg64& rng);

// set_map_tiles, set_components, set_rules_data, set_codec, set_observation_layout
void bind_data(pybind11::module_& m);

}  // namespace fcm

// The Python face of the league's opponent mix (fcm_agents.native._agents.OpponentMix): built by
// fcm_training.sb3.opponents.OpponentPool.native_mix and handed to fcm_env's native VecEnv as a capsule.
#pragma once

#include <pybind11/pybind11.h>

namespace fcm::players {

void bind_opponent_mix(pybind11::module_& m);

}  // namespace fcm::players

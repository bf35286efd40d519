// A world the observer cannot tell from the real one: fcm_env.engine.hidden.determinize's twin with its
// default UniformModel. Every fact hidden from the observer (another player's kept reserve card, face-down
// Restructuring, secret firing marks: D50-D52, C26, C30) is first erased in a copy, then redrawn player by
// player in id order from ``rng`` (numpy's generator, handed over from Python and back), so that two real
// games differing only in what the observer cannot see give the same world for the same generator state.
#pragma once

#include "rng.h"
#include "state.h"

namespace fcm {

// throws std::invalid_argument for an observer that is not a player
GameState determinize(const GameState& real, int observer, Pcg64& rng);

}  // namespace fcm

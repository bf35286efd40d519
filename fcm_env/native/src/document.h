// The state document of a native state, both ways (document.cpp says what each direction promises).
#pragma once

#include <pybind11/pybind11.h>

#include "state.h"

namespace fcm {

// milestone_names: fcm_env.native.MILESTONE_NAMES (the document names milestones, the state numbers them)
pybind11::dict state_document(const GameState& s, const pybind11::list& milestone_names);
GameState state_from_document(const pybind11::dict& doc, const pybind11::list& milestone_names);

}  // namespace fcm

// The names of the engine's enums and the set of face-down decisions, handed over once from Python
// (fcm_env.engine.state.Phase, fcm_env.engine.actions.Decision and ActionKind, fcm_env.engine.events.
// HIDDEN_DECISIONS): their one home is there. set_names refuses a table whose size disagrees with the C++
// enums, so a member added on one side only fails the import loudly instead of shifting every name.
#pragma once

#include <string>
#include <vector>

#include "action.h"
#include "state.h"

namespace fcm {

constexpr int kNumPhases = static_cast<int>(Phase::kGameOver) + 1;
constexpr int kNumDecisions = static_cast<int>(Decision::kFreezer) + 1;

struct Names {
  std::vector<std::string> phases;        // by Phase value
  std::vector<std::string> decisions;     // by Decision value
  std::vector<std::string> action_kinds;  // by ActionKind value
  std::vector<bool> hidden;               // by Decision value: asked face down (events.HIDDEN_DECISIONS)
};

void set_names(Names names);  // std::invalid_argument naming the table whose size is wrong
const Names& names();

const char* decision_name(Decision d);
const char* phase_name(Phase p);
// the Phase / Decision of a name as the state document writes it (std::invalid_argument naming an unknown one)
Phase phase_named(const std::string& name);
Decision decision_named(const std::string& name);
// whether ``d`` is chosen face down: nobody else sees which answer was given
bool is_hidden_decision(Decision d);

}  // namespace fcm

#include "names.h"

#include <stdexcept>
#include <utility>

namespace fcm {
namespace {

Names& table() {
  static Names n;
  return n;
}

void check_size(const char* what, std::size_t got, int want) {
  if (got != static_cast<std::size_t>(want)) {
    throw std::invalid_argument(std::string("set_names: ") + what + " has " + std::to_string(got) +
                                " names, the C++ core " + std::to_string(want) +
                                ": the enums of the two engines disagree (rebuild the core after changing one)");
  }
}

}  // namespace

void set_names(Names names) {
  check_size("phases", names.phases.size(), kNumPhases);
  check_size("decisions", names.decisions.size(), kNumDecisions);
  check_size("action_kinds", names.action_kinds.size(), kNumActionKinds);
  check_size("hidden", names.hidden.size(), kNumDecisions);
  table() = std::move(names);
}

const Names& names() {
  if (table().phases.empty()) throw std::logic_error("the core's names are not loaded (fcm_env.native does it)");
  return table();
}

const char* decision_name(Decision d) { return names().decisions[static_cast<std::size_t>(d)].c_str(); }

const char* phase_name(Phase p) { return names().phases[static_cast<std::size_t>(p)].c_str(); }

namespace {
int index_in(const std::vector<std::string>& names, const std::string& name, const char* what) {
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return static_cast<int>(i);
  }
  throw std::invalid_argument(std::string("state document: unknown ") + what + " " + name);
}
}  // namespace

Phase phase_named(const std::string& name) { return static_cast<Phase>(index_in(names().phases, name, "phase")); }

Decision decision_named(const std::string& name) {
  return static_cast<Decision>(index_in(names().decisions, name, "decision"));
}

bool is_hidden_decision(Decision d) { return names().hidden[static_cast<std::size_t>(d)]; }

}  // namespace fcm

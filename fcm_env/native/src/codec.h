// The flat action codec (fcm_env.encoding.action_codec's twin): an Action <-> one id of Discrete(N). The
// table of the non-board ids comes from the Python codec (its one home) when the package loads; board
// placements are computed: board_start + (row * cols + col) * orientations + orientation.
#pragma once

#include <string>
#include <vector>

#include "action.h"
#include "state.h"

namespace fcm {

struct CodecTable {
  std::vector<Action> actions;        // the non-board ids in order
  std::vector<std::string> names;     // action_to_string of each non-board id
  int board_rows = 0, board_cols = 0, board_orientations = 0;
  // per decision: the action kinds it may answer with (PASS always decodes) and the board piece, or -1
  std::vector<std::vector<int>> decision_kinds;
  std::vector<int> board_kind;
};

void set_codec(CodecTable table);
int num_actions();
int board_start();
int encode(const Action& a);                      // -1 for an action outside the space
Action decode(int id, Decision decision);         // IllegalAction with the Python codec's messages
void legal_ids(const std::vector<Action>& legal, std::vector<int64_t>& out);  // sorted ids

}  // namespace fcm

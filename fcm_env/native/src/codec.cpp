// The flat action codec (codec.h). Encoding is a hash lookup of the packed action; the board segment is
// arithmetic.
#include "codec.h"

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

#include "game.h"

namespace fcm {

namespace {
CodecTable g_table;
std::unordered_map<uint64_t, int> g_ids;
bool g_set = false;

uint64_t pack(const Action& a) {
  uint64_t key = static_cast<uint64_t>(static_cast<int>(a.kind));
  key = key * 8 + static_cast<uint64_t>(a.n);
  for (int i = 0; i < 4; ++i) key = (key << 13) | static_cast<uint64_t>((a.a[static_cast<std::size_t>(i)] + 4096) & 0x1fff);
  return key;
}

const CodecTable& table() {
  if (!g_set) throw std::invalid_argument("the action codec is not loaded (fcm_env.native loads it)");
  return g_table;
}

bool is_board_kind(ActionKind k) {
  return k == ActionKind::kPlaceRestaurant || k == ActionKind::kPlaceCampaign || k == ActionKind::kPlaceHouse ||
         k == ActionKind::kPlaceGarden;
}

std::string board_name(int id) {
  const CodecTable& t = table();
  const int offset = id - board_start();
  const int orient = offset % t.board_orientations, cell = offset / t.board_orientations;
  return "place[" + std::to_string(cell / t.board_cols) + "," + std::to_string(cell % t.board_cols) + ",o" +
         std::to_string(orient) + "]";
}
}  // namespace

void set_codec(CodecTable t) {
  g_ids.clear();
  for (std::size_t i = 0; i < t.actions.size(); ++i) g_ids[pack(t.actions[i])] = static_cast<int>(i);
  g_table = std::move(t);
  g_set = true;
}

int board_start() { return static_cast<int>(table().actions.size()); }

int num_actions() {
  const CodecTable& t = table();
  return board_start() + t.board_rows * t.board_cols * t.board_orientations;
}

int encode(const Action& a) {
  const CodecTable& t = table();
  if (is_board_kind(a.kind)) {
    if (a.n != 3) return -1;
    const int row = a[0], col = a[1], o = a[2];
    if (row < 0 || row >= t.board_rows || col < 0 || col >= t.board_cols || o < 0 || o >= t.board_orientations) {
      return -1;
    }
    return board_start() + (row * t.board_cols + col) * t.board_orientations + o;
  }
  const auto it = g_ids.find(pack(a));
  return it == g_ids.end() ? -1 : it->second;
}

Action decode(int id, Decision decision) {
  const CodecTable& t = table();
  if (id < 0 || id >= num_actions()) {
    throw IllegalAction("action id " + std::to_string(id) + " is out of range 0.." + std::to_string(num_actions() - 1));
  }
  const auto d = static_cast<std::size_t>(decision);
  if (id < board_start()) {
    const Action& a = t.actions[static_cast<std::size_t>(id)];
    const auto& kinds = t.decision_kinds[d];
    if (a.kind != ActionKind::kPass &&
        std::find(kinds.begin(), kinds.end(), static_cast<int>(a.kind)) == kinds.end()) {
      throw IllegalAction("action id " + std::to_string(id) + " (" + t.names[static_cast<std::size_t>(id)] +
                          ") does not answer " + decision_name(decision));
    }
    return a;
  }
  if (t.board_kind[d] < 0) {
    throw IllegalAction("action id " + std::to_string(id) + " (" + board_name(id) + ") is a board placement; " +
                        decision_name(decision) + " places nothing");
  }
  const int offset = id - board_start();
  const int orient = offset % t.board_orientations, cell = offset / t.board_orientations;
  return Action::make(static_cast<ActionKind>(t.board_kind[d]), cell / t.board_cols, cell % t.board_cols, orient);
}

void legal_ids(const std::vector<Action>& legal, std::vector<int64_t>& out) {
  out.clear();
  for (const Action& a : legal) {
    const int id = encode(a);
    if (id < 0) throw std::logic_error("a legal action has no id in the flat action space");
    out.push_back(id);
  }
  std::sort(out.begin(), out.end());
}

}  // namespace fcm

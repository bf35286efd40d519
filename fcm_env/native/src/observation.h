// One player's observation of a native state, byte for byte fcm_env.encoding's (Observer.observe_flat):
// the board planes C x 20 x 25 (C order), then the vector. The layout (every channel's index, every
// vector field's offset) and the encoding's constants come from fcm_env.encoding when the package loads,
// so the arrays have one definition. Hidden information follows fcm_env.encoding.visibility.
//
// What stays incremental: the planes that never change in a game (map, roads, tile borders, drink
// sources) are drawn once per board and copied; the pieces (houses, restaurants, campaigns) are
// scattered into zeroed planes; the vector is written afresh (a few hundred floats).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "state.h"

namespace fcm {

struct ObservationLayout {
  int channels = 0, rows = 0, cols = 0, vector_size = 0, block_size = 0, max_players = 0;
  std::map<std::string, int> channel;   // board channel index by name
  std::map<std::string, int> field;     // vector field offset by name
  std::map<std::string, int> block;     // player block field offset (within a block) by name
  // scales and indexes of the encoding (fcm_env.encoding.layout / vector_head)
  double money_scale = 0, supply_scale = 0, stock_scale = 0, price_scale = 0, house_number_scale = 0,
         duration_scale = 0, context_scale = 0, round_scale = 0;
  int context_slots = 0, min_players = 0, default_max_rounds = 0, garden_tokens = 0, restaurants_per_player = 0,
      base_unit_price = 0, lower_prices_delta = 0;
  std::vector<int> ceo_slot_values, marketeer_types, manager_types, trainer_types, tile_numbers, house_numbers,
      reserve_values;
  int board_size() const { return channels * rows * cols; }
  int flat_size() const { return board_size() + vector_size; }
};

void set_observation_layout(ObservationLayout layout);
const ObservationLayout& observation_layout();

// the planes of ``board`` that never change (the map, roads, tile borders, drink sources)
std::vector<float> static_planes(const Board& board);

// static_planes of the last board asked, kept (clones share boards)
class StaticPlanes {
 public:
  const std::vector<float>& of(const std::shared_ptr<const Board>& board);

 private:
  std::shared_ptr<const Board> board_;
  std::vector<float> planes_;
};

// what one kept observation row shows, so the next write redraws only what may have changed: the map's
// fixed planes stay while the board is the same, and only the squares the pieces covered are cleared
struct RowMark {
  const float* row = nullptr;     // the buffer written (another buffer: everything is drawn again)
  std::shared_ptr<const Board> board;  // whose fixed planes it holds (kept alive: no other board reuses its address)
  std::vector<int32_t> pieces;    // board-part indices the pieces and the pending piece were written to
};

// ``observer``'s observation into ``out``, which holds what ``mark`` says it holds (a row kept in place
// between writes, not written by anybody else): the same bytes as write_observation, less work
void write_observation_row(const GameState& s, int observer, float* out, const std::vector<float>& fixed_planes,
                           RowMark& mark);

// ``observer``'s observation into ``out`` (flat_size floats): board planes, then the vector.
// Throws std::invalid_argument for an observer that is not a player.
void write_observation(const GameState& s, int observer, float* out, const std::vector<float>& fixed_planes);
inline void write_observation(const GameState& s, int observer, float* out, StaticPlanes& cache) {
  write_observation(s, observer, out, cache.of(s.board));
}

}  // namespace fcm

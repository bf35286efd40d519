// The setup of a new game (state.h says why): Game.new and setup.start, step for step.
#include "state.h"

#include <stdexcept>

#include "rng.h"

namespace fcm {

namespace {
Components g_components;
bool g_components_set = false;
constexpr int kRoundOne = 1;  // the setup's first round of restaurant placement (setup.ROUND_ONE)
}  // namespace

void set_components(Components c) {
  g_components = std::move(c);
  g_components_set = true;
}

const Components& components() {
  if (!g_components_set) throw std::invalid_argument("the components are not loaded (fcm_env.native loads them)");
  return g_components;
}

GameState new_game(int num_players, uint64_t seed, const std::string& variant, std::optional<int> max_rounds) {
  const Components& c = components();
  if (num_players < 2 || num_players > 5) {
    throw std::invalid_argument("num_players: expected 2 to 5 players, got " + std::to_string(num_players));
  }
  if (variant != "standard" && variant != "introductory") {
    throw std::invalid_argument("variant must be one of ('standard', 'introductory'), got '" + variant + "'");
  }
  if (max_rounds && *max_rounds < 1) {
    throw std::invalid_argument("max_rounds must be None (no cap: the rules end the game) or at least 1, got " +
                                std::to_string(*max_rounds));
  }
  Pcg64 rng(seed);
  const auto [tile_rows, tile_cols] = c.tiles[num_players];
  const int n = tile_rows * tile_cols;  // Board.random: the tiles, then their turns
  const std::vector<int64_t> picks = rng.choice_without_replacement(c.num_map_tiles, n);
  std::vector<int64_t> turns;
  for (int i = 0; i < n; ++i) turns.push_back(rng.integers(0, 4));
  const std::string letters = "ABCDEFGHIJKLMNOPQRST";
  GameState state;
  for (int r = 0; r < tile_rows; ++r) {
    state.layout.emplace_back();
    for (int col = 0; col < tile_cols; ++col) {
      const std::size_t i = static_cast<std::size_t>(r * tile_cols + col);
      state.layout.back().push_back(std::string(1, letters[static_cast<std::size_t>(picks[i])]) +
                                    std::to_string(turns[i]));
    }
  }
  state.board = std::make_shared<const Board>(state.layout);
  for (int64_t p : rng.permutation(num_players)) state.turn_order.push_back(static_cast<int>(p));
  const bool standard = variant == "standard";
  state.num_players = num_players;
  state.variant = variant;
  state.seed = seed;
  state.max_rounds = max_rounds;
  state.bank = standard ? c.bank[num_players] : c.bank_intro[num_players];
  state.supply = c.supply[num_players];
  state.marketing_supply = c.marketing[num_players];
  for (const auto& [number, squares] : state.board->printed_houses()) {
    state.houses.push_back(House{number, squares, {}, false, {}});
  }
  state.house_supply = c.house_tokens;
  state.gardens_left = c.garden_tokens;
  for (int p = 0; p < num_players; ++p) {
    PlayerState player;
    player.player = p;
    player.work[0] = 1;  // the CEO is always at work
    if (standard) player.reserve_offer = c.reserve_values;
    state.players.push_back(player);
  }
  // setup.start: reverse turn order places first (rules: Setting up; C2, C7)
  state.phase = Phase::kSetupRestaurants;
  state.queue.assign(state.turn_order.rbegin(), state.turn_order.rend());
  state.pending = {Pending{Decision::kInitialRestaurant, state.queue[0], {kRoundOne}}};
  return state;
}

}  // namespace fcm

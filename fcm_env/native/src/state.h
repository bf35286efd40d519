// The game state as plain data, field for field fcm_env.engine.state.GameState (the same names, the same
// order), so a native game saves to the same state document as a Python one; and the setup of a new game
// (Game.new): the only randomness of a game, drawn from numpy's generator (rng.h).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "board.h"

namespace fcm {

constexpr int kNumTypes = 33;  // employee card types (fcm_env.data.EmployeeType)
constexpr int kNumGoods = 5;   // burger, pizza, beer, lemonade, soda
using Cards = std::array<int16_t, kNumTypes>;
using Goods = std::array<int16_t, kNumGoods>;

enum class Phase : int8_t {
  kSetupRestaurants, kSetupReserve, kRestructuring, kOrderOfBusiness, kWorking, kDinnertime, kPayday,
  kMarketing, kCleanup, kGameOver
};
enum class Decision : int8_t {
  kInitialRestaurant, kReserveCard, kRestructure, kTurnOrder, kRecruit, kTrain, kMarketeer, kCampaignTile,
  kCampaignPlace, kCampaignProduct, kCampaignDuration, kProduce, kNewBusiness, kHousePlace,
  kRestaurantManager, kRestaurantPlace, kFire, kFreezer
};

// the facts of the components the setup needs, per player count (2-5), set once from fcm_env.data
struct Components {
  std::array<Cards, 6> supply{};               // initial_supply(n), by player count
  std::array<int, 6> bank{}, bank_intro{};     // the bank at setup, standard / introductory
  std::array<std::array<int, 2>, 6> tiles{};   // (tile rows, tile columns) of the map
  std::array<std::vector<int>, 6> marketing;   // the marketing tiles in play
  std::vector<int> reserve_values;             // the dealt reserve cards
  std::vector<int> house_tokens;               // placeable house numbers
  int garden_tokens = 0;
  int num_map_tiles = 0;
};
void set_components(Components components);
const Components& components();

struct Restaurant {
  int row, col, orientation;
  bool coming_soon = false;
};
struct Pending {
  Decision decision;
  int player;
  std::vector<int> context;
};
struct House {
  int number;
  std::vector<Square> squares, garden;
  bool placed = false;
  std::vector<int> demand;
};
struct Campaign {
  int number, kind, owner, marketeer, product, remaining;
  bool eternal;
  int row, col, orientation;
  std::vector<Square> squares;
};
struct PlayerState {
  int player = 0;
  int64_t cash = 0;
  Cards hand{}, work{}, beach{}, busy{};
  std::vector<Restaurant> restaurants;
  Goods stock{};
  std::vector<int> milestones;  // sorted Milestone numbers
  std::vector<int> reserve_offer;
  std::optional<int> reserve;
  int recruit_discounts = 0;
  Cards fired{};
  int64_t income = 0;
  bool bankrupt = false;
};
struct TurnScratch {
  int hires = 0, recruits_left = 0;
  std::vector<std::array<int, 2>> trainers;
  Cards locked{}, phantoms{}, returned{}, used{};
};

struct GameState {
  int num_players = 0;
  std::string variant;
  uint64_t seed = 0;
  std::shared_ptr<const Board> board;  // immutable: clones share it
  std::vector<std::vector<std::string>> layout;
  std::optional<int> max_rounds;
  int round = 0;
  Phase phase = Phase::kSetupRestaurants;
  std::vector<int> turn_order;
  int64_t bank = 0;
  Cards supply{};
  std::vector<PlayerState> players;
  int ceo_slots = 3;
  std::vector<int> milestones_gone, milestones_this_turn;
  std::vector<int> marketing_supply;
  std::vector<Pending> pending;
  std::vector<int> queue, passed, spots;
  bool structure_revealed = true, firing_revealed = true;
  TurnScratch turn;
  std::vector<House> houses;  // in the order they came: printed ones by number, then placed ones
  std::vector<int> house_supply;
  int gardens_left = 0;
  std::vector<Campaign> campaigns;
  int bank_breaks = 0;
  bool reserve_revealed = false;
  int64_t bank_debt = 0;
  bool truncated = false;
};

// Game.new(num_players, seed, variant, max_rounds): the map and the turn order drawn from
// default_rng(seed), the bank, supply, tiles and houses set out, the first restaurant asked for.
// Throws std::invalid_argument naming a bad argument.
GameState new_game(int num_players, uint64_t seed, const std::string& variant, std::optional<int> max_rounds);

}  // namespace fcm

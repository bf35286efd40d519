// Setup decisions: the first restaurants and the bank reserve card (fcm_env/engine/phases/setup.py).
// rules: Placing the first restaurants (reverse turn order, place or pass; passers place in a second round
// in turn order); C8; Setting goals (each player secretly keeps one of their reserve cards).
// setup.start (the first question) happens in new_game (state.cpp).
#include <algorithm>
#include <stdexcept>
#include <string>

#include "board_areas.h"
#include "cards.h"
#include "occupancy.h"
#include "phases.h"
#include "placement.h"

namespace fcm {

namespace {

constexpr int kRoundOne = 1, kRoundTwo = 2;

void ask_restaurant(GameState& s, int round) {
  s.pending = {Pending{Decision::kInitialRestaurant, s.queue.at(0), {round}}};
}

int round_of(const Pending& p) {
  if (p.context.empty()) throw std::invalid_argument("INITIAL_RESTAURANT's pending context must hold the round");
  return p.context[0];
}

// C8: the tiles that already hold an initial entrance (the printed one) are closed to further ones
Legal initial_placements(const GameState& s) {
  const Board& board = *s.board;
  std::vector<int> taken;
  for (const PlayerState& p : s.players) {
    for (const Restaurant& r : p.restaurants) taken.push_back(tile_at(board, entrance_squares(r, false)[0]));
  }
  return restaurant_placements(board, occupied_on_map(s), true, taken);
}

}  // namespace

void legal_initial_restaurant(const GameState& s, const Pending& p, std::vector<Action>& out) {
  const std::vector<Spot> spots = initial_placements(s).list();
  // rules: round one allows passing; round two must place (a player with no legal spot passes: D9)
  if (round_of(p) == kRoundOne || spots.empty()) out.push_back(Action::make(ActionKind::kPass));
  for (const Spot& spot : spots) out.push_back(Action::make(ActionKind::kPlaceRestaurant, spot[0], spot[1], spot[2]));
}

void apply_initial_restaurant(GameState& s, const Pending& p, const Action& a) {
  const int round = round_of(p);
  pending_player(s, p.player);
  if (s.queue.empty()) throw std::invalid_argument("INITIAL_RESTAURANT is pending but the queue is empty");
  if (a.kind == ActionKind::kPass) {
    if (round == kRoundOne) s.passed.push_back(p.player);
  } else {
    s.players[static_cast<std::size_t>(p.player)].restaurants.push_back(Restaurant{a[0], a[1], a[2], false});
  }
  s.queue.erase(s.queue.begin());
  if (!s.queue.empty()) {
    ask_restaurant(s, round);
    return;
  }
  if (round == kRoundOne && !s.passed.empty()) {  // the passers place in turn order
    for (int player : s.turn_order) {
      if (std::find(s.passed.begin(), s.passed.end(), player) != s.passed.end()) s.queue.push_back(player);
    }
    ask_restaurant(s, kRoundTwo);
    return;
  }
  s.pending.clear();
  if (s.variant == "standard") {
    s.phase = Phase::kSetupReserve;
    s.queue = s.turn_order;
    s.pending = {Pending{Decision::kReserveCard, s.queue.at(0), {}}};
  }
}

void legal_reserve_card(const GameState& s, const Pending& p, std::vector<Action>& out) {
  pending_player(s, p.player);
  const auto offered = s.players[static_cast<std::size_t>(p.player)].reserve_offer.size();
  for (std::size_t i = 0; i < offered; ++i) out.push_back(Action::make(ActionKind::kChooseReserve, static_cast<int>(i)));
}

void apply_reserve_card(GameState& s, const Pending& p, const Action& a) {
  pending_player(s, p.player);
  PlayerState& player = s.players[static_cast<std::size_t>(p.player)];
  const int index = a[0], offered = static_cast<int>(player.reserve_offer.size());
  if (index < 0 || index >= offered) {
    throw IllegalAction("reserve card index " + std::to_string(index) + " is not 0.." + std::to_string(offered - 1));
  }
  player.reserve = player.reserve_offer[static_cast<std::size_t>(index)];
  if (s.queue.empty()) throw std::invalid_argument("RESERVE_CARD is pending but the queue is empty");
  s.queue.erase(s.queue.begin());
  s.pending.clear();
  if (!s.queue.empty()) s.pending = {Pending{Decision::kReserveCard, s.queue[0], {}}};
}

}  // namespace fcm

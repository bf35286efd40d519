// shadow_income (forecast.h).
#include "forecast.h"

#include "cards.h"
#include "phases.h"

namespace fcm::players {

int64_t shadow_income(const GameState& s, int player, const WhatIf& what_if) {
  GameState world = s;
  for (std::size_t q = 0; q < what_if.stock.size() && q < world.players.size(); ++q) {
    for (std::size_t g = 0; g < static_cast<std::size_t>(kNumGoods); ++g) {
      world.players[q].stock[g] = static_cast<int16_t>(world.players[q].stock[g] + what_if.stock[q][g]);
    }
  }
  if (what_if.work_player >= 0) {
    Cards& work = player_of(world, what_if.work_player).work;
    work[at(checked_type(what_if.work_type))] += 1;
  }
  const int64_t before = player_of(world, player).cash;
  run_dinnertime(world);
  return player_of(world, player).cash - before;  // sales + tips + the CFO's share
}

}  // namespace fcm::players

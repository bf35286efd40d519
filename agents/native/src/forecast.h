// The shadow Dinnertime (fcm_agents.strategist.forecast): the cash a chain would earn if Dinnertime ran now
// on a what-if copy of the position (more stock, other cards at work), by the engine's own Dinnertime. The
// position asked about is never changed.
#pragma once

#include <vector>

#include "state.h"

namespace fcm::players {

struct WhatIf {
  std::vector<Goods> stock;  // per player: goods added to its stock (empty: none)
  int work_player = -1;      // a card of ``work_type`` added at work for this player (-1: none)
  int work_type = -1;
};

// Forecast.income(player): sales, tips and the CFO's share of that Dinnertime (the cash it gains)
int64_t shadow_income(const GameState& s, int player, const WhatIf& what_if = {});

}  // namespace fcm::players

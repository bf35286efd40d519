// A game played on to its end (or a cap) by native players, one per seat: a search's rollout, and the
// all-heuristic play that benchmarks/bench_rollout.py times.
#pragma once

#include <vector>

#include "game.h"
#include "player.h"

namespace fcm::players {

// plays ``game`` on, each decision answered by the player of its seat (``seats[player]``), until the game
// ends or ``max_decisions`` (negative: no cap) have been played; returns the decisions played
int play_out(Game& game, const std::vector<Player*>& seats, int max_decisions = -1);

}  // namespace fcm::players

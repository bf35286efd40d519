// A game played on to its end (or a cap) by native players, one per seat: a search's rollout, and the
// all-heuristic play that benchmarks/bench_rollout.py times; and a match's runs of native seats (fcm_agents.match).
#pragma once

#include <vector>

#include "game.h"
#include "player.h"

namespace fcm::players {

// plays ``game`` on, each decision answered by the player of its seat (``seats[player]``), until the game
// ends or ``max_decisions`` (negative: no cap) have been played; returns the decisions played
int play_out(Game& game, const std::vector<Player*>& seats, int max_decisions = -1);

// a match's run of native decisions: plays ``game`` on while the seat to move has a player (a null seat is a
// Python agent's: the run stops there), each move checked legal first, until the game ends or ``max_decisions``
// (negative: no cap); ``played`` gets every move, in order (the match's record). std::runtime_error naming the
// seat when a player answers an illegal move (nothing of that move is applied).
void play_seats(Game& game, const std::vector<Player*>& seats, int max_decisions, std::vector<Action>& played);

}  // namespace fcm::players

// play_out (playout.h).
#include "playout.h"

#include <stdexcept>
#include <string>

namespace fcm::players {

int play_out(Game& game, const std::vector<Player*>& seats, int max_decisions) {
  if (static_cast<int>(seats.size()) != game.state().num_players) {
    throw std::invalid_argument("play_out: " + std::to_string(seats.size()) + " players for a " +
                                std::to_string(game.state().num_players) + "-player game");
  }
  int played = 0;
  while (!game.is_over() && (max_decisions < 0 || played < max_decisions)) {
    const int player = game.current_player();
    game.apply_legal(seats[static_cast<std::size_t>(player)]->act(game, player));
    ++played;
  }
  return played;
}

}  // namespace fcm::players

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

void play_seats(Game& game, const std::vector<Player*>& seats, int max_decisions, std::vector<Action>& played) {
  if (static_cast<int>(seats.size()) != game.state().num_players) {
    throw std::invalid_argument("play_seats: " + std::to_string(seats.size()) + " seats for a " +
                                std::to_string(game.state().num_players) + "-player game");
  }
  while (!game.is_over() && (max_decisions < 0 || static_cast<int>(played.size()) < max_decisions)) {
    const int player = game.current_player();
    Player* seat = seats[static_cast<std::size_t>(player)];
    if (seat == nullptr) return;
    const Action a = seat->act(game, player);
    if (!game.is_legal(a)) {
      throw std::runtime_error("play_seats: the native player of player " + std::to_string(player) +
                               " answered an illegal move");
    }
    game.apply_legal(a);
    played.push_back(a);
  }
}

}  // namespace fcm::players

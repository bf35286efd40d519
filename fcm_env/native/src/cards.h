// Small helpers on card count vectors and checked look-ups shared by the phase files of restructuring,
// the working turn, recruit/train, payday and clean-up (the numpy one-liners of the Python phases).
// Indexes that come from a state document or an action are bounds-checked: a malformed state throws
// std::invalid_argument (as Python raises IndexError/ValueError) instead of reading out of bounds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "state.h"

namespace fcm {

inline std::size_t at(int i) { return static_cast<std::size_t>(i); }

// the player with that id, checked
inline PlayerState& player_of(GameState& s, int player) {
  if (player < 0 || player >= static_cast<int>(s.players.size())) {
    throw std::invalid_argument("no player " + std::to_string(player));
  }
  return s.players[at(player)];
}
inline const PlayerState& player_of(const GameState& s, int player) {
  if (player < 0 || player >= static_cast<int>(s.players.size())) {
    throw std::invalid_argument("no player " + std::to_string(player));
  }
  return s.players[at(player)];
}

// the player a pending decision names, checked: a loaded state may name one who is not in the game
// (the Python phases' IndexError, in the words the lockstep tests compare)
inline const PlayerState& pending_player(const GameState& s, int player) {
  if (player < 0 || player >= static_cast<int>(s.players.size())) {
    throw std::invalid_argument("pending player " + std::to_string(player) + " is not in the game");
  }
  return s.players[at(player)];
}
inline PlayerState& pending_player(GameState& s, int player) {
  return const_cast<PlayerState&>(pending_player(static_cast<const GameState&>(s), player));
}

// an employee type from an action or the state, checked
inline int checked_type(int etype) {
  if (etype < 0 || etype >= kNumTypes) throw std::invalid_argument("no employee type " + std::to_string(etype));
  return etype;
}

// Python's list.pop(0), raising on an empty list
inline int pop_front(std::vector<int>& v, const char* what) {
  if (v.empty()) throw std::invalid_argument(std::string("pop from an empty ") + what);
  const int first = v.front();
  v.erase(v.begin());
  return first;
}

// a . b (numpy's dot of two card vectors; the counts are small, no int16 wrap-around can occur)
inline int64_t dot(const Cards& a, const Cards& b) {
  int64_t sum = 0;
  for (std::size_t i = 0; i < a.size(); ++i) sum += static_cast<int64_t>(a[i]) * b[i];
  return sum;
}

inline bool any(const Cards& c) {
  for (int16_t x : c) {
    if (x != 0) return true;
  }
  return false;
}

inline Cards operator+(Cards a, const Cards& b) {
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<int16_t>(a[i] + b[i]);
  return a;
}
inline Cards operator-(Cards a, const Cards& b) {
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<int16_t>(a[i] - b[i]);
  return a;
}
inline Cards& operator+=(Cards& a, const Cards& b) {
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<int16_t>(a[i] + b[i]);
  return a;
}

// GameState.owned_cards: every card the player owns, the marketeers of its eternal campaigns included
// (rules: First billboard placed; the 1x limit)
inline Cards owned_cards(const GameState& s, int player) {
  const PlayerState& p = player_of(s, player);
  Cards owned = p.hand + p.work + p.beach + p.busy;
  for (const Campaign& c : s.campaigns) {
    if (c.eternal && c.owner == player) owned[at(checked_type(c.marketeer))] += 1;
  }
  return owned;
}

}  // namespace fcm

// A native game: the state, its pending decision's legal actions (sorted, cached per position), apply with
// the legality check first (an illegal action changes nothing), and the engine's own steps between
// decisions (flow.advance). The twin of fcm_env.engine.game.Game without the Python-only extras (events,
// history, change stamps), which a native game gets by becoming a Python Game through its state document.
#pragma once

#include <vector>

#include "action.h"
#include "names.h"
#include "state.h"

namespace fcm {

class Game {
 public:
  Game() = default;
  explicit Game(GameState s) : s_(std::move(s)) {}

  const GameState& state() const { return s_; }
  // for the bindings' loaders and test hooks: any change must be followed by forget_position()
  GameState& mutable_state() { return s_; }
  void forget_position() { legal_valid_ = false; }

  const Pending* pending() const { return s_.pending.empty() ? nullptr : &s_.pending.back(); }
  int current_player() const { return s_.pending.empty() ? -1 : s_.pending.back().player; }
  bool is_over() const { return s_.phase == Phase::kGameOver; }
  std::vector<int> winners() const;  // C23, D45: most cash, ties to the earliest in turn order

  const std::vector<Action>& legal_actions();  // sorted as Python's; empty when nothing is asked
  bool is_legal(const Action& a);
  void apply(const Action& a);             // IllegalAction (state unchanged) or the move and the engine's steps
  void apply_legal(const Action& a);       // apply for an action already checked against legal_actions()
  void apply_no_advance(const Action& a);  // test hook: the decision's apply (and the turn's chaining) only
  void advance();                          // the engine's own steps until a decision or the game's end
  bool advance_one();                      // one of them; false when a decision is pending or the game is over

 private:
  void move(const Action& a);
  GameState s_;
  std::vector<Action> legal_;
  bool legal_valid_ = false;
};

}  // namespace fcm

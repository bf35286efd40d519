// A world the observer cannot tell from the real one: fcm_env.engine.hidden.determinize's twin with its
// default UniformModel. Every fact hidden from the observer (another player's kept reserve card, face-down
// Restructuring, secret firing marks: D50-D52, C26, C30) is first erased in a copy, then redrawn player by
// player in id order from ``rng`` (numpy's generator, handed over from Python and back), so that two real
// games differing only in what the observer cannot see give the same world for the same generator state.
#pragma once

#include <vector>

#include "action.h"
#include "rng.h"
#include "state.h"

namespace fcm {

// which facts are hidden from an observer (visibility.hidden_from): the players whose kept reserve card,
// face-down Restructuring or firing marks it may not see
struct HiddenFacts {
  std::vector<int> reserves, structures, firings;
  bool any() const { return !(reserves.empty() && structures.empty() && firings.empty()); }
};
HiddenFacts hidden_from(const GameState& s, int observer);
// put those facts back as the observer sees them, in place (visibility.erase): no reserve card kept, every
// card but the CEO in hand, no firing marks. A seat's view is the state with this done (Game.seat_view).
void erase_hidden(GameState& s, const HiddenFacts& hidden);

// what a determinization asks to redraw a hidden fact (HiddenChoiceModel): it sees the world with every
// hidden fact erased (or already redrawn for the players before), never the truth
class HiddenChoiceModel {
 public:
  virtual ~HiddenChoiceModel() = default;
  // the reserve card value ``player`` keeps, one of ``values``
  virtual int reserve(const GameState& s, int player, const std::vector<int>& values, Pcg64& rng) = 0;
  // one atomic choice of a face-down decision (RESTRUCTURE or FIRE), one of ``legal`` (sorted)
  virtual Action choose(const GameState& s, const Pending& pending, const std::vector<Action>& legal,
                        Pcg64& rng) = 0;
};

// ``model`` null: the uniform model (any dealt value, any legal choice, equally likely). Throws
// std::invalid_argument for an observer that is not a player or a model's choice that is not legal
GameState determinize(const GameState& real, int observer, Pcg64& rng, HiddenChoiceModel* model = nullptr);

}  // namespace fcm

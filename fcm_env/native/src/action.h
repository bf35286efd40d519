// A player's action as the engine takes it: a kind plus up to four small ints, the twin of
// fcm_env.engine.actions.Action. Actions order as Python's (kind, args) tuples do, so a sorted list of
// legal actions is the Python engine's list, item for item.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace fcm {

enum class ActionKind : int8_t {
  kPass = 0, kPlaceRestaurant = 1, kChooseReserve = 2, kPutToWork = 3, kTurnSpot = 4, kRecruit = 5,
  kTrain = 6, kSelectMarketeer = 7, kChooseTile = 8, kPlaceCampaign = 9, kChooseProduct = 10,
  kChooseDuration = 11, kProduce = 12, kHaul = 13, kChooseHouse = 14, kPlaceHouse = 15, kPlaceGarden = 16,
  kSelectRestaurant = 17, kFire = 18, kKeep = 19
};
constexpr int kNumActionKinds = 20;

struct Action {
  ActionKind kind = ActionKind::kPass;
  int8_t n = 0;                    // how many args
  std::array<int16_t, 4> a{};      // the args; unused ones stay 0

  static Action make(ActionKind kind) { return Action{kind, 0, {}}; }
  static Action make(ActionKind kind, int x) { return Action{kind, 1, {static_cast<int16_t>(x), 0, 0, 0}}; }
  static Action make(ActionKind kind, int x, int y) {
    return Action{kind, 2, {static_cast<int16_t>(x), static_cast<int16_t>(y), 0, 0}};
  }
  static Action make(ActionKind kind, int x, int y, int z) {
    return Action{kind, 3, {static_cast<int16_t>(x), static_cast<int16_t>(y), static_cast<int16_t>(z), 0}};
  }
  static Action make(ActionKind kind, int x, int y, int z, int w) {
    return Action{kind, 4,
                  {static_cast<int16_t>(x), static_cast<int16_t>(y), static_cast<int16_t>(z), static_cast<int16_t>(w)}};
  }
  int operator[](int i) const { return a[static_cast<std::size_t>(i)]; }

  friend bool operator==(const Action& x, const Action& y) { return x.kind == y.kind && x.n == y.n && x.a == y.a; }
  friend bool operator!=(const Action& x, const Action& y) { return !(x == y); }
  // Python's order of (kind, args): kind first, then the args as a tuple (a shorter tuple that is a
  // prefix sorts first; one kind always has one length, so that never decides)
  friend bool operator<(const Action& x, const Action& y) {
    if (x.kind != y.kind) return x.kind < y.kind;
    for (int i = 0; i < x.n && i < y.n; ++i) {
      if (x.a[static_cast<std::size_t>(i)] != y.a[static_cast<std::size_t>(i)]) {
        return x.a[static_cast<std::size_t>(i)] < y.a[static_cast<std::size_t>(i)];
      }
    }
    return x.n < y.n;
  }
};

// an action the pending decision does not allow, or nothing is pending: the state is unchanged
// (the binding raises fcm_env.engine.actions.IllegalActionError with the message)
class IllegalAction : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

}  // namespace fcm

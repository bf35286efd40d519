// Phase 1 Restructuring and phase 2 Order of Business: fcm_env.engine.phases.restructuring's twin.
// rules: Phase 1 (cards chosen secretly, revealed together; CEO always at work; the CEO's slots hold staff
// or managers, managers' slots hold staff only; R09, R10); Phase 2 (most open slots chooses first, +2 with
// First airplane campaign, ties by the previous turn order; R11: any free spot).
//
// A structure is feasible when managers fit in the CEO's slots and every card fits somewhere: with C CEO
// slots, M managers with S manager slots in all and N other cards, M <= C and M + N <= C + S. Only cards
// that keep the structure feasible are offered, so the "everything to the beach" penalty never arises (D10).
#include <algorithm>
#include <stdexcept>
#include <string>

#include "cards.h"
#include "milestones.h"
#include "phases.h"
#include "rules_data.h"

namespace fcm {

namespace {

// the CEO counts as neither a manager nor a card in a slot
bool is_manager(int etype) { return etype != kCeo && employee(etype).is_manager; }
int manager_slots(int etype) { return is_manager(etype) ? employee(etype).manager_slots : 0; }

struct Structure {
  int managers = 0, others = 0, slots = 0;
};

Structure structure_of(const Cards& work) {
  Structure st;
  for (int t = 0; t < kNumTypes; ++t) {
    const int count = work[at(t)];
    if (count == 0) continue;
    if (is_manager(t)) {
      st.managers += count;
      st.slots += count * manager_slots(t);
    } else if (t != kCeo) {
      st.others += count;
    }
  }
  return st;
}

bool fits(int managers, int others, int slots, int ceo_slots) {
  return managers <= ceo_slots && managers + others <= ceo_slots + slots;
}


// the types in hand of which one more card at work keeps the structure feasible; with out == nullptr,
// only whether there is one (stops at the first)
bool fitting_types(const GameState& s, int player, std::vector<Action>* out) {
  const PlayerState& p = player_of(s, player);
  const Structure st = structure_of(p.work);
  bool found = false;
  for (int t = 0; t < kNumTypes; ++t) {
    if (p.hand[at(t)] <= 0) continue;
    const bool ok = is_manager(t) ? fits(st.managers + 1, st.others, st.slots + manager_slots(t), s.ceo_slots)
                                  : fits(st.managers, st.others + (t != kCeo ? 1 : 0), st.slots, s.ceo_slots);
    if (!ok) continue;
    if (out == nullptr) return true;
    out->push_back(Action::make(ActionKind::kPutToWork, t));
    found = true;
  }
  return found;
}

bool can_put_to_work(const GameState& s, int player) { return fitting_types(s, player, nullptr); }

void start_order_of_business(GameState& s);

// all structures are opened: the rest of the hand goes to the beach; the "played" milestones
void reveal(GameState& s) {
  s.structure_revealed = true;
  s.pending.clear();
  for (PlayerState& p : s.players) {
    p.beach += p.hand;
    p.hand.fill(0);
    // rules: milestones First waitress / errand boy / cart operator played; First to lower prices
    if (p.work[kWaitress]) claim(s, p.player, kFirstWaitress);
    if (p.work[kErrandBoy]) claim(s, p.player, kFirstErrandBoy);
    if (p.work[kCartOperator]) claim(s, p.player, kFirstCartOperator);
    if (p.work[kPricingManager] || p.work[kDiscountManager]) claim(s, p.player, kFirstLowerPrices);
  }
  start_order_of_business(s);
}

// ask the next player in the queue; one who can put no card to work is not asked (D53); reveal when done
void ask_restructure(GameState& s) {
  while (!s.queue.empty()) {
    const int player = s.queue.front();
    if (can_put_to_work(s, player)) {
      s.pending = {Pending{Decision::kRestructure, player, {}}};
      return;
    }
    s.queue.erase(s.queue.begin());
  }
  reveal(s);
}

// players by open slots (descending; +2 for First airplane campaign), ties by the old seat
std::vector<int> order_of_choosing(const GameState& s) {
  struct Key {
    int neg_slots, seat, player;
  };
  std::vector<Key> keys;
  for (std::size_t seat = 0; seat < s.turn_order.size(); ++seat) {
    const int player = s.turn_order[seat];
    const PlayerState& p = player_of(s, player);
    int slots = open_slots(p.work, s.ceo_slots);
    if (has_milestone(s, player, kFirstAirplane)) slots += 2;
    // seat_of is the first index of the player in the turn order
    const auto first = std::find(s.turn_order.begin(), s.turn_order.end(), player) - s.turn_order.begin();
    keys.push_back({-slots, static_cast<int>(first), player});
  }
  std::stable_sort(keys.begin(), keys.end(), [](const Key& a, const Key& b) {
    return a.neg_slots != b.neg_slots ? a.neg_slots < b.neg_slots : a.seat < b.seat;
  });
  std::vector<int> order;
  for (const Key& k : keys) order.push_back(k.player);
  return order;
}

int& spot_of(GameState& s, int player) {
  if (player < 0 || player >= static_cast<int>(s.spots.size())) {
    throw std::invalid_argument("no turn order spot entry for player " + std::to_string(player));
  }
  return s.spots[at(player)];
}

bool spot_taken(const GameState& s, int spot) {
  return std::find(s.spots.begin(), s.spots.end(), spot) != s.spots.end();
}

// the next chooser picks; the last one is not asked and takes the spot that is left
void ask_turn_spot(GameState& s) {
  if (s.queue.size() == 1) {
    std::vector<int> free;
    for (int spot = 0; spot < static_cast<int>(s.turn_order.size()); ++spot) {
      if (!spot_taken(s, spot)) free.push_back(spot);
    }
    if (free.size() != 1) {
      throw std::invalid_argument("turn order: " + std::to_string(free.size()) + " spots left for the last chooser");
    }
    spot_of(s, pop_front(s.queue, "queue")) = free[0];
  }
  if (!s.queue.empty()) {
    s.pending = {Pending{Decision::kTurnOrder, s.queue.front(), {}}};
    return;
  }
  std::vector<int> order = s.turn_order;
  for (int p : order) spot_of(s, p);  // checks every index before the sort reads them
  std::stable_sort(order.begin(), order.end(), [&s](int a, int b) { return s.spots[at(a)] < s.spots[at(b)]; });
  s.turn_order = order;
  s.pending.clear();
}

void start_order_of_business(GameState& s) {
  s.phase = Phase::kOrderOfBusiness;
  s.queue = order_of_choosing(s);
  s.spots.assign(at(s.num_players), -1);
  ask_turn_spot(s);
}

}  // namespace

// slots on the CEO and managers not used by a card (busy marketeers use none, R10)
int open_slots(const Cards& work, int ceo_slots) {
  const Structure st = structure_of(work);
  return ceo_slots + st.slots - (st.managers + st.others);
}

bool restructure_can_choose(const GameState& s, int player) { return can_put_to_work(s, player); }

bool restructure_put_to_work(GameState& s, int player, int etype) {
  PlayerState& p = s.players.at(static_cast<std::size_t>(player));
  if (etype < 0 || etype >= kNumTypes || p.hand[static_cast<std::size_t>(etype)] <= 0) {
    throw std::invalid_argument("put_to_work: player " + std::to_string(player) + " has no card of type " +
                                std::to_string(etype) + " in hand");
  }
  p.hand[static_cast<std::size_t>(etype)] = static_cast<int16_t>(p.hand[static_cast<std::size_t>(etype)] - 1);
  p.work[static_cast<std::size_t>(etype)] = static_cast<int16_t>(p.work[static_cast<std::size_t>(etype)] + 1);
  return can_put_to_work(s, player);
}

void start_restructuring(GameState& s) {
  s.phase = Phase::kRestructuring;
  if (s.round == 1) {  // rules: Phase 1 — in the first turn the CEO is the only card played
    reveal(s);
    return;
  }
  s.structure_revealed = false;
  s.queue = s.turn_order;
  ask_restructure(s);
}

void legal_restructure(const GameState& s, const Pending& p, std::vector<Action>& out) {
  out.push_back(Action::make(ActionKind::kPass));
  fitting_types(s, p.player, &out);
}

void apply_restructure(GameState& s, const Pending& p, const Action& a) {
  if (a.n > 0) {
    // one card from hand to work; the choice goes on while another card still fits
    PlayerState& player = player_of(s, p.player);
    const int t = checked_type(a[0]);
    player.hand[at(t)] -= 1;
    player.work[at(t)] += 1;
    if (can_put_to_work(s, p.player)) return;
  }
  pop_front(s.queue, "queue");  // done (or nothing more fits)
  ask_restructure(s);
}

void legal_turn_order(const GameState& s, const Pending&, std::vector<Action>& out) {
  // one spot per player still in the game (bankrupt players left the turn order: C21)
  for (int spot = 0; spot < static_cast<int>(s.turn_order.size()); ++spot) {
    if (!spot_taken(s, spot)) out.push_back(Action::make(ActionKind::kTurnSpot, spot));
  }
}

void apply_turn_order(GameState& s, const Pending& p, const Action& a) {
  spot_of(s, p.player) = a[0];
  pop_front(s.queue, "queue");
  ask_turn_spot(s);
}

}  // namespace fcm

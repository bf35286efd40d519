// The bank (bank.h): the money invariant bank + sum(cash) - bank_debt = the starting bank plus the reserve
// money added holds after every payment.
#include "bank.h"

#include <map>
#include <stdexcept>
#include <string>

#include "rules_data.h"

namespace fcm {

int final_breaks(const GameState& s) { return s.variant == "standard" ? 2 : 1; }

bool is_broken_for_good(const GameState& s) { return s.bank_breaks >= final_breaks(s); }

void pay_out(GameState& s, int player, int64_t amount) {
  if (amount < 0) throw std::invalid_argument("the bank pays non-negative amounts, got " + std::to_string(amount));
  PlayerState& target = s.players[static_cast<std::size_t>(player)];
  int64_t remaining = amount;
  while (remaining > 0) {
    if (is_broken_for_good(s)) {
      s.bank_debt += remaining;  // C23, R38: written down on paper
      target.cash += remaining;
      return;
    }
    const int64_t given = std::min(s.bank, remaining);
    s.bank -= given;
    target.cash += given;
    remaining -= given;
    if (s.bank == 0) break_bank(s);
  }
}

int64_t collect(GameState& s, int player, int64_t amount) {
  if (amount < 0) throw std::invalid_argument("payments to the bank are non-negative, got " + std::to_string(amount));
  PlayerState& payer = s.players[static_cast<std::size_t>(player)];
  const int64_t paid = std::min(payer.cash, amount);
  payer.cash -= paid;
  s.bank += paid;
  return paid;
}

void break_bank(GameState& s) {
  s.bank_breaks += 1;
  if (is_broken_for_good(s)) return;
  reveal_reserve(s);
}

int reserve_card_slots(int value) {
  for (const auto& card : rules_data().reserve_cards) {
    if (card.value == value) return card.ceo_slots;
  }
  throw std::invalid_argument("no reserve card is worth $" + std::to_string(value));
}

void reveal_reserve(GameState& s) {
  s.reserve_revealed = true;
  std::map<int, int> counts;  // slots -> how many kept cards show them
  bool any = false;
  for (const auto& p : s.players) {
    if (!p.reserve) continue;
    any = true;
    s.bank += *p.reserve;
    counts[reserve_card_slots(*p.reserve)] += 1;
  }
  if (!any) return;
  int best = -1, best_count = -1;
  for (const auto& [slots, count] : counts) {  // ascending slots: ">=" keeps the highest of a tie
    if (count >= best_count) {
      best = slots;
      best_count = count;
    }
  }
  s.ceo_slots = best;
}

}  // namespace fcm

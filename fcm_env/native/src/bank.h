// The bank: every payment to or from a player goes through here (fcm_env.engine.rules.bank's twin).
// rules: Phase 4, Breaking the bank; C23, C24, R38, R53; Introductory game.
#pragma once

#include <cstdint>

#include "state.h"

namespace fcm {

int final_breaks(const GameState& s);           // 2 standard, 1 introductory
bool is_broken_for_good(const GameState& s);    // the game ends after this Dinnertime
void pay_out(GameState& s, int player, int64_t amount);   // the bank pays amount >= 0, breaking as needed
int64_t collect(GameState& s, int player, int64_t amount);  // player pays up to amount; returns what was paid
void break_bank(GameState& s);
void reveal_reserve(GameState& s);              // C24: the commonest slot count (ties: highest) rules
int reserve_card_slots(int value);              // $100: 2, $200: 3, $300: 4

}  // namespace fcm

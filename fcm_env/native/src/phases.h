// Every decision's legal actions and apply, and the engine's own steps: the twins of the Python phase
// modules' ROUTES tables and flow steps (fcm_env/engine/phases/). One source file per Python module:
//
//   phase_setup.cpp             setup.py              INITIAL_RESTAURANT, RESERVE_CARD
//   phase_restructuring.cpp     restructuring.py      RESTRUCTURE, TURN_ORDER; start_restructuring
//   phase_working.cpp           working/__init__.py   start_working, continue_turn
//   phase_recruit_train.cpp     recruit_train.py      RECRUIT, TRAIN
//   phase_marketing_launch.cpp  marketing_launch.py   MARKETEER .. CAMPAIGN_DURATION; begin_marketing_launch
//   phase_production.cpp        production.py         PRODUCE; begin_production
//   phase_expansion.cpp         expansion.py          NEW_BUSINESS .. RESTAURANT_PLACE; begin_houses/_restaurants
//   phase_dinnertime.cpp        dinnertime.py         run_dinnertime
//   phase_payday.cpp            payday.py             FIRE; start_payday
//   phase_marketing.cpp         marketing.py          run_marketing
//   phase_cleanup.cpp           cleanup.py            FREEZER; start_cleanup, finish_cleanup
//
// legal_*(state, pending, out) appends the actions the decision allows, in any order (Game sorts them).
// apply_*(state, pending, action) performs an action Game has already checked against that list; pending is
// a copy of the decision answered (apply may change state.pending freely). Like the Python apply functions,
// an apply leaves state.pending set to the next decision, or empty when the engine should move on; the
// working sub-steps' applies do NOT chain to the next sub-step themselves: Game calls continue_turn.
#pragma once

#include <vector>

#include "action.h"
#include "state.h"

namespace fcm {

using LegalFn = void (*)(const GameState&, const Pending&, std::vector<Action>&);
using ApplyFn = void (*)(GameState&, const Pending&, const Action&);

#define FCM_DECISION(name)                                                 \
  void legal_##name(const GameState& s, const Pending& p, std::vector<Action>& out); \
  void apply_##name(GameState& s, const Pending& p, const Action& a);

FCM_DECISION(initial_restaurant)
FCM_DECISION(reserve_card)
FCM_DECISION(restructure)
FCM_DECISION(turn_order)
FCM_DECISION(recruit)
FCM_DECISION(train)
FCM_DECISION(marketeer)
FCM_DECISION(campaign_tile)
FCM_DECISION(campaign_place)
FCM_DECISION(campaign_product)
FCM_DECISION(campaign_duration)
FCM_DECISION(produce)
FCM_DECISION(new_business)
FCM_DECISION(house_place)
FCM_DECISION(restaurant_manager)
FCM_DECISION(restaurant_place)
FCM_DECISION(fire)
FCM_DECISION(freezer)
#undef FCM_DECISION

// the working turn's sub-steps in rulebook order (working.LATER_STEPS); TRAINING_DONE = -1 is recruit/train
constexpr int kTrainingDone = -1, kMarketingStep = 0, kProductionStep = 1, kHousesStep = 2, kRestaurantsStep = 3;
// begin_*(state, player): ask the sub-step's first decision and return true, or false: nothing to do there
bool begin_marketing_launch(GameState& s, int player);
bool begin_production(GameState& s, int player);
bool begin_houses(GameState& s, int player);
bool begin_restaurants(GameState& s, int player);

// the face-down choices one atomic choice at a time, shared by the decisions and determinize (hidden.h):
// whether the phase asks the player at all, and one card taken (true while the choice goes on)
bool restructure_can_choose(const GameState& s, int player);
bool restructure_put_to_work(GameState& s, int player, int etype);
bool fire_can_choose(const GameState& s, int player);
bool fire_mark(GameState& s, int player, int etype);

// restructuring.open_slots: slots on the CEO and managers not used by a card at ``work`` (busy marketeers
// use none, R10); players read it too
int open_slots(const Cards& work, int ceo_slots);

// the engine's own steps (flow.advance)
void start_restructuring(GameState& s);
void start_working(GameState& s);
void continue_turn(GameState& s, int player, int done_step);
void run_dinnertime(GameState& s);
void start_payday(GameState& s);
void run_marketing(GameState& s);
void start_cleanup(GameState& s);
void finish_cleanup(GameState& s);

}  // namespace fcm

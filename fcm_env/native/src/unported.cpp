// TEMPORARY development scaffold: weak stand-ins for the phase functions not yet ported, so the module
// links while the phase files are written. A phase file's definition replaces its stand-in. This file is
// deleted once every phase is ported (tests/native/test_native_lockstep.py fails while any stand-in runs).
#include <stdexcept>

#include "phases.h"

namespace fcm {

#define FCM_UNPORTED(what) throw std::logic_error("native core: " what " is not ported yet")

__attribute__((weak)) void legal_initial_restaurant(const GameState&, const Pending&, std::vector<Action>&) { FCM_UNPORTED("legal_initial_restaurant"); }
__attribute__((weak)) void apply_initial_restaurant(GameState&, const Pending&, const Action&) { FCM_UNPORTED("apply_initial_restaurant"); }
__attribute__((weak)) void legal_reserve_card(const GameState&, const Pending&, std::vector<Action>&) { FCM_UNPORTED("legal_reserve_card"); }
__attribute__((weak)) void apply_reserve_card(GameState&, const Pending&, const Action&) { FCM_UNPORTED("apply_reserve_card"); }
__attribute__((weak)) void legal_restructure(const GameState&, const Pending&, std::vector<Action>&) { FCM_UNPORTED("legal_restructure"); }
__attribute__((weak)) void apply_restructure(GameState&, const Pending&, const Action&) { FCM_UNPORTED("apply_restructure"); }
__attribute__((weak)) void legal_turn_order(const GameState&, const Pending&, std::vector<Action>&) { FCM_UNPORTED("legal_turn_order"); }
__attribute__((weak)) void apply_turn_order(GameState&, const Pending&, const Action&) { FCM_UNPORTED("apply_turn_order"); }
__attribute__((weak)) void legal_recruit(const GameState&, const Pending&, std::vector<Action>&) { FCM_UNPORTED("legal_recruit"); }
__attribute__((weak)) void apply_recruit(GameState&, const Pending&, const Action&) { FCM_UNPORTED("apply_recruit"); }
__attribute__((weak)) void legal_train(const GameState&, const Pending&, std::vector<Action>&) { FCM_UNPORTED("legal_train"); }
__attribute__((weak)) void apply_train(GameState&, const Pending&, const Action&) { FCM_UNPORTED("apply_train"); }
__attribute__((weak)) void legal_marketeer(const GameState&, const Pending&, std::vector<Action>&) { FCM_UNPORTED("legal_marketeer"); }
__attribute__((weak)) void apply_marketeer(GameState&, const Pending&, const Action&) { FCM_UNPORTED("apply_marketeer"); }
__attribute__((weak)) void legal_campaign_tile(const GameState&, const Pending&, std::vector<Action>&) { FCM_UNPORTED("legal_campaign_tile"); }
__attribute__((weak)) void apply_campaign_tile(GameState&, const Pending&, const Action&) { FCM_UNPORTED("apply_campaign_tile"); }
__attribute__((weak)) void legal_campaign_place(const GameState&, const Pending&, std::vector<Action>&) { FCM_UNPORTED("legal_campaign_place"); }
__attribute__((weak)) void apply_campaign_place(GameState&, const Pending&, const Action&) { FCM_UNPORTED("apply_campaign_place"); }
__attribute__((weak)) void legal_campaign_product(const GameState&, const Pending&, std::vector<Action>&) { FCM_UNPORTED("legal_campaign_product"); }
__attribute__((weak)) void apply_campaign_product(GameState&, const Pending&, const Action&) { FCM_UNPORTED("apply_campaign_product"); }
__attribute__((weak)) void legal_campaign_duration(const GameState&, const Pending&, std::vector<Action>&) { FCM_UNPORTED("legal_campaign_duration"); }
__attribute__((weak)) void apply_campaign_duration(GameState&, const Pending&, const Action&) { FCM_UNPORTED("apply_campaign_duration"); }
__attribute__((weak)) void legal_produce(const GameState&, const Pending&, std::vector<Action>&) { FCM_UNPORTED("legal_produce"); }
__attribute__((weak)) void apply_produce(GameState&, const Pending&, const Action&) { FCM_UNPORTED("apply_produce"); }
__attribute__((weak)) void legal_new_business(const GameState&, const Pending&, std::vector<Action>&) { FCM_UNPORTED("legal_new_business"); }
__attribute__((weak)) void apply_new_business(GameState&, const Pending&, const Action&) { FCM_UNPORTED("apply_new_business"); }
__attribute__((weak)) void legal_house_place(const GameState&, const Pending&, std::vector<Action>&) { FCM_UNPORTED("legal_house_place"); }
__attribute__((weak)) void apply_house_place(GameState&, const Pending&, const Action&) { FCM_UNPORTED("apply_house_place"); }
__attribute__((weak)) void legal_restaurant_manager(const GameState&, const Pending&, std::vector<Action>&) { FCM_UNPORTED("legal_restaurant_manager"); }
__attribute__((weak)) void apply_restaurant_manager(GameState&, const Pending&, const Action&) { FCM_UNPORTED("apply_restaurant_manager"); }
__attribute__((weak)) void legal_restaurant_place(const GameState&, const Pending&, std::vector<Action>&) { FCM_UNPORTED("legal_restaurant_place"); }
__attribute__((weak)) void apply_restaurant_place(GameState&, const Pending&, const Action&) { FCM_UNPORTED("apply_restaurant_place"); }
__attribute__((weak)) void legal_fire(const GameState&, const Pending&, std::vector<Action>&) { FCM_UNPORTED("legal_fire"); }
__attribute__((weak)) void apply_fire(GameState&, const Pending&, const Action&) { FCM_UNPORTED("apply_fire"); }
__attribute__((weak)) void legal_freezer(const GameState&, const Pending&, std::vector<Action>&) { FCM_UNPORTED("legal_freezer"); }
__attribute__((weak)) void apply_freezer(GameState&, const Pending&, const Action&) { FCM_UNPORTED("apply_freezer"); }
__attribute__((weak)) bool begin_marketing_launch(GameState&, int) { FCM_UNPORTED("begin_marketing_launch"); }
__attribute__((weak)) bool begin_production(GameState&, int) { FCM_UNPORTED("begin_production"); }
__attribute__((weak)) bool begin_houses(GameState&, int) { FCM_UNPORTED("begin_houses"); }
__attribute__((weak)) bool begin_restaurants(GameState&, int) { FCM_UNPORTED("begin_restaurants"); }
__attribute__((weak)) void start_restructuring(GameState&) { FCM_UNPORTED("start_restructuring"); }
__attribute__((weak)) void start_working(GameState&) { FCM_UNPORTED("start_working"); }
__attribute__((weak)) void run_dinnertime(GameState&) { FCM_UNPORTED("run_dinnertime"); }
__attribute__((weak)) void start_payday(GameState&) { FCM_UNPORTED("start_payday"); }
__attribute__((weak)) void run_marketing(GameState&) { FCM_UNPORTED("run_marketing"); }
__attribute__((weak)) void start_cleanup(GameState&) { FCM_UNPORTED("start_cleanup"); }
__attribute__((weak)) void finish_cleanup(GameState&) { FCM_UNPORTED("finish_cleanup"); }
__attribute__((weak)) void continue_turn(GameState&, int, int) { FCM_UNPORTED("continue_turn"); }

}  // namespace fcm

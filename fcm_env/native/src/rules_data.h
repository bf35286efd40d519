// The facts of the components that the rules read (employee cards, marketing tiles, prices, houses,
// reserve cards, milestone effects), set once from fcm_env.data by the package: the data has one home.
// Field names follow fcm_env.data.components.
#pragma once

#include <array>
#include <map>
#include <string>
#include <vector>

namespace fcm {

// fcm_env.data.EmployeeType
enum Employee : int {
  kCeo = 0, kManagementTrainee, kJuniorVicePresident, kVicePresident, kSeniorVicePresident,
  kExecutiveVicePresident, kWaitress, kNewBusinessDeveloper, kCfo, kLocalManager, kRegionalManager,
  kPricingManager, kDiscountManager, kLuxuriesManager, kRecruitingGirl, kRecruitingManager, kHrDirector,
  kTrainer, kCoach, kGuru, kErrandBoy, kCartOperator, kTruckDriver, kZeppelinPilot, kMarketingTrainee,
  kCampaignManager, kBrandManager, kBrandDirector, kKitchenTrainee, kBurgerCook, kBurgerChef, kPizzaCook,
  kPizzaChef
};
// fcm_env.data.Good, CampaignType, RangeKind, Milestone
enum Good : int { kBurger = 0, kPizza, kBeer, kLemonade, kSoda };
enum CampaignType : int { kBillboard = 0, kMailbox, kAirplane, kRadio };
enum RangeKind : int { kRangeNone = -1, kRangeRoad = 0, kRangeAir = 1, kRangeUnlimited = 2 };
enum Milestone : int {
  kFirstHire3 = 0, kFirstThrowAway, kFirstWaitress, kFirstHave20, kFirstHave100, kFirstLowerPrices,
  kFirstTrain, kFirstBurgerProduced, kFirstPizzaProduced, kFirstErrandBoy, kFirstCartOperator,
  kFirstPay20Salaries, kFirstBillboard, kFirstBurgerMarketed, kFirstPizzaMarketed, kFirstDrinkMarketed,
  kFirstAirplane, kFirstRadio
};
constexpr int kNumMilestones = 18;
enum DrinkMode : int { kNoDrinks = 0, kErrand = 1, kRoadRoute = 2, kAirRoute = 3 };
enum RestaurantPlacement : int { kNoPlacement = 0, kLocal = 1, kRegional = 2 };

struct RangeSpec {
  int kind = kRangeNone;  // kRangeNone: the card has no such range
  int value = -1;         // -1 when unlimited or none
};

struct EmployeeSpec {
  int type = 0;
  int count_in_box = 0;
  bool entry_level = false, salary = false, unique = false, is_manager = false;
  int manager_slots = 0;
  bool mandatory = false;
  std::vector<int> trains_to, trained_from;
  int recruit = 0;
  bool recruit_unused_discount = false;
  int train = 0, train_max_same = 0;
  std::vector<int> campaign_types;  // empty: not a marketeer
  RangeSpec marketing_range;
  int max_duration = 0;
  std::vector<int> produces;
  int produce_amount = 0;
  int drink_mode = kNoDrinks;
  int buyer_range = 0, drinks_per_source = 0, price_delta = 0;
  bool waitress = false, cfo = false, places_house = false;
  int restaurant_placement = kNoPlacement;
  RangeSpec restaurant_range;
  bool drive_in = false;
  bool is_marketeer() const { return !campaign_types.empty(); }
};

struct MarketingTileSpec {
  int number = 0, type = 0, w = 0, h = 0;
  bool rotatable = false;
  std::vector<int> available_for_players;
  int along_edge = 0;
  // distinct (rows, cols) footprints on the map, orientation 0 first (none for airplanes)
  std::vector<std::array<int, 2>> footprints;
};

struct PricesSpec {
  int base_unit_price = 0, salary = 0, waitress_tip = 0, waitress_tip_milestone = 0, cfo_bonus_percent = 0,
      restaurants_per_player = 0, freezer_capacity = 0, reserve_cards_per_player = 0;
};

struct ReserveCardSpec {
  int index = 0, value = 0, ceo_slots = 0;
};

struct SetupSpec {
  int tile_rows = 0, tile_cols = 0, bank = 0, bank_introductory = 0, one_x_copies = 0;
  std::vector<int> billboards_removed;
};

struct RulesData {
  std::vector<EmployeeSpec> employees;            // by EmployeeType
  std::vector<MarketingTileSpec> marketing_tiles; // in fcm_env.data.MARKETING_TILES order
  PricesSpec prices;
  std::vector<ReserveCardSpec> reserve_cards;
  std::vector<int> house_numbers, printed_house_numbers;
  int garden_tokens = 0, demand_limit = 0, demand_limit_with_garden = 0;
  std::array<SetupSpec, 6> setup{};               // by player count 2..5
  // milestone effect_params, flattened: "gain_cards.management_trainee" -> 2, booleans as 0/1,
  // lists of names as indexes (EmployeeType or Good) under "key.0", "key.1", ...
  std::array<std::map<std::string, int>, kNumMilestones> milestone_params;
  // TRAIN_STEPS of fcm_env.engine.phases.working.recruit_train: source -> {target: steps}
  std::map<int, std::map<int, int>> train_steps;
};

void set_rules_data(RulesData data);
// the loaded facts; the package loads them when it is imported, before any game exists
extern RulesData g_rules_data;
inline const RulesData& rules_data() { return g_rules_data; }
// shortcuts
inline const EmployeeSpec& employee(int type) { return rules_data().employees[static_cast<std::size_t>(type)]; }
const MarketingTileSpec& marketing_tile(int number);  // by tile number; throws for an unknown one
int milestone_param(int milestone, const std::string& key);  // throws naming a missing key

}  // namespace fcm

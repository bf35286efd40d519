// The strategist family (fcm_agents.strategist.StrategistAgent) as a native player: the heuristic's answers
// played from an archetype's tables, with the map reading, the organisation planner, the shadow Dinnertime
// and the seeded variation, each the Python agent's, drawing the same numbers from the same generator
// (numpy's PCG64 seeded alike). The archetypes' tables have one home, fcm_agents.strategist.archetypes,
// handed over when fcm_agents.native loads.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "heuristic.h"
#include "org_planner.h"
#include "rng.h"

namespace fcm::players {

constexpr int kProductFood = -1, kProductDrink = -2;  // archetypes.FOOD and DRINK in ``products``

struct Archetype {
  std::string name;
  int reserve = 200;
  PlanTables tables;
  std::vector<int> campaign_kinds;
  std::vector<int> products;  // kProductFood, kProductDrink or a Good
  std::vector<std::pair<int, int>> targets;
};

// the strategist's constants (agent.py, reading.py, archetypes.OPENER), set with the archetypes
struct StrategistConstants {
  std::vector<std::pair<int, int>> opener;
  double swap = 0.2;
  int extra_cap_low = 4, extra_cap_high = 5;
  int ample = 10, near = 2, haul_range = 2;
  std::vector<int> drinks;  // archetypes.DRINKS, in order
};

void set_archetypes(std::vector<Archetype> archetypes, StrategistConstants constants);
// the archetype called ``name``; std::invalid_argument listing the names otherwise
int archetype_index(const std::string& name);

class Strategist : public Heuristic {
 public:
  // ``archetype`` -1: the plan its map reading picks (the default strategist)
  Strategist(int archetype, uint64_t seed, double variation);

  Action act(Game& game, int player) override;
  void reset() override;

  Answer reserve_card(const Position& pos) override;
  Answer restructure(const Position& pos, const std::vector<int>* priority = nullptr) override;
  Answer recruit(const Position& pos) override;
  Answer train(const Position& pos) override;
  Answer fire(const Position& pos) override;
  Answer produce(const Position& pos, MapReads& reads) override;
  Answer campaign_tile(const Position& pos, MapReads& reads) override;
  Answer campaign_product(const Position& pos) override;

 protected:
  bool reads_hidden(Decision decision, const HiddenFacts& hidden) const override;
  const PlanTables& tables() const override { return plan_->tables; }
  int train_reserve(const GameState& s, int player) override;
  std::pair<Answer, double> best_placement(const GameState& s, int player, int number, const std::vector<Action>& legal,
                                           const std::vector<double>& values, MapReads& reads) override;
  Action pick_spot(const std::vector<Action>& legal, const std::vector<double>& scores) override;

 private:
  const Archetype& plan_for(const GameState& s, int player);
  const Archetype& base(const GameState& s, int player) const;
  Archetype varied(const Archetype& plan);
  void adopt(const Archetype& plan);
  std::optional<OrgPlan> organisation(const GameState& s, int player) const;
  bool price_change_pays(const GameState& s, int player, int etype) const;
  int drink_to_sell(const GameState& s, int player) const;  // a Good, or -1

  int fixed_;
  uint64_t seed_;
  double variation_;
  Pcg64 rng_;
  std::map<std::tuple<std::vector<std::vector<std::string>>, int, int>, Archetype> chosen_;
  const Archetype* plan_;  // this game's plan: an entry of chosen_ or of the archetypes (stable addresses)
};

}  // namespace fcm::players

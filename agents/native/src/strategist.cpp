// The strategist (strategist.h): its plan for the game, and the answers it plays differently from the
// heuristic, each as fcm_agents/strategist/agent.py gives it.
#include "strategist.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "cards.h"
#include "forecast.h"
#include "map_reading.h"
#include "map_reads.h"
#include "rules_data.h"

namespace fcm::players {

namespace {

std::vector<Archetype> g_archetypes;
StrategistConstants g_constants;

bool all_restaurants_out(const GameState& s, int player) {
  return static_cast<int>(player_of(s, player).restaurants.size()) >= rules_data().prices.restaurants_per_player;
}

bool has_put(const Action& a) { return a.kind == ActionKind::kPutToWork; }

template <typename Pred>
void drop_if(std::vector<Action>& actions, Pred pred) {
  actions.erase(std::remove_if(actions.begin(), actions.end(), pred), actions.end());
}

}  // namespace

void set_archetypes(std::vector<Archetype> archetypes, StrategistConstants constants) {
  if (archetypes.empty()) throw std::invalid_argument("set_archetypes: no archetype given");
  g_archetypes = std::move(archetypes);
  g_constants = std::move(constants);
}

int archetype_index(const std::string& name) {
  std::string names;
  for (std::size_t i = 0; i < g_archetypes.size(); ++i) {
    if (g_archetypes[i].name == name) return static_cast<int>(i);
    names += (names.empty() ? "" : ", ") + g_archetypes[i].name;
  }
  throw std::invalid_argument("unknown archetype '" + name + "': use one of " + names);
}

Strategist::Strategist(int archetype, uint64_t seed, double variation)
    : fixed_(archetype), seed_(seed), variation_(variation), rng_(seed) {
  if (archetype >= static_cast<int>(g_archetypes.size())) throw std::invalid_argument("no archetype " + std::to_string(archetype));
  plan_ = &g_archetypes.at(at(fixed_ >= 0 ? fixed_ : archetype_index("discount")));  // until a game asks
}

void Strategist::reset() {
  rng_ = Pcg64(seed_);
  chosen_.clear();
}

// ------------------------------------------------------------------ the plan

Action Strategist::act(Game& game, int player) {
  const Pending* pending = game.pending();
  if (pending != nullptr && pending->player == player) adopt(plan_for(game.state(), player));
  return Heuristic::act(game, player);
}

const Archetype& Strategist::plan_for(const GameState& s, int player) {
  const auto key = std::make_tuple(s.layout, player, s.num_players);
  auto found = chosen_.find(key);
  const bool reserve = !s.pending.empty() && s.pending.back().decision == Decision::kReserveCard;
  if (reserve || (found == chosen_.end() && s.phase != Phase::kSetupRestaurants)) {
    Archetype plan = varied(base(s, player));
    return chosen_.insert_or_assign(key, std::move(plan)).first->second;
  }
  if (found == chosen_.end() || s.phase == Phase::kSetupRestaurants) return base(s, player);  // a new game
  return found->second;
}

const Archetype& Strategist::base(const GameState& s, int player) const {
  if (fixed_ >= 0) return g_archetypes[at(fixed_)];
  const MapReading reading = read_map(s, player, g_constants.near, g_constants.haul_range);
  // reading.choose_archetype: most of the houses it reaches contested, the price war; else the CFO racer
  const bool war = reading.reached_houses && reading.contested * 2 >= reading.reached_houses;
  return g_archetypes[at(archetype_index(war ? "discount" : "cfo"))];
}

Archetype Strategist::varied(const Archetype& plan) {
  if (variation_ <= 0.0) return plan;
  Archetype out = plan;
  auto& hiring = out.tables.hiring_plan;
  for (std::size_t i = g_constants.opener.size(); i + 1 < hiring.size(); ++i) {
    if (rng_.random() < g_constants.swap) std::swap(hiring[i], hiring[i + 1]);
  }
  out.tables.train_margin = plan.tables.train_margin + static_cast<int>(rng_.integers(0, 2));
  out.tables.extra_cap = static_cast<int>(rng_.integers(g_constants.extra_cap_low, g_constants.extra_cap_high + 1));
  return out;
}

void Strategist::adopt(const Archetype& plan) { plan_ = &plan; }

std::optional<OrgPlan> Strategist::organisation(const GameState& s, int player) const {
  if (plan_->targets.empty()) return std::nullopt;
  const PlayerState& p = player_of(s, player);
  std::vector<std::pair<int, int>> targets;
  const bool out = all_restaurants_out(s, player);  // nothing left for a local or regional manager to open
  for (const auto& target : plan_->targets) {
    if (!(out && employee(target.first).restaurant_placement)) targets.push_back(target);
  }
  return plan_organisation(p.hand + p.work + p.beach, owned_cards(s, player), targets, p.cash, salaried(s, player),
                           plan_->tables.train_margin, plan_->tables.train_goals, plan_->tables.train_reserve);
}

bool Strategist::reads_hidden(Decision, const HiddenFacts& hidden) const {
  return hidden.any();  // its forecasts run the whole Dinnertime: every answer is asked on the seat's view
}

// ------------------------------------------------------------------ answers of its own

Answer Strategist::reserve_card(const Position& pos) {
  const auto& offer = player_of(pos.s, pos.player).reserve_offer;
  const Action* best = nullptr;
  int best_gap = 0;
  for (const Action& a : pos.legal) {
    const int gap = std::abs(offer.at(at(a[0])) - plan_->reserve);
    if (best == nullptr || gap < best_gap) best = &a, best_gap = gap;
  }
  return best ? Answer(*best) : std::nullopt;
}

Answer Strategist::restructure(const Position& pos, const std::vector<int>* priority) {
  const GameState& s = pos.s;
  const PlayerState& p = player_of(s, pos.player);
  std::vector<Action> remaining = pos.legal;
  const std::optional<OrgPlan> org = organisation(s, pos.player);
  std::vector<int> ordered;
  if (org) {
    drop_if(remaining, [&](const Action& a) { return has_put(a) && p.hand[at(a[0])] <= org->kept_on_beach(a[0]); });
    if (all_restaurants_out(s, pos.player)) {  // a local or regional manager has nothing left to open
      drop_if(remaining, [](const Action& a) { return has_put(a) && employee(a[0]).restaurant_placement; });
    }
    for (const auto& [t, k] : org->trainers) {
      if (p.work[at(t)] < k) ordered.push_back(t);
    }
    ordered.insert(ordered.end(), plan_->tables.play_priority.begin(), plan_->tables.play_priority.end());
    priority = &ordered;
  }
  const int keep = train_reserve(s, pos.player);
  if (!org && keep >= 0 && employee(keep).is_manager && p.hand[at(keep)] <= 1) {
    // the plan trains its managers up: the one kept for the trainer stays on the beach while another
    // manager can give the slots
    const bool others = std::any_of(remaining.begin(), remaining.end(), [&](const Action& a) {
      return has_put(a) && a[0] != keep && employee(a[0]).is_manager;
    });
    if (others) drop_if(remaining, [&](const Action& a) { return has_put(a) && a[0] == keep; });
  }
  while (true) {
    const Answer choice = Heuristic::restructure(Position{s, pos.pending, pos.player, remaining}, priority);
    if (!choice || !has_put(*choice) || !employee((*choice)[0]).price_delta) return choice;
    if (price_change_pays(s, pos.player, (*choice)[0])) return choice;
    const Action dropped = *choice;
    drop_if(remaining, [&dropped](const Action& a) { return a == dropped; });
    if (remaining.empty()) return choice;
  }
}

int Strategist::train_reserve(const GameState& s, int player) {
  const std::optional<OrgPlan> org = organisation(s, player);
  if (!org) return Heuristic::train_reserve(s, player);
  const Cards& held = player_of(s, player).hand;
  for (const auto& [t, n] : org->beach) {
    if (held[at(t)] > 0) return t;
  }
  return -1;
}

Answer Strategist::recruit(const Position& pos) {
  const std::optional<OrgPlan> org = organisation(pos.s, pos.player);
  if (org && !org->hires.empty()) {
    const auto lines = owned_lines(pos.s, pos.player);
    const bool opened = std::all_of(g_constants.opener.begin(), g_constants.opener.end(),
                                    [&](const auto& want) { return lines[at(want.first)] >= want.second; });
    if (opened) {
      for (int line : org->hires) {
        for (const Action& a : pos.legal) {
          if (a.kind == ActionKind::kRecruit && a[0] == line) return a;
        }
      }
    }
  }
  return Heuristic::recruit(pos);
}

Answer Strategist::train(const Position& pos) {
  const std::optional<OrgPlan> org = organisation(pos.s, pos.player);
  if (!org) return Heuristic::train(pos);
  for (const auto& [card, after] : org->trainings) {
    for (const Action& a : pos.legal) {
      if (a.kind == ActionKind::kTrain && a[1] == card && a[2] == after) return a;
    }
  }
  const PlayerState& p = player_of(pos.s, pos.player);
  std::array<int, kNumTypes> spare{};
  for (int t = 0; t < kNumTypes; ++t) spare[at(t)] = p.work[at(t)] + p.beach[at(t)];
  for (const Assignment& a : org->assignments) {
    if (a.card >= 0 && a.steps) spare[at(a.card)] -= 1;
  }
  std::vector<Action> free;
  bool any_train = false;
  for (const Action& a : pos.legal) {
    if (a.kind != ActionKind::kTrain || spare[at(checked_type(a[1]))] > 0) {
      free.push_back(a);
      any_train |= a.kind == ActionKind::kTrain;
    }
  }
  if (!any_train && !contains(pos.legal, pass_action())) free = pos.legal;  // a phantom hire must be trained
  return Heuristic::train(Position{pos.s, pos.pending, pos.player, free});
}

Answer Strategist::fire(const Position& pos) {
  if (!plan_->targets.empty() && contains(pos.legal, pass_action()) && all_restaurants_out(pos.s, pos.player)) {
    for (const Action& a : pos.legal) {  // a local or regional manager whose work is done
      if (a.kind == ActionKind::kFire && employee(a[0]).restaurant_placement) return a;
    }
  }
  return Heuristic::fire(pos);
}

bool Strategist::price_change_pays(const GameState& s, int player, int etype) const {
  WhatIf ample;
  Goods every{};
  every.fill(static_cast<int16_t>(g_constants.ample));
  ample.stock.assign(static_cast<std::size_t>(s.num_players), every);
  const int64_t without = shadow_income(s, player, ample);
  ample.work_player = player;
  ample.work_type = etype;
  return shadow_income(s, player, ample) >= without;  // no demand to tell: the plan decides
}

Answer Strategist::produce(const Position& pos, MapReads& reads) {
  const Answer fallback = Heuristic::produce(pos, reads);
  std::vector<const Action*> moves;
  for (const Action& a : pos.legal) {
    if (a.kind == ActionKind::kProduce || a.kind == ActionKind::kHaul) moves.push_back(&a);
  }
  if (moves.size() <= 1) return fallback;
  const int64_t base_income = shadow_income(pos.s, pos.player);
  Answer best = fallback;
  int64_t best_gain = 0;
  for (const Action* a : moves) {
    WhatIf more;
    more.stock.assign(static_cast<std::size_t>(pos.s.num_players), Goods{});
    Goods& goods = more.stock[at(pos.player)];
    const EmployeeSpec& spec = employee((*a)[0]);
    if (a->kind == ActionKind::kHaul) {  // sources visited per drink kind, each giving drinks_per_source
      goods[kBeer] = static_cast<int16_t>((*a)[1] * spec.drinks_per_source);
      goods[kLemonade] = static_cast<int16_t>((*a)[2] * spec.drinks_per_source);
      goods[kSoda] = static_cast<int16_t>((*a)[3] * spec.drinks_per_source);
    } else {
      goods[at((*a)[1])] = static_cast<int16_t>(spec.produces.empty() ? spec.drinks_per_source : spec.produce_amount);
    }
    const int64_t gain = shadow_income(pos.s, pos.player, more) - base_income;
    if (gain > best_gain) best = *a, best_gain = gain;
  }
  return best;
}

Answer Strategist::campaign_tile(const Position& pos, MapReads& reads) {
  for (int kind : plan_->campaign_kinds) {
    std::vector<Action> of_kind;
    for (const Action& a : pos.legal) {
      if (a.kind == ActionKind::kChooseTile && marketing_tile(a[0]).type == kind) of_kind.push_back(a);
    }
    if (of_kind.empty()) continue;
    const Answer choice = Heuristic::campaign_tile(Position{pos.s, pos.pending, pos.player, of_kind}, reads);
    if (choice) return choice;
  }
  return Heuristic::campaign_tile(pos, reads);
}

Answer Strategist::campaign_product(const Position& pos) {
  for (int product : plan_->products) {
    const int good = product == kProductFood    ? main_food(pos.s, pos.player)
                     : product == kProductDrink ? drink_to_sell(pos.s, pos.player)
                                                : product;
    if (good < 0) continue;
    for (const Action& a : pos.legal) {
      if (a.n > 0 && a[0] == good) return a;
    }
  }
  return Heuristic::campaign_product(pos);
}

int Strategist::drink_to_sell(const GameState& s, int player) const {
  const PlayerState& p = player_of(s, player);
  const Cards owned = p.hand + p.work + p.beach + p.busy;
  int haulers = 0;
  for (int t = 0; t < kNumTypes; ++t) {
    if (employee(t).drink_mode) haulers += owned[at(t)];
  }
  if (haulers < 2) return -1;
  const std::vector<int> sources = read_map(s, player, g_constants.near, g_constants.haul_range).drink_sources;
  for (int good : g_constants.drinks) {
    if (std::find(sources.begin(), sources.end(), good) != sources.end()) return good;
  }
  return -1;
}

std::pair<Answer, double> Strategist::best_placement(const GameState& s, int, int number,
                                                     const std::vector<Action>& legal,
                                                     const std::vector<double>& values, MapReads& reads) {
  if (legal.empty()) return {std::nullopt, -std::numeric_limits<double>::infinity()};
  const MarketingTileSpec& tile = marketing_tile(number);
  std::vector<double> scores;
  scores.reserve(legal.size());
  for (const Action& a : legal) {
    double score = 0.0;
    for (int n : spot_houses(s, reads.grid(), tile, a[0], a[1], a[2])) {
      score += at(n) < values.size() ? values[at(n)] : 0.0;
    }
    scores.push_back(score);
  }
  const double top = *std::max_element(scores.begin(), scores.end());
  std::vector<std::size_t> near;
  for (std::size_t i = 0; i < legal.size(); ++i) {
    if (scores[i] >= top - std::abs(top) * variation_) near.push_back(i);
  }
  if (variation_ <= 0.0) return {legal[near[0]], top};  // no variation: the first best, as the heuristic
  return {legal[near[at(static_cast<int>(rng_.integers(0, static_cast<int64_t>(near.size()))))]], top};
}

Action Strategist::pick_spot(const std::vector<Action>& legal, const std::vector<double>& scores) {
  if (variation_ <= 0.0) return Heuristic::pick_spot(legal, scores);
  const double top = *std::max_element(scores.begin(), scores.end());
  std::vector<std::size_t> near;
  for (std::size_t i = 0; i < legal.size(); ++i) {
    if (scores[i] >= top - std::abs(top) * variation_) near.push_back(i);
  }
  return legal[near[at(static_cast<int>(rng_.integers(0, static_cast<int64_t>(near.size()))))]];
}

}  // namespace fcm::players

// The heuristic (fcm_agents.heuristic.HeuristicAgent) as a native player: the same plan, the same scores, the
// same answer in every position. Each decision has its handler, named as the Python agent's ``_<decision>``
// methods are; a handler answers std::nullopt where the Python one answers None (the first legal action is
// played). The strategist family derives from it and replaces some handlers, as in Python.
#pragma once

#include <optional>
#include <utility>
#include <vector>

#include "heuristic_plan.h"
#include "hidden.h"
#include "map_reads.h"
#include "player.h"

namespace fcm::players {

using Answer = std::optional<Action>;

class Heuristic : public Player {
 public:
  Heuristic() : Heuristic(heuristic_tables()) {}
  explicit Heuristic(PlanTables tables) : own_(std::move(tables)) {}

  Action act(Game& game, int player) override;
  // the answer on a position as it is (no seat view): what act gives once the view is built
  Answer answer(const Position& pos);

  // the handlers (public: the hidden-choice model asks two of them on a determinized world)
  virtual Answer initial_restaurant(const Position& pos, MapReads& reads);
  virtual Answer reserve_card(const Position& pos);
  virtual Answer restructure(const Position& pos, const std::vector<int>* priority = nullptr);
  virtual Answer turn_order(const Position& pos);
  virtual Answer recruit(const Position& pos);
  virtual Answer train(const Position& pos);
  virtual Answer marketeer(const Position& pos, MapReads& reads);
  virtual Answer campaign_tile(const Position& pos, MapReads& reads);
  virtual Answer campaign_place(const Position& pos, MapReads& reads);
  virtual Answer campaign_product(const Position& pos);
  virtual Answer campaign_duration(const Position& pos);
  virtual Answer produce(const Position& pos, MapReads& reads);
  virtual Answer new_business(const Position& pos, MapReads& reads);
  virtual Answer house_place(const Position& pos);
  virtual Answer restaurant_manager(const Position& pos);
  virtual Answer restaurant_place(const Position& pos, MapReads& reads);
  virtual Answer fire(const Position& pos);
  virtual Answer freezer(const Position& pos, MapReads& reads);

 protected:
  // whether the answer to ``decision`` may read a fact ``hidden`` from the seat (then it is asked on the
  // seat's view, Game.seat_view's twin; else on the game as it is, which gives the same answer)
  virtual bool reads_hidden(Decision decision, const HiddenFacts& hidden) const;
  // a card to leave on the beach so that a trainer at work can train it (_train_reserve), or -1
  virtual int train_reserve(const GameState& s, int player);
  // the first placement with the most value reached, and that value (-inf: none)
  virtual std::pair<Answer, double> best_placement(const GameState& s, int player, int number,
                                                   const std::vector<Action>& legal, const std::vector<double>& values,
                                                   MapReads& reads);
  // the first of the best-scored restaurant placements
  virtual Action pick_spot(const std::vector<Action>& legal, const std::vector<double>& scores);

  // the plan's tables the answers read (a strategist's: its archetype's of this game)
  virtual const PlanTables& tables() const { return own_; }

 private:
  PlanTables own_;
};

}  // namespace fcm::players

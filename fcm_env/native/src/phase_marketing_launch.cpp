// Phase 3 Working 9-5, initiate marketing campaigns (fcm_env/engine/phases/working/marketing_launch.py).
// rules: Initiate marketing campaigns; C13-C17, R17-R21, R51; milestones First billboard placed, First
// burger / pizza / drink marketed, First airplane campaign, First radio campaign.
//
// One campaign is a chain of decisions by one player, its choices so far in the pending context:
// MARKETEER () -> CAMPAIGN_TILE (marketeer) -> CAMPAIGN_PLACE (marketeer, tile) -> CAMPAIGN_PRODUCT
// (marketeer, tile, row, col, orientation) -> CAMPAIGN_DURATION (..., product), skipped for an eternal one.
// A marketeer or tile is offered only when the chain can be finished (there is no "back"): a tile needs a
// legal spot; any good and a duration of one turn are always possible.
#include <algorithm>
#include <initializer_list>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "board_areas.h"
#include "cards.h"
#include "milestones.h"
#include "occupancy.h"
#include "phases.h"
#include "placement.h"
#include "rules_data.h"

namespace fcm {

namespace {

const EmployeeSpec& marketeer_spec(int etype) {
  if (etype < 0 || etype >= static_cast<int>(rules_data().employees.size())) {
    throw std::invalid_argument("employee type " + std::to_string(etype) + " does not exist");
  }
  return employee(etype);
}

void expect_context(const Pending& p, std::size_t size, const char* decision) {
  if (p.context.size() != size) {
    throw std::invalid_argument(std::string(decision) + "'s pending context must hold " + std::to_string(size) +
                                " values, got " + std::to_string(p.context.size()));
  }
}

// the marketeer's range by road; none if unlimited (C13: brand managers and directors)
std::optional<int> range_of(const EmployeeSpec& spec) {
  const RangeSpec& range = spec.marketing_range;
  if (range.kind == kRangeNone || range.kind == kRangeUnlimited) return std::nullopt;
  return std::max(range.value, 0);  // Python's ``value or 0``
}

// squares within ``range`` by road of the chain's entrances: coming-soon restaurants count (D16), drive-in
// corners too (C11); rules: Initiate marketing campaigns (range from any restaurant entrance, R19)
Mask reach_within(const GameState& s, int player, int range) {
  return squares_within(*s.board, entrances_of(s, player, false), range);
}

bool has_type(const EmployeeSpec& spec, int type) {
  return std::find(spec.campaign_types.begin(), spec.campaign_types.end(), type) != spec.campaign_types.end();
}

// every legal (row, col, orientation) of a campaign tile; airplanes as their edge anchor
std::vector<Spot> tile_placements(const GameState& s, const MarketingTileSpec& tile, const Mask* reach) {
  const Board& board = *s.board;
  if (tile.type == kAirplane) {  // no road, no range, other planes do not block (C15)
    std::vector<Spot> out;
    for (const auto& [edge, start] : airplane_placements(board, tile)) {
      out.push_back(airplane_anchor(AirplaneLane{edge, start, tile.along_edge}, board));
    }
    std::sort(out.begin(), out.end());
    return out;
  }
  if (tile.type == kRadio) reach = nullptr;  // C13, R17: a radio needs a road next to it, not a connection
  return campaign_placements(board, occupied_on_map(s), tile, reach).list();
}

// which campaign tiles have a legal spot in one position, for one player's marketeers: the answer depends
// only on a tile's footprints and the range that limits it (airplanes: their length), each computed once
class SpotCheck {
 public:
  SpotCheck(const GameState& s, int player) : s_(s), player_(player) {}

  bool has_spot(const EmployeeSpec& spec, const MarketingTileSpec& tile) {
    if (tile.type == kAirplane) return !airplane_placements(*s_.board, tile).empty();
    // C13, R17: a radio needs a road next to it, not a connection (as in tile_placements)
    const std::optional<int> range = tile.type == kRadio ? std::nullopt : range_of(spec);
    const int range_key = range ? *range : -1;
    for (const Found& f : found_) {  // a few entries: a linear look-up allocates nothing
      if (f.range == range_key && *f.footprints == tile.footprints) return f.any;
    }
    const Mask* reach = nullptr;
    if (range) {
      auto it = std::find_if(reach_.begin(), reach_.end(), [&](const auto& r) { return r.first == *range; });
      if (it == reach_.end()) it = reach_.emplace(reach_.end(), *range, reach_within(s_, player_, *range));
      reach = &it->second;
    }
    if (!grid_) grid_ = occupied_on_map(s_);  // only when a tile other than an airplane is asked
    const bool any = any_campaign_placement(*s_.board, *grid_, tile, reach);
    found_.push_back(Found{range_key, &tile.footprints, any});
    return any;
  }

 private:
  struct Found {
    int range;
    const std::vector<std::array<int, 2>>* footprints;  // the tile spec's own (rules data outlives the check)
    bool any;
  };
  const GameState& s_;
  int player_;
  std::optional<Mask> grid_;
  std::vector<std::pair<int, Mask>> reach_;
  std::vector<Found> found_;
};

// supply tiles this marketeer may place that have a legal spot, in number order; ``first_only`` stops at one
std::vector<int> placeable_tiles(const GameState& s, int etype, SpotCheck& spots, bool first_only) {
  const EmployeeSpec& spec = marketeer_spec(etype);
  std::vector<int> numbers = s.marketing_supply;
  std::sort(numbers.begin(), numbers.end());
  std::vector<int> out;
  for (int number : numbers) {
    const MarketingTileSpec& tile = marketing_tile(number);
    if (has_type(spec, tile.type) && spots.has_spot(spec, tile)) {
      out.push_back(number);
      if (first_only) break;
    }
  }
  return out;
}

// marketeer types with a card at work whose action is not spent yet
std::vector<int> marketeers_at_work(const GameState& s, int player) {
  const PlayerState& p = pending_player(s, player);
  std::vector<int> out;
  for (const EmployeeSpec& spec : rules_data().employees) {
    const auto t = static_cast<std::size_t>(spec.type);
    if (spec.is_marketeer() && p.work[t] - s.turn.used[t] > 0) out.push_back(spec.type);
  }
  return out;
}

std::vector<int> available_marketeers(const GameState& s, int player, bool first_only) {
  std::vector<int> out;
  const std::vector<int> at_work = marketeers_at_work(s, player);
  if (at_work.empty()) return out;
  SpotCheck spots(s, player);
  for (int t : at_work) {
    if (!placeable_tiles(s, t, spots, true).empty()) {
      out.push_back(t);
      if (first_only) break;
    }
  }
  return out;
}

// milestone for placing a campaign of each kind (none for a mailbox), and for advertising each good
int placed_milestone(int type) {
  switch (type) {
    case kBillboard: return kFirstBillboard;
    case kAirplane: return kFirstAirplane;
    case kRadio: return kFirstRadio;
    default: return -1;
  }
}
int product_milestone(int good) {
  switch (good) {
    case kBurger: return kFirstBurgerMarketed;
    case kPizza: return kFirstPizzaMarketed;
    case kBeer: case kLemonade: case kSoda: return kFirstDrinkMarketed;
    default: throw std::invalid_argument(std::to_string(good) + " is not a valid Good");
  }
}

// put the campaign on the board and send its marketeer away (busy, or gone for good if eternal)
void launch(GameState& s, int player, const std::vector<int>& context, int turns, bool eternal) {
  if (context.size() != 6) {
    throw std::invalid_argument("a campaign needs 6 choices (marketeer, tile, row, col, orientation, product), got " +
                                std::to_string(context.size()));
  }
  const int etype = context[0], number = context[1], row = context[2], col = context[3], orientation = context[4];
  marketeer_spec(etype);
  const MarketingTileSpec& tile = marketing_tile(number);
  std::vector<Square> squares;
  if (tile.type != kAirplane) squares = campaign_squares(row, col, orientation, tile);
  const auto token = std::find(s.marketing_supply.begin(), s.marketing_supply.end(), number);
  if (token == s.marketing_supply.end()) {
    throw std::invalid_argument("marketing tile " + std::to_string(number) + " is not in the supply");
  }
  PlayerState& p = pending_player(s, player);
  s.campaigns.push_back(Campaign{number, tile.type, player, etype, context[5], turns, eternal, row, col, orientation,
                                 std::move(squares)});
  s.marketing_supply.erase(token);
  p.work[static_cast<std::size_t>(etype)] -= 1;
  if (!eternal) p.busy[static_cast<std::size_t>(etype)] += 1;  // rules: back when the campaign ends
  if (!available_marketeers(s, player, true).empty()) {
    s.pending = {Pending{Decision::kMarketeer, player, {}}};
  } else {
    s.pending.clear();  // this sub-step is over: Game calls continue_turn
  }
}

std::vector<int> with(std::vector<int> context, std::initializer_list<int> more) {
  context.insert(context.end(), more.begin(), more.end());
  return context;
}

}  // namespace

bool begin_marketing_launch(GameState& s, int player) {
  if (available_marketeers(s, player, true).empty()) return false;
  s.pending = {Pending{Decision::kMarketeer, player, {}}};
  return true;
}

void legal_marketeer(const GameState& s, const Pending& p, std::vector<Action>& out) {
  out.push_back(Action::make(ActionKind::kPass));
  for (int t : available_marketeers(s, p.player, false)) out.push_back(Action::make(ActionKind::kSelectMarketeer, t));
}

void apply_marketeer(GameState& s, const Pending& p, const Action& a) {
  if (a.kind == ActionKind::kPass) {
    s.pending.clear();
    return;
  }
  s.pending = {Pending{Decision::kCampaignTile, p.player, {a[0]}}};
}

void legal_campaign_tile(const GameState& s, const Pending& p, std::vector<Action>& out) {
  if (p.context.empty()) throw std::invalid_argument("CAMPAIGN_TILE's pending context must name the marketeer");
  pending_player(s, p.player);
  SpotCheck spots(s, p.player);
  for (int n : placeable_tiles(s, p.context[0], spots, false)) out.push_back(Action::make(ActionKind::kChooseTile, n));
}

void apply_campaign_tile(GameState& s, const Pending& p, const Action& a) {
  s.pending = {Pending{Decision::kCampaignPlace, p.player, with(p.context, {a[0]})}};
}

void legal_campaign_place(const GameState& s, const Pending& p, std::vector<Action>& out) {
  expect_context(p, 2, "CAMPAIGN_PLACE");
  pending_player(s, p.player);
  const std::optional<int> range = range_of(marketeer_spec(p.context[0]));
  Mask reach;
  if (range) reach = reach_within(s, p.player, *range);
  for (const Spot& spot : tile_placements(s, marketing_tile(p.context[1]), range ? &reach : nullptr)) {
    out.push_back(Action::make(ActionKind::kPlaceCampaign, spot[0], spot[1], spot[2]));
  }
}

void apply_campaign_place(GameState& s, const Pending& p, const Action& a) {
  if (p.context.size() < 2) throw std::invalid_argument("CAMPAIGN_PLACE's pending context must name the tile");
  pending_player(s, p.player);
  const int milestone = placed_milestone(marketing_tile(p.context[1]).type);
  if (milestone >= 0) claim(s, p.player, milestone);  // rules: Milestones — claimed when the campaign is placed
  s.pending = {Pending{Decision::kCampaignProduct, p.player, with(p.context, {a[0], a[1], a[2]})}};
}

void legal_campaign_product(const GameState&, const Pending&, std::vector<Action>& out) {
  for (int good = 0; good < kNumGoods; ++good) out.push_back(Action::make(ActionKind::kChooseProduct, good));  // C16, R21
}

void apply_campaign_product(GameState& s, const Pending& p, const Action& a) {
  pending_player(s, p.player);
  const int good = a[0];
  claim(s, p.player, product_milestone(good));
  const std::vector<int> context = with(p.context, {good});
  if (has_milestone(s, p.player, kFirstBillboard)) {
    launch(s, p.player, context, 1, true);  // rules: First billboard placed; R51 — eternal campaigns
    return;
  }
  s.pending = {Pending{Decision::kCampaignDuration, p.player, context}};
}

void legal_campaign_duration(const GameState&, const Pending& p, std::vector<Action>& out) {
  if (p.context.empty()) throw std::invalid_argument("CAMPAIGN_DURATION's pending context must name the marketeer");
  const int longest = marketeer_spec(p.context[0]).max_duration;
  for (int d = 1; d <= longest; ++d) out.push_back(Action::make(ActionKind::kChooseDuration, d));
}

void apply_campaign_duration(GameState& s, const Pending& p, const Action& a) {
  launch(s, p.player, p.context, a[0], false);
}

}  // namespace fcm

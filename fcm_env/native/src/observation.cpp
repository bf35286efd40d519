// One player's observation of a native state (observation.h): board_planes.py, vector_head.py and
// player_blocks.py of fcm_env.encoding, in one pass. Values are computed in double and stored as float,
// as numpy stores a Python float into a float32 array; sums into float32 cells add in float.
#include "observation.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "names.h"
#include "rules_data.h"

namespace fcm {

// a layout offset by name, looked up once per call site (the layout is loaded once, when the package is
// imported): the writers name every field as fcm_env.encoding does, at the cost of an int
#define FCM_LAYOUT_OFFSET(table, name) \
  ([]() -> int { static const int offset = observation_layout().table.at(name); return offset; }())
#define FIELD(name) FCM_LAYOUT_OFFSET(field, name)
#define CHANNEL(name) FCM_LAYOUT_OFFSET(channel, name)
#define BLOCK(name) FCM_LAYOUT_OFFSET(block, name)

namespace {
ObservationLayout g_layout;
bool g_set = false;

constexpr int kFreezerGoods = 5;

int index_in(const std::vector<int>& values, int value) {
  const auto it = std::find(values.begin(), values.end(), value);
  return it == values.end() ? -1 : static_cast<int>(it - values.begin());
}

struct Writer {
  const ObservationLayout& L;
  const GameState& s;
  float* board;
  float* vec;
  int plane;  // rows * cols
  std::vector<int32_t>* touched = nullptr;  // board indices written, when kept (RowMark)

  float& cell(int channel, int r, int c) const {
    const int at = channel * plane + r * L.cols + c;
    if (touched != nullptr) touched->push_back(at);
    return board[at];
  }
  void add(int channel, int r, int c, float v) const {
    if (r < 0 || c < 0 || r >= L.rows || c >= L.cols) throw std::invalid_argument("observation: a piece off the grid");
    float& x = cell(channel, r, c);
    x = x + v;
  }
  void put(int channel, int r, int c, float v) const {
    if (r < 0 || c < 0 || r >= L.rows || c >= L.cols) throw std::invalid_argument("observation: a piece off the grid");
    cell(channel, r, c) = v;
  }
};

// an airplane's rows (E, W) or columns (N, S), from its anchor (placement.airplane_from_anchor)
void airplane_span(const Board& b, int row, int col, int orientation, int& start, bool& columns) {
  switch (orientation) {
    case 0: start = col; columns = true; break;   // N
    case 1: start = row; columns = false; break;  // E
    case 2: start = col; columns = true; break;   // S
    case 3: start = row; columns = false; break;  // W
    default: throw std::invalid_argument("airplane orientation must be an integer 0..3");
  }
  (void)b;
}

// a campaign's area: fn(r, c) for every square it covers (an airplane: every square of its rows/columns)
template <typename Fn>
void campaign_area(const GameState& s, int kind, int number, int row, int col, int orientation,
                   const std::vector<Square>* squares, Fn fn) {
  const MarketingTileSpec& tile = marketing_tile(number);
  const Board& b = *s.board;
  if (kind == kAirplane) {
    int start = 0;
    bool columns = false;
    airplane_span(b, row, col, orientation, start, columns);
    const int stop = start + tile.along_edge;
    if (columns) {
      for (int r = 0; r < b.height(); ++r)
        for (int c = start; c < stop; ++c) fn(r, c);
    } else {
      for (int r = start; r < stop; ++r)
        for (int c = 0; c < b.width(); ++c) fn(r, c);
    }
    return;
  }
  if (squares != nullptr) {
    for (const auto& sq : *squares) fn(sq[0], sq[1]);
    return;
  }
  if (orientation < 0 || orientation >= static_cast<int>(tile.footprints.size())) {
    throw std::invalid_argument("campaign orientation out of range");
  }
  const auto [rows, cols] = tile.footprints[static_cast<std::size_t>(orientation)];
  for (int r = row; r < row + rows; ++r)
    for (int c = col; c < col + cols; ++c) fn(r, c);
}

void write_pieces(const Writer& w, const std::vector<int>& rel) {
  const GameState& s = w.s;
  const ObservationLayout& L = w.L;
  const int house = CHANNEL("house"), number = CHANNEL("house_number"), garden = CHANNEL("garden"), demand = CHANNEL("demand_burger");
  for (const auto& h : s.houses) {
    std::array<float, 5> counts{};
    for (int good : h.demand) {
      if (good >= 0 && good < 5) counts[static_cast<std::size_t>(good)] += 1.0f;
    }
    const float value = static_cast<float>(h.number / L.house_number_scale);
    for (const auto& sq : h.squares) {
      w.put(house, sq[0], sq[1], 1.0f);
      w.put(number, sq[0], sq[1], value);
      for (int g = 0; g < 5; ++g) {
        if (counts[static_cast<std::size_t>(g)] != 0.0f) w.put(demand + g, sq[0], sq[1], counts[static_cast<std::size_t>(g)]);
      }
    }
    for (const auto& sq : h.garden) w.put(garden, sq[0], sq[1], 1.0f);
  }
  static const int kOffsets[4][2] = {{0, 0}, {0, 1}, {1, 1}, {1, 0}};
  const int r0 = CHANNEL("restaurant_p0"), e0 = CHANNEL("entrance_p0"), soon = CHANNEL("coming_soon");
  for (const auto& p : s.players) {
    const int k = rel[static_cast<std::size_t>(p.player)];
    for (const auto& r : p.restaurants) {
      if (r.orientation < 0 || r.orientation > 3) throw std::invalid_argument("restaurant orientation out of range");
      for (int dr = 0; dr < 2; ++dr)
        for (int dc = 0; dc < 2; ++dc) {
          w.put(r0 + k, r.row + dr, r.col + dc, 1.0f);
          if (r.coming_soon) w.put(soon, r.row + dr, r.col + dc, 1.0f);
        }
      w.put(e0 + k, r.row + kOffsets[r.orientation][0], r.col + kOffsets[r.orientation][1], 1.0f);
    }
  }
  const int kind0 = CHANNEL("campaign_billboard"), prod0 = CHANNEL("campaign_product_burger"),
            own0 = CHANNEL("campaign_owner_p0"), remaining = CHANNEL("campaign_remaining"), eternal = CHANNEL("campaign_eternal");
  for (const auto& c : s.campaigns) {
    const float left = static_cast<float>(c.remaining / L.duration_scale);
    const int owner = rel[static_cast<std::size_t>(c.owner)];
    campaign_area(s, c.kind, c.number, c.row, c.col, c.orientation, &c.squares, [&](int r, int col) {
      w.add(kind0 + c.kind, r, col, 1.0f);
      w.add(prod0 + c.product, r, col, 1.0f);
      w.add(own0 + owner, r, col, 1.0f);
      w.add(remaining, r, col, left);
      if (c.eternal) w.add(eternal, r, col, 1.0f);
    });
  }
}

void one_hot(float* vec, int start, int size, int index) {
  if (index >= 0 && index < size) vec[start + index] = 1.0f;
}

bool context_visible(const GameState& s, int observer) {
  if (s.pending.empty()) return false;
  const Pending& p = s.pending.back();
  return p.player == observer || !is_hidden_decision(p.decision);
}

void write_head(const Writer& w, int observer, const std::vector<int>& rel) {
  const GameState& s = w.s;
  const ObservationLayout& L = w.L;
  float* vec = w.vec;
  vec[FIELD("phase") + static_cast<int>(s.phase)] = 1.0f;
  if (!s.pending.empty()) {
    const Pending& p = s.pending.back();
    vec[FIELD("decision") + static_cast<int>(p.decision)] = 1.0f;
    vec[FIELD("decider") + rel[static_cast<std::size_t>(p.player)]] = 1.0f;
    vec[FIELD("observer_to_move")] = p.player == observer ? 1.0f : 0.0f;
  }
  const int cap = s.max_rounds ? *s.max_rounds : L.default_max_rounds;
  vec[FIELD("round")] = static_cast<float>(static_cast<double>(s.round) / std::max(cap, 1));
  vec[FIELD("round_abs")] = static_cast<float>(s.round / L.round_scale);
  vec[FIELD("num_players") + s.num_players - L.min_players] = 1.0f;
  vec[FIELD("standard")] = s.variant == "standard" ? 1.0f : 0.0f;
  vec[FIELD("bank")] = static_cast<float>(static_cast<double>(s.bank) / L.money_scale);
  vec[FIELD("bank_debt")] = static_cast<float>(static_cast<double>(s.bank_debt) / L.money_scale);
  vec[FIELD("bank_breaks") + std::min(s.bank_breaks, 2)] = 1.0f;
  vec[FIELD("reserve_revealed")] = s.reserve_revealed ? 1.0f : 0.0f;
  one_hot(vec, FIELD("ceo_slots"), static_cast<int>(L.ceo_slot_values.size()), index_in(L.ceo_slot_values, s.ceo_slots));
  vec[FIELD("structure_revealed")] = s.structure_revealed ? 1.0f : 0.0f;
  vec[FIELD("firing_revealed")] = s.firing_revealed ? 1.0f : 0.0f;
  for (int t = 0; t < kNumTypes; ++t) {  // numpy: a float32 array divided in float32
    vec[FIELD("supply") + t] = static_cast<float>(s.supply[t]) / static_cast<float>(L.supply_scale);
  }
  for (int number : s.marketing_supply) {
    const int i = index_in(L.tile_numbers, number);
    if (i < 0) throw std::invalid_argument("observation: unknown marketing tile " + std::to_string(number));
    vec[FIELD("marketing_supply") + i] = 1.0f;
  }
  for (int number : s.house_supply) {
    const int i = index_in(L.house_numbers, number);
    if (i < 0) throw std::invalid_argument("observation: unknown house token " + std::to_string(number));
    vec[FIELD("house_supply") + i] = 1.0f;
  }
  vec[FIELD("gardens_left")] = static_cast<float>(static_cast<double>(s.gardens_left) / L.garden_tokens);
  if (s.variant == "standard") {
    for (int m = 0; m < kNumMilestones; ++m) vec[FIELD("milestones_available") + m] = 1.0f;
    for (int m : s.milestones_gone) vec[FIELD("milestones_available") + m] = 0.0f;
  }
  for (int m : s.milestones_this_turn) vec[FIELD("milestones_this_turn") + m] = 1.0f;
  vec[FIELD("turn_hires")] = static_cast<float>(s.turn.hires / 4.0);
  vec[FIELD("turn_recruits_left")] = static_cast<float>(s.turn.recruits_left / 4.0);
  for (const auto& [trainer, left] : s.turn.trainers) {
    const int i = index_in(L.trainer_types, trainer);
    if (i >= 0) {
      float& x = vec[FIELD("turn_trainer_actions") + i];
      x = x + static_cast<float>(left / 3.0);
    }
  }
  for (int t = 0; t < kNumTypes; ++t) {
    vec[FIELD("turn_phantoms") + t] = s.turn.phantoms[t];
    vec[FIELD("turn_locked") + t] = s.turn.locked[t];
    vec[FIELD("turn_used") + t] = s.turn.used[t];
  }
}

void write_context(const Writer& w, int observer) {
  const GameState& s = w.s;
  const ObservationLayout& L = w.L;
  if (!context_visible(s, observer)) return;
  const Pending& p = s.pending.back();
  const std::vector<int>& ctx = p.context;
  if (ctx.empty()) return;
  float* vec = w.vec;
  const int n = std::min(static_cast<int>(ctx.size()), L.context_slots);
  for (int i = 0; i < n; ++i) vec[FIELD("context") + i] = static_cast<float>(ctx[static_cast<std::size_t>(i)]) / static_cast<float>(L.context_scale);
  vec[FIELD("context_length")] = static_cast<float>(static_cast<double>(ctx.size()) / L.context_slots);
  switch (p.decision) {
    case Decision::kInitialRestaurant:
      vec[FIELD("ctx_setup_second_round")] = ctx[0] == 2 ? 1.0f : 0.0f;
      break;
    case Decision::kCampaignTile:
    case Decision::kCampaignPlace:
    case Decision::kCampaignProduct:
    case Decision::kCampaignDuration: {
      one_hot(vec, FIELD("ctx_marketeer"), static_cast<int>(L.marketeer_types.size()), index_in(L.marketeer_types, ctx[0]));
      if (ctx.size() >= 2) {
        one_hot(vec, FIELD("ctx_campaign_tile"), static_cast<int>(L.tile_numbers.size()), index_in(L.tile_numbers, ctx[1]));
      }
      if (ctx.size() >= 5) {
        const int piece = CHANNEL("pending_piece");
        campaign_area(s, marketing_tile(ctx[1]).type, ctx[1], ctx[2], ctx[3], ctx[4], nullptr,
                      [&](int r, int c) { w.put(piece, r, c, 1.0f); });
      }
      if (ctx.size() >= 6) one_hot(vec, FIELD("ctx_product"), 5, ctx[5]);
      break;
    }
    case Decision::kHousePlace:
      one_hot(vec, FIELD("ctx_house"), static_cast<int>(L.house_numbers.size()), index_in(L.house_numbers, ctx[0]));
      break;
    case Decision::kRestaurantPlace: {
      if (ctx.size() < 2) break;
      const int manager = ctx[0], index = ctx[1];
      one_hot(vec, FIELD("ctx_restaurant_manager"), static_cast<int>(L.manager_types.size()), index_in(L.manager_types, manager));
      const auto& restaurants = s.players[static_cast<std::size_t>(p.player)].restaurants;
      one_hot(vec, FIELD("ctx_restaurant_index"), L.restaurants_per_player + 1, index);
      vec[FIELD("ctx_restaurant_new")] = index >= static_cast<int>(restaurants.size()) ? 1.0f : 0.0f;
      if (index >= 0 && index < static_cast<int>(restaurants.size())) {
        const Restaurant& r = restaurants[static_cast<std::size_t>(index)];
        const int piece = CHANNEL("pending_piece");
        for (int dr = 0; dr < 2; ++dr)
          for (int dc = 0; dc < 2; ++dc) w.put(piece, r.row + dr, r.col + dc, 1.0f);
      }
      break;
    }
    case Decision::kFreezer: {
      const int kept = std::min(static_cast<int>(ctx.size()), kFreezerGoods);
      for (int i = 0; i < kept; ++i) {
        vec[FIELD("ctx_freezer_kept") + i] = static_cast<float>(ctx[static_cast<std::size_t>(i)]) / static_cast<float>(L.stock_scale);
      }
      break;
    }
    default:
      break;
  }
}

void write_block(const Writer& w, int observer, int q, int seat, float* b) {
  const GameState& s = w.s;
  const ObservationLayout& L = w.L;
  const PlayerState& p = s.players[static_cast<std::size_t>(q)];
  const bool other = q != observer;
  const bool s_hidden = other && !s.structure_revealed, f_hidden = other && !s.firing_revealed;
  Cards hand = p.hand, work = p.work, fired = p.fired;
  if (s_hidden) {
    for (int t = 0; t < kNumTypes; ++t) hand[t] = static_cast<int16_t>(p.hand[t] + p.work[t]);
    hand[kCeo] = p.hand[kCeo];
    work.fill(0);
    work[kCeo] = p.work[kCeo];
  }
  if (f_hidden) fired.fill(0);
  const int h = BLOCK("hand");
  for (int t = 0; t < kNumTypes; ++t) {
    b[h + t] = hand[t];
    b[h + kNumTypes + t] = work[t];
    b[h + 2 * kNumTypes + t] = p.beach[t];
    b[h + 3 * kNumTypes + t] = p.busy[t];
    b[h + 4 * kNumTypes + t] = fired[t];
  }
  b[BLOCK("structure_hidden")] = s_hidden ? 1.0f : 0.0f;
  b[BLOCK("firing_hidden")] = f_hidden ? 1.0f : 0.0f;
  b[BLOCK("present")] = 1.0f;
  b[BLOCK("seat") + seat] = 1.0f;
  b[BLOCK("cash")] = static_cast<float>(static_cast<double>(p.cash) / L.money_scale);
  if (p.bankrupt) b[BLOCK("bankrupt")] = 1.0f;
  int64_t slots = s.ceo_slots, price = L.base_unit_price;
  bool drive_in = false;
  for (int t = 0; t < kNumTypes; ++t) {
    const EmployeeSpec& e = employee(t);
    if (t != kCeo) slots += static_cast<int64_t>(work[t]) * ((e.is_manager ? e.manager_slots : 0) - 1);
    price += static_cast<int64_t>(work[t]) * e.price_delta;
    if ((e.drive_in || e.restaurant_placement != kNoPlacement) && work[t]) drive_in = true;
  }
  b[BLOCK("open_slots")] = static_cast<float>(static_cast<double>(slots) / 10.0);
  b[BLOCK("drive_in")] = drive_in ? 1.0f : 0.0f;
  const bool lower = std::binary_search(p.milestones.begin(), p.milestones.end(), static_cast<int>(kFirstLowerPrices));
  if (lower) price += L.lower_prices_delta;
  b[BLOCK("unit_price")] = static_cast<float>(static_cast<double>(price) / L.price_scale);
  for (int g = 0; g < kNumGoods; ++g) b[BLOCK("stock") + g] = static_cast<float>(p.stock[g]) / static_cast<float>(L.stock_scale);
  if (!p.restaurants.empty()) {
    const double per = 1.0 / L.restaurants_per_player;
    int soon = 0;
    for (const auto& r : p.restaurants) soon += r.coming_soon;
    b[BLOCK("restaurants")] = static_cast<float>(static_cast<double>(p.restaurants.size()) * per);
    b[BLOCK("coming_soon")] = static_cast<float>(soon * per);
  }
  b[BLOCK("income")] = static_cast<float>(static_cast<double>(p.income) / L.money_scale);
  b[BLOCK("recruit_discounts")] = static_cast<float>(p.recruit_discounts / 4.0);
  for (int m : p.milestones) b[BLOCK("milestones") + m] = 1.0f;
  if (q < static_cast<int>(s.spots.size())) {
    const int spot = s.spots[static_cast<std::size_t>(q)];
    if (spot >= 0 && spot < L.max_players) b[BLOCK("turn_spot") + spot] = 1.0f;
  }
  if (!s.pending.empty() && s.pending.back().player == q) b[BLOCK("to_move")] = 1.0f;
  if (p.reserve) {
    const int i = index_in(L.reserve_values, *p.reserve);
    const PlayerState& me = s.players[static_cast<std::size_t>(observer)];
    const bool visible = !other || s.reserve_revealed ||
                         std::binary_search(me.milestones.begin(), me.milestones.end(), static_cast<int>(kFirstHave20));
    if (i >= 0 && visible) {
      b[BLOCK("reserve_known")] = 1.0f;
      b[BLOCK("reserve") + i] = 1.0f;
    }
  }
}

}  // namespace

void set_observation_layout(ObservationLayout layout) {
  g_layout = std::move(layout);
  g_set = true;
}

const ObservationLayout& observation_layout() {
  if (!g_set) throw std::invalid_argument("the observation layout is not loaded (fcm_env.native loads it)");
  return g_layout;
}

const std::vector<float>& StaticPlanes::of(const std::shared_ptr<const Board>& board) {
  if (board_ != board || planes_.empty()) {
    planes_ = static_planes(*board);
    board_ = board;
  }
  return planes_;
}

std::vector<float> static_planes(const Board& b) {
  const ObservationLayout& L = observation_layout();
  const int count = CHANNEL("drink_soda") + 1, plane = L.rows * L.cols;
  std::vector<float> planes(static_cast<std::size_t>(count * plane), 0.0f);
  auto put = [&](const char* name, int r, int c) { planes[static_cast<std::size_t>(L.channel.at(name) * plane + r * L.cols + c)] = 1.0f; };
  const int H = b.height(), W = b.width();
  const int tile_h = H / b.tile_rows(), tile_w = W / b.tile_cols();
  auto road = [&](int r, int c) { return r >= 0 && c >= 0 && r < H && c < W && b.road_mask()[static_cast<std::size_t>(r * W + c)]; };
  static const char* const kDrinks[] = {nullptr, nullptr, "drink_beer", "drink_lemonade", "drink_soda"};
  for (int r = 0; r < H; ++r) {
    for (int c = 0; c < W; ++c) {
      const std::size_t at = static_cast<std::size_t>(r * W + c);
      put("valid", r, c);
      if (road(r, c)) {
        put("road", r, c);
        if (road(r - 1, c)) put("road_link_N", r, c);  // C31: adjacent road squares are linked
        if (road(r, c + 1)) put("road_link_E", r, c);
        if (road(r + 1, c)) put("road_link_S", r, c);
        if (road(r, c - 1)) put("road_link_W", r, c);
      }
      if (b.kind()[at] == kBridge) put("bridge", r, c);
      if ((r / tile_h + c / tile_w) % 2) put("tile_parity", r, c);
      const int drink = b.drink()[at];
      if (drink >= 2 && drink <= 4) put(kDrinks[drink], r, c);
    }
  }
  return planes;
}

namespace {

// the seats (Observer.seats): the observer's seat, the player in each relative slot, each player's slot
int seat_players(const GameState& s, int observer, std::vector<int>& by_slot, std::vector<int>& rel) {
  const int n = s.num_players;
  if (observer < 0 || observer >= n) {
    throw std::invalid_argument("player must be 0.." + std::to_string(n - 1) + ", got " + std::to_string(observer));
  }
  // players who left the turn order (bankrupt, C21/D45) follow it, by id
  std::vector<int> order = s.turn_order;
  if (static_cast<int>(order.size()) < n) {
    for (int p = 0; p < n; ++p) {
      if (std::find(order.begin(), order.end(), p) == order.end()) order.push_back(p);
    }
  }
  const auto me_it = std::find(order.begin(), order.end(), observer);
  if (me_it == order.end()) throw std::invalid_argument("observation: the observer is not seated");
  const int me = static_cast<int>(me_it - order.begin());
  by_slot.clear();
  rel.assign(static_cast<std::size_t>(n), 0);
  for (int k = 0; k < n; ++k) by_slot.push_back(order[static_cast<std::size_t>((me + k) % n)]);
  for (int slot = 0; slot < n; ++slot) rel[static_cast<std::size_t>(by_slot[static_cast<std::size_t>(slot)])] = slot;
  return me;
}

// everything after the board's fixed planes and its cleared piece planes: pieces, vector, context, blocks
void write_rest(const GameState& s, int observer, float* out, std::vector<int32_t>* touched) {
  const ObservationLayout& L = observation_layout();
  std::vector<int> by_slot, rel;
  const int me = seat_players(s, observer, by_slot, rel);
  const int n = s.num_players;
  std::fill(out + L.board_size(), out + L.flat_size(), 0.0f);
  Writer w{L, s, out, out + L.board_size(), L.rows * L.cols, touched};
  write_pieces(w, rel);
  write_head(w, observer, rel);
  write_context(w, observer);
  const int first_block = FIELD("player0");
  for (int slot = 0; slot < n; ++slot) {
    write_block(w, observer, by_slot[static_cast<std::size_t>(slot)], (me + slot) % n,
                w.vec + first_block + slot * L.block_size);
  }
}

}  // namespace

void write_observation(const GameState& s, int observer, float* out, const std::vector<float>& fixed) {
  const ObservationLayout& L = observation_layout();
  std::vector<int> by_slot, rel;
  seat_players(s, observer, by_slot, rel);  // a bad observer is refused before anything is written
  std::copy(fixed.begin(), fixed.end(), out);
  std::fill(out + fixed.size(), out + L.board_size(), 0.0f);
  write_rest(s, observer, out, nullptr);
}

void write_observation_row(const GameState& s, int observer, float* out, const std::vector<float>& fixed,
                           RowMark& mark) {
  const ObservationLayout& L = observation_layout();
  std::vector<int> by_slot, rel;
  seat_players(s, observer, by_slot, rel);
  if (mark.row != out || mark.board != s.board) {  // a new buffer or a new map: draw it all
    std::copy(fixed.begin(), fixed.end(), out);
    std::fill(out + fixed.size(), out + L.board_size(), 0.0f);
    mark.row = out;
    mark.board = s.board;
  } else {
    for (int32_t at : mark.pieces) out[at] = 0.0f;
  }
  mark.pieces.clear();
  try {
    write_rest(s, observer, out, &mark.pieces);
  } catch (...) {
    mark.row = nullptr;  // half written: the next write draws everything
    throw;
  }
}

}  // namespace fcm

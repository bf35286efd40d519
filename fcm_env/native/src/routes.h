// What a drink buyer can bring back: the distinct hauls of cart operators, truck drivers and zeppelin
// pilots, the twin of fcm_env/engine/board/routes.py. A haul is (beer, lemonade, soda) source counts; only
// the drinks collected matter, so each distinct outcome is one choice, whatever route gives it.
// rules: Get food & drinks; C9, C18-C20, R22-R27, R29, R30, R49.
#pragma once

#include <array>
#include <memory>
#include <vector>

#include "board.h"
#include "rules_data.h"
#include "state.h"

namespace fcm::routes {

using Haul = std::array<int, 3>;  // drink sources collected: beer, lemonade, soda
// the good counted at each position of a haul (routes.HAUL_GOODS)
constexpr std::array<int, 3> kHaulGoods{kBeer, kLemonade, kSoda};

// drinks of a haul as a Goods vector: per_source of each (2 cart / zeppelin, 3 truck, +1 with "First
// errand boy played"; R25)
Goods haul_drinks(const Haul& haul, int per_source);

// road_hauls: the sorted distinct hauls of a cart operator / truck driver leaving from any of
// ``entrances`` within ``max_range`` (no U-turns, R23; +1 onto another tile, R30; a source once, R24;
// only orthogonally next to the road driven, R26). Throws std::invalid_argument for an off-map entrance.
std::vector<Haul> road_hauls(const Board& b, const std::vector<Square>& entrances, int max_range);
// the same for a game's board: its route tables are kept between calls (per thread, while the board lives)
std::vector<Haul> road_hauls(const std::shared_ptr<const Board>& b, const std::vector<Square>& entrances,
                             int max_range);

// air_hauls: the sorted distinct hauls of a zeppelin starting on any of ``start_tiles``, flying up to
// ``max_steps`` tile to tile, never entering a tile twice (C19, R27). Throws for an unknown tile.
std::vector<Haul> air_hauls(const Board& b, const std::vector<int>& start_tiles, int max_steps);

}  // namespace fcm::routes

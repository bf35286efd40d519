// The component facts the rules read (rules_data.h says why they come from Python).
#include "rules_data.h"

#include <stdexcept>

namespace fcm {

RulesData g_rules_data;

void set_rules_data(RulesData data) { g_rules_data = std::move(data); }

const MarketingTileSpec& marketing_tile(int number) {
  for (const auto& tile : rules_data().marketing_tiles) {
    if (tile.number == number) return tile;
  }
  throw std::invalid_argument("no marketing tile number " + std::to_string(number));
}

int milestone_param(int milestone, const std::string& key) {
  const auto& params = rules_data().milestone_params.at(static_cast<std::size_t>(milestone));
  const auto it = params.find(key);
  if (it == params.end()) {
    throw std::invalid_argument("milestone " + std::to_string(milestone) + " has no effect parameter " + key);
  }
  return it->second;
}

}  // namespace fcm

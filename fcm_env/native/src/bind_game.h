// The bindings of a native game (bind_game.cpp).
#pragma once

#include <pybind11/pybind11.h>

namespace fcm {
void bind_game(pybind11::module_& m);
}  // namespace fcm

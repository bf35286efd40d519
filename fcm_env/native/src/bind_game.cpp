// The Python face of a native game (fcm_env.native._core.Game) and the loaders of the rules data and the
// action codec. Actions cross as (kind, args) tuples of ints; fcm_env.native wraps them as engine Actions.
#include "bind_game.h"

#include "bind_data.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

#include "call_guard.h"
#include "codec.h"
#include "document.h"
#include "hidden.h"
#include "game.h"
#include "observation.h"
#include "phases.h"
#include "rng.h"
#include "rules_data.h"
#include "vec_env.h"

namespace py = pybind11;

namespace fcm {

namespace {

// the batch's long calls release the GIL: one call at a time (call_guard.h)
struct GuardedVecEnv : VecEnv {
  using VecEnv::VecEnv;
  InUse use;
};
constexpr const char* kVecEnv = "this native VecEnv";

// the C++ mix behind a Python object of a higher layer (fcm_agents.native): its opponent_mix_capsule() holds a
// std::shared_ptr<const OpponentMix> under the capsule name kMixCapsule, so the engine knows only the face
std::shared_ptr<const OpponentMix> opponent_mix_of(const py::object& source) {
  if (!py::hasattr(source, "opponent_mix_capsule")) {
    throw py::type_error("opponents: expected an opponent mix (an object with opponent_mix_capsule(), e.g. "
                         "fcm_agents.native._agents.OpponentMix), got " + std::string(py::str(py::type::of(source))));
  }
  const py::object raw = source.attr("opponent_mix_capsule")();
  if (!PyCapsule_IsValid(raw.ptr(), kMixCapsule)) throw py::type_error("opponents: opponent_mix_capsule() is not a mix's capsule");
  const auto* mix = static_cast<const std::shared_ptr<const OpponentMix>*>(PyCapsule_GetPointer(raw.ptr(), kMixCapsule));
  if (mix == nullptr || !*mix) throw py::type_error("opponents: the mix's capsule is empty");
  return *mix;
}


py::list milestone_names() { return py::module_::import("fcm_env.native").attr("MILESTONE_NAMES"); }

template <typename T>
std::size_t held(const std::vector<T>& v) {
  return v.capacity() * sizeof(T);
}

// the heap and inline bytes one game holds besides its (shared) board: what a copy costs in memory
std::size_t game_bytes(const Game& g) {
  const GameState& s = g.state();
  std::size_t bytes = sizeof(Game) + s.variant.capacity() + held(s.layout) + held(s.turn_order) + held(s.players) +
                      held(s.milestones_gone) + held(s.milestones_this_turn) + held(s.marketing_supply) +
                      held(s.pending) + held(s.queue) + held(s.passed) + held(s.spots) + held(s.turn.trainers) +
                      held(s.houses) + held(s.house_supply) + held(s.campaigns);
  for (const auto& row : s.layout) {
    for (const auto& cell : row) bytes += sizeof(cell) + cell.capacity();
  }
  for (const auto& p : s.players) bytes += held(p.restaurants) + held(p.milestones) + held(p.reserve_offer);
  for (const auto& p : s.pending) bytes += held(p.context);
  for (const auto& h : s.houses) bytes += held(h.squares) + held(h.garden) + held(h.demand);
  for (const auto& c : s.campaigns) bytes += held(c.squares);
  return bytes;
}

// a float32 buffer of the observation's flat size, written in place (no copy)
float* flat_buffer(py::array_t<float, py::array::c_style>& out) {
  const ObservationLayout& L = observation_layout();
  if (out.ndim() != 1 || out.shape(0) != L.flat_size()) {
    throw std::invalid_argument("out must be a float32 array of shape (" + std::to_string(L.flat_size()) + ",)");
  }
  return out.mutable_data();
}

// whether the flat id is one of the pending decision's legal actions
bool legal_id(Game& g, int64_t id) {
  if (g.pending() == nullptr || id < 0 || id >= num_actions()) return false;
  try {
    return g.is_legal(decode(static_cast<int>(id), g.pending()->decision));
  } catch (const IllegalAction&) {
    return false;  // an id of a segment the pending decision does not ask
  }
}

py::list cash_by_player(const GameState& s) {
  py::list cash;
  for (const auto& p : s.players) cash.append(p.cash);
  return cash;
}

// (phase, decision or -1, round, player to move or -1, cash by player): what the envs' infos show
py::tuple info_facts_of(const Game& g) {
  const GameState& s = g.state();
  const Pending* p = g.pending();
  return py::make_tuple(static_cast<int>(s.phase), p ? static_cast<int>(p->decision) : -1, s.round,
                        p ? p->player : -1, cash_by_player(s));
}

// info_facts and the legal count of the player to move (0 once the game is over)
py::tuple facts_after_move(Game& g) {
  const GameState& s = g.state();
  const Pending* p = g.pending();
  const int64_t count = p == nullptr ? 0 : static_cast<int64_t>(g.legal_actions().size());
  return py::make_tuple(static_cast<int>(s.phase), p ? static_cast<int>(p->decision) : -1, s.round,
                        p ? p->player : -1, cash_by_player(s), count);
}

// the data of a C-contiguous array of ``dtype`` and ``shape``; ValueError naming ``name`` otherwise
template <typename T>
T* buffer(py::array& a, const char* name, const py::dtype& dtype, std::vector<py::ssize_t> shape) {
  bool ok = a.dtype().is(dtype) && (a.flags() & py::array::c_style) && a.writeable() &&
            a.ndim() == static_cast<py::ssize_t>(shape.size());
  for (std::size_t k = 0; ok && k < shape.size(); ++k) ok = a.shape(static_cast<py::ssize_t>(k)) == shape[k];
  if (!ok) {
    std::string want;
    for (auto d : shape) want += (want.empty() ? "" : ", ") + std::to_string(d);
    throw std::invalid_argument(std::string(name) + " must be a writable C-contiguous " +
                                std::string(py::str(dtype)) + " array of shape (" + want + ")");
  }
  return static_cast<T*>(a.mutable_data());
}

RewardScheme reward_scheme(const std::string& name) {
  if (name == "win") return RewardScheme::kWin;
  if (name == "rank") return RewardScheme::kRank;
  if (name == "cash_share") return RewardScheme::kCashShare;
  throw std::invalid_argument("reward must be one of ('win', 'rank', 'cash_share'), got '" + name + "'");
}

Shaping shaping_of(const std::optional<std::string>& name) {
  if (!name) return Shaping::kNone;
  if (*name == "cash") return Shaping::kCash;
  if (*name == "cash_lead") return Shaping::kCashLead;
  throw std::invalid_argument("shaping must be None, 'cash' or 'cash_lead', got '" + *name + "'");
}

}  // namespace

void bind_game(py::module_& m) {
  m.def("num_actions", &num_actions);
  m.def("mask_ids", [](const py::handle& mask, py::ssize_t n) -> py::object {
    // the masked sample's look at the mask, one pass: None when it is not a plain 0/1 int8 mask of n entries
    using Int8Array = py::array_t<int8_t, py::array::c_style>;
    if (!Int8Array::check_(mask)) return py::none();  // not a C-contiguous int8 array
    auto a = py::reinterpret_borrow<py::array>(mask);
    if (a.ndim() != 1 || a.shape(0) != n) return py::none();
    // eight entries a word: any bit above the lowest of a byte is a value other than 0 or 1 (Gymnasium's own
    // sample then says which); once all are 0 or 1, a word's set bits count its set entries
    const auto* m = static_cast<const unsigned char*>(a.data());
    const py::ssize_t words = n / 8;
    uint64_t high = 0;
    py::ssize_t count = 0;
    for (py::ssize_t w = 0; w < words; ++w) {
      uint64_t word;
      std::memcpy(&word, m + 8 * w, sizeof word);
      high |= word & 0xFEFEFEFEFEFEFEFEull;
      count += __builtin_popcountll(word);
    }
    for (py::ssize_t i = 8 * words; i < n; ++i) {
      high |= m[i] & 0xFEu;
      count += m[i];
    }
    if (high != 0) return py::none();
    py::array_t<int64_t> ids(count);
    int64_t* out = ids.mutable_data();
    for (py::ssize_t w = 0; w < words; ++w) {
      uint64_t word;
      std::memcpy(&word, m + 8 * w, sizeof word);
      if (word == 0) continue;
      for (py::ssize_t i = 8 * w; i < 8 * w + 8; ++i) {
        if (m[i]) *out++ = i;
      }
    }
    for (py::ssize_t i = 8 * words; i < n; ++i) {
      if (m[i]) *out++ = i;
    }
    return std::move(ids);
  }, py::arg("mask"), py::arg("n"),
  "the set entries of a C-contiguous int8 mask of n zeros and ones (int64, sorted); None for any other mask");

  py::register_exception<IllegalAction>(m, "NativeIllegalAction", PyExc_ValueError);

  py::class_<Game>(m, "Game", "a native game: the state, legal actions, apply and the engine's own steps")
      .def_static(
          "new",
          [](int num_players, uint64_t seed, const std::string& variant, std::optional<int> max_rounds) {
            Game g(new_game(num_players, seed, variant, max_rounds));
            g.advance();
            return g;
          },
          py::arg("num_players"), py::arg("seed"), py::arg("variant"), py::arg("max_rounds"))
      .def_static(
          "from_checked_dict", [](const py::dict& doc) { return Game(state_from_document(doc, milestone_names())); },
          py::arg("doc"), "a game at the document's position (fcm_env.native checks the document first)")
      .def("to_dict", [](const Game& g) { return state_document(g.state(), milestone_names()); })
      .def("clone", [](const Game& g) { return Game(g); })
      .def("determinize", [](const Game& g, int observer, const py::dict& bit_generator) {
        // the numpy generator's PCG64 state in, the advanced state out: the draws continue in numpy
        Pcg64 rng = pcg64_from_numpy(bit_generator);
        Game world(determinize(g.state(), observer, rng));
        return py::make_tuple(std::move(world), pcg64_to_numpy(rng));
      }, py::arg("observer"), py::arg("bit_generator"),
      "(world, the generator's state after): Game.determinize with the uniform model, numpy's PCG64 state in and out")
      .def("memory_bytes", [](const Game& g) { return game_bytes(g); },
           "bytes a copy of this game holds (its board is shared by every copy and not counted)")
      .def_property_readonly("phase", [](const Game& g) { return phase_name(g.state().phase); })
      .def_property_readonly("current_player", [](const Game& g) {
        return g.current_player() < 0 ? py::object(py::none()) : py::object(py::int_(g.current_player()));
      })
      .def_property_readonly("is_over", &Game::is_over)
      .def("info_facts", &info_facts_of, "(phase, decision or -1, round, player to move or -1, cash by player): what the envs' infos show")
      .def("summary", [](const Game& g) {
        const GameState& s = g.state();
        py::list players;
        for (const auto& p : s.players) players.append(py::make_tuple(p.cash, p.bankrupt));
        return py::make_tuple(s.num_players, s.variant, s.round, phase_name(s.phase), s.turn_order, s.truncated,
                              players, s.seed, s.max_rounds ? *s.max_rounds : -1);
      }, "(num_players, variant, round, phase, turn order, truncated, [(cash, bankrupt) by player], seed, "
         "max_rounds or -1)")
      .def_property_readonly("winners", &Game::winners)
      .def_property_readonly("pending", [](const Game& g) -> py::object {
        const Pending* p = g.pending();
        if (!p) return py::none();
        return py::make_tuple(decision_name(p->decision), p->player, p->context);
      })
      .def("legal_actions", [](Game& g) {
        py::list out;
        for (const Action& a : g.legal_actions()) out.append(action_tuple(a));
        return out;
      })
      .def("legal_ids", [](Game& g) {
        std::vector<int64_t> ids;
        legal_ids(g.legal_actions(), ids);
        py::array_t<int64_t> out(static_cast<py::ssize_t>(ids.size()));
        std::copy(ids.begin(), ids.end(), out.mutable_data());
        return out;
      })
      .def("is_legal_id", &legal_id, py::arg("id"), "whether the flat id is one of the pending decision's legal actions")
      .def("play_id", [](Game& g, int64_t id) -> py::object {
        if (!legal_id(g, id)) return py::none();  // nothing changes: the caller says why
        g.apply(decode(static_cast<int>(id), g.pending()->decision));
        return facts_after_move(g);
      }, py::arg("id"),
      "the flat id played when it is legal, then (info_facts..., the mover's legal count); None, and nothing "
      "changed, when it is not: the AEC env's step in one call")
      .def("apply", [](Game& g, int kind, const std::vector<int>& args) { g.apply(action_from(kind, args)); },
           py::arg("kind"), py::arg("args"))
      .def("apply_id", [](Game& g, int id) {
        if (g.pending() == nullptr) throw IllegalAction("no decision is pending: no action id can be decoded");
        g.apply(decode(id, g.pending()->decision));
      }, py::arg("id"))
      .def("apply_no_advance",
           [](Game& g, int kind, const std::vector<int>& args) { g.apply_no_advance(action_from(kind, args)); },
           py::arg("kind"), py::arg("args"), "test hook: the decision's apply and the turn's chaining, no engine step")
      .def("observe_flat", [](const Game& g, int player, py::array_t<float, py::array::c_style> out) {
        static thread_local StaticPlanes planes;  // the map's fixed planes, redrawn when the board changes
        // the GIL is kept: a native game's calls then never overlap, whatever the threads (a few microseconds)
        write_observation(g.state(), player, flat_buffer(out), planes);
        return out;
      }, py::arg("player"), py::arg("out").noconvert(),
      "player's flat observation (fcm_env.encoding's bytes) written into out, a float32 array")
      .def("play_random", [](Game& g, uint64_t seed, int64_t max_decisions) {
        Pcg64 rng(seed);  // RandomLegalPlayer's draw: an index into the sorted legal actions
        int64_t played = 0;
        while (!g.is_over() && (max_decisions < 0 || played < max_decisions)) {
          const auto& legal = g.legal_actions();
          g.apply_legal(legal[static_cast<std::size_t>(rng.integers(0, static_cast<int64_t>(legal.size())))]);
          ++played;
        }
        return played;
      }, py::arg("seed"), py::arg("max_decisions") = -1,
      "random legal moves (one generator of ``seed`` for every player) until the game ends or max_decisions")
      .def("_run_dinnertime", [](Game& g) {
        run_dinnertime(g.mutable_state());
        g.forget_position();
      }, "test hook: Dinnertime alone (the engine step also starts Payday, compared apart)")
      .def("_run_marketing", [](Game& g) {
        run_marketing(g.mutable_state());
        g.forget_position();
      }, "test hook: the campaigns alone (the engine step also starts Clean-up, compared apart)")
      .def("advance", &Game::advance)
      .def("advance_one", &Game::advance_one, "test hook: one engine step; False when there is none to run");

  struct Rows {  // the envs' kept observation rows, one mark per player (observation.h's RowMark)
    std::vector<RowMark> marks;
    StaticPlanes planes;
  };
  py::class_<Rows>(m, "ObservationRows",
                   "kept observation rows: each write redraws only what may have changed since the row's last")
      .def(py::init([](int num_players) {
             if (num_players < 1) throw std::invalid_argument("num_players must be positive");
             Rows r;
             r.marks.resize(static_cast<std::size_t>(num_players));
             return r;
           }), py::arg("num_players"))
      .def("observe", [](Rows& r, const Game& g, int player, py::array_t<float, py::array::c_style> out) {
        if (player < 0 || player >= static_cast<int>(r.marks.size())) {
          throw std::invalid_argument("player must be 0.." + std::to_string(r.marks.size() - 1) + ", got " +
                                      std::to_string(player));
        }
        write_observation_row(g.state(), player, flat_buffer(out), r.planes.of(g.state().board),
                              r.marks[static_cast<std::size_t>(player)]);  // with the GIL, as observe_flat
        return out;
      }, py::arg("game"), py::arg("player"), py::arg("out").noconvert(),
      "player's flat observation written into out, a row kept for this player (no one else writes it)")
      .def("observe_fresh", [](Rows& r, Game& g, int player, py::array_t<float, py::array::c_style> out) {
        if (player < 0 || player >= static_cast<int>(r.marks.size())) {
          throw std::invalid_argument("player must be 0.." + std::to_string(r.marks.size() - 1) + ", got " +
                                      std::to_string(player));
        }
        float* row = flat_buffer(out);
        write_observation_row(g.state(), player, row, r.planes.of(g.state().board),
                              r.marks[static_cast<std::size_t>(player)]);
        py::array_t<float> observation(out.shape(0));
        std::copy(row, row + out.shape(0), observation.mutable_data());
        py::array_t<int8_t> mask(num_actions());
        int8_t* m = mask.mutable_data();
        std::fill(m, m + num_actions(), int8_t{0});
        const Pending* p = g.pending();
        if (p != nullptr && p->player == player) {
          std::vector<int64_t> ids;
          legal_ids(g.legal_actions(), ids);
          for (int64_t id : ids) m[id] = 1;
        }
        return py::make_tuple(std::move(observation), std::move(mask));
      }, py::arg("game"), py::arg("player"), py::arg("out").noconvert(),
      "observe, then (a fresh copy of the row, a fresh int8 mask of player's legal ids: zeros when another "
      "player is to move): the AEC env's observation in one call");

  py::class_<GuardedVecEnv>(m, "VecEnv",
                            "a batch of single-agent games stepped in C++: random-legal opponents, or those an opponent "
                            "mix draws (opponents: an object whose opponent_mix_capsule() hands over a C++ OpponentMix, "
                            "as fcm_agents.native._agents.OpponentMix does)")
      .def(py::init([](int num_envs, int num_players, const std::string& variant, int max_rounds,
                       const std::string& reward, std::optional<std::string> shaping, int learner_seat,
                       bool truncation_as_termination, std::optional<std::pair<int64_t, int64_t>> game_seeds,
                       int threads, const py::object& opponents) {
             VecEnvConfig c;
             if (!opponents.is_none()) c.opponents = opponent_mix_of(opponents);
             c.num_envs = num_envs;
             c.num_players = num_players;
             c.variant = variant;
             c.max_rounds = max_rounds;
             c.reward = reward_scheme(reward);
             c.shaping = shaping_of(shaping);
             c.learner_seat = learner_seat;
             c.truncation_as_termination = truncation_as_termination;
             c.game_seeds = game_seeds;
             c.threads = threads;
             return std::make_unique<GuardedVecEnv>(c);
           }),
           py::arg("num_envs"), py::arg("num_players"), py::arg("variant"), py::arg("max_rounds"), py::arg("reward"),
           py::arg("shaping"), py::arg("learner_seat"), py::arg("truncation_as_termination"), py::arg("game_seeds"),
           py::arg("threads"), py::arg("opponents") = py::none())
      .def("reset", [](GuardedVecEnv& v, const std::vector<int64_t>& seeds, const std::vector<uint64_t>& entropy,
                       py::array obs, py::array masks) {
        const CallGuard guard(v.use, kVecEnv);
        const py::ssize_t b = v.num_envs(), f = observation_layout().flat_size(), a = num_actions();
        float* o = buffer<float>(obs, "obs", py::dtype::of<float>(), {b, f});
        uint8_t* k = buffer<uint8_t>(masks, "masks", py::dtype::of<bool>(), {b, a});
        py::gil_scoped_release release;
        v.reset(seeds, entropy, o, k);
      })
      .def("step", [](GuardedVecEnv& v, py::array actions, py::array obs, py::array masks, py::array rewards,
                      py::array terminated, py::array truncated, py::array done, py::array final_obs) {
        const CallGuard guard(v.use, kVecEnv);
        const py::ssize_t b = v.num_envs(), f = observation_layout().flat_size(), a = num_actions();
        const int64_t* act = buffer<int64_t>(actions, "actions", py::dtype::of<int64_t>(), {b});
        float* o = buffer<float>(obs, "obs", py::dtype::of<float>(), {b, f});
        uint8_t* k = buffer<uint8_t>(masks, "masks", py::dtype::of<bool>(), {b, a});
        double* r = buffer<double>(rewards, "rewards", py::dtype::of<double>(), {b});
        uint8_t* te = buffer<uint8_t>(terminated, "terminated", py::dtype::of<bool>(), {b});
        uint8_t* tr = buffer<uint8_t>(truncated, "truncated", py::dtype::of<bool>(), {b});
        uint8_t* d = buffer<uint8_t>(done, "done", py::dtype::of<bool>(), {b});
        float* fo = buffer<float>(final_obs, "final_obs", py::dtype::of<float>(), {b, f});
        py::gil_scoped_release release;
        v.step(act, o, k, r, te, tr, d, fo);
      })
      .def("pick", [](GuardedVecEnv& v, py::array u) {
        const CallGuard guard(v.use, kVecEnv);
        const py::ssize_t b = v.num_envs();
        const double* draws = buffer<double>(u, "u", py::dtype::of<double>(), {b});
        py::array_t<int64_t> out(b);
        int64_t* ids = out.mutable_data();
        {
          py::gil_scoped_release release;
          v.pick(draws, ids);
        }
        return out;
      }, py::arg("u"), "a random legal id per sub-env: the floor(u[i] * k)-th of its k sorted legal ids")
      .def("game", [](const GuardedVecEnv& v, int i) {
        check_free(v.use, kVecEnv);
        return Game(v.game(i));
      }, py::arg("index"),
           "a copy of sub-env i's running game")
      .def("final_game", [](const GuardedVecEnv& v, int i) {
        check_free(v.use, kVecEnv);
        return Game(v.final_game(i));
      }, py::arg("index"),
           "a copy of the game sub-env i finished in the last step")
      .def("learner", [](const GuardedVecEnv& v, int i) {
        check_free(v.use, kVecEnv);
        return v.learner(i);
      }, py::arg("index"))
      .def("final_learner", [](const GuardedVecEnv& v, int i) {
        check_free(v.use, kVecEnv);
        return v.final_learner(i);
      }, py::arg("index"));
}

}  // namespace fcm

// The batched vector env (vec_env.h).
#include "vec_env.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <stdexcept>

#include "codec.h"
#include "observation.h"
#include "state.h"

namespace fcm {

// ------------------------------------------------------------------ thread pool

ThreadPool::ThreadPool(int threads) : shares_(static_cast<std::size_t>(std::max(threads, 1))) {
  for (int i = 1; i < std::max(threads, 1); ++i) workers_.emplace_back([this, i] { loop(i); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (auto& t : workers_) t.join();
}

void ThreadPool::drain(const std::function<void(int, int)>& job, int index) {
  const int T = static_cast<int>(shares_.size());
  for (int k = 0; k < T; ++k) {  // its own share first, then the others'
    Share& share = shares_[static_cast<std::size_t>((index + k) % T)];
    while (true) {
      const int i = share.next.fetch_add(1, std::memory_order_relaxed);
      if (i >= share.end) break;
      job(i, i + 1);
    }
  }
}

void ThreadPool::loop(int index) {
  int seen = 0;
  while (true) {
    const std::function<void(int, int)>* job = nullptr;
    // the next call usually comes within a few hundred microseconds (the learner's turn in Python): watch for
    // it a little before sleeping, so a waking thread does not cost more than the slice it would take
    const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(200);
    while (generation_.load(std::memory_order_acquire) == seen && std::chrono::steady_clock::now() < until) {
      std::this_thread::yield();
    }
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
      job = job_;
    }
    try {
      drain(*job, index);
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!error_) error_ = std::current_exception();
    }
    if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      std::lock_guard<std::mutex> lock(mutex_);
      done_.notify_one();
    }
  }
}

void ThreadPool::run(int n, const std::function<void(int, int)>& job) {
  if (workers_.empty()) {
    job(0, n);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    job_ = &job;
    pending_ = static_cast<int>(workers_.size());
    error_ = nullptr;
    const int T = static_cast<int>(shares_.size());
    for (int t = 0; t < T; ++t) {
      shares_[static_cast<std::size_t>(t)].next.store(n * t / T, std::memory_order_relaxed);
      shares_[static_cast<std::size_t>(t)].end = n * (t + 1) / T;
    }
    ++generation_;
  }
  wake_.notify_all();
  std::exception_ptr mine;
  try {
    drain(job, 0);
  } catch (...) {
    mine = std::current_exception();
  }
  // the others finish their last games within microseconds: watch for it before sleeping
  const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(300);
  while (pending_.load(std::memory_order_acquire) != 0 && std::chrono::steady_clock::now() < until) {
    std::this_thread::yield();
  }
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [&] { return pending_.load() == 0; });
  if (mine) std::rethrow_exception(mine);
  if (error_) std::rethrow_exception(error_);
}

// ------------------------------------------------------------------ vector env

VecEnv::VecEnv(const VecEnvConfig& config) : config_(config), envs_(static_cast<std::size_t>(config.num_envs)),
                                             pool_(config.threads) {
  if (config.num_envs < 1) throw std::invalid_argument("num_envs must be a positive int");
  if (config.threads < 1) throw std::invalid_argument("threads must be a positive int");
  flat_size_ = observation_layout().flat_size();
  num_actions_ = num_actions();
}

void VecEnv::start(Sub& sub, int64_t seed) {
  Pcg64& rng = *sub.rng;
  int64_t game_seed = seed;
  if (seed < 0) {
    game_seed = config_.game_seeds ? rng.integers(config_.game_seeds->first, config_.game_seeds->second)
                                   : rng.integers(0, int64_t{1} << 31);
  }
  const int n = config_.num_players;
  sub.game = Game(new_game(n, static_cast<uint64_t>(game_seed), config_.variant, config_.max_rounds));
  sub.game.advance();
  sub.learner = config_.learner_seat < 0 ? static_cast<int>(rng.integers(0, n)) : config_.learner_seat;
  sub.opponents.assign(static_cast<std::size_t>(n), std::nullopt);
  sub.players.clear();
  if (config_.opponents) {  // the k-th player drawn plays the k-th player id other than the learner's
    auto drawn = config_.opponents->draw(rng, n - 1);
    if (static_cast<int>(drawn.size()) != n - 1) throw std::logic_error("an opponent mix drew the wrong number of seats");
    sub.players.resize(static_cast<std::size_t>(n));
    std::size_t k = 0;
    for (int p = 0; p < n; ++p) {
      if (p != sub.learner) sub.players[static_cast<std::size_t>(p)] = std::move(drawn[k++]);
    }
  } else {
    for (int p = 0; p < n; ++p) {  // opponents[k] plays the k-th player id other than the learner's
      if (p != sub.learner) sub.opponents[static_cast<std::size_t>(p)].emplace(static_cast<uint64_t>(rng.integers(0, int64_t{1} << 31)));
    }
  }
  sub.planes = static_planes(*sub.game.state().board);
  play_opponents(sub);
}

void VecEnv::play_opponents(Sub& sub) {
  Game& g = sub.game;
  while (!g.is_over() && g.current_player() != sub.learner) {
    const int player = g.current_player();
    if (!sub.players.empty()) {
      SeatPlayer& seat = *sub.players[static_cast<std::size_t>(player)];
      const Action a = seat.act(g, player);
      if (!g.is_legal(a)) {
        throw std::runtime_error("opponent " + seat.name() + " (player_" + std::to_string(player) +
                                 ") chose an illegal action for " + decision_name(g.pending()->decision));
      }
      g.apply_legal(a);
      continue;
    }
    const auto& legal = g.legal_actions();
    Pcg64& rng = *sub.opponents[static_cast<std::size_t>(player)];
    const Action a = legal[static_cast<std::size_t>(rng.integers(0, static_cast<int64_t>(legal.size())))];
    g.apply_legal(a);
  }
}

void VecEnv::write(Sub& sub, float* obs, uint8_t* mask, bool kept) const {
  if (kept) {  // the learner's row of the batch: redraw what may have changed since its last write
    write_observation_row(sub.game.state(), sub.learner, obs, sub.planes, sub.mark);
  } else {
    write_observation(sub.game.state(), sub.learner, obs, sub.planes);
  }
  std::memset(mask, 0, static_cast<std::size_t>(num_actions_));
  Game& g = const_cast<Game&>(sub.game);  // the legal list is a cache of the position
  if (!g.is_over() && g.current_player() == sub.learner) {
    for (const Action& a : g.legal_actions()) mask[encode(a)] = 1;
  }
}

void VecEnv::reset(const std::vector<int64_t>& seeds, const std::vector<uint64_t>& entropy, float* obs,
                   uint8_t* masks) {
  const int b = config_.num_envs;
  if (static_cast<int>(seeds.size()) != b || static_cast<int>(entropy.size()) != b) {
    throw std::invalid_argument("reset: one seed per sub-env");
  }
  pool_.run(b, [&](int first, int last) {
    for (int i = first; i < last; ++i) {
      Sub& sub = envs_[static_cast<std::size_t>(i)];
      if (seeds[static_cast<std::size_t>(i)] >= 0) {
        sub.rng.emplace(static_cast<uint64_t>(seeds[static_cast<std::size_t>(i)]));
      } else if (!sub.rng) {
        sub.rng.emplace(entropy[static_cast<std::size_t>(i)]);
      }
      start(sub, seeds[static_cast<std::size_t>(i)]);
      sub.mark = RowMark{};  // a reset draws every row afresh
      write(sub, obs + static_cast<std::ptrdiff_t>(i) * flat_size_, masks + static_cast<std::ptrdiff_t>(i) * num_actions_,
            true);
    }
  });
}

void VecEnv::step(const int64_t* actions, float* obs, uint8_t* masks, double* rewards, uint8_t* terminated,
                  uint8_t* truncated, uint8_t* done, float* final_obs) {
  const int b = config_.num_envs;
  std::vector<Action> chosen(static_cast<std::size_t>(b));
  for (int i = 0; i < b; ++i) {  // every action is checked before any game moves
    Sub& sub = envs_[static_cast<std::size_t>(i)];
    if (sub.game.is_over()) throw IllegalAction("sub-env " + std::to_string(i) + ": the episode is over");
    const int64_t id = actions[i];
    const Pending* p = sub.game.pending();
    if (id < 0 || id >= num_actions_) {
      throw IllegalAction("sub-env " + std::to_string(i) + ": action id " + std::to_string(id) +
                          " is out of range 0.." + std::to_string(num_actions_ - 1));
    }
    Action a;
    try {
      a = decode(static_cast<int>(id), p->decision);
    } catch (const IllegalAction& e) {
      throw IllegalAction("sub-env " + std::to_string(i) + ": " + e.what());
    }
    if (!sub.game.is_legal(a)) {
      throw IllegalAction("sub-env " + std::to_string(i) + ": action id " + std::to_string(id) +
                          " is not legal for the pending decision " + decision_name(p->decision) + " of player " +
                          std::to_string(p->player));
    }
    chosen[static_cast<std::size_t>(i)] = a;
  }
  pool_.run(b, [&](int first, int last) {
    for (int i = first; i < last; ++i) {
      Sub& sub = envs_[static_cast<std::size_t>(i)];
      Game& g = sub.game;
      double before = 0.0;
      if (config_.shaping != Shaping::kNone) {
        before = shaping_potential(g.state(), config_.shaping)[static_cast<std::size_t>(sub.learner)];
      }
      g.apply_legal(chosen[static_cast<std::size_t>(i)]);
      play_opponents(sub);
      double reward = 0.0;
      if (config_.shaping != Shaping::kNone) {
        reward += (shaping_potential(g.state(), config_.shaping)[static_cast<std::size_t>(sub.learner)] - before) / 100.0;
      }
      bool term = false, trunc = false;
      if (g.is_over()) {
        reward += final_rewards(g, config_.reward)[static_cast<std::size_t>(sub.learner)];
        trunc = g.state().truncated && !config_.truncation_as_termination;
        term = !trunc;
      }
      rewards[i] = reward;
      terminated[i] = term;
      truncated[i] = trunc;
      done[i] = term || trunc;
      float* row = obs + static_cast<std::ptrdiff_t>(i) * flat_size_;
      uint8_t* mask = masks + static_cast<std::ptrdiff_t>(i) * num_actions_;
      if (term || trunc) {
        write(sub, final_obs + static_cast<std::ptrdiff_t>(i) * flat_size_, mask, false);
        sub.final_game = g;
        sub.final_learner = sub.learner;
        start(sub, -1);
      }
      write(sub, row, mask, true);
    }
  });
}

void VecEnv::pick(const double* u, int64_t* out) {
  const int b = config_.num_envs;
  for (int i = 0; i < b; ++i) {  // checked first: nothing is written for a bad draw
    if (!(u[i] >= 0.0 && u[i] < 1.0)) {
      throw std::invalid_argument("pick: draw " + std::to_string(i) + " must lie in [0, 1), got " + std::to_string(u[i]));
    }
  }
  std::vector<int64_t> ids;
  for (int i = 0; i < b; ++i) {
    Game& g = envs_[static_cast<std::size_t>(i)].game;
    if (g.is_over()) throw std::invalid_argument("pick: sub-env " + std::to_string(i) + " has no game running");
    legal_ids(g.legal_actions(), ids);
    const auto k = static_cast<int64_t>(ids.size());
    out[i] = ids[static_cast<std::size_t>(std::min<int64_t>(static_cast<int64_t>(u[i] * static_cast<double>(k)), k - 1))];
  }
}

}  // namespace fcm

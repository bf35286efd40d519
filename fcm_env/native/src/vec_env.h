// A batch of single-agent games stepped in C++ (fcm_env.env.FcmVectorEnv with engine="native"): each
// game has one learner and opponents played inside the core (random-legal ones, or the players an
// OpponentMix draws: fcm_agents.native builds mixes of its native players; the engine knows only the face), the learners' observations and
// masks are written into the caller's batch buffers, finished games are reset in the same step (SB3's
// same-step auto-reset), and the work is split over a small pool of threads with the GIL released.
//
// Every draw is the Python env's: each sub-env owns a generator like FcmSingleAgentEnv.np_random
// (numpy's default_rng of its seed) that draws the game seed, the learner's seat and the opponents'
// seeds at reset, and each opponent draws its move as RandomLegalPlayer does (an index into the sorted
// legal actions). So sub-env i plays the games of FcmSingleAgentEnv(engine="python") with the same seeds.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "game.h"
#include "observation.h"
#include "rewards.h"
#include "rng.h"

namespace fcm {

// a fixed set of threads that run one job over index ranges, the caller's thread taking part
class ThreadPool {
 public:
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;
  int size() const { return static_cast<int>(workers_.size()) + 1; }
  // job(first, last) over [0, n), the caller's thread too; the first exception is rethrown. Thread t owns
  // the t-th equal share of [0, n) and takes its indexes one at a time; a thread whose share is done takes
  // the next indexes of the others' shares (games differ in cost: a Dinnertime, a new game). Owning a
  // share keeps a game on one thread from call to call: its memory stays in that core's cache and is
  // freed by the thread (and malloc arena) that allocated it.
  void run(int n, const std::function<void(int, int)>& job);

 private:
  struct alignas(64) Share {  // one cache line each: the threads' counters do not share one
    std::atomic<int> next{0};
    int end = 0;
  };
  void loop(int index);
  void drain(const std::function<void(int, int)>& job, int index);
  std::vector<std::thread> workers_;
  std::vector<Share> shares_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  const std::function<void(int, int)>* job_ = nullptr;
  std::atomic<int> generation_{0}, pending_{0};
  bool stop_ = false;
  std::exception_ptr error_;
};

// a player of one opponent's seat for one episode (the learner's opponents inside the batch)
class SeatPlayer {
 public:
  virtual ~SeatPlayer() = default;
  // ``player``'s move in ``game`` (legal: the batch checks it and names the seat's player if not)
  virtual Action act(Game& game, int player) = 0;
  // what the batch's error names
  virtual std::string name() const = 0;
};

// who the opponents of an episode are: drawn at each reset from the sub-env's generator, just after the
// learner's seat, as the Python env's opponent_sampler(np_random) draws them. draw is called from the pool's
// threads at once (it must only read what it shares); the players it returns belong to one sub-env.
class OpponentMix {
 public:
  virtual ~OpponentMix() = default;
  virtual std::vector<std::unique_ptr<SeatPlayer>> draw(Pcg64& rng, int count) const = 0;
};

// the name of the Python capsule that hands a std::shared_ptr<const OpponentMix> from module to module
constexpr const char* kMixCapsule = "fcm.OpponentMix";

struct VecEnvConfig {
  int num_envs = 1, num_players = 4, max_rounds = 30, threads = 1;
  std::string variant = "standard";
  RewardScheme reward = RewardScheme::kWin;
  Shaping shaping = Shaping::kNone;
  int learner_seat = 0;  // -1: random
  bool truncation_as_termination = false;
  std::optional<std::pair<int64_t, int64_t>> game_seeds;  // draw game seeds from [lo, hi)
  std::shared_ptr<const OpponentMix> opponents;  // none: random-legal opponents
};

class VecEnv {
 public:
  explicit VecEnv(const VecEnvConfig& config);

  int num_envs() const { return config_.num_envs; }
  // start every game: seeds[i] >= 0 seeds sub-env i's generator (and is its game's seed), -1 draws from
  // the generator it has; entropy[i] seeds a generator that was never seeded (reset without a seed)
  void reset(const std::vector<int64_t>& seeds, const std::vector<uint64_t>& entropy, float* obs, uint8_t* masks);
  // one learner action per sub-env (checked first: IllegalAction names the sub-env, nothing changes);
  // done[i]: the game ended and sub-env i was reset, its last observation in final_obs[i]
  void step(const int64_t* actions, float* obs, uint8_t* masks, double* rewards, uint8_t* terminated,
            uint8_t* truncated, uint8_t* done, float* final_obs);

  // a uniformly random legal id per sub-env: the floor(u[i] * k)-th of sub-env i's k sorted legal ids
  // (FcmVectorEnv.random_actions; the numpy path over the masks picks the same); throws std::invalid_argument
  // for a u outside [0, 1)
  void pick(const double* u, int64_t* out);

  const Game& game(int i) const { return envs_.at(static_cast<std::size_t>(i)).game; }
  int learner(int i) const { return envs_.at(static_cast<std::size_t>(i)).learner; }
  // the game that ended in the last step in sub-env i (before its reset), for the final infos
  const Game& final_game(int i) const { return envs_.at(static_cast<std::size_t>(i)).final_game; }
  int final_learner(int i) const { return envs_.at(static_cast<std::size_t>(i)).final_learner; }

 private:
  struct Sub {
    std::optional<Pcg64> rng;  // FcmSingleAgentEnv.np_random
    Game game, final_game;
    int learner = 0, final_learner = 0;
    std::vector<std::optional<Pcg64>> opponents;  // by player id (none for the learner): random-legal seats
    std::vector<std::unique_ptr<SeatPlayer>> players;  // by player id: the mix's seats (when it has one)
    std::vector<float> planes;  // the map's fixed observation planes
    RowMark mark;               // what the learner's row in the batch buffer shows
  };
  void start(Sub& sub, int64_t seed);
  void play_opponents(Sub& sub);
  void write(Sub& sub, float* obs, uint8_t* mask, bool kept) const;

  VecEnvConfig config_;
  std::vector<Sub> envs_;
  ThreadPool pool_;
  int flat_size_ = 0, num_actions_ = 0;
};

}  // namespace fcm

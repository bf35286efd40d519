// numpy's default random generator, bit for bit: numpy.random.default_rng(seed) is SeedSequence(seed)
// seeding a PCG64 (XSL-RR 128/64) bit generator. The Python engine draws its only randomness (the map,
// the turn order) and its seeded agents their choices from it, so the native core must draw the same
// numbers to play the same games (tests/native/test_native_rng.py compares both on many seeds).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace fcm {

// numpy.random.SeedSequence of one non-negative integer entropy (no spawn key): its pool and the
// 64-bit words its generate_state(n, uint64) gives.
class SeedSequence {
 public:
  explicit SeedSequence(uint64_t entropy);
  const std::array<uint32_t, 4>& pool() const { return pool_; }
  std::vector<uint64_t> generate_state64(std::size_t n_words) const;

 private:
  std::array<uint32_t, 4> pool_{};
};

// numpy.random.PCG64 seeded by SeedSequence(seed), with the draws numpy.random.Generator makes of it.
class Pcg64 {
 public:
  explicit Pcg64(uint64_t seed);

  uint64_t next64();  // bit_generator.random_raw()
  uint32_t next32();  // the low half of a 64-bit draw, then its high half (numpy buffers the second)
  // Generator.random(): a double in [0, 1) from the top 53 bits of a 64-bit draw
  double random() { return static_cast<double>(next64() >> 11) * (1.0 / 9007199254740992.0); }

  // a value in [0, max], by masked rejection (numpy's random_interval: Generator.shuffle / permutation)
  uint64_t interval(uint64_t max);
  // Generator.integers(low, high) of one int64 in [low, high): Lemire's bounded method
  int64_t integers(int64_t low, int64_t high);
  // Generator.permutation(n) (a shuffle of 0..n-1)
  std::vector<int64_t> permutation(int64_t n);
  // Generator.choice(pop, size, replace=False): ``size`` distinct values of 0..pop-1, in numpy's order
  // (Floyd's algorithm then a shuffle; a tail shuffle for populations over 10,000)
  std::vector<int64_t> choice_without_replacement(int64_t pop, int64_t size);

  // the 128-bit state and increment as two 64-bit halves each (high, low), to compare with numpy's
  std::array<uint64_t, 4> state_words() const;
  // numpy's whole PCG64 state (bit_generator.state): a generator can be handed over from numpy and back
  struct Snapshot {
    std::array<uint64_t, 4> words;  // state high, state low, inc high, inc low
    bool has_uint32;
    uint32_t uinteger;
  };
  static Pcg64 from_snapshot(const Snapshot& snap);
  Snapshot snapshot() const;

 private:
  void step();
  uint64_t bounded64(uint64_t rng);  // [0, rng] inclusive, Lemire (rng > 0xFFFFFFFF)
  uint32_t bounded32(uint32_t rng);  // [0, rng] inclusive, Lemire
  uint64_t bounded(uint64_t rng);    // [0, rng] inclusive: numpy's random_bounded_uint64 (Lemire)
  void shuffle_tail(std::vector<int64_t>& values, std::size_t first);  // numpy's _shuffle_int

  unsigned __int128 state_ = 0;
  unsigned __int128 inc_ = 0;
  bool has_uint32_ = false;
  uint32_t uinteger_ = 0;
};

}  // namespace fcm

// numpy's default_rng, bit for bit (rng.h says why). The constants and steps are numpy's published
// algorithms: SeedSequence's hash mixing, PCG64's 128-bit LCG with the XSL-RR output, Lemire's bounded
// integers and masked rejection for shuffles.
#include "rng.h"

#include <algorithm>
#include <unordered_set>
#include <utility>

namespace fcm {

namespace {

constexpr uint32_t kInitA = 0x43b0d7e5u;
constexpr uint32_t kMultA = 0x931e8875u;
constexpr uint32_t kInitB = 0x8b51f9ddu;
constexpr uint32_t kMultB = 0x58f38dedu;
constexpr uint32_t kMixMultL = 0xca01f9ddu;
constexpr uint32_t kMixMultR = 0x4973f715u;
constexpr int kXShift = 16;

uint32_t hashmix(uint32_t value, uint32_t& hash_const) {
  value ^= hash_const;
  hash_const *= kMultA;
  value *= hash_const;
  value ^= value >> kXShift;
  return value;
}

uint32_t mix(uint32_t x, uint32_t y) {
  uint32_t result = kMixMultL * x - kMixMultR * y;
  result ^= result >> kXShift;
  return result;
}

constexpr unsigned __int128 kPcgMult =
    (static_cast<unsigned __int128>(2549297995355413924ULL) << 64) + 4865540595714422341ULL;

uint64_t rotr64(uint64_t value, unsigned rot) {
  rot &= 63u;
  return rot == 0 ? value : (value >> rot) | (value << (64u - rot));
}

uint64_t smear(uint64_t mask) {  // the smallest all-ones mask covering ``mask``
  mask |= mask >> 1;
  mask |= mask >> 2;
  mask |= mask >> 4;
  mask |= mask >> 8;
  mask |= mask >> 16;
  mask |= mask >> 32;
  return mask;
}

}  // namespace

SeedSequence::SeedSequence(uint64_t entropy) {
  std::vector<uint32_t> words;  // the integer as 32-bit words, least significant first (0: one word)
  do {
    words.push_back(static_cast<uint32_t>(entropy & 0xFFFFFFFFu));
    entropy >>= 32;
  } while (entropy != 0);
  uint32_t hash_const = kInitA;
  for (std::size_t i = 0; i < pool_.size(); ++i) {
    pool_[i] = hashmix(i < words.size() ? words[i] : 0u, hash_const);
  }
  for (std::size_t src = 0; src < pool_.size(); ++src) {
    for (std::size_t dst = 0; dst < pool_.size(); ++dst) {
      if (src != dst) {
        pool_[dst] = mix(pool_[dst], hashmix(pool_[src], hash_const));
      }
    }
  }
  for (std::size_t src = pool_.size(); src < words.size(); ++src) {
    for (std::size_t dst = 0; dst < pool_.size(); ++dst) {
      pool_[dst] = mix(pool_[dst], hashmix(words[src], hash_const));
    }
  }
}

std::vector<uint64_t> SeedSequence::generate_state64(std::size_t n_words) const {
  uint32_t hash_const = kInitB;
  std::vector<uint32_t> halves(2 * n_words);
  for (std::size_t i = 0; i < halves.size(); ++i) {
    uint32_t value = pool_[i % pool_.size()];
    value ^= hash_const;
    hash_const *= kMultB;
    value *= hash_const;
    value ^= value >> kXShift;
    halves[i] = value;
  }
  std::vector<uint64_t> out(n_words);
  for (std::size_t k = 0; k < n_words; ++k) {  // little-endian pairs, as numpy views them
    out[k] = static_cast<uint64_t>(halves[2 * k]) | (static_cast<uint64_t>(halves[2 * k + 1]) << 32);
  }
  return out;
}

Pcg64::Pcg64(uint64_t seed) {
  const std::vector<uint64_t> val = SeedSequence(seed).generate_state64(4);
  const unsigned __int128 initstate = (static_cast<unsigned __int128>(val[0]) << 64) | val[1];
  const unsigned __int128 initseq = (static_cast<unsigned __int128>(val[2]) << 64) | val[3];
  state_ = 0;
  inc_ = (initseq << 1) | 1u;
  step();
  state_ += initstate;
  step();
}

void Pcg64::step() { state_ = state_ * kPcgMult + inc_; }

uint64_t Pcg64::next64() {
  step();
  const uint64_t high = static_cast<uint64_t>(state_ >> 64);
  const uint64_t low = static_cast<uint64_t>(state_);
  return rotr64(high ^ low, static_cast<unsigned>(state_ >> 122));
}

uint32_t Pcg64::next32() {
  if (has_uint32_) {
    has_uint32_ = false;
    return uinteger_;
  }
  const uint64_t next = next64();
  has_uint32_ = true;
  uinteger_ = static_cast<uint32_t>(next >> 32);
  return static_cast<uint32_t>(next & 0xFFFFFFFFu);
}

uint64_t Pcg64::interval(uint64_t max) {
  if (max == 0) {
    return 0;
  }
  const uint64_t mask = smear(max);
  uint64_t value = 0;
  if (max <= 0xFFFFFFFFu) {
    do {
      value = next32() & mask;
    } while (value > max);
  } else {
    do {
      value = next64() & mask;
    } while (value > max);
  }
  return value;
}

uint32_t Pcg64::bounded32(uint32_t rng) {
  const uint32_t rng_excl = rng + 1u;
  uint64_t m = static_cast<uint64_t>(next32()) * rng_excl;
  uint32_t leftover = static_cast<uint32_t>(m & 0xFFFFFFFFu);
  if (leftover < rng_excl) {
    const uint32_t threshold = (UINT32_MAX - rng) % rng_excl;
    while (leftover < threshold) {
      m = static_cast<uint64_t>(next32()) * rng_excl;
      leftover = static_cast<uint32_t>(m & 0xFFFFFFFFu);
    }
  }
  return static_cast<uint32_t>(m >> 32);
}

uint64_t Pcg64::bounded64(uint64_t rng) {
  const uint64_t rng_excl = rng + 1u;
  unsigned __int128 m = static_cast<unsigned __int128>(next64()) * rng_excl;
  uint64_t leftover = static_cast<uint64_t>(m);
  if (leftover < rng_excl) {
    const uint64_t threshold = (UINT64_MAX - rng) % rng_excl;
    while (leftover < threshold) {
      m = static_cast<unsigned __int128>(next64()) * rng_excl;
      leftover = static_cast<uint64_t>(m);
    }
  }
  return static_cast<uint64_t>(m >> 64);
}

uint64_t Pcg64::bounded(uint64_t rng) {
  if (rng == 0) {
    return 0;
  }
  if (rng <= 0xFFFFFFFFu) {
    return rng == 0xFFFFFFFFu ? next32() : bounded32(static_cast<uint32_t>(rng));
  }
  return rng == UINT64_MAX ? next64() : bounded64(rng);
}

int64_t Pcg64::integers(int64_t low, int64_t high) {
  // the caller checks low < high (the binding raises ValueError otherwise)
  const uint64_t rng = static_cast<uint64_t>(high) - static_cast<uint64_t>(low) - 1u;  // inclusive span
  return static_cast<int64_t>(static_cast<uint64_t>(low) + bounded(rng));
}

void Pcg64::shuffle_tail(std::vector<int64_t>& values, std::size_t first) {
  for (std::size_t i = values.size(); i-- > first;) {
    std::swap(values[i], values[static_cast<std::size_t>(bounded(i))]);
  }
}

std::vector<int64_t> Pcg64::choice_without_replacement(int64_t pop, int64_t size) {
  // the caller checks 0 <= size <= pop
  const auto n = static_cast<std::size_t>(pop);
  const auto k = static_cast<std::size_t>(size);
  if (pop > 10000 && size > pop / 50) {  // numpy's cutoff: shuffle the tail of 0..pop-1 in place
    std::vector<int64_t> values(n);
    for (std::size_t i = 0; i < n; ++i) {
      values[i] = static_cast<int64_t>(i);
    }
    shuffle_tail(values, std::max<std::size_t>(n - k, 1));
    return std::vector<int64_t>(values.end() - static_cast<std::ptrdiff_t>(k), values.end());
  }
  std::vector<int64_t> out;  // Floyd's algorithm: value j joins when the draw is already taken
  out.reserve(k);
  std::unordered_set<int64_t> taken;
  for (int64_t j = pop - size; j < pop; ++j) {
    auto value = static_cast<int64_t>(bounded(static_cast<uint64_t>(j)));
    if (taken.count(value) != 0) {
      value = j;
    }
    taken.insert(value);
    out.push_back(value);
  }
  shuffle_tail(out, 1);
  return out;
}

std::vector<int64_t> Pcg64::permutation(int64_t n) {
  std::vector<int64_t> values(static_cast<std::size_t>(n > 0 ? n : 0));
  for (std::size_t i = 0; i < values.size(); ++i) {
    values[i] = static_cast<int64_t>(i);
  }
  for (std::size_t i = values.size(); i-- > 1;) {
    std::swap(values[i], values[static_cast<std::size_t>(interval(i))]);
  }
  return values;
}

Pcg64 Pcg64::from_snapshot(const Snapshot& snap) {
  Pcg64 rng(0);
  rng.state_ = (static_cast<unsigned __int128>(snap.words[0]) << 64) | snap.words[1];
  rng.inc_ = (static_cast<unsigned __int128>(snap.words[2]) << 64) | snap.words[3];
  rng.has_uint32_ = snap.has_uint32;
  rng.uinteger_ = snap.uinteger;
  return rng;
}

Pcg64::Snapshot Pcg64::snapshot() const { return Snapshot{state_words(), has_uint32_, uinteger_}; }

std::array<uint64_t, 4> Pcg64::state_words() const {
  return {static_cast<uint64_t>(state_ >> 64), static_cast<uint64_t>(state_), static_cast<uint64_t>(inc_ >> 64),
          static_cast<uint64_t>(inc_)};
}

}  // namespace fcm

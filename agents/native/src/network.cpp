#include "network.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace fcm::players {

namespace {


void expect(const std::vector<float>& v, std::size_t size, const char* name) {
  if (v.size() != size) {
    throw std::invalid_argument(std::string("network weight ") + name + ": " + std::to_string(v.size()) +
                                " values, the shape needs " + std::to_string(size));
  }
}

// out x in (row-major) -> in x out
std::vector<float> transposed(const std::vector<float>& w, int out, int in) {
  std::vector<float> t(w.size());
  for (int o = 0; o < out; ++o) {
    for (int i = 0; i < in; ++i) t[static_cast<std::size_t>(i) * out + o] = w[static_cast<std::size_t>(o) * in + i];
  }
  return t;
}

// y += a * x over n floats (the layers' one inner loop; restrict: no overlap, so it vectorizes plainly)
inline void axpy(float a, const float* __restrict__ x, float* __restrict__ y, int n) {
  for (int j = 0; j < n; ++j) y[j] += a * x[j];
}

// y = bias + x . W (W transposed: in x out), zero inputs skipped; relu when asked
void dense(const float* x, int in, const std::vector<float>& wt, const std::vector<float>& bias, int out, float* y) {
  std::copy(bias.begin(), bias.end(), y);
  for (int k = 0; k < in; ++k) {
    const float v = x[k];
    if (v == 0.0f) continue;
    axpy(v, wt.data() + static_cast<std::size_t>(k) * out, y, out);
  }
}

// out[o][q] = bias[o] + sum_r w[o * rows + r] * in[r * stride + q] for o < outs, q < squares, rows whose
// ``live`` mark is 0 skipped: the mix and both convolutions. Blocks of 4 outputs x 8 squares stay in
// registers over every row (each row's 8 inputs loaded once for 4 outputs, each output written once), so
// the loop is bound by the multiply-adds, not by loads and stores; the last squares (fewer than 8) and
// outputs (fewer than 4) go one at a time.
void rows_product(const float* w, int outs, int rows, const float* in, int stride, int squares, const float* bias,
                  const char* live, float* out, int out_stride) {
  const int full = squares / 8 * 8;
  int o = 0;
  for (; o + 4 <= outs; o += 4) {
    for (int q = 0; q < full; q += 8) {
      float acc[4][8];
      for (int i = 0; i < 4; ++i) {
        for (int j = 0; j < 8; ++j) acc[i][j] = bias[o + i];
      }
      for (int r = 0; r < rows; ++r) {
        if (!live[r]) continue;
        const float* x = in + static_cast<std::size_t>(r) * stride + q;
        for (int i = 0; i < 4; ++i) {
          const float a = w[static_cast<std::size_t>(o + i) * rows + r];
          for (int j = 0; j < 8; ++j) acc[i][j] += a * x[j];
        }
      }
      for (int i = 0; i < 4; ++i) {
        float* y = out + static_cast<std::size_t>(o + i) * out_stride + q;
        for (int j = 0; j < 8; ++j) y[j] = acc[i][j];
      }
    }
  }
  for (int oo = 0; oo < outs; ++oo) {  // what the blocks left: squares past the last 8 of every output, and
    const int from = oo < o ? full : 0;  // every square of the outputs past the last block of 4
    float* y = out + static_cast<std::size_t>(oo) * out_stride;
    for (int q = from; q < squares; ++q) y[q] = bias[oo];
    for (int r = 0; r < rows; ++r) {
      if (!live[r]) continue;
      const float a = w[static_cast<std::size_t>(oo) * rows + r];
      const float* x = in + static_cast<std::size_t>(r) * stride;
      for (int q = from; q < squares; ++q) y[q] += a * x[q];
    }
  }
}

void relu(float* y, int n) {
  for (int j = 0; j < n; ++j) y[j] = y[j] > 0.0f ? y[j] : 0.0f;
}

float dot(const float* a, const float* b, int n);

// y[b] = bias + x[b] W^T for a batch of rows (x: batch rows of ``in`` at x_stride, y: rows of ``out`` at
// y_stride); w is out x in (row-major), wt its transpose (in x out; empty: one dot product per output). Under 8
// rows each row is a run of axpys over the transposed weights that skips its zero inputs; from 8 rows the
// batch is turned on its side (in x batch) and multiplied in register blocks (rows_product), skipping the
// inputs that are zero in every row, then turned back.
void dense_batch(const float* x, int batch, int in, int x_stride, const std::vector<float>& w,
                 const std::vector<float>& wt, const std::vector<float>& bias, int out, float* y, int y_stride) {
  if (batch < 8) {
    for (int b = 0; b < batch; ++b) {
      const float* row = x + static_cast<std::size_t>(b) * x_stride;
      float* dst = y + static_cast<std::size_t>(b) * y_stride;
      if (!wt.empty()) {
        dense(row, in, wt, bias, out, dst);
      } else {
        for (int o = 0; o < out; ++o) dst[o] = bias[static_cast<std::size_t>(o)] + dot(w.data() + static_cast<std::size_t>(o) * in, row, in);
      }
    }
    return;
  }
  std::vector<float> side(static_cast<std::size_t>(in) * batch), result(static_cast<std::size_t>(out) * batch);
  std::vector<char> live(static_cast<std::size_t>(in), 0);
  for (int b = 0; b < batch; ++b) {
    const float* row = x + static_cast<std::size_t>(b) * x_stride;
    for (int k = 0; k < in; ++k) {
      side[static_cast<std::size_t>(k) * batch + b] = row[k];
      live[static_cast<std::size_t>(k)] |= row[k] != 0.0f;
    }
  }
  rows_product(w.data(), out, in, side.data(), batch, batch, bias.data(), live.data(), result.data(), batch);
  for (int o = 0; o < out; ++o) {
    for (int b = 0; b < batch; ++b) y[static_cast<std::size_t>(b) * y_stride + o] = result[static_cast<std::size_t>(o) * batch + b];
  }
}

// eight partial sums: a vectorizable dot product without reordering one accumulator's additions
float dot(const float* a, const float* b, int n) {
  float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  int k = 0;
  for (; k + 8 <= n; k += 8) {
    for (int j = 0; j < 8; ++j) acc[j] += a[k + j] * b[k + j];
  }
  float s = ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
  for (; k < n; ++k) s += a[k] * b[k];
  return s;
}

// a 3x3 convolution, stride 2, padding 1 (PyTorch's Conv2d(in, out, 3, padding=1, stride=2)), then relu.
// The input's patches are laid out first (one row per (channel, ky, kx): the input squares each output square
// reads, zero off the edge), so the convolution is a run of contiguous axpys over the output squares, and an
// all-zero patch row (a ReLU plane's empty corner) is skipped.
void conv3x3s2(const float* in, int channels, int height, int width, const std::vector<float>& w,
               const std::vector<float>& bias, int out_channels, float* out, std::vector<float>& patches,
               std::vector<char>& nonzero) {
  const int oh = (height + 1) / 2, ow = (width + 1) / 2, squares = oh * ow, rows = channels * 9;
  patches.assign(static_cast<std::size_t>(rows) * squares, 0.0f);
  nonzero.assign(static_cast<std::size_t>(rows), 0);
  for (int i = 0; i < channels; ++i) {
    const float* src = in + static_cast<std::size_t>(i) * height * width;
    for (int ky = 0; ky < 3; ++ky) {
      for (int kx = 0; kx < 3; ++kx) {
        const int r = i * 9 + ky * 3 + kx;
        float* row = patches.data() + static_cast<std::size_t>(r) * squares;
        bool any = false;
        for (int y = 0; y < oh; ++y) {
          const int iy = 2 * y + ky - 1;
          if (iy < 0 || iy >= height) continue;
          for (int x = 0; x < ow; ++x) {
            const int ix = 2 * x + kx - 1;
            if (ix < 0 || ix >= width) continue;
            const float v = src[static_cast<std::size_t>(iy) * width + ix];
            row[y * ow + x] = v;
            any = any || v != 0.0f;
          }
        }
        nonzero[static_cast<std::size_t>(r)] = any;
      }
    }
  }
  rows_product(w.data(), out_channels, rows, patches.data(), squares, squares, bias.data(), nonzero.data(), out,
               squares);
  relu(out, out_channels * squares);
}

}  // namespace

Network::Network(const NetworkShape& shape, NetworkWeights weights) : shape_(shape), w_(std::move(weights)) {
  const NetworkShape& s = shape_;
  if (s.mix < 1 || s.conv1 < 1 || s.conv2 < 1 || s.board_features < 1 || s.vector_hidden < 1 ||
      s.policy_hidden < 0 || s.value_hidden < 0 || (s.policy_hidden > 0) != (s.num_actions > 0) ||
      (s.policy_hidden == 0 && s.value_hidden == 0)) {
    throw std::invalid_argument("network shape: every layer needs a positive size, and a policy or a value head");
  }
  const auto F = static_cast<std::size_t>(s.features());
  expect(w_.mix, static_cast<std::size_t>(s.mix) * s.channels, "mix");
  expect(w_.mix_bias, static_cast<std::size_t>(s.mix), "mix_bias");
  expect(w_.conv1, static_cast<std::size_t>(s.conv1) * s.mix * 9, "conv1");
  expect(w_.conv1_bias, static_cast<std::size_t>(s.conv1), "conv1_bias");
  expect(w_.conv2, static_cast<std::size_t>(s.conv2) * s.conv1 * 9, "conv2");
  expect(w_.conv2_bias, static_cast<std::size_t>(s.conv2), "conv2_bias");
  expect(w_.board, static_cast<std::size_t>(s.board_features) * s.board_flat(), "board");
  expect(w_.board_bias, static_cast<std::size_t>(s.board_features), "board_bias");
  expect(w_.vector, static_cast<std::size_t>(s.vector_hidden) * s.vector_size, "vector");
  expect(w_.vector_bias, static_cast<std::size_t>(s.vector_hidden), "vector_bias");
  if (has_policy()) {
    expect(w_.policy, static_cast<std::size_t>(s.policy_hidden) * F, "policy");
    expect(w_.policy_bias, static_cast<std::size_t>(s.policy_hidden), "policy_bias");
    expect(w_.action, static_cast<std::size_t>(s.num_actions) * s.policy_hidden, "action");
    expect(w_.action_bias, static_cast<std::size_t>(s.num_actions), "action_bias");
    policy_t_ = transposed(w_.policy, s.policy_hidden, s.features());
  }
  if (has_value()) {
    expect(w_.value, static_cast<std::size_t>(s.value_hidden) * F, "value");
    expect(w_.value_bias, static_cast<std::size_t>(s.value_hidden), "value_bias");
    expect(w_.value_out, static_cast<std::size_t>(s.value_hidden), "value_out");
    expect(w_.value_out_bias, 1, "value_out_bias");
    value_t_ = transposed(w_.value, s.value_hidden, s.features());
  }
  board_t_ = transposed(w_.board, s.board_features, s.board_flat());
  vector_t_ = transposed(w_.vector, s.vector_hidden, s.vector_size);
}

void Network::features(const float* observations, int batch, float* out, NetworkScratch& scratch) const {
  const NetworkShape& s = shape_;
  const int squares = s.height * s.width;
  scratch.mixed.resize(static_cast<std::size_t>(s.mix) * squares);
  scratch.live.resize(static_cast<std::size_t>(s.channels));
  scratch.c1.resize(static_cast<std::size_t>(s.conv1) * s.h1() * s.w1());
  scratch.boards.resize(static_cast<std::size_t>(batch) * s.board_flat());
  float* boards = scratch.boards.data();
  float* mixed = scratch.mixed.data();
  char* live = scratch.live.data();
  for (int b = 0; b < batch; ++b) {
    const float* obs = observations + static_cast<std::size_t>(b) * s.flat_size();
    // the channel mix: mixed[m] = relu(bias[m] + sum_c mix[m][c] * plane[c]); an all-zero plane adds nothing
    for (int c = 0; c < s.channels; ++c) {
      const float* plane = obs + static_cast<std::size_t>(c) * squares;
      live[c] = !std::all_of(plane, plane + squares, [](float v) { return v == 0.0f; });
    }
    rows_product(w_.mix.data(), s.mix, s.channels, obs, squares, squares, w_.mix_bias.data(), live, mixed,
                 squares);
    relu(mixed, s.mix * squares);
    conv3x3s2(mixed, s.mix, s.height, s.width, w_.conv1, w_.conv1_bias, s.conv1, scratch.c1.data(), scratch.patches,
              scratch.nonzero);
    conv3x3s2(scratch.c1.data(), s.conv1, s.h1(), s.w1(), w_.conv2, w_.conv2_bias, s.conv2,
              boards + static_cast<std::size_t>(b) * s.board_flat(), scratch.patches, scratch.nonzero);
  }
  dense_batch(boards, batch, s.board_flat(), s.board_flat(), w_.board, board_t_, w_.board_bias,
              s.board_features, out, s.features());
  dense_batch(observations + s.board_size(), batch, s.vector_size, s.flat_size(), w_.vector, vector_t_,
              w_.vector_bias, s.vector_hidden, out + s.board_features, s.features());
  relu(out, batch * s.features());  // both heads' relu (the features are the two heads' outputs, side by side)
}

void Network::policy_hidden(const float* features, int batch, float* out) const {
  if (!has_policy()) throw std::logic_error("this network has no policy head");
  const NetworkShape& s = shape_;
  dense_batch(features, batch, s.features(), s.features(), w_.policy, policy_t_, w_.policy_bias, s.policy_hidden,
              out, s.policy_hidden);
  for (std::size_t j = 0; j < static_cast<std::size_t>(batch) * s.policy_hidden; ++j) out[j] = std::tanh(out[j]);
}

float Network::action_logit(const float* hidden, int action) const {
  const NetworkShape& s = shape_;
  const float* row = w_.action.data() + static_cast<std::size_t>(action) * s.policy_hidden;
  return w_.action_bias[static_cast<std::size_t>(action)] + dot(row, hidden, s.policy_hidden);
}

void Network::action_logits(const float* hidden, int batch, float* out) const {
  if (!has_policy()) throw std::logic_error("this network has no policy head");
  const NetworkShape& s = shape_;
  static const std::vector<float> kNoTranspose;  // under 8 rows: a dot product per action, as action_logit
  dense_batch(hidden, batch, s.policy_hidden, s.policy_hidden, w_.action, kNoTranspose, w_.action_bias,
              s.num_actions, out, s.num_actions);
}

void Network::value_logits(const float* features, int batch, float* out) const {
  if (!has_value()) throw std::logic_error("this network has no value head");
  const NetworkShape& s = shape_;
  std::vector<float> h(static_cast<std::size_t>(batch) * s.value_hidden);
  dense_batch(features, batch, s.features(), s.features(), w_.value, value_t_, w_.value_bias, s.value_hidden,
              h.data(), s.value_hidden);
  relu(h.data(), batch * s.value_hidden);
  for (int b = 0; b < batch; ++b) {
    out[b] = w_.value_out_bias[0] + dot(w_.value_out.data(), h.data() + static_cast<std::size_t>(b) * s.value_hidden,
                                        s.value_hidden);
  }
}

}  // namespace fcm::players

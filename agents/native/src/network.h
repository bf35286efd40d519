// The forward pass of the project's policy-value network in C++: the compact board extractor (a 1x1 channel
// mix, two stride-2 3x3 convolutions, a dense board head), the dense vector head, and the policy and value
// heads (fcm_training.sb3.features.CompactExtractor, MaskablePPO's heads with net_arch [H], the value head of
// fcm_training.common.export). It answers what onnxruntime answers on the shipped ONNX files (masked logits,
// the greedy action with the first index on ties, the value logit), to float32 rounding: a test compares them.
//
// Why our own: a search or a batch of games asks the network once per node or per move; through onnxruntime
// each ask is a Python call and a session run (docs/benchmarks.md). The layers are a few loops: the weights
// of every dense layer are kept transposed (input-major), so a layer is a run of contiguous axpys over its
// outputs that skips the zero inputs (the observation and every ReLU output are mostly zeros); the
// convolutions read the planes in the order they lie. One thread per call; no allocation per position
// beyond the scratch (a Network's own for one caller at a time: call_guard.h; or the caller's NetworkScratch).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "call_guard.h"

namespace fcm::players {

// the sizes of one network of the family (every size but the input's is the file's choice)
struct NetworkShape {
  int channels = 47, height = 20, width = 25, vector_size = 1380;  // the observation (fcm_env.encoding)
  int mix = 8, conv1 = 16, conv2 = 32, board_features = 128, vector_hidden = 128;
  int policy_hidden = 0, num_actions = 0;  // 0: no policy head (a value network)
  int value_hidden = 0;                    // 0: no value head
  int board_size() const { return channels * height * width; }
  int flat_size() const { return board_size() + vector_size; }
  int features() const { return board_features + vector_hidden; }
  int h1() const { return (height + 1) / 2; }
  int w1() const { return (width + 1) / 2; }
  int h2() const { return (h1() + 1) / 2; }
  int w2() const { return (w1() + 1) / 2; }
  int board_flat() const { return conv2 * h2() * w2(); }
};

// what one forward pass writes on its way (the mixed planes, the convolutions' patches): the caller's, so a
// network's weights are shared by threads that each bring their own scratch (the native batch's seats)
struct NetworkScratch {
  std::vector<float> mixed, c1, boards;
  std::vector<float> patches;  // a convolution's input patches (convolution rows x output squares)
  std::vector<char> nonzero;   // which patch rows hold a nonzero value
  std::vector<char> live;      // which observation planes hold a nonzero value
};

// the weights as the ONNX file holds them (row-major, PyTorch's layouts: a Linear's weight is out x in)
struct NetworkWeights {
  std::vector<float> mix, mix_bias;                  // mix x channels, mix
  std::vector<float> conv1, conv1_bias;              // conv1 x mix x 3 x 3, conv1
  std::vector<float> conv2, conv2_bias;              // conv2 x conv1 x 3 x 3, conv2
  std::vector<float> board, board_bias;              // board_features x board_flat
  std::vector<float> vector, vector_bias;            // vector_hidden x vector_size
  std::vector<float> policy, policy_bias;            // policy_hidden x features
  std::vector<float> action, action_bias;            // num_actions x policy_hidden
  std::vector<float> value, value_bias;              // value_hidden x features
  std::vector<float> value_out, value_out_bias;      // 1 x value_hidden, 1
};

class Network {
 public:
  // std::invalid_argument naming the first weight whose size does not fit the shape
  Network(const NetworkShape& shape, NetworkWeights weights);

  const NetworkShape& shape() const { return shape_; }
  bool has_policy() const { return shape_.policy_hidden > 0; }
  bool has_value() const { return shape_.value_hidden > 0; }

  // the trunk's features of ``batch`` flat observations (batch x flat_size) into out (batch x features)
  void features(const float* observations, int batch, float* out) { features(observations, batch, out, scratch_); }
  // the same with the caller's scratch: a const pass, safe on threads that share the network
  void features(const float* observations, int batch, float* out, NetworkScratch& scratch) const;
  // the policy head's hidden layer (tanh) of feature rows into out (batch x policy_hidden)
  void policy_hidden(const float* features, int batch, float* out) const;
  // one action's logit from a policy hidden row: the action layer's row for that id only
  float action_logit(const float* hidden, int action) const;
  // every action's logit from policy hidden rows into out (batch x num_actions)
  void action_logits(const float* hidden, int batch, float* out) const;
  // the value logit of feature rows into out (batch)
  void value_logits(const float* features, int batch, float* out) const;

 private:
  NetworkShape shape_;
  NetworkWeights w_;
  // transposed dense weights (in x out), for the axpy form
  std::vector<float> board_t_, vector_t_, policy_t_, value_t_;
  NetworkScratch scratch_;  // the one-caller form's
};

// a Network with its one-call-at-a-time flag: the Python face's calls release the GIL and use the network's
// scratch (a search that asks a network holds the flag for its whole run; a player checks it)
struct GuardedNetwork : Network {
  using Network::Network;
  InUse use;
};
constexpr const char* kNetwork = "this native Network";

// the ONNX graph's masked_logits for one row: legal (mask > 0.5) keeps its logit, the rest -1e9
constexpr float kIllegalLogit = -1e9f;

}  // namespace fcm::players

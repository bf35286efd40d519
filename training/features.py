"""Features extractors that read the flat observation as board planes + a vector.

The flat observation (``fcm_env.encoding.Observer.observe_flat``) is the board
planes ``C x 20 x 25`` in C order followed by the scalar vector. Both extractors
read the planes with a small convolutional stack (the map is spatial: ranges,
blocks, adjacency) and the vector with one dense layer, and concatenate the two.

* ``CompactExtractor`` (the default, ``extractor: compact``): a learned 1x1 *channel
  mix* first squeezes the 47 mostly-zero planes into a few dense ones, as one
  batched matrix product over the planes in the order they already lie in memory
  (no transpose or copy of the 100 KB input), then two stride-2 3x3 convolutions.
  Measured on the project's 2-core machine (one torch thread, docs/benchmarks.md),
  a PPO minibatch step costs about half of ``BoardVectorExtractor``'s: a full-size
  convolution over 47 input planes was a third of the whole training time.
* ``BoardVectorExtractor`` (``extractor: cnn``): the first network of the project,
  a 3x3 convolution over all 47 planes at full resolution; kept so old checkpoints
  load and the before/after benchmark can be rerun.
"""

from __future__ import annotations

import gymnasium as gym
import torch
import torch.nn.functional as F
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

from fcm_env.encoding import BOARD_SHAPE, VECTOR_SIZE


def _check_space(observation_space: gym.spaces.Box) -> int:
    channels, height, width = BOARD_SHAPE
    expected = channels * height * width + VECTOR_SIZE
    if observation_space.shape != (expected,):
        raise ValueError(f"expected a flat observation of {expected} floats, got {observation_space.shape}")
    return channels * height * width


class BoardVectorExtractor(BaseFeaturesExtractor):
    """CNN over the board planes + MLP over the vector, concatenated."""

    def __init__(self, observation_space: gym.spaces.Box, board_channels: int = 16, vector_hidden: int = 128,
                 board_features: int = 128):
        board_size = _check_space(observation_space)
        super().__init__(observation_space, features_dim=board_features + vector_hidden)
        channels, height, width = BOARD_SHAPE
        self.board_size = board_size
        self.cnn = nn.Sequential(
            nn.Conv2d(channels, board_channels, kernel_size=3, padding=1), nn.ReLU(),
            nn.Conv2d(board_channels, board_channels, kernel_size=3, padding=1, stride=2), nn.ReLU(),
            nn.Flatten(),
        )
        with torch.no_grad():
            n_flat = self.cnn(torch.zeros(1, channels, height, width)).shape[1]
        self.board_head = nn.Sequential(nn.Linear(n_flat, board_features), nn.ReLU())
        self.vector_head = nn.Sequential(nn.Linear(VECTOR_SIZE, vector_hidden), nn.ReLU())

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        board = observations[:, : self.board_size].reshape(-1, *BOARD_SHAPE)
        vector = observations[:, self.board_size:]
        return torch.cat([self.board_head(self.cnn(board)), self.vector_head(vector)], dim=1)


class CompactExtractor(BaseFeaturesExtractor):
    """Channel mix (47 -> ``mix_channels``), two stride-2 3x3 convolutions, and a vector layer."""

    def __init__(self, observation_space: gym.spaces.Box, mix_channels: int = 8, board_channels: int = 16,
                 board_features: int = 128, vector_hidden: int = 128):
        board_size = _check_space(observation_space)
        super().__init__(observation_space, features_dim=board_features + vector_hidden)
        channels, height, width = BOARD_SHAPE
        self.board_size = board_size
        self.mix_channels = mix_channels
        # the 1x1 channel mix as a (mix x 47) matrix applied to every sample's (47 x squares) planes
        self.mix = nn.Parameter(torch.randn(mix_channels, channels) / channels**0.5)
        self.mix_bias = nn.Parameter(torch.zeros(mix_channels, 1))
        self.cnn = nn.Sequential(
            nn.Conv2d(mix_channels, board_channels, kernel_size=3, padding=1, stride=2), nn.ReLU(),
            nn.Conv2d(board_channels, 2 * board_channels, kernel_size=3, padding=1, stride=2), nn.ReLU(),
            nn.Flatten(),
        )
        with torch.no_grad():
            n_flat = self.cnn(torch.zeros(1, mix_channels, height, width)).shape[1]
        self.board_head = nn.Sequential(nn.Linear(n_flat, board_features), nn.ReLU())
        self.vector_head = nn.Sequential(nn.Linear(VECTOR_SIZE, vector_hidden), nn.ReLU())

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        channels, height, width = BOARD_SHAPE
        planes = observations[:, : self.board_size].reshape(-1, channels, height * width)  # a view
        mixed = F.relu(torch.bmm(self.mix.expand(planes.shape[0], -1, -1), planes) + self.mix_bias)
        board = self.cnn(mixed.reshape(-1, self.mix_channels, height, width))
        vector = observations[:, self.board_size:]
        return torch.cat([self.board_head(board), self.vector_head(vector)], dim=1)


#: config name -> (class, the Config fields it takes)
EXTRACTORS: dict[str, tuple[type[BaseFeaturesExtractor], tuple[str, ...]]] = {
    "compact": (CompactExtractor, ("mix_channels", "board_channels", "board_features", "vector_hidden")),
    "cnn": (BoardVectorExtractor, ("board_channels", "board_features", "vector_hidden")),
}

"""A features extractor that reads the flat observation as board planes + a vector.

The flat observation (``fcm_env.encoding.Observer.observe_flat``) is the board
planes ``C x 20 x 25`` in C order followed by the scalar vector. A small CNN
reads the planes (the map is spatial: ranges, blocks, adjacency), an MLP reads
the vector, and their outputs are concatenated. This keeps the first layer small
(an MLP on the 24,880 raw inputs would need millions of weights) so that PPO
trains at a useful speed on a CPU.
"""

from __future__ import annotations

import gymnasium as gym
import torch
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

from fcm_env.encoding import BOARD_SHAPE, VECTOR_SIZE


class BoardVectorExtractor(BaseFeaturesExtractor):
    """CNN over the board planes + MLP over the vector, concatenated."""

    def __init__(self, observation_space: gym.spaces.Box, board_channels: int = 16, vector_hidden: int = 128,
                 board_features: int = 128):
        channels, height, width = BOARD_SHAPE
        expected = channels * height * width + VECTOR_SIZE
        if observation_space.shape != (expected,):
            raise ValueError(f"expected a flat observation of {expected} floats, got {observation_space.shape}")
        super().__init__(observation_space, features_dim=board_features + vector_hidden)
        self.board_size = channels * height * width
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

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

    def mixed_planes(self, observations: torch.Tensor) -> torch.Tensor:
        """``B x mix_channels x 20 x 25``: the learned mix of the board planes."""
        channels, height, width = BOARD_SHAPE
        planes = observations[:, : self.board_size].reshape(-1, channels, height * width)  # a view
        mixed = F.relu(torch.bmm(self.mix.expand(planes.shape[0], -1, -1), planes) + self.mix_bias)
        return mixed.reshape(-1, self.mix_channels, height, width)

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        board = self.cnn(self.mixed_planes(observations))
        vector = observations[:, self.board_size:]
        return torch.cat([self.board_head(board), self.vector_head(vector)], dim=1)


#: config name -> (class, the Config fields it takes)
EXTRACTORS: dict[str, tuple[type[BaseFeaturesExtractor], tuple[str, ...]]] = {
    "compact": (CompactExtractor, ("mix_channels", "board_channels", "board_features", "vector_hidden")),
    "cnn": (BoardVectorExtractor, ("board_channels", "board_features", "vector_hidden")),
}


class SpatialExtractor(CompactExtractor):
    """``CompactExtractor``'s global features plus a full-resolution placement map.

    The board-placement segment of the action space (2,000 ids: row x col x orientation) is
    where the game is won or lost (the first restaurant, every campaign), and a dense layer
    from a pooled summary cannot say *where*: imitating the heuristic, the compact network
    got 90% of those choices wrong. Here the channel-mixed planes at full resolution, and the
    two coarser convolution outputs brought back to 20 x 25, are read square by square (1x1
    convolutions), conditioned on the global features (the pending decision, the campaign
    tile, ...) through a per-channel bias, into 4 orientation logits per square.

    The output is ``[global features | placement logits]``; ``global_dim`` says where it
    splits. It is meant for ``fcm_training.sb3.legal_policy.SpatialPolicy``, which feeds only the
    global part to the policy and value layers and adds the placement logits to the
    placement segment of the action logits, running the full-resolution head (``placement``)
    only for the positions whose legal actions include a placement (about 1 in 25).
    """

    def __init__(self, observation_space: gym.spaces.Box, mix_channels: int = 16, board_channels: int = 16,
                 board_features: int = 128, vector_hidden: int = 128, spatial_hidden: int = 16):
        from fcm_env.encoding.action_codec import BOARD_COLS, BOARD_ORIENTATIONS, BOARD_ROWS

        super().__init__(observation_space, mix_channels, board_channels, board_features, vector_hidden)
        _, height, width = BOARD_SHAPE
        if (height, width) != (BOARD_ROWS, BOARD_COLS):
            raise ValueError(f"board planes {height} x {width} differ from the placement grid")
        self.global_dim = board_features + vector_hidden
        self._features_dim = self.global_dim + height * width * BOARD_ORIENTATIONS
        squares_in = mix_channels + board_channels + 2 * board_channels
        self.square_hidden = nn.Conv2d(squares_in, spatial_hidden, kernel_size=1)
        self.condition = nn.Linear(self.global_dim, spatial_hidden)
        self.square_logits = nn.Conv2d(spatial_hidden, BOARD_ORIENTATIONS, kernel_size=1)

    def trunk(self, observations: torch.Tensor) -> tuple[torch.Tensor, tuple[torch.Tensor, ...]]:
        """The global features and the three board maps the placement head reads."""
        mixed = self.mixed_planes(observations)
        coarse1 = F.relu(self.cnn[0](mixed))
        coarse2 = F.relu(self.cnn[2](coarse1))
        global_features = torch.cat([self.board_head(coarse2.flatten(1)),
                                     self.vector_head(observations[:, self.board_size:])], dim=1)
        return global_features, (mixed, coarse1, coarse2)

    def placement(self, maps: tuple[torch.Tensor, ...], global_features: torch.Tensor) -> torch.Tensor:
        """``float[B, rows * cols * orientations]``: the placement logits, in the codec's order."""
        mixed, coarse1, coarse2 = maps
        height, width = mixed.shape[2], mixed.shape[3]
        # every square sees its own planes and the coarse maps of its neighbourhood (nearest upsampling)
        up1 = coarse1.repeat_interleave(2, dim=2).repeat_interleave(2, dim=3)[:, :, :height, :width]
        up2 = coarse2.repeat_interleave(4, dim=2).repeat_interleave(4, dim=3)[:, :, :height, :width]
        squares = self.square_hidden(torch.cat([mixed, up1, up2], dim=1))
        squares = F.relu(squares + self.condition(global_features)[:, :, None, None])
        logits = self.square_logits(squares)  # B x orientations x rows x cols
        return logits.permute(0, 2, 3, 1).flatten(1)

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        global_features, maps = self.trunk(observations)
        return torch.cat([global_features, self.placement(maps, global_features)], dim=1)


EXTRACTORS["spatial"] = (SpatialExtractor, ("mix_channels", "board_channels", "board_features", "vector_hidden"))

"""The value network: the policy's compact trunk (``CompactExtractor``'s layers) and a small head.

Its trunk has the shapes of the shipped policy's features extractor, so it starts from the
policy's weights (``init_from_policy``): the policy already reads the board and the vector into
features that say how a seat stands, and on 54k positions from scratch the head overfitted
within an epoch. The output is one logit: that the observing seat wins.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import torch
import torch.nn.functional as F
from torch import nn

from fcm_env.encoding import BOARD_SHAPE, VECTOR_SIZE

from ..common.export import name_format

MIX, CHANNELS, BOARD_FEATURES, VECTOR_HIDDEN, HEAD = 8, 16, 128, 128, 128
PREFIX = "policy.features_extractor."


class ValueNet(nn.Module):
    """``observation [B, FLAT] -> value_logit [B]``."""

    def __init__(self, mix: int = MIX, channels: int = CHANNELS, board_features: int = BOARD_FEATURES,
                 vector_hidden: int = VECTOR_HIDDEN, head: int = HEAD) -> None:
        """The shipped sizes by default; smaller ones make the lighter designs of the same family (a student
        distilled from the shipped files: ``fcm_training.distill.student``)."""
        super().__init__()
        planes, height, width = BOARD_SHAPE
        self.sizes = {"mix": mix, "channels": channels, "board_features": board_features,
                      "vector_hidden": vector_hidden, "head": head}
        self.board_size = planes * height * width
        self.mix = nn.Parameter(torch.randn(mix, planes) / planes**0.5)
        self.mix_bias = nn.Parameter(torch.zeros(mix, 1))
        self.conv1 = nn.Conv2d(mix, channels, kernel_size=3, padding=1, stride=2)
        self.conv2 = nn.Conv2d(channels, 2 * channels, kernel_size=3, padding=1, stride=2)
        with torch.no_grad():
            flat = self.conv2(self.conv1(torch.zeros(1, mix, height, width))).numel()
        self.board_head = nn.Linear(flat, board_features)
        self.vector_head = nn.Linear(VECTOR_SIZE, vector_hidden)
        self.value_hidden = nn.Linear(board_features + vector_hidden, head)
        self.value_out = nn.Linear(head, 1)

    def features(self, observation: torch.Tensor) -> torch.Tensor:
        """The trunk's ``[B, board_features + vector_hidden]`` features (the policy's extractor's)."""
        channels, height, width = BOARD_SHAPE
        planes = observation[:, : self.board_size].reshape(-1, channels, height * width)
        mixed = F.relu(torch.matmul(self.mix, planes) + self.mix_bias).reshape(-1, self.mix.shape[0], height, width)
        board = F.relu(self.conv2(F.relu(self.conv1(mixed)))).flatten(1)
        return torch.cat([F.relu(self.board_head(board)),
                          F.relu(self.vector_head(observation[:, self.board_size:]))], dim=1)

    def value_logit(self, features: torch.Tensor) -> torch.Tensor:
        return self.value_out(F.relu(self.value_hidden(features))).squeeze(1)

    def forward(self, observation: torch.Tensor) -> torch.Tensor:
        return self.value_logit(self.features(observation))

    def head_parameters(self) -> list[nn.Parameter]:
        return [*self.value_hidden.parameters(), *self.value_out.parameters()]


def init_from_policy(net: ValueNet, policy_onnx: Path) -> None:
    """Copy the trunk's weights from an exported policy with the compact extractor's default sizes (an SB3
    export, or a distilled policy-value file)."""
    import onnx
    from onnx import numpy_helper

    weights = {i.name: torch.from_numpy(numpy_helper.to_array(i).copy())
               for i in onnx.load(str(policy_onnx)).graph.initializer}
    if "action_out.weight" in weights:  # a distilled policy-value file: the trunk under the network's own names
        with torch.no_grad():
            for name, param in net.named_parameters():
                if name.startswith("value_"):
                    continue
                source = weights.get(name)
                if source is None or source.shape != param.shape:
                    got = None if source is None else tuple(source.shape)
                    raise ValueError(f"{policy_onnx}: {name} is {got}, the value trunk needs {tuple(param.shape)}")
                param.copy_(source)
        return
    pairs = {"mix": net.mix, "mix_bias": net.mix_bias, "cnn.0.weight": net.conv1.weight, "cnn.0.bias": net.conv1.bias,
             "cnn.2.weight": net.conv2.weight, "cnn.2.bias": net.conv2.bias,
             "board_head.0.weight": net.board_head.weight, "board_head.0.bias": net.board_head.bias,
             "vector_head.0.weight": net.vector_head.weight, "vector_head.0.bias": net.vector_head.bias}
    with torch.no_grad():
        for name, param in pairs.items():
            source = weights.get(PREFIX + name)
            if source is None or source.shape != param.shape:
                got = None if source is None else tuple(source.shape)
                raise ValueError(f"{policy_onnx}: {PREFIX + name} is {got}, the value trunk needs {tuple(param.shape)}")
            param.copy_(source)


def export_onnx(net: ValueNet, path: Path) -> None:
    """Write ``value_logit = net(observation)`` with a free batch size (the search asks every seat at once)."""
    net.eval()
    path.parent.mkdir(parents=True, exist_ok=True)
    with warnings.catch_warnings():
        # the TorchScript exporter is deprecated for torch.export, which needs the extra onnxscript
        # package; for this small static graph it is exact (as the policy's, training/common/export.py)
        warnings.simplefilter("ignore", DeprecationWarning)
        torch.onnx.export(net, torch.zeros(1, net.board_size + VECTOR_SIZE), str(path),
                          input_names=["observation"], output_names=["value_logit"],
                          dynamic_axes={"observation": {0: "batch"}, "value_logit": {0: "batch"}}, dynamo=False)
    name_format(path, "value/1")  # the file says what it is (graph_format)

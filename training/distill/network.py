"""The policy-value network: the shipped policy's layers with the value network's head beside them.

One trunk (the compact extractor's shapes, ``fcm_training.value.network.ValueNet``) feeds the
policy's head (``Linear -> tanh -> Linear`` to every action id, as MaskablePPO's actor with
``net_arch: [128]``) and the value head (the logit that the observing seat wins). It starts as the
shipped policy exactly (trunk and policy head copied from ``policy_2p.onnx``) and with the shipped
value network's head (``value_2p.onnx``), so before any training it plays like the policy.

The ONNX export keeps the policy's interface (inputs ``observation``, ``action_mask``; outputs
``action``, ``masked_logits``) and adds ``value_logit``: every program that plays the policy plays
it, and the search reads its value too (``search:policy_model=FILE.onnx``).
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import torch
from torch import nn

from fcm_env.encoding import FLAT_SIZE, NUM_ACTIONS

from ..common.export import name_format
from ..value.network import ValueNet, init_from_policy

MASKED = -1e9
#: what the model files' JSON says of their graph (``fcm_agents.models``)
FORMAT = "policy-value/1"


class PolicyValueNet(ValueNet):
    """``(observation, action_mask) -> (action, masked_logits, value_logit)``."""

    def __init__(self, **sizes: int) -> None:
        """``sizes``: ``ValueNet``'s (the shipped ones by default); the policy head is as wide as the value head."""
        super().__init__(**sizes)
        head = self.sizes["head"]
        self.policy_hidden = nn.Linear(self.value_hidden.in_features, head)
        self.action_out = nn.Linear(head, NUM_ACTIONS)

    def logits(self, features: torch.Tensor) -> torch.Tensor:
        return self.action_out(torch.tanh(self.policy_hidden(features)))

    def forward(self, observation: torch.Tensor, action_mask: torch.Tensor):  # type: ignore[override]
        features = self.features(observation)
        logits = self.logits(features)
        masked = torch.where(action_mask > 0.5, logits, torch.full_like(logits, MASKED))
        return masked.argmax(dim=1), masked, self.value_logit(features)


def _initializers(path: Path) -> dict[str, torch.Tensor]:
    import onnx
    from onnx import numpy_helper

    return {i.name: torch.from_numpy(np.array(numpy_helper.to_array(i))) for i in onnx.load(str(path)).graph.initializer}


def _copy(pairs: dict[str, nn.Parameter], weights: dict[str, torch.Tensor], source: Path) -> None:
    with torch.no_grad():
        for name, param in pairs.items():
            found = weights.get(name)
            if found is None or found.shape != param.shape:
                got = None if found is None else tuple(found.shape)
                raise ValueError(f"{source}: {name} is {got}, the policy-value network needs {tuple(param.shape)}")
            param.copy_(found)


def from_shipped(policy_onnx: Path, value_onnx: Path | None) -> PolicyValueNet:
    """The network started from an exported policy (trunk and policy head) and, if given, the value
    head of an exported value network (``fcm_training.value``); or, where ``policy_onnx`` is itself a
    policy-value network (the last round's), all of that one's weights (``value_onnx`` is not read)."""
    net = PolicyValueNet()
    weights = _initializers(policy_onnx)
    if "action_out.weight" in weights:  # our own export: the state dict's names
        _copy(dict(net.named_parameters()), weights, policy_onnx)
        return net
    init_from_policy(net, policy_onnx)
    _copy({"policy.mlp_extractor.policy_net.0.weight": net.policy_hidden.weight,
           "policy.mlp_extractor.policy_net.0.bias": net.policy_hidden.bias,
           "policy.action_net.weight": net.action_out.weight, "policy.action_net.bias": net.action_out.bias},
          weights, policy_onnx)
    if value_onnx is not None:
        _copy({"value_hidden.weight": net.value_hidden.weight, "value_hidden.bias": net.value_hidden.bias,
               "value_out.weight": net.value_out.weight, "value_out.bias": net.value_out.bias},
              _initializers(value_onnx), value_onnx)
    return net


def export_onnx(net: PolicyValueNet, path: Path) -> None:
    """Write the graph (module docstring) with a free batch size."""
    net.eval()
    path.parent.mkdir(parents=True, exist_ok=True)
    with warnings.catch_warnings():
        # the TorchScript exporter is deprecated for torch.export, which needs the extra onnxscript
        # package; for this small static graph it is exact (as the policy's, training/common/export.py)
        warnings.simplefilter("ignore", DeprecationWarning)
        torch.onnx.export(net, (torch.zeros(1, FLAT_SIZE), torch.ones(1, NUM_ACTIONS)), str(path),
                          input_names=["observation", "action_mask"],
                          output_names=["action", "masked_logits", "value_logit"],
                          dynamic_axes={name: {0: "batch"} for name in
                                        ("observation", "action_mask", "action", "masked_logits", "value_logit")},
                          opset_version=17, dynamo=False)
    name_format(path, FORMAT)  # the file says what it is (graph_format)

"""A value head on a shipped policy's own trunk: one ONNX file with the logits and the value.

The separate value network (``network.ValueNet``) has a trunk of its own. Put beside a policy in
one graph, that trunk costs every policy decision too: onnxruntime runs the whole graph whatever
outputs are asked for (measured: 65 us a decision for the policy alone, 108 us for policy and value
network in one graph, with only the policy's outputs asked). A head that reads the policy's features
(the 256 numbers its features extractor gives the actor) costs two small matrix products.

The head is fitted on positions files (``positions``) with the trunk frozen: the features of every
position are computed once with onnxruntime, and the head learns the same target as the value
network (``fit.targets``), held out by seed as there. ``attach`` then writes the policy's graph with
the head's nodes added and a ``value_logit`` output: a ``policy-value/1`` file
(``fcm_agents.models.FORMATS``) whose action outputs are the policy's, bit for bit.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from fcm_env.encoding import NUM_ACTIONS

from ..common.export import name_format
from ..common.held_out import HELD_OUT_RULE, split_by_seed, train_keeping_best
from .fit import Positions, targets

#: the first layer of an SB3 policy's actor: its input is the features extractor's output (a distilled
#: policy-value file, ``fcm_training.distill``, names it ``policy_hidden.weight``)
ACTOR_WEIGHT = "policy.mlp_extractor.policy_net.0.weight"
ACTOR_WEIGHTS = (ACTOR_WEIGHT, "policy_hidden.weight")
HIDDEN = 128
PREFIX = "value_head."


def features_name(graph) -> str:
    """The tensor of ``graph`` (an ONNX policy, ``training/common/export.py``) that holds the trunk's
    features: the input of the actor's first layer. ``ValueError`` for a graph without one."""
    for node in graph.node:
        if node.op_type in ("Gemm", "MatMul") and any(w in node.input for w in ACTOR_WEIGHTS):
            return node.input[0]
    raise ValueError(f"not an exported SB3 policy: no layer reads {ACTOR_WEIGHT!r} (a value head needs its trunk)")


def trunk_features(policy_onnx: Path, data: Positions, batch: int = 256) -> np.ndarray:
    """``[positions, features]``: the frozen trunk's output for every position of ``data``."""
    import onnx
    import onnxruntime as ort

    model = onnx.load(str(policy_onnx))
    name = features_name(model.graph)
    model.graph.output.append(onnx.helper.make_tensor_value_info(name, onnx.TensorProto.FLOAT, None))
    options = ort.SessionOptions()
    options.intra_op_num_threads = options.inter_op_num_threads = 1
    session = ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
    flat = session.get_inputs()[0].shape[1]
    rows = np.arange(len(data.label))
    out = []
    for i in range(0, len(rows), batch):
        obs = data.dense(rows[i:i + batch], flat).numpy()
        mask = np.ones((len(obs), NUM_ACTIONS), dtype=np.float32)
        out.append(session.run([name], {"observation": obs, "action_mask": mask})[0])
    return np.concatenate(out).astype(np.float32)


class ValueHead(nn.Module):
    """``features [B, F] -> value_logit [B]``: one hidden ReLU layer."""

    def __init__(self, features: int, hidden: int = HIDDEN):
        super().__init__()
        self.hidden = nn.Linear(features, hidden)
        self.out = nn.Linear(hidden, 1)

    def forward(self, features: torch.Tensor) -> torch.Tensor:
        return self.out(F.relu(self.hidden(features))).squeeze(1)


def fit_head(features: np.ndarray, data: Positions, epochs: int = 4, batch: int = 256, seed: int = 0,
             lead_weight: float = 0.5, log: Callable[[str], None] = print) -> tuple[ValueHead, dict[str, float]]:
    """Train a ``ValueHead`` on ``features`` (``trunk_features`` of ``data``); the weights with the best
    held-out loss (every tenth seed held out), and their figures (``loss``, ``accuracy``)."""
    torch.manual_seed(seed)
    train_rows, test_rows = split_by_seed(data.meta[:, 0])
    if len(train_rows) < batch or len(test_rows) == 0:
        raise ValueError(f"too few positions: {len(train_rows)} to train on (a batch is {batch}), "
                         f"{len(test_rows)} held out (seeds ending in 0)")
    x = torch.from_numpy(features)
    labels = torch.from_numpy(targets(data, lead_weight))
    wins = torch.from_numpy(data.label)
    head = ValueHead(features.shape[1])
    optimizer = torch.optim.Adam(head.parameters(), lr=1e-3, weight_decay=1e-5)
    log(f"{len(data.label)} positions: {len(train_rows)} to train on, {len(test_rows)} held out")

    def held_out_figures() -> dict[str, float]:
        with torch.no_grad():
            logits = head(x[test_rows])
            loss = F.binary_cross_entropy_with_logits(logits, labels[test_rows]).item()
            accuracy = ((logits > 0).float() == wins[test_rows]).float().mean().item()
        return {"loss": loss, "accuracy": accuracy}

    def step_loss(rows: np.ndarray) -> torch.Tensor:
        return F.binary_cross_entropy_with_logits(head(x[rows]), labels[rows])

    best = train_keeping_best(head, optimizer, train_rows, batch, epochs, seed, step_loss, held_out_figures,
                              lambda f: f"loss {f['loss']:.4f}, accuracy {f['accuracy']:.3f}", log)
    return head, best


def attach(policy_onnx: Path, head: ValueHead, out: Path) -> Path:
    """Write ``policy_onnx`` with ``head`` on its trunk as a ``value_logit [batch]`` output (``policy-value/1``).
    A head this module attached before is replaced; a ``value_logit`` of another kind is refused."""
    import onnx
    from onnx import helper, numpy_helper

    model = onnx.load(str(policy_onnx))
    graph = model.graph
    if any(o.name == "value_logit" for o in graph.output):
        _strip(model, policy_onnx)
    source = features_name(graph)
    weights = {"hidden.weight": head.hidden.weight, "hidden.bias": head.hidden.bias,
               "out.weight": head.out.weight, "out.bias": head.out.bias}
    for name, tensor in weights.items():
        graph.initializer.append(numpy_helper.from_array(tensor.detach().numpy().astype(np.float32), PREFIX + name))
    squeeze_axes = PREFIX + "squeeze_axes"
    graph.initializer.append(numpy_helper.from_array(np.array([1], dtype=np.int64), squeeze_axes))
    graph.node.extend([
        helper.make_node("Gemm", [source, PREFIX + "hidden.weight", PREFIX + "hidden.bias"], [PREFIX + "hidden"],
                         name=PREFIX + "Gemm_hidden", transB=1),
        helper.make_node("Relu", [PREFIX + "hidden"], [PREFIX + "relu"], name=PREFIX + "Relu"),
        helper.make_node("Gemm", [PREFIX + "relu", PREFIX + "out.weight", PREFIX + "out.bias"], [PREFIX + "out"],
                         name=PREFIX + "Gemm_out", transB=1),
        helper.make_node("Squeeze", [PREFIX + "out", squeeze_axes], ["value_logit"], name=PREFIX + "Squeeze"),
    ])
    graph.output.append(helper.make_tensor_value_info("value_logit", onnx.TensorProto.FLOAT, ["batch"]))
    onnx.checker.check_model(model)
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_name(out.name + ".partial")  # written whole, then renamed: an interrupted run
    onnx.save(model, str(partial))                  # (or out == policy_onnx) never leaves half a file
    name_format(partial, "policy-value/1")
    os.replace(partial, out)
    return out


def policy_only(path: Path, out: Path) -> Path:
    """Write ``path`` without the value head this module attached: the ``policy/1`` graph it was made from."""
    import onnx

    model = onnx.load(str(path))
    _strip(model, path)
    onnx.save(model, str(out))
    name_format(out, "policy/1")
    return out


def _strip(model, path: Path) -> None:
    """Remove this module's head (its nodes, weights and the ``value_logit`` output) from ``model``."""
    graph = model.graph
    ours = [n for n in graph.node if n.name.startswith(PREFIX)]
    if not any("value_logit" in n.output for n in ours):
        raise ValueError(f"{path}: has a value_logit output of its own (not a head this tool attached)")
    for node in ours:
        graph.node.remove(node)
    for init in [i for i in graph.initializer if i.name.startswith(PREFIX)]:
        graph.initializer.remove(init)
    for output in [o for o in graph.output if o.name == "value_logit"]:
        graph.output.remove(output)


def fit_and_attach(paths: list[Path], policy_onnx: Path, out: Path, epochs: int = 4, batch: int = 256, seed: int = 0,
                   lead_weight: float = 0.5, card: Path | None = None, describe: dict | None = None,
                   log: Callable[[str], None] = print) -> dict[str, float]:
    """``trunk_features`` -> ``fit_head`` -> ``attach``; returns the head's held-out figures and the
    number of positions and the table size of the data (``positions``, ``players``). With ``card``
    (the model card of ``out``), the card is checked before anything is written and then rewritten for
    the new file (``update_card``, with ``describe`` added to its ``value`` entry)."""
    data = Positions.load(paths)
    if card is not None:
        read_card(card, out, data.players)
    features = trunk_features(policy_onnx, data)
    head, best = fit_head(features, data, epochs=epochs, batch=batch, seed=seed, lead_weight=lead_weight, log=log)
    attach(policy_onnx, head, out)
    figures = {**best, "positions": len(data.label), "players": data.players}
    if card is not None:
        seeds = data.meta[:, 0]
        update_card(card, out, {**(describe or {}), "data": [path.name for path in paths],
                                "games": len(np.unique(seeds)), "seeds": [int(seeds.min()), int(seeds.max())],
                                "positions": len(data.label), "players": data.players, "epochs": epochs,
                                "lead_weight": lead_weight,
                                "held_out": {"rule": HELD_OUT_RULE, "loss": round(best["loss"], 4),
                                             "accuracy": round(best["accuracy"], 3)}})
    return figures


def read_card(card: Path, model: Path, players: int) -> dict:
    """The card of ``model`` at ``players``; ``ValueError`` where it is none, or one of another file or size."""
    import json

    try:
        data = json.loads(card.read_text())
    except (OSError, ValueError) as error:
        raise ValueError(f"{card}: not a model card ({error})") from None
    if data.get("file") != model.name:
        raise ValueError(f"{card} describes {data.get('file')!r}, not {model.name!r}")
    if data.get("num_players") != players:
        raise ValueError(f"{card} is a {data.get('num_players')}-player model; the positions are of {players} players")
    return data


def update_card(card: Path, model: Path, value: dict) -> None:
    """Rewrite a shipped model's card (``policy_Np.json``) for ``model`` with a value head: its format,
    its sha256 and a ``value`` entry (how the head was made and what it scored held out)."""
    import hashlib
    import json

    from fcm_agents.models.interface import interface

    data = read_card(card, model, value["players"])
    data["format"] = "policy-value/1"
    data["interface"] = interface("policy-value/1")
    data["sha256"] = hashlib.sha256(model.read_bytes()).hexdigest()
    data["value"] = value
    card.write_text(json.dumps(data, indent=2) + "\n")

"""The project's networks in the native core: an exported ONNX file read into ``_agents.Network``.

``load_network(path)`` reads the file's weights (``onnx_reader``), recognises the design by the graph's data
flow (the compact board extractor and vector head, a policy head with a tanh hidden layer and the action
layer, a value head with a relu hidden layer: what ``fcm_training`` trains and ships), and builds the C++
forward pass (``agents/native/src/network.h``). A file of another design raises ``UnknownNetwork`` naming
what differs: onnxruntime stays the reference and runs those (``fcm_agents.onnx_agent``).

``NativeSession`` gives the forward pass onnxruntime's face (``run(output_names, feeds)``, ``get_inputs``,
``get_outputs``, ``get_modelmeta``), so an agent takes either; before it is handed out it is checked against
onnxruntime on probe positions (``verify``), so a file the recogniser misreads is refused, never played.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from . import _agents
from .onnx_reader import Graph, Node, read_graph

FLAT_CHANNELS, FLAT_VECTOR = 47, 1380  # the observation the family reads (fcm_env.encoding; checked below)
#: how close the native pass must come to onnxruntime: |a - b| <= TOLERANCE * max(1, |b|)
TOLERANCE = 1e-4


class UnknownNetwork(ValueError):
    """The file is not a design the native forward pass knows (onnxruntime runs it)."""


def _producers(graph: Graph) -> dict[str, Node]:
    return {out: node for node in graph.nodes for out in node.outputs}


def _consumers(graph: Graph) -> dict[str, list[Node]]:
    found: dict[str, list[Node]] = {}
    for node in graph.nodes:
        for name in node.inputs:
            found.setdefault(name, []).append(node)
    return found


def _weight(graph: Graph, node: Node, index: int, what: str) -> np.ndarray:
    if index >= len(node.inputs) or node.inputs[index] not in graph.initializers:
        raise UnknownNetwork(f"{what}: its {node.op_type} takes no stored weight as input {index}")
    return np.ascontiguousarray(graph.initializers[node.inputs[index]], dtype=np.float32)


def _only_consumer(consumers: dict[str, list[Node]], node: Node, op: str, what: str) -> Node:
    after = consumers.get(node.outputs[0], [])
    if len(after) != 1 or after[0].op_type != op:
        raise UnknownNetwork(f"{what}: expected {op} after its {node.op_type}, found "
                             f"{[n.op_type for n in after] or 'nothing'}")
    return after[0]


def recognise(graph: Graph) -> tuple[dict[str, int], dict[str, np.ndarray], str]:
    """(layer sizes, weights by ``_agents.Network``'s names, the graph format) of a graph of the family;
    ``UnknownNetwork`` naming the first thing that differs."""
    producers, consumers = _producers(graph), _consumers(graph)
    by_op: dict[str, list[Node]] = {}
    for node in graph.nodes:
        by_op.setdefault(node.op_type, []).append(node)
    weights: dict[str, np.ndarray] = {}
    # the channel mix: MatMul(mix [M, 47] (or its Expand over the batch), planes), Add([M, 1]), Relu
    if len(by_op.get("MatMul", [])) != 1:
        raise UnknownNetwork("the channel mix: expected one MatMul")
    matmul = by_op["MatMul"][0]
    source = producers.get(matmul.inputs[0])
    mix_node = source if source is not None and source.op_type == "Expand" else matmul
    weights["mix"] = _weight(graph, mix_node, 0, "the channel mix")
    add = _only_consumer(consumers, matmul, "Add", "the channel mix")
    weights["mix_bias"] = _weight(graph, add, 1, "the channel mix's bias").ravel()
    _only_consumer(consumers, add, "Relu", "the channel mix")
    mix, channels = weights["mix"].shape
    if channels != FLAT_CHANNELS:
        raise UnknownNetwork(f"the channel mix reads {channels} planes, this encoding has {FLAT_CHANNELS}")
    # two 3x3 convolutions, stride 2, padding 1, each then a Relu
    convs = by_op.get("Conv", [])
    if len(convs) != 2:
        raise UnknownNetwork(f"expected two convolutions, found {len(convs)}")
    for k, conv in enumerate(convs, 1):
        a = conv.attributes
        if (a.get("kernel_shape") != [3, 3] or a.get("strides") != [2, 2] or a.get("pads") != [1, 1, 1, 1]
                or a.get("dilations", [1, 1]) != [1, 1] or a.get("group", 1) != 1):
            raise UnknownNetwork(f"convolution {k}: not 3x3, stride 2, padding 1 ({a})")
        weights[f"conv{k}"] = _weight(graph, conv, 1, f"convolution {k}")
        weights[f"conv{k}_bias"] = _weight(graph, conv, 2, f"convolution {k}'s bias")
        _only_consumer(consumers, conv, "Relu", f"convolution {k}")
    # the dense layers: y = x W^T + b (Gemm, transB = 1), classified by what feeds them
    roles: dict[str, Node] = {}
    for gemm in by_op.get("Gemm", []):
        a = gemm.attributes
        if a.get("transB") != 1 or a.get("alpha", 1.0) != 1.0 or a.get("beta", 1.0) != 1.0 or a.get("transA", 0):
            raise UnknownNetwork(f"a dense layer that is not x W^T + b ({a})")
        fed_by = producers.get(gemm.inputs[0])
        op = fed_by.op_type if fed_by is not None else "the input"
        nxt = [n.op_type for n in consumers.get(gemm.outputs[0], [])]
        if op == "Flatten":
            role = "board"
        elif op == "Slice":
            role = "vector"
        elif op == "Concat" and nxt == ["Tanh"]:
            role = "policy"
        elif op == "Concat" and nxt == ["Relu"]:
            role = "value"
        elif op == "Tanh":
            role = "action"
        elif op == "Relu" and fed_by is not None and producers.get(fed_by.inputs[0]) in roles.values():
            role = "value_out"
        else:
            raise UnknownNetwork(f"a dense layer fed by {op} and followed by {nxt or 'nothing'}: not of the family")
        if role in roles:
            raise UnknownNetwork(f"two dense layers in the role {role}")
        roles[role] = gemm
        weights[role] = _weight(graph, gemm, 1, f"the {role} layer")
        weights[f"{role}_bias"] = _weight(graph, gemm, 2, f"the {role} layer's bias").ravel()
    for needed in ("board", "vector"):
        if needed not in roles:
            raise UnknownNetwork(f"no {needed} head")
        _only_consumer(consumers, roles[needed], "Relu", f"the {needed} head")
    has_policy, has_value = "policy" in roles, "value" in roles
    if has_policy != ("action" in roles) or has_value != ("value_out" in roles) or not (has_policy or has_value):
        raise UnknownNetwork(f"the heads are incomplete: dense layers {sorted(roles)}")
    shape = {"mix": mix, "conv1": weights["conv1"].shape[0], "conv2": weights["conv2"].shape[0],
             "board_features": weights["board"].shape[0], "vector_hidden": weights["vector"].shape[0]}
    if weights["vector"].shape[1] != FLAT_VECTOR:
        raise UnknownNetwork(f"the vector head reads {weights['vector'].shape[1]} values, this encoding has "
                             f"{FLAT_VECTOR}")
    if has_policy:
        shape["policy_hidden"] = weights["policy"].shape[0]
        shape["num_actions"] = weights["action"].shape[0]
        _check_mask_ops(graph, producers, roles["action"])
    if has_value:
        shape["value_hidden"] = weights["value"].shape[0]
    outputs = set(graph.outputs)
    wanted = ({"action", "masked_logits"} if has_policy else set()) | ({"value_logit"} if has_value else set())
    if not wanted <= outputs:
        raise UnknownNetwork(f"the graph's outputs {sorted(outputs)} lack {sorted(wanted - outputs)}")
    form = "policy-value/1" if has_policy and has_value else "policy/1" if has_policy else "value/1"
    return shape, weights, form


def _check_mask_ops(graph: Graph, producers: dict[str, Node], action: Node) -> None:
    """masked_logits = Where(action_mask > 0.5, logits, -1e9), action = ArgMax(first index): the exporter's."""
    where = producers.get("masked_logits")
    if where is None or where.op_type != "Where" or where.inputs[1] != action.outputs[0]:
        raise UnknownNetwork("masked_logits is not Where(mask, the action layer's logits, a constant)")
    greater, fill = producers.get(where.inputs[0]), producers.get(where.inputs[2])
    threshold = _constant(graph, producers, greater.inputs[1]) if greater is not None else None
    if greater is None or greater.op_type != "Greater" or threshold is None or float(threshold) != 0.5:
        raise UnknownNetwork("the mask test is not action_mask > 0.5")
    if fill is None or fill.op_type != "ConstantOfShape" or float(np.ravel(fill.attributes.get("value"))[0]) != -1e9:
        raise UnknownNetwork("illegal actions are not filled with -1e9")
    argmax = producers.get("action")
    if (argmax is None or argmax.op_type != "ArgMax" or argmax.inputs[0] != "masked_logits"
            or argmax.attributes.get("select_last_index", 0) != 0):
        raise UnknownNetwork("action is not ArgMax(masked_logits) with the first index on ties")


def _constant(graph: Graph, producers: dict[str, Node], name: str) -> Any:
    if name in graph.initializers:
        return np.ravel(graph.initializers[name])[0]
    node = producers.get(name)
    if node is not None and node.op_type == "Constant" and "value" in node.attributes:
        return np.ravel(node.attributes["value"])[0]
    return None


def load_network(source: str | Path | bytes) -> tuple[Any, str, dict[str, int]]:
    """(the C++ network, its graph format, its layer sizes) of an ONNX file of the family."""
    shape, weights, form = recognise(read_graph(source))
    return _agents.Network(shape, weights), form, shape


class NativeSession:
    """onnxruntime's ``InferenceSession`` face over the native forward pass (see the module docstring).

    ``reference`` is the onnxruntime session of the same file: its inputs, outputs and metadata are this
    session's, and ``verify`` compares the two on probe positions before the native pass is trusted.
    """

    def __init__(self, source: str | Path | bytes, reference: Any):
        self.network, self.format, self.shape = load_network(source)
        self.reference = reference

    def get_inputs(self) -> list:
        return self.reference.get_inputs()

    def get_outputs(self) -> list:
        return self.reference.get_outputs()

    def get_modelmeta(self) -> Any:
        return self.reference.get_modelmeta()

    def run(self, output_names: list[str] | None, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        if "observation" not in feeds:
            raise ValueError(f"feeds must hold 'observation', got {sorted(feeds)}")
        observations = np.ascontiguousarray(feeds["observation"], dtype=np.float32)
        masks = feeds.get("action_mask")
        if self.network.has_policy and masks is None:
            raise ValueError("a policy needs 'action_mask' in its feeds")
        out = self.network.forward(observations, None if masks is None else np.ascontiguousarray(masks))
        names = output_names or [o.name for o in self.get_outputs()]
        missing = [n for n in names if n not in out]
        if missing:
            raise ValueError(f"the native pass gives {sorted(out)}, not {missing}")
        return [out[n] for n in names]

    def verify(self, positions: int = 8, seed: int = 0) -> None:
        """``UnknownNetwork`` unless the native pass answers as onnxruntime does on ``positions`` probe
        positions (sparse non-negative observations like the encoder's, random masks)."""
        rng = np.random.default_rng(seed)
        size = self.get_inputs()[0].shape[-1]
        observations = (rng.random((positions, size)) < 0.05).astype(np.float32) * rng.random((positions, size),
                                                                                              dtype=np.float32)
        feeds = {"observation": observations}
        if self.network.has_policy:
            masks = (rng.random((positions, self.shape["num_actions"])) < 0.01).astype(np.float32)
            masks[:, 0] = 1.0
            feeds["action_mask"] = masks
        names = [o.name for o in self.get_outputs()]
        ours, theirs = self.run(names, feeds), self.reference.run(names, feeds)
        for name, a, b in zip(names, ours, theirs, strict=True):
            if name == "action":
                same = np.array_equal(a, b)
            else:
                b = np.asarray(b, dtype=np.float32)
                same = a.shape == b.shape and bool(np.all(np.abs(a - b) <= TOLERANCE * np.maximum(1.0, np.abs(b))))
            if not same:
                raise UnknownNetwork(f"the native pass differs from onnxruntime on {name}: the file is not of the "
                                     "family the native pass knows")

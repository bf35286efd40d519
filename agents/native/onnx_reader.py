"""The few parts of an ONNX file the native forward pass needs: its initializers (the weights), its nodes
(operator, inputs, outputs, attributes) and its outputs, read straight from the protobuf bytes.

Why our own reader: the core install carries onnxruntime, which runs a model but does not hand out its
weights, and not the ``onnx`` package (15 MB more, in the ``train`` extra). An ONNX file is a protobuf
``ModelProto``; the fields read here are few and stable (``onnx/onnx.proto``: ModelProto.graph = 7,
GraphProto.node = 1 / initializer = 5 / output = 12, NodeProto.input = 1 / output = 2 / op_type = 4 /
attribute = 5, AttributeProto.name = 1 / f = 2 / i = 3 / t = 5 / ints = 8, TensorProto.dims = 1 /
data_type = 2 / float_data = 4 / int64_data = 7 / name = 8 / raw_data = 9), and a test holds this reader to
the ``onnx`` package's on the shipped files. Anything this reader does not understand is a ``ValueError``
naming it; a file with weights stored outside it (``external_data``) is refused.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

#: TensorProto.DataType -> numpy dtype (the types shipped models use)
_DTYPES = {1: np.float32, 6: np.int32, 7: np.int64, 9: np.bool_, 11: np.float64}


@dataclass
class Node:
    op_type: str
    inputs: list[str]
    outputs: list[str]
    attributes: dict[str, object] = field(default_factory=dict)


@dataclass
class Graph:
    initializers: dict[str, np.ndarray]
    nodes: list[Node]
    outputs: list[str]


def _varint(data: bytes, at: int) -> tuple[int, int]:
    shift = value = 0
    while True:
        if at >= len(data):
            raise ValueError("a truncated varint: not a whole ONNX file")
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, at
        shift += 7


def _fields(data: bytes) -> list[tuple[int, int, object]]:
    """(field number, wire type, value) of one protobuf message: ints for varints, bytes otherwise."""
    out, at = [], 0
    while at < len(data):
        key, at = _varint(data, at)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, at = _varint(data, at)
        elif wire == 1:
            value, at = data[at:at + 8], at + 8
        elif wire == 2:
            size, at = _varint(data, at)
            value, at = data[at:at + size], at + size
        elif wire == 5:
            value, at = data[at:at + 4], at + 4
        else:
            raise ValueError(f"protobuf wire type {wire} is not one an ONNX file uses")
        if at > len(data):
            raise ValueError("a truncated field: not a whole ONNX file")
        out.append((number, wire, value))
    return out


def _signed(value: int) -> int:
    return value - (1 << 64) if value >= 1 << 63 else value


def _int64s(wire: int, value: object) -> list[int]:
    if wire == 0:
        return [_signed(value)]  # type: ignore[arg-type]
    ints, at, data = [], 0, value  # packed
    while at < len(data):  # type: ignore[arg-type]
        v, at = _varint(data, at)  # type: ignore[arg-type]
        ints.append(_signed(v))
    return ints


def _tensor(data: bytes) -> tuple[str, np.ndarray]:
    dims: list[int] = []
    name, dtype, raw = "", 0, None
    floats: list[bytes] = []
    int64s: list[int] = []
    for number, wire, value in _fields(data):
        if number == 1:
            dims += _int64s(wire, value)
        elif number == 2:
            dtype = value  # type: ignore[assignment]
        elif number == 4:
            floats.append(value)  # type: ignore[arg-type]
        elif number == 7:
            int64s += _int64s(wire, value)
        elif number == 8:
            name = value.decode()  # type: ignore[union-attr]
        elif number == 9:
            raw = value
        elif number in (13, 14) and value:
            raise ValueError(f"tensor {name or '?'}: its data lies outside the file (external_data)")
    if dtype not in _DTYPES:
        raise ValueError(f"tensor {name!r}: data type {dtype} is not one this reader knows")
    if raw is not None:
        array = np.frombuffer(raw, dtype=np.dtype(_DTYPES[dtype]).newbyteorder("<")).astype(_DTYPES[dtype])
    elif dtype == 1:
        array = np.frombuffer(b"".join(floats), dtype="<f4").astype(np.float32)
    elif dtype == 7:
        array = np.array(int64s, dtype=np.int64)
    else:
        raise ValueError(f"tensor {name!r}: no data this reader knows")
    count = int(np.prod(dims)) if dims else 1
    if array.size != count:
        raise ValueError(f"tensor {name!r}: {array.size} values for the shape {dims}")
    return name, array.reshape(dims)


def _attribute(data: bytes) -> tuple[str, object]:
    name, value = "", None
    ints: list[int] = []
    for number, wire, raw in _fields(data):
        if number == 1:
            name = raw.decode()  # type: ignore[union-attr]
        elif number == 2:
            value = float(np.frombuffer(raw, dtype="<f4")[0])  # type: ignore[arg-type]
        elif number == 3:
            value = _signed(raw)  # type: ignore[arg-type]
        elif number == 5:
            value = _tensor(raw)[1]  # type: ignore[arg-type]
        elif number == 8:
            ints += _int64s(wire, raw)
    return name, (ints if ints else value)


def _node(data: bytes) -> Node:
    node = Node("", [], [])
    for number, _, value in _fields(data):
        if number == 1:
            node.inputs.append(value.decode())  # type: ignore[union-attr]
        elif number == 2:
            node.outputs.append(value.decode())  # type: ignore[union-attr]
        elif number == 4:
            node.op_type = value.decode()  # type: ignore[union-attr]
        elif number == 5:
            key, attr = _attribute(value)  # type: ignore[arg-type]
            node.attributes[key] = attr
    return node


def read_graph(source: str | Path | bytes) -> Graph:
    """The graph of an ONNX file (a path or its bytes): initializers by name, nodes in order, output names."""
    data = source if isinstance(source, bytes) else Path(source).read_bytes()
    graphs = [value for number, wire, value in _fields(data) if number == 7 and wire == 2]
    if len(graphs) != 1:
        raise ValueError("not an ONNX model: no graph (ModelProto field 7)")
    initializers: dict[str, np.ndarray] = {}
    nodes: list[Node] = []
    outputs: list[str] = []
    for number, wire, value in _fields(graphs[0]):  # type: ignore[arg-type]
        if wire != 2:
            continue
        if number == 1:
            nodes.append(_node(value))  # type: ignore[arg-type]
        elif number == 5:
            name, array = _tensor(value)  # type: ignore[arg-type]
            initializers[name] = array
        elif number == 12:
            outputs += [v.decode() for n, _, v in _fields(value) if n == 1]  # type: ignore[arg-type, union-attr]
    return Graph(initializers, nodes, outputs)

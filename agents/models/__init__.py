"""Trained policies shipped inside the package, as ONNX files (run with onnxruntime, no torch).

``policy_2p.onnx`` is the 2-player policy that the agent spec ``policy`` plays
(``fcm_agents.load_agent("policy")``). It has the graph interface of
``training/common/export.py``: inputs ``observation`` float32 [batch, FLAT_SIZE] and
``action_mask`` float32 [batch, NUM_ACTIONS]; outputs ``action`` int64 [batch]
and ``masked_logits`` (illegal ids at -1e9), and ``value_logit`` [batch] (the logit that the
observing seat wins, from a value head on the policy's trunk: format ``policy-value/1``).
``policy_2p.json`` says where the file came from (``"placeholder": true`` for an untrained stand-in)
and how its head was fitted.

``policy_2p_reference.npz`` (repository only, not package data) holds positions
with the actions the torch checkpoint chose on them; a test checks that the ONNX
file chooses the same. ``fcm_training.sb3.ship`` writes both files from a
checkpoint (``python -m fcm_training.sb3.ship CHECKPOINT``).
"""

from __future__ import annotations

import atexit
import contextlib
from importlib import resources
from pathlib import Path

DEFAULT_PLAYERS = 2
MODEL_FILES = {2: "policy_2p.onnx", 3: "policy_3p.onnx", 4: "policy_4p.onnx", 5: "policy_5p.onnx"}  # player count -> shipped ONNX file
VALUE_FILES = {2: "value_2p.onnx"}  # player count -> shipped value network (the search's ``value=learned``)

_extracted = contextlib.ExitStack()  # files extracted from a zipped install live until exit
atexit.register(_extracted.close)


def _resource_path(filename: str) -> Path:
    resource = resources.files(__name__).joinpath(filename)
    if not resource.is_file():
        raise FileNotFoundError(filename)
    if isinstance(resource, Path):
        return resource
    return _extracted.enter_context(resources.as_file(resource))  # e.g. a zipped install


def _model_name(num_players: int | None) -> str:
    players = DEFAULT_PLAYERS if num_players is None else int(num_players)
    if players not in MODEL_FILES:
        shipped = ", ".join(f"{n} ({f})" for n, f in sorted(MODEL_FILES.items()))
        raise FileNotFoundError(f"no shipped policy for {players} players; shipped: {shipped}")
    return MODEL_FILES[players]


def shipped_model_path(num_players: int | None = None) -> Path:
    """The shipped ONNX policy for ``num_players`` (default: the 2-player one).

    Raises ``FileNotFoundError`` when there is none for that player count or the
    file is missing from this install.
    """
    filename = _model_name(num_players)
    try:
        return _resource_path(filename)
    except FileNotFoundError:
        where = resources.files(__name__)
        raise FileNotFoundError(
            f"the shipped policy {filename} is missing from {where}: reinstall fcm-magnate, or write it "
            f"from a checkpoint with `python -m fcm_training.sb3.ship CHECKPOINT`"
        ) from None


def reference_path(num_players: int | None = None) -> Path:
    """Where the torch reference of the shipped model lives (``policy_2p_reference.npz``); may not exist."""
    filename = _model_name(num_players).removesuffix(".onnx") + "_reference.npz"
    return Path(__file__).resolve().parent / filename


def metadata_path(num_players: int | None = None) -> Path:
    """Where the provenance JSON of the shipped model lives (``policy_2p.json``); may not exist."""
    return Path(__file__).resolve().parent / (_model_name(num_players).removesuffix(".onnx") + ".json")


def shipped_value_path(num_players: int) -> Path | None:
    """The shipped value network for ``num_players`` (``value_logit = f(observation)``), or None where
    none is shipped for that size or the file is missing from this install."""
    filename = VALUE_FILES.get(int(num_players))
    if filename is None:
        return None
    try:
        return _resource_path(filename)
    except FileNotFoundError:
        return None


#: the graph formats a model file can have (``graph_format``): the policy's interface, the value
#: network's, and the policy-value network's (the policy's with a ``value_logit`` output)
FORMATS = ("policy/1", "value/1", "policy-value/1")
#: the key of the ONNX metadata entry in which an exported file names its format
FORMAT_KEY = "fcm_format"


def graph_format(session) -> str:
    """The format of an ONNX graph (an onnxruntime session): the one the file names in its metadata
    (``FORMAT_KEY``), else the one its inputs and outputs make (files exported before formats were
    named: ``policy_2p.onnx``, ``value_2p.onnx``); ``ValueError`` for a graph of none of them."""
    named = session.get_modelmeta().custom_metadata_map.get(FORMAT_KEY)
    if named is not None:
        if named not in FORMATS:
            raise ValueError(f"the model names an unknown format {named!r}; this version reads {', '.join(FORMATS)}")
        return named
    inputs = {i.name for i in session.get_inputs()}
    outputs = {o.name for o in session.get_outputs()}
    if inputs == {"observation", "action_mask"} and {"action", "masked_logits"} <= outputs:
        return "policy-value/1" if "value_logit" in outputs else "policy/1"
    if inputs == {"observation"} and "value_logit" in outputs:
        return "value/1"
    raise ValueError(f"not an fcm-magnate model: inputs {sorted(inputs)}, outputs {sorted(outputs)}")


__all__ = ["DEFAULT_PLAYERS", "FORMATS", "FORMAT_KEY", "MODEL_FILES", "VALUE_FILES", "graph_format", "metadata_path", "reference_path", "shipped_model_path", "shipped_value_path"]

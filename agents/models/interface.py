"""What a shipped model file takes and gives, in words a front-end author needs and nothing else.

Each model card (the ``.json`` beside an ``.onnx`` file) carries ``"interface"``: the inputs and
outputs of its graph format (names, dtypes, shapes) and what an action id means. A test holds the
cards to this table and the table to the files' own graphs (``tests/agents/test_model_cards.py``).
"""

from __future__ import annotations

from typing import Any

from fcm_env.encoding import FLAT_SIZE, NUM_ACTIONS

_OBSERVATION = {
    "name": "observation", "dtype": "float32", "shape": ["batch", FLAT_SIZE],
    "what": "the flat observation of the seat to move: fcm_env.encoding.Observer().observe_flat(game, player) "
            "(the env's observation, docs/observation.md), one row per position",
}
_MASK = {
    "name": "action_mask", "dtype": "float32", "shape": ["batch", NUM_ACTIONS],
    "what": "1.0 for each legal action id, 0.0 elsewhere; the env gives the mask as int8 [NUM_ACTIONS]: "
            "mask.astype(numpy.float32)[None] makes it a batch of one",
}
_ACTION = {
    "name": "action", "dtype": "int64", "shape": ["batch"],
    "what": "the chosen action id (the most likely legal one): always legal under the mask given",
}
_LOGITS = {
    "name": "masked_logits", "dtype": "float32", "shape": ["batch", NUM_ACTIONS],
    "what": "the policy's logits with illegal ids at -1e9 (softmax them to sample instead of taking the best)",
}
_VALUE = {
    "name": "value_logit", "dtype": "float32", "shape": ["batch"],
    "what": "the logit that the observing seat wins the game (sigmoid: a probability)",
}
#: what an action id is, in every card
ACTION_IDS = (f"an action id is a flat id 0..{NUM_ACTIONS - 1} of fcm_env.encoding.CODEC (docs/actions.md lists "
              "its segments): CODEC.decode(id, game) gives the engine's Action, and the JSON protocol "
              "(fcm serve, docs/protocol.md) takes it as {\"id\": id}")

_GRAPHS = {
    "policy/1": ([_OBSERVATION, _MASK], [_ACTION, _LOGITS]),
    "value/1": ([_OBSERVATION], [_VALUE]),
    "policy-value/1": ([_OBSERVATION, _MASK], [_ACTION, _LOGITS, _VALUE]),
}


def interface(graph_format: str) -> dict[str, Any]:
    """The ``"interface"`` entry of a model card of ``graph_format`` (one of ``FORMATS``)."""
    if graph_format not in _GRAPHS:
        raise ValueError(f"unknown model format {graph_format!r}; formats: {', '.join(_GRAPHS)}")
    inputs, outputs = _GRAPHS[graph_format]
    card = {"inputs": [dict(i) for i in inputs], "outputs": [dict(o) for o in outputs]}
    if graph_format != "value/1":
        card["action_ids"] = ACTION_IDS
    return card

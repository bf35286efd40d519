"""Encoding of the engine for learning agents: the flat action codec, the exact legal-action
mask and the observation encoder (numpy only; the env layer builds on these)."""

from .action_codec import CODEC, NUM_ACTIONS, ActionCodec, Segment, action_to_string, decode, encode
from .layout import Channel, ObservationLayout, VectorSlice, observation_layout
from .mask import legal_action_ids, legal_action_mask
from .observation import BOARD_SHAPE, FLAT_SIZE, VECTOR_SIZE, Observation, Observer

__all__ = [
    "BOARD_SHAPE",
    "CODEC",
    "FLAT_SIZE",
    "NUM_ACTIONS",
    "VECTOR_SIZE",
    "ActionCodec",
    "Channel",
    "Observation",
    "ObservationLayout",
    "Observer",
    "Segment",
    "VectorSlice",
    "action_to_string",
    "decode",
    "encode",
    "legal_action_ids",
    "legal_action_mask",
    "observation_layout",
]

"""The rules engine. Imports only numpy and ``fcm_env.data``."""

from .board import UNREACHABLE, AirplaneLane, Board
from .tiles import TilePlacement

__all__ = ["UNREACHABLE", "AirplaneLane", "Board", "TilePlacement"]

"""The rules engine. Imports only numpy and ``fcm_env.data``."""

from fcm_env.engine.board import UNREACHABLE, AirplaneLane, Board
from fcm_env.engine.board.tiles import TilePlacement

__all__ = ["UNREACHABLE", "AirplaneLane", "Board", "TilePlacement"]

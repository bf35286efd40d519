"""The map: tiles, the assembled board and its road tables, drink routes, placement shapes, occupancy.

``Board`` (``geometry``) is built once per game and never changes after setup (roads never
move), so the road graph, the distances and the mailbox blocks are precomputed there;
``tiles`` holds the 20 printed tiles, ``placement`` the footprints of restaurants, houses
and campaigns, ``routes`` the drink hauls of buyers, and ``occupancy`` which squares a
game state's pieces cover.
"""

from fcm_env.engine.board.geometry import UNREACHABLE, AirplaneLane, Board, Square, axis_of

__all__ = ["UNREACHABLE", "AirplaneLane", "Board", "Square", "axis_of"]

"""Footprints of placement actions and airplane lanes, so the page can map clicks to squares.

Why: the browser draws the map and lets the player click where a piece goes; it needs, for
every legal placement, the squares the piece would cover (the hover preview) and one *key*
square the click lands on (a restaurant's entrance, a house's top-left square, a campaign's
anchor, an airplane's first lane square). Computed here from public data (the legal actions
and the map of a view) with the engine's own placement geometry, never in JavaScript.

Squares are ``[row, col]``; airplanes fly in the one-square margin around the map, so their
squares use row or column -1 or the map's height / width.
"""

from __future__ import annotations

from typing import Any

from fcm_env.data import marketing_tile
from fcm_env.engine.actions import Action, ActionKind
from fcm_env.engine.board import AirplaneLane, Board
from fcm_env.engine.board.placement import airplane_from_anchor
from fcm_env.engine.queries import placement_footprint

PLACEMENT_KINDS = frozenset({"PLACE_RESTAURANT", "PLACE_HOUSE", "PLACE_GARDEN", "PLACE_CAMPAIGN"})


def _sq(squares: Any) -> list[list[int]]:
    return [[int(r), int(c)] for r, c in squares]


def airplane_lane(row: int, col: int, orientation: int, number: int, board: Board) -> list[list[int]]:
    """The margin squares an airplane campaign (anchor ``row, col, orientation``) flies over."""
    lane = airplane_from_anchor(row, col, orientation, marketing_tile(number).along_edge, board)
    return _lane_squares(lane, board)


def _lane_squares(lane: AirplaneLane, board: Board) -> list[list[int]]:
    height, width = board.shape
    edge = int(lane.edge)
    return [list({0: (-1, k), 1: (k, width), 2: (height, k), 3: (k, -1)}[edge]) for k in lane.span()]


def placement_shape(action: dict[str, Any], tile: int | None, board: Board) -> dict[str, Any]:
    """``{key, squares, entrance, garden}`` of one described placement action.

    ``tile`` is the campaign tile being placed (the pending decision's ``tile`` field);
    it is needed for ``PLACE_CAMPAIGN`` only. The shape is the engine's
    (``queries.placement_footprint``); the key is the square a click places it by.
    """
    kind, p = action["kind"], action["params"]
    if kind not in PLACEMENT_KINDS:
        raise ValueError(f"{kind} is not a placement")
    engine_action = Action(ActionKind[kind], (p["row"], p["col"], p["orientation"]))
    shape = placement_footprint(board, engine_action, tile)
    squares = _lane_squares(shape.lane, board) if shape.lane is not None else _sq(shape.squares)
    entrance = list(shape.entrance) if shape.entrance is not None else None
    if kind == "PLACE_RESTAURANT":
        key = entrance
    elif kind == "PLACE_HOUSE":
        key = min(squares)
    elif kind == "PLACE_GARDEN":
        key = [p["row"], p["col"]]
    else:
        key = squares[0]
    return {"key": [int(v) for v in key], "squares": squares, "entrance": entrance, "garden": _sq(shape.garden)}


def with_shapes(actions: list[dict[str, Any]], view: dict[str, Any]) -> list[dict[str, Any]]:
    """The legal actions with a ``shape`` added to each placement (copies; the input is unchanged)."""
    board = Board.from_tiles(view["map"]["tiles"])
    pending = view.get("pending") or {}
    tile = (pending.get("fields") or {}).get("tile")
    out = []
    for action in actions:
        if action["kind"] in PLACEMENT_KINDS:
            action = {**action, "shape": placement_shape(action, tile, board)}
        out.append(action)
    return out


def with_lanes(view: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``view`` whose airplane campaigns carry ``lane`` (their margin squares)."""
    board = Board.from_tiles(view["map"]["tiles"])
    campaigns = []
    for c in view["campaigns"]:
        if c["type"] == "airplane":
            c = {**c, "lane": airplane_lane(c["row"], c["col"], c["orientation"], c["number"], board)}
        campaigns.append(c)
    return {**view, "campaigns": campaigns}

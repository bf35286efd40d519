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

from fcm_env.data import CampaignType, marketing_tile
from fcm_env.engine.board import Board
from fcm_env.engine.placement import (
    airplane_from_anchor,
    campaign_squares,
    garden_squares,
    house_footprint,
    restaurant_entrance,
    restaurant_squares,
)

PLACEMENT_KINDS = frozenset({"PLACE_RESTAURANT", "PLACE_HOUSE", "PLACE_GARDEN", "PLACE_CAMPAIGN"})


def _sq(squares: Any) -> list[list[int]]:
    return [[int(r), int(c)] for r, c in squares]


def airplane_lane(row: int, col: int, orientation: int, number: int, board: Board) -> list[list[int]]:
    """The margin squares an airplane campaign (anchor ``row, col, orientation``) flies over."""
    lane = airplane_from_anchor(row, col, orientation, marketing_tile(number).along_edge, board)
    height, width = board.shape
    edge = int(lane.edge)
    return [list({0: (-1, k), 1: (k, width), 2: (height, k), 3: (k, -1)}[edge]) for k in lane.span()]


def placement_shape(action: dict[str, Any], tile: int | None, board: Board) -> dict[str, Any]:
    """``{key, squares, entrance, garden}`` of one described placement action.

    ``tile`` is the campaign tile being placed (the pending decision's ``tile`` field);
    it is needed for ``PLACE_CAMPAIGN`` only.
    """
    kind, p = action["kind"], action["params"]
    row, col, o = p["row"], p["col"], p["orientation"]
    entrance: list[int] | None = None
    garden: list[list[int]] = []
    if kind == "PLACE_RESTAURANT":
        squares = _sq(restaurant_squares(row, col, o))
        entrance = list(restaurant_entrance(row, col, o))
        key = entrance
    elif kind == "PLACE_HOUSE":
        house, yard = house_footprint(row, col, o)
        squares, garden = _sq(house), _sq(yard)
        key = min(squares)
    elif kind == "PLACE_GARDEN":
        squares = _sq(garden_squares(row, col, o))
        key = [row, col]
    elif kind == "PLACE_CAMPAIGN":
        if tile is None:
            raise ValueError("PLACE_CAMPAIGN needs the tile being placed")
        spec = marketing_tile(tile)
        if spec.type == CampaignType.AIRPLANE:
            squares = airplane_lane(row, col, o, tile, board)
        else:
            squares = _sq(campaign_squares(row, col, o, spec))
        key = squares[0]
    else:
        raise ValueError(f"{kind} is not a placement")
    return {"key": [int(v) for v in key], "squares": squares, "entrance": entrance, "garden": garden}


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

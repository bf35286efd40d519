"""The terminal map and the preview of a placement before it is confirmed.

Why a module of its own: drawing is apart from the story and the prompt; three characters per
square keep house numbers from touching restaurant digits, and tile borders show the map's tiles.
"""

from __future__ import annotations

from fcm_env.data import TILE_SIZE, CampaignType, Direction, Good
from fcm_env.engine.actions import Action, ActionKind
from fcm_env.engine.board.occupancy import house_grid
from fcm_env.engine.board.placement import (
    restaurant_entrance,
    restaurant_squares,
)
from fcm_env.engine.board.tiles import BRIDGE, DRINK, HOUSE, ROAD
from fcm_env.engine.queries import placement_footprint
from fcm_env.engine.state import GameState
from fcm_env.terminal.words import good_name, ordinal

# ------------------------------------------------------------------ the map


def _cells(state: GameState) -> list[list[str]]:
    """Three characters per square: `` . `` empty, ``###`` road, ``H12`` house 12 (``H4 `` house 4), ``[1]`` restaurant
    of player 1 (``<1>`` its entrance, ``(1)`` entrance while coming soon), `` g `` garden,
    ``$11`` / ``M 7`` / ``R 2`` billboard, mailbox, radio campaign by number."""
    board = state.board
    houses = house_grid(state)
    drinks = {int(Good.BEER): " b ", int(Good.LEMONADE): " l ", int(Good.SODA): " s "}
    cells = []
    for r in range(board.height):
        row = []
        for c in range(board.width):
            kind = int(board.kind[r, c])
            if kind == ROAD:
                row.append("###")
            elif kind == BRIDGE:
                row.append("=X=")
            elif kind == DRINK:
                row.append(drinks[int(board.drink[r, c])])
            elif kind == HOUSE or houses[r, c] > 0:
                row.append(f"H{int(houses[r, c]):<2}")
            else:
                row.append(" . ")
        cells.append(row)
    for house in state.houses.values():
        for r, c in house.garden:
            cells[r][c] = " g "
    letters = {int(CampaignType.BILLBOARD): "$", int(CampaignType.MAILBOX): "M", int(CampaignType.RADIO): "R"}
    for camp in state.campaigns:
        for r, c in camp.squares:
            cells[r][c] = f"{letters.get(camp.kind, '?')}{camp.number:>2}"
    for p in state.players:
        for rest in p.restaurants:
            for r, c in restaurant_squares(rest.row, rest.col, rest.orientation):
                cells[r][c] = f"[{p.player}]"
            r, c = restaurant_entrance(rest.row, rest.col, rest.orientation)
            cells[r][c] = f"({p.player})" if rest.coming_soon else f"<{p.player}>"
    return cells


def _grid(cells: list[list[str]], rows: range, cols: range) -> list[str]:
    """Rows ``rows`` x columns ``cols`` of the cell grid with row / column numbers and tile borders."""
    def bar(c: int) -> str:
        return "|" if c % TILE_SIZE == 0 else ""

    header = "    " + "".join(bar(c).replace("|", " ") + f"{c:^3}" for c in cols)
    border = "    " + "".join(bar(c).replace("|", "+") + "---" for c in cols) + "+"
    lines = [header.rstrip(), border]
    for r in rows:
        lines.append(f"{r:>3} " + "".join(bar(c) + cells[r][c] for c in cols) + "|")
        if r % TILE_SIZE == TILE_SIZE - 1 or r == rows[-1]:
            lines.append(border)
    return lines


LEGEND = ("legend: ### road  =X= bridge  b/l/s beer/lemonade/soda  H12 house 12  g garden\n"
          "        [1] restaurant of player 1, <1> its entrance ((1) coming soon)  $11 M 7 R 2 campaigns")


def board_text(state: GameState) -> str:
    """The whole map, then the houses' demand, the campaigns and the bank (all public)."""
    board = state.board
    lines = _grid(_cells(state), range(board.height), range(board.width))
    lines.append(LEGEND)
    for number, house in sorted(state.houses.items()):
        if house.demand:
            wants = ", ".join(good_name(g) for g in house.demand)
            lines.append(f"house {number}{' (garden)' if house.has_garden else ''} wants: {wants}")
    for camp in sorted(state.campaigns, key=lambda c: c.number):
        left = "forever" if camp.eternal else f"{camp.remaining} more turn(s)"
        lines.append(f"campaign #{camp.number} {CampaignType(camp.kind).key} of player {camp.owner}: "
                     f"{good_name(camp.product)}, {left}")
    order = ", ".join(f"{ordinal(i + 1)} player {p}" for i, p in enumerate(state.turn_order))
    lines.append(f"bank ${state.bank} (breaks {state.bank_breaks}); turn order: {order}")
    return "\n".join(lines)


def footprint(action: Action, state: GameState, tile: int | None = None) -> dict[tuple[int, int], str]:
    """The squares a placement would cover, each with its preview mark (``*E*`` a restaurant's
    entrance, ``*g*`` a garden, ``*A*`` an airplane's rows or columns, ``***`` the rest)."""
    shape = placement_footprint(state, action, tile)
    mark = {ActionKind.PLACE_HOUSE: "*H*", ActionKind.PLACE_GARDEN: "*g*"}.get(action.kind, "***")
    marks = {sq: mark for sq in shape.squares}
    marks.update({sq: "*g*" for sq in shape.garden})
    if shape.entrance is not None:
        marks[shape.entrance] = "*E*"
    if shape.lane is not None:
        board = state.board
        if shape.lane.edge in (Direction.N, Direction.S):
            return {(r, c): "*A*" for r in range(board.height) for c in shape.lane.span()}
        return {(r, c): "*A*" for r in shape.lane.span() for c in range(board.width)}
    return marks


def preview_text(action: Action, state: GameState, tile: int | None = None, margin: int = 3) -> str:
    """The map around a placement with the squares it would cover marked."""
    marks = footprint(action, state, tile)
    cells = _cells(state)
    for (r, c), mark in marks.items():
        cells[r][c] = mark
    rs = [r for r, _ in marks]
    cs = [c for _, c in marks]
    board = state.board
    rows = range(max(0, min(rs) - margin), min(board.height, max(rs) + margin + 1))
    cols = range(max(0, min(cs) - margin), min(board.width, max(cs) + margin + 1))
    return "\n".join(_grid(cells, rows, cols))

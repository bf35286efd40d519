"""The terminal's map (with the public state under it) and the preview of a placement before it is
confirmed.

Why a module of its own: drawing is apart from the story and the prompt. The map is
``fcm_env.text.map`` at three characters per square (house numbers never touch restaurant digits)
with the pieces of ``fcm_env.text.state.piece_marks``; this module adds what ``fcm play`` prints
under it and the marks of a placement's footprint.
"""

from __future__ import annotations

from fcm_env.data import CampaignType, Direction
from fcm_env.engine.actions import Action, ActionKind
from fcm_env.engine.board.occupancy import house_grid
from fcm_env.engine.queries import placement_footprint
from fcm_env.engine.state import GameState
from fcm_env.text.map import render_ascii
from fcm_env.text.state import piece_marks
from fcm_env.text.words import good_name, ordinal

WIDTH = 3  # characters per square

# ------------------------------------------------------------------ the map


def board_text(state: GameState) -> str:
    """The whole map, then the houses' demand, the campaigns and the bank (all public)."""
    lines = [render_ascii(state.board, piece_marks(state, WIDTH), house_grid=house_grid(state), width=WIDTH)]
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
    rs = [r for r, _ in marks]
    cs = [c for _, c in marks]
    board = state.board
    rows = range(max(0, min(rs) - margin), min(board.height, max(rs) + margin + 1))
    cols = range(max(0, min(cs) - margin), min(board.width, max(cs) + margin + 1))
    return render_ascii(board, {**piece_marks(state, WIDTH), **marks}, house_grid=house_grid(state), width=WIDTH,
                        legend=False, rows=rows, cols=cols)

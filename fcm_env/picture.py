"""Board pictures drawn with Pillow: the map, a player panel beside it and a legend below.

Used by the ``rgb_array`` render mode of the envs, ``fcm replay --png`` and ``docs/board.png``.
It lives outside ``fcm_env.engine`` because the engine imports only numpy and the standard library.

Layout (fixed geometry computed from the map size and ``scale`` alone, never from measured
text, so every state of a map gives a picture of the same size on every Pillow version)::

    +--------------------------+----------------+
    | map + 1-square margin     | panel: round,  |
    | (airplanes fly there)     | phase, bank,   |
    |                          | one block per  |
    |                          | player (a gold |
    |                          | band: winner)  |
    +--------------------------+----------------+
    | legend: what each colour and mark means   |
    | (grid of cells, then the campaign entry   |
    |  on full-width lines)                     |
    +-------------------------------------------+

Text uses Pillow's built-in font, ``ImageFont.load_default(size)`` (Aileron Regular drawn by
FreeType; Pillow >= 10.1). The same state gives the same bytes with the same Pillow build;
glyph pixels may differ between Pillow / FreeType versions (docs/board.png drawn with Pillow 10.1 /
FreeType 2.13.2 and with Pillow 13 / FreeType 2.14.3: same size, 40 text pixels differ), so tests
check structure (size, colours of squares, the text lines of ``panel_lines`` / ``legend_labels``),
not pixel hashes.

docs/board.png is a seeded game of 4 heuristic agents at step 344 (round 9, working)::

    play_game([make_agent("heuristic", s) for s in range(1, 5)], seed=5, max_rounds=30).record.save("g.json")
    fcm replay g.json --step 344 --png docs/board.png
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from fcm_env.data import TILE_SIZE, CampaignType, Good, marketing_tile
from fcm_env.engine.board.placement import airplane_from_anchor, restaurant_entrance, restaurant_squares
from fcm_env.engine.board.tiles import BRIDGE, DRINK, ROAD
from fcm_env.engine.phases.flow import winners
from fcm_env.engine.state import Campaign, GameState

RGB = tuple[int, int, int]
Box = tuple[int, int, int, int]

#: pixels per map square unless told otherwise; below MIN_SCALE the text is unreadable
DEFAULT_SCALE = 24
MIN_SCALE = 16
MAX_PLAYERS = 5

PLAYER_COLORS: tuple[RGB, ...] = ((210, 45, 45), (40, 80, 200), (35, 145, 65), (135, 65, 185), (30, 30, 30))
GOOD_COLORS: dict[int, RGB] = {
    int(Good.BURGER): (120, 70, 35),
    int(Good.PIZZA): (240, 125, 35),
    int(Good.BEER): (235, 195, 45),
    int(Good.LEMONADE): (245, 150, 195),
    int(Good.SODA): (90, 195, 235),
}
#: the letter on a drink source square
DRINK_LETTERS = {int(Good.BEER): "B", int(Good.LEMONADE): "L", int(Good.SODA): "S"}
#: the letter before the remaining count on a campaign tile
CAMPAIGN_LETTERS = {int(CampaignType.BILLBOARD): "$", int(CampaignType.MAILBOX): "M",
                    int(CampaignType.RADIO): "R", int(CampaignType.AIRPLANE): "A"}

BACKGROUND: RGB = (255, 255, 255)
MARGIN_COLOR: RGB = (246, 246, 246)
EMPTY_COLOR: RGB = (238, 234, 216)
GRID_COLOR: RGB = (226, 221, 200)
INDEX_COLOR: RGB = (140, 140, 140)
ROAD_COLOR: RGB = (90, 90, 90)
BRIDGE_COLOR: RGB = (150, 150, 180)
HOUSE_COLOR: RGB = (170, 120, 90)
HOUSE_EDGE: RGB = (110, 70, 45)
GARDEN_COLOR: RGB = (120, 190, 95)
GARDEN_EDGE: RGB = (80, 145, 60)
BORDER_COLOR: RGB = (40, 40, 40)
TEXT_COLOR: RGB = (20, 20, 20)
PANEL_COLOR: RGB = (250, 248, 240)
WHITE: RGB = (255, 255, 255)
#: the thin lines on both sides of a campaign's owner frame: every player colour (black included)
#: stands out from every product colour (brown included) and from the roads around the tile
FRAME_HALO: RGB = WHITE
#: a demand token's two rings, outer then inner: the dark one stands out from the house and from
#: the light goods, the white one from the dark goods (a brown burger on a brown house)
DEMAND_EDGE: RGB = TEXT_COLOR
DEMAND_RING: RGB = WHITE
#: the band behind a winner's lines in the panel of a finished game
WINNER_BAND: RGB = (250, 215, 90)

LEGEND_COLUMN_SQUARES = 11  # width of one legend column, in squares


# ------------------------------------------------------------------ geometry


@dataclass(frozen=True)
class Layout:
    """Where the map, the panel and the legend go (pixels)."""

    scale: int
    rows: int
    cols: int

    @property
    def map_w(self) -> int:
        return (self.cols + 2) * self.scale

    @property
    def map_h(self) -> int:
        return (self.rows + 2) * self.scale

    @property
    def line_h(self) -> int:
        return self.scale * 4 // 5 + 2

    @property
    def pad(self) -> int:
        return self.scale // 2

    @property
    def panel_w(self) -> int:
        return 11 * self.scale

    @property
    def body_h(self) -> int:
        """Map height, or taller when the panel of a 5-player game needs it."""
        return max(self.map_h, _panel_row_count(MAX_PLAYERS) * self.line_h + 2 * self.pad)

    @property
    def width(self) -> int:
        return self.map_w + self.panel_w

    @property
    def legend_cols(self) -> int:
        return max(1, (self.width - 2 * self.pad) // (LEGEND_COLUMN_SQUARES * self.scale))

    @property
    def legend_grid_rows(self) -> int:
        """Rows of legend cells; the campaign entry's full-width lines come after them."""
        return -(-len(LEGEND) // self.legend_cols)

    @property
    def legend_h(self) -> int:
        rows = self.legend_grid_rows + len(CAMPAIGN_LEGEND)
        return rows * (self.scale + 4) + 2 * self.pad

    @property
    def height(self) -> int:
        return self.body_h + self.legend_h

    def square(self, r: int, c: int) -> Box:
        """The pixel box (inclusive) of map square ``(r, c)``; -1 and H / W are the margin."""
        x, y = (c + 1) * self.scale, (r + 1) * self.scale
        return x, y, x + self.scale - 1, y + self.scale - 1


def layout(rows: int, cols: int, scale: int = DEFAULT_SCALE) -> Layout:
    """The layout of a ``rows x cols`` map (ValueError below ``MIN_SCALE``)."""
    if isinstance(scale, bool) or not isinstance(scale, (int, np.integer)) or scale < MIN_SCALE:
        raise ValueError(f"scale must be an int of at least {MIN_SCALE} pixels per square, got {scale!r}")
    return Layout(int(scale), int(rows), int(cols))


@cache
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def _text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, fill: RGB,
          anchor: str = "mm", backing: RGB | None = None) -> None:
    """Text at ``xy``; ``backing``: a 1-pixel outline of that colour, for text that crosses lines."""
    draw.text(xy, text, fill=fill, font=_font(size), anchor=anchor, stroke_width=0 if backing is None else 1,
              stroke_fill=backing)


def _ink_on(color: RGB) -> RGB:
    """Dark text on a light colour, white on a dark one."""
    r, g, b = color
    return TEXT_COLOR if 299 * r + 587 * g + 114 * b > 140_000 else WHITE


def _pale(color: RGB) -> RGB:
    return tuple((v + 2 * 255) // 3 for v in color)  # type: ignore[return-value]


def _union(boxes: list[Box]) -> Box:
    return min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes)


def player_color(player: int) -> RGB:
    """The chain colour of a player id."""
    return PLAYER_COLORS[player % len(PLAYER_COLORS)]


# ------------------------------------------------------------------ text of the panel


def _panel_row_count(players: int) -> int:
    return 5 + 3 * players  # 4 header lines + a gap, then 2 lines and a gap per player


def panel_rows(state: GameState) -> list[tuple[str, int | None, bool]]:
    """The panel's lines: (text, player whose colour swatch goes before it or None, indented)."""
    rounds = f"round {state.round}" if state.max_rounds is None else f"round {state.round}/{state.max_rounds}"
    breaks = f" (broken {state.bank_breaks}x)" if state.bank_breaks else ""
    rows: list[tuple[str, int | None, bool]] = [
        (rounds, None, False),
        (f"phase {state.phase.name.lower().replace('_', ' ')}", None, False),
        (f"bank ${state.bank}{breaks}", None, False),
        (f"turn order {' '.join(map(str, state.turn_order)) or '-'}", None, False),
        ("", None, False),
    ]
    won = winners(state)  # () while the game runs
    for p in state.players:
        mark = "  WINNER" if p.player in won else "  BANKRUPT" if p.bankrupt else ""
        rows.append((f"player {p.player}: ${p.cash}{mark}", p.player, False))
        n, m = len(p.restaurants), len(p.milestones)
        broke = "bankrupt, " if p.bankrupt and p.player in won else ""  # every player went bankrupt (D45)
        rows.append((f"{broke}{n} restaurant{'' if n == 1 else 's'}, {m} milestone{'' if m == 1 else 's'}", None,
                     True))
        rows.append(("", None, False))
    return rows


def panel_lines(state: GameState) -> list[str]:
    """The text lines drawn in the player panel, top to bottom (blank lines are gaps)."""
    return [row[0] for row in panel_rows(state)]


# ------------------------------------------------------------------ drawing the map


def _draw_squares(draw: ImageDraw.ImageDraw, state: GameState, lay: Layout) -> None:
    board = state.board
    s = lay.scale
    for r in range(lay.rows):
        for c in range(lay.cols):
            kind = int(board.kind[r, c])
            box = lay.square(r, c)
            if kind == ROAD:
                draw.rectangle(box, fill=ROAD_COLOR)
            elif kind == BRIDGE:
                draw.rectangle(box, fill=BRIDGE_COLOR)
                inset = s // 4
                draw.rectangle((box[0] + inset, box[1] + inset, box[2] - inset, box[3] - inset), outline=ROAD_COLOR,
                               width=max(1, s // 12))
            else:
                draw.rectangle(box, fill=EMPTY_COLOR, outline=GRID_COLOR)
            if kind == DRINK:
                _drink_token(draw, box, int(board.drink[r, c]), s)


def _drink_token(draw: ImageDraw.ImageDraw, box: Box, good: int, s: int) -> None:
    inset = s // 10
    color = GOOD_COLORS[good]
    draw.ellipse((box[0] + inset, box[1] + inset, box[2] - inset, box[3] - inset), fill=color,
                 outline=TEXT_COLOR, width=1)
    _text(draw, ((box[0] + box[2] + 1) / 2, (box[1] + box[3] + 1) / 2), DRINK_LETTERS[good], s * 3 // 5,
          _ink_on(color))


def _draw_houses(draw: ImageDraw.ImageDraw, state: GameState, lay: Layout) -> None:
    s = lay.scale
    for house in state.houses.values():
        for sq in house.garden:
            draw.rectangle(lay.square(*sq), fill=GARDEN_COLOR, outline=GARDEN_EDGE)
    for number, house in sorted(state.houses.items()):
        x0, y0, x1, y1 = _union([lay.square(*sq) for sq in house.squares])
        draw.rectangle((x0, y0, x1, y1), fill=HOUSE_COLOR, outline=HOUSE_EDGE, width=max(1, s // 12))
        _demand_tokens(draw, house.demand, (x0, y0, x1, y1), s)
        _text(draw, ((x0 + x1 + 1) / 2, y0 + s * 0.6), str(number), s * 17 // 20, WHITE)  # over many tokens


def _demand_tokens(draw: ImageDraw.ImageDraw, demand: list[int], box: Box, s: int) -> None:
    """Demand tokens in rows along the house's bottom edge, filled left to right."""
    d = max(5, s // 2)
    gap = max(1, s // 12)
    per_row = max(1, (box[2] - box[0] + 1 - gap) // (d + gap))
    for i, good in enumerate(demand):
        row, col = divmod(i, per_row)
        x = box[0] + gap + col * (d + gap)
        y = box[3] - gap - d - row * (d + gap)
        _token(draw, (x, y, x + d, y + d), GOOD_COLORS[good], s)


def _token(draw: ImageDraw.ImageDraw, box: Box, color: RGB, s: int) -> None:
    """A demand token: the good's colour inside a dark and a white ring, so it shows on any house."""
    ring = max(1, s // 16)
    draw.ellipse(box, fill=DEMAND_EDGE)
    draw.ellipse((box[0] + ring, box[1] + ring, box[2] - ring, box[3] - ring), fill=DEMAND_RING)
    k = 2 * ring
    draw.ellipse((box[0] + k, box[1] + k, box[2] - k, box[3] - k), fill=color)


def _draw_restaurants(draw: ImageDraw.ImageDraw, state: GameState, lay: Layout) -> None:
    s = lay.scale
    for p in state.players:
        color = player_color(p.player)
        for rest in p.restaurants:
            fill = _pale(color) if rest.coming_soon else color
            x0, y0, x1, y1 = _union([lay.square(*sq) for sq in restaurant_squares(rest.row, rest.col,
                                                                                   rest.orientation)])
            draw.rectangle((x0, y0, x1, y1), fill=fill, outline=BORDER_COLOR, width=max(1, s // 12))
            _text(draw, ((x0 + x1 + 1) / 2, (y0 + y1 + 1) / 2), str(p.player), s, _ink_on(fill))
            ex0, ey0, ex1, ey1 = lay.square(*restaurant_entrance(rest.row, rest.col, rest.orientation))
            r = s // 5
            cx, cy = (ex0 + ex1 + 1) // 2, (ey0 + ey1 + 1) // 2
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=WHITE, outline=BORDER_COLOR, width=1)


def _campaign_squares(campaign: Campaign, state: GameState) -> list[tuple[int, int]]:
    """The squares a campaign covers; an airplane's lane in the margin beside the map."""
    if campaign.kind != CampaignType.AIRPLANE:
        return list(campaign.squares)
    H, W = state.board.shape
    size = marketing_tile(campaign.number).along_edge
    lane = airplane_from_anchor(campaign.row, campaign.col, campaign.orientation, size, state.board)
    edge = int(lane.edge)
    return [{0: (-1, k), 1: (k, W), 2: (H, k), 3: (k, -1)}[edge] for k in lane.span()]


def _draw_campaigns(draw: ImageDraw.ImageDraw, state: GameState, lay: Layout) -> None:
    s = lay.scale
    for campaign in state.campaigns:
        squares = _campaign_squares(campaign, state)
        if not squares:
            continue
        color = GOOD_COLORS[campaign.product]
        for sq in squares:
            draw.rectangle(lay.square(*sq), fill=color)
        x0, y0, x1, y1 = _union([lay.square(*sq) for sq in squares])
        _owner_frame(draw, (x0, y0, x1, y1), player_color(campaign.owner), s)
        _text(draw, ((x0 + x1 + 1) / 2, (y0 + y1 + 1) / 2), campaign_label(campaign), s * 11 // 20,
              _ink_on(color), backing=color)  # a one-square tile's label crosses its frame


def _owner_frame(draw: ImageDraw.ImageDraw, box: Box, owner: RGB, s: int) -> None:
    """The owner's frame inside ``box``, between two ``FRAME_HALO`` lines (black on a brown billboard shows)."""
    halo, width = max(1, s // 16), max(2, s // 6)
    x0, y0, x1, y1 = box
    draw.rectangle(box, outline=FRAME_HALO, width=halo)
    draw.rectangle((x0 + halo, y0 + halo, x1 - halo, y1 - halo), outline=owner, width=width)
    k = halo + width
    draw.rectangle((x0 + k, y0 + k, x1 - k, y1 - k), outline=FRAME_HALO, width=halo)


def campaign_label(campaign: Campaign) -> str:
    """Kind letter and campaigns left, e.g. ``R3`` (``E`` for an eternal campaign)."""
    return CAMPAIGN_LETTERS[campaign.kind] + ("E" if campaign.eternal else str(campaign.remaining))


def _draw_indices(draw: ImageDraw.ImageDraw, lay: Layout) -> None:
    """Row and column numbers at each tile's first square, in the top and left margins."""
    size = lay.scale * 9 // 20
    for c in range(0, lay.cols, TILE_SIZE):
        x0, y0, x1, y1 = lay.square(-1, c)
        _text(draw, ((x0 + x1 + 1) / 2, (y0 + y1 + 1) / 2), str(c), size, INDEX_COLOR)
    for r in range(0, lay.rows, TILE_SIZE):
        x0, y0, x1, y1 = lay.square(r, -1)
        _text(draw, ((x0 + x1 + 1) / 2, (y0 + y1 + 1) / 2), str(r), size, INDEX_COLOR)


def _draw_tile_borders(draw: ImageDraw.ImageDraw, lay: Layout) -> None:
    s, width = lay.scale, max(2, lay.scale // 8)
    top, bottom = s, (lay.rows + 1) * s
    left, right = s, (lay.cols + 1) * s
    for k in range(0, lay.rows + 1, TILE_SIZE):
        y = (k + 1) * s
        draw.rectangle((left - width // 2, y - width // 2, right + width // 2 - 1, y + width // 2 - 1 + width % 2),
                       fill=BORDER_COLOR)
    for k in range(0, lay.cols + 1, TILE_SIZE):
        x = (k + 1) * s
        draw.rectangle((x - width // 2, top - width // 2, x + width // 2 - 1 + width % 2, bottom + width // 2 - 1),
                       fill=BORDER_COLOR)


# ------------------------------------------------------------------ panel and legend


def _draw_panel(draw: ImageDraw.ImageDraw, state: GameState, lay: Layout) -> None:
    x0 = lay.map_w
    draw.rectangle((x0, 0, lay.width - 1, lay.body_h - 1), fill=PANEL_COLOR, outline=GRID_COLOR)
    size = lay.scale * 13 // 20
    swatch = lay.line_h - 4
    won = winners(state)
    y = lay.pad
    for text, player, indented in panel_rows(state):
        x = x0 + lay.pad
        if player in won:  # a finished game: a band behind the winner's two lines
            draw.rectangle(_winner_band(lay, y), fill=WINNER_BAND)
        if player is not None:
            draw.rectangle((x, y + 1, x + swatch, y + 1 + swatch), fill=player_color(player), outline=BORDER_COLOR)
        if player is not None or indented:
            x += swatch + lay.scale // 3
        if text:
            _text(draw, (x, y + lay.line_h / 2), text, size, TEXT_COLOR, anchor="lm")
        y += lay.line_h


def _winner_band(lay: Layout, y: int) -> Box:
    """The band behind a winner's lines: the player line at ``y`` and the line under it."""
    return lay.map_w + 3, y - 1, lay.width - 4, y + 2 * lay.line_h


Painter = Callable[[ImageDraw.ImageDraw, Box, int], None]


def _paint_fill(color: RGB, outline: RGB | None = None) -> Painter:
    def paint(draw: ImageDraw.ImageDraw, box: Box, s: int) -> None:
        draw.rectangle(box, fill=color, outline=outline)
    return paint


def _paint_bridge(draw: ImageDraw.ImageDraw, box: Box, s: int) -> None:
    draw.rectangle(box, fill=BRIDGE_COLOR)
    inset = s // 4
    draw.rectangle((box[0] + inset, box[1] + inset, box[2] - inset, box[3] - inset), outline=ROAD_COLOR,
                   width=max(1, s // 12))


def _paint_house(draw: ImageDraw.ImageDraw, box: Box, s: int) -> None:
    draw.rectangle(box, fill=HOUSE_COLOR, outline=HOUSE_EDGE)
    _text(draw, ((box[0] + box[2] + 1) / 2, (box[1] + box[3] + 1) / 2), "12", s * 11 // 20, WHITE)


def _paint_good(good: int) -> Painter:
    def paint(draw: ImageDraw.ImageDraw, box: Box, s: int) -> None:
        draw.rectangle(box, fill=EMPTY_COLOR, outline=GRID_COLOR)
        if good in DRINK_LETTERS:
            _drink_token(draw, box, good, s)
        else:
            inset = s // 5
            draw.ellipse((box[0] + inset, box[1] + inset, box[2] - inset, box[3] - inset), fill=GOOD_COLORS[good],
                         outline=TEXT_COLOR)
    return paint


def _paint_demand(draw: ImageDraw.ImageDraw, box: Box, s: int) -> None:
    draw.rectangle(box, fill=HOUSE_COLOR, outline=HOUSE_EDGE)
    d = max(5, s // 2)
    x, y = box[0] + (s - d) // 2, box[1] + (s - d) // 2
    _token(draw, (x, y, x + d, y + d), GOOD_COLORS[int(Good.BURGER)], s)


def _paint_restaurant(coming_soon: bool) -> Painter:
    def paint(draw: ImageDraw.ImageDraw, box: Box, s: int) -> None:
        color = _pale(PLAYER_COLORS[0]) if coming_soon else PLAYER_COLORS[0]
        draw.rectangle(box, fill=color, outline=BORDER_COLOR)
        r, cx, cy = s // 5, (box[0] + box[2] + 1) // 2, (box[1] + box[3] + 1) // 2
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=WHITE, outline=BORDER_COLOR)
    return paint


def _paint_campaign(draw: ImageDraw.ImageDraw, box: Box, s: int) -> None:
    draw.rectangle(box, fill=GOOD_COLORS[int(Good.PIZZA)])
    _owner_frame(draw, box, PLAYER_COLORS[1], s)
    _text(draw, ((box[0] + box[2] + 1) / 2, (box[1] + box[3] + 1) / 2), "R3", s * 11 // 20, TEXT_COLOR,
          backing=GOOD_COLORS[int(Good.PIZZA)])


def _paint_border(draw: ImageDraw.ImageDraw, box: Box, s: int) -> None:
    draw.rectangle(box, fill=EMPTY_COLOR)
    w = max(2, s // 8)
    mid = (box[0] + box[2]) // 2
    draw.rectangle((mid - w // 2, box[1], mid - w // 2 + w - 1, box[3]), fill=BORDER_COLOR)


#: one cell each, row by row; every label reads on its own
LEGEND: tuple[tuple[str, Painter], ...] = (
    ("road", _paint_fill(ROAD_COLOR)),
    ("bridge (roads cross, never meet)", _paint_bridge),
    ("house and its number", _paint_house),
    ("garden (house pays double)", _paint_fill(GARDEN_COLOR, GARDEN_EDGE)),
    ("burger (demand token on a house)", _paint_demand),
    ("pizza", _paint_good(int(Good.PIZZA))),
    ("beer (B: drink source)", _paint_good(int(Good.BEER))),
    ("lemonade (L)", _paint_good(int(Good.LEMONADE))),
    ("soda (S)", _paint_good(int(Good.SODA))),
    ("restaurant, dot: entrance", _paint_restaurant(False)),
    ("coming soon (pale)", _paint_restaurant(True)),
    ("tile border", _paint_border),
)
#: the campaign entry: one sample and these lines, each across the legend's whole width (a cell
#: is too narrow, and a sentence cut over several cells reads in the wrong order)
CAMPAIGN_LEGEND: tuple[str, ...] = (
    "campaign: filled in its product's colour, framed in its owner's colour (white edges)",
    "R3: radio, 3 turns left; $ billboard, M mailbox, A airplane (in the margin); E: eternal",
)


def legend_labels() -> list[str]:
    """The legend's labels in drawing order: the cells row by row, then the campaign lines."""
    return [label for label, _ in LEGEND] + list(CAMPAIGN_LEGEND)


def legend_boxes(lay: Layout) -> list[tuple[str, Box]]:
    """Each legend label with the pixel box (inclusive) its text must fit in: a cell's text area, or
    a full-width line's; ``legend_labels`` order."""
    s = lay.scale
    column_w = (lay.width - 2 * lay.pad) // lay.legend_cols
    text_dx = s + s // 3
    out: list[tuple[str, Box]] = []
    for i, (label, _) in enumerate(LEGEND):
        row, col = divmod(i, lay.legend_cols)
        x, y = lay.pad + col * column_w, lay.body_h + lay.pad + row * (s + 4)
        out.append((label, (x + text_dx, y, x + column_w - s // 3 - 1, y + s - 1)))
    first = lay.legend_grid_rows
    for k, line in enumerate(CAMPAIGN_LEGEND):
        y = lay.body_h + lay.pad + (first + k) * (s + 4)
        out.append((line, (lay.pad + text_dx, y, lay.width - lay.pad - 1, y + s - 1)))
    return out


def _draw_legend(draw: ImageDraw.ImageDraw, lay: Layout) -> None:
    s = lay.scale
    top = lay.body_h
    draw.rectangle((0, top, lay.width - 1, lay.height - 1), fill=PANEL_COLOR, outline=GRID_COLOR)
    painters = [paint for _, paint in LEGEND] + [_paint_campaign] + [None] * (len(CAMPAIGN_LEGEND) - 1)
    for (label, box), paint in zip(legend_boxes(lay), painters):
        x, y = box[0] - s - s // 3, box[1]
        if paint is not None:
            paint(draw, (x, y, x + s - 1, y + s - 1), s)
        _text(draw, (box[0], y + s / 2), label, s * 11 // 20, TEXT_COLOR, anchor="lm")


# ------------------------------------------------------------------ entry points


def board_image(state: GameState, scale: int = DEFAULT_SCALE) -> Image.Image:
    """The picture of ``state`` as an RGB Pillow image (size from ``layout``)."""
    lay = layout(*state.board.shape, scale)
    image = Image.new("RGB", (lay.width, lay.height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, lay.map_w - 1, lay.body_h - 1), fill=MARGIN_COLOR)
    _draw_indices(draw, lay)
    _draw_squares(draw, state, lay)
    _draw_houses(draw, state, lay)
    _draw_tile_borders(draw, lay)  # under the pieces: a restaurant or campaign may straddle tiles
    _draw_restaurants(draw, state, lay)
    _draw_campaigns(draw, state, lay)
    _draw_panel(draw, state, lay)
    _draw_legend(draw, lay)
    return image


def board_array(state: GameState, scale: int = DEFAULT_SCALE) -> np.ndarray:
    """``uint8[height, width, 3]``: the ``rgb_array`` render of ``state``."""
    return np.asarray(board_image(state, scale), dtype=np.uint8).copy()


def board_png(state: GameState, scale: int = DEFAULT_SCALE) -> bytes:
    """The picture of ``state`` as PNG file bytes."""
    return _png(board_image(state, scale))


def png_bytes(rgb: np.ndarray) -> bytes:
    """An ``uint8[h, w, 3]`` array (say, an ``rgb_array`` render) as PNG file bytes."""
    arr = np.ascontiguousarray(rgb)
    if arr.dtype != np.uint8 or arr.ndim != 3 or arr.shape[2] != 3:
        raise ValueError(f"expected a uint8 RGB array of shape (h, w, 3), got {arr.dtype}{list(arr.shape)}")
    return _png(Image.fromarray(arr))


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()

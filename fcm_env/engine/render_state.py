"""Pictures of a game in progress: text (map + player boards) and an RGB image (and PNG bytes).

The text picture extends ``render.render_ascii`` with what play puts on the map;
the image is a plain numpy array (``rgb_array`` render mode), so rendering needs
no imaging library; ``png_bytes`` writes it with the standard library's zlib.
"""

from __future__ import annotations

import struct
import zlib

import numpy as np

from fcm_env.data import TILE_SIZE, CampaignType, EmployeeType, Good, Milestone

from .occupancy import house_grid
from .placement import airplane_from_anchor, restaurant_entrance, restaurant_squares
from .render import render_ascii
from .state import GameState
from .tiles import BRIDGE, DRINK, ROAD

GOOD_LETTERS = {int(Good.BURGER): "B", int(Good.PIZZA): "P", int(Good.BEER): "b",
                int(Good.LEMONADE): "l", int(Good.SODA): "s"}
CAMPAIGN_LETTERS = {int(CampaignType.BILLBOARD): "$", int(CampaignType.MAILBOX): "M",
                    int(CampaignType.RADIO): "R"}

# ------------------------------------------------------------------ text


def state_ascii(state: GameState) -> str:
    """The map with restaurants (the owner's digit; ``e`` marks the entrance, ``c`` while
    coming soon), gardens and campaign tiles; then the shared state, the houses' demand,
    the campaigns, and one line per player."""
    overlay: dict[tuple[int, int], str] = {}
    for house in state.houses.values():
        for sq in house.garden:
            overlay[sq] = "g"
    for campaign in state.campaigns:
        for sq in campaign.squares:
            overlay[sq] = CAMPAIGN_LETTERS.get(campaign.kind, "?")
    for p in state.players:
        for r in p.restaurants:
            for sq in restaurant_squares(r.row, r.col, r.orientation):
                overlay[sq] = str(p.player)
            overlay[restaurant_entrance(r.row, r.col, r.orientation)] = "c" if r.coming_soon else "e"
    legend = [
        "        0-4 restaurant of that player (e entrance, c coming soon)  g garden",
        "        $ billboard  M mailbox  R radio",
    ]
    lines = [render_ascii(state.board, overlay, house_grid=house_grid(state), extra_legend=legend)]
    lines.append(
        f"round {state.round}/{state.max_rounds}  phase {state.phase.name}  bank ${state.bank}"
        f"  breaks {state.bank_breaks}  CEO slots {state.ceo_slots}"
        f"  turn order {' '.join(map(str, state.turn_order))}"
    )
    for number, house in sorted(state.houses.items()):
        if house.demand:
            wants = "".join(GOOD_LETTERS[g] for g in house.demand)
            lines.append(f"  house {number}{' (garden)' if house.has_garden else ''} wants {wants}")
    for c in sorted(state.campaigns, key=lambda c: c.number):
        left = "eternal" if c.eternal else f"{c.remaining} left"
        lines.append(f"  campaign #{c.number} {CampaignType(c.kind).name.lower()} of player {c.owner}: "
                     f"{Good(c.product).name.lower()}, {left}")
    for p in state.players:
        cards = ", ".join(
            f"{EmployeeType(t).key}x{int(n)}" for t, n in enumerate(p.owned()) if n and t != EmployeeType.CEO
        )
        stock = " ".join(f"{Good(g).name.lower()}:{int(n)}" for g, n in enumerate(p.stock) if n)
        marks = ", ".join(sorted(Milestone(m).name.lower() for m in p.milestones))
        status = " BANKRUPT" if p.bankrupt else ""
        lines.append(f"player {p.player}{status}: ${p.cash}  cards: {cards or '-'}  stock: {stock or '-'}")
        if marks:
            lines.append(f"  milestones: {marks}")
    return "\n".join(lines)


# ------------------------------------------------------------------ image

PLAYER_COLORS = np.array([[220, 40, 40], [40, 90, 220], [30, 160, 60], [230, 170, 20], [150, 60, 190]],
                         dtype=np.uint8)
GOOD_COLORS = np.array([[150, 80, 30], [230, 120, 30], [200, 150, 40], [245, 235, 90], [90, 170, 230]],
                       dtype=np.uint8)
EMPTY_COLOR = (236, 232, 214)
ROAD_COLOR = (90, 90, 90)
BRIDGE_COLOR = (130, 130, 150)
HOUSE_COLOR = (170, 120, 90)
GARDEN_COLOR = (120, 190, 100)
BORDER_COLOR = (40, 40, 40)
CAMPAIGN_COLOR = (250, 250, 250)

# 3x5 digits for house numbers
_DIGITS = {
    "0": "111101101101111", "1": "010110010010111", "2": "111001111100111", "3": "111001111001111",
    "4": "101101111001001", "5": "111100111001111", "6": "111100111101111", "7": "111001001001001",
    "8": "111101111101111", "9": "111101111001111",
}


def state_rgb(state: GameState, scale: int = 16) -> np.ndarray:
    """``uint8[(H+2)*scale, (W+2)*scale, 3]`` picture; the 1-square margin shows airplanes."""
    if scale < 8:
        raise ValueError(f"scale must be at least 8 pixels per square, got {scale}")
    board = state.board
    H, W = board.shape
    img = np.full(((H + 2) * scale, (W + 2) * scale, 3), 255, dtype=np.uint8)

    def fill(r: int, c: int, color, inset: int = 0) -> None:
        y, x = (r + 1) * scale, (c + 1) * scale
        img[y + inset:y + scale - inset, x + inset:x + scale - inset] = color

    for r in range(H):
        for c in range(W):
            kind = int(board.kind[r, c])
            fill(r, c, ROAD_COLOR if kind == ROAD else BRIDGE_COLOR if kind == BRIDGE else EMPTY_COLOR)
            if kind == DRINK:
                fill(r, c, GOOD_COLORS[int(board.drink[r, c])], inset=scale // 5)
    for number, house in state.houses.items():
        for sq in house.squares:
            fill(*sq, HOUSE_COLOR)
        for sq in house.garden:
            fill(*sq, GARDEN_COLOR)
        top = min(house.squares)
        _draw_number(img, number, (top[0] + 1) * scale + 2, (top[1] + 1) * scale + 2, max(1, scale // 8))
        for i, good in enumerate(house.demand):  # demand tokens along the house's bottom row
            y = (max(r for r, _ in house.squares) + 2) * scale - scale // 3
            x = (top[1] + 1) * scale + 2 + i * (scale // 3 + 1)
            img[y:y + scale // 4, x:x + scale // 4] = GOOD_COLORS[good]
    for campaign in state.campaigns:
        color = PLAYER_COLORS[campaign.owner % len(PLAYER_COLORS)]
        if campaign.kind == CampaignType.AIRPLANE:
            from fcm_env.data import marketing_tile

            size = marketing_tile(campaign.number).along_edge
            lane = airplane_from_anchor(campaign.row, campaign.col, campaign.orientation, size, board)
            for k in lane.span:
                r, c = {0: (-1, k), 1: (k, W), 2: (H, k), 3: (k, -1)}[int(lane.edge)]
                fill(r, c, GOOD_COLORS[campaign.product], inset=1)
                fill(r, c, color, inset=scale // 3)
            continue
        for sq in campaign.squares:
            fill(*sq, color, inset=1)
            fill(*sq, GOOD_COLORS[campaign.product], inset=scale // 4)
    for p in state.players:
        color = PLAYER_COLORS[p.player % len(PLAYER_COLORS)]
        for rest in p.restaurants:
            shade = (color // 2 + 128).astype(np.uint8) if rest.coming_soon else color
            for sq in restaurant_squares(rest.row, rest.col, rest.orientation):
                fill(*sq, shade)
            fill(*restaurant_entrance(rest.row, rest.col, rest.orientation), (255, 255, 255), inset=scale // 3)
    # tile borders
    for k in range(0, H + 1, TILE_SIZE):
        img[(k + 1) * scale - 1:(k + 1) * scale + 1, scale:(W + 1) * scale] = BORDER_COLOR
    for k in range(0, W + 1, TILE_SIZE):
        img[scale:(H + 1) * scale, (k + 1) * scale - 1:(k + 1) * scale + 1] = BORDER_COLOR
    return img


def _draw_number(img: np.ndarray, number: int, y: int, x: int, px: int) -> None:
    for i, ch in enumerate(str(number)):
        bits = _DIGITS[ch]
        for k, bit in enumerate(bits):
            if bit == "1":
                yy, xx = y + (k // 3) * px, x + (i * 4 + k % 3) * px
                img[yy:yy + px, xx:xx + px] = (255, 255, 255)


def png_bytes(rgb: np.ndarray) -> bytes:
    """Encode an ``uint8[h, w, 3]`` array as a PNG file (no imaging library needed)."""
    arr = np.ascontiguousarray(rgb, dtype=np.uint8)
    if arr.ndim != 3 or arr.shape[2] != 3:
        raise ValueError(f"expected an RGB array of shape (h, w, 3), got {arr.shape}")
    h, w, _ = arr.shape
    raw = b"".join(b"\x00" + arr[y].tobytes() for y in range(h))  # filter type 0 per row

    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b"")

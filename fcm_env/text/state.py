"""The text picture of a game in progress: the map with what play put on it, then the player boards.

It extends ``text.map.render_ascii`` (the ``ansi`` and ``human`` render modes, the CLI); its
``piece_marks`` also put the pieces on the terminal's three-character map (``fcm play``). The
image (``rgb_array``, PNG) is drawn with Pillow in ``fcm_env.picture``.
"""

from __future__ import annotations

from fcm_env.data import CampaignType, EmployeeType, Good, Milestone
from fcm_env.engine.board.geometry import Square
from fcm_env.engine.board.occupancy import house_grid
from fcm_env.engine.board.placement import restaurant_entrance, restaurant_squares
from fcm_env.engine.state import GameState
from fcm_env.text.map import render_ascii
from fcm_env.text.words import card_name, good_name, milestone_name, ordinal, phase_title

GOOD_LETTERS = {int(Good.BURGER): "B", int(Good.PIZZA): "P", int(Good.BEER): "b",
                int(Good.LEMONADE): "l", int(Good.SODA): "s"}
CAMPAIGN_LETTERS = {int(CampaignType.BILLBOARD): "$", int(CampaignType.MAILBOX): "M",
                    int(CampaignType.RADIO): "R"}

# ------------------------------------------------------------------ text


def piece_marks(state: GameState, width: int = 1) -> dict[Square, str]:
    """What play put on the map, as ``text.map`` overlay cells ``width`` characters wide: gardens
    (``g``), campaign tiles (``$`` billboard, ``M`` mailbox, ``R`` radio; three wide with the tile
    number: ``$11``), restaurants (the owner's digit, ``e`` the entrance, ``c`` while coming soon;
    three wide: ``[1]``, ``<1>``, ``(1)``). Later pieces cover earlier ones in that order."""
    marks: dict[Square, str] = {}
    for house in state.houses.values():
        for sq in house.garden:
            marks[sq] = f"{'g':^{width}}"
    for campaign in state.campaigns:
        letter = CAMPAIGN_LETTERS.get(campaign.kind, "?")
        for sq in campaign.squares:
            marks[sq] = letter if width == 1 else f"{letter}{campaign.number:>{width - 1}}"
    for p in state.players:
        for r in p.restaurants:
            for sq in restaurant_squares(r.row, r.col, r.orientation):
                marks[sq] = str(p.player) if width == 1 else f"[{p.player}]"
            if width == 1:
                door = "c" if r.coming_soon else "e"
            else:
                door = f"({p.player})" if r.coming_soon else f"<{p.player}>"
            marks[restaurant_entrance(r.row, r.col, r.orientation)] = door
    return marks


def state_ascii(state: GameState) -> str:
    """The map with restaurants (the owner's digit; ``e`` marks the entrance, ``c`` while
    coming soon), gardens and campaign tiles; then the shared state, the houses' demand,
    the campaigns, and one line per player."""
    legend = [
        "        0-4 restaurant of that player (e entrance, c coming soon)  g garden",
        "        $ billboard  M mailbox  R radio",
    ]
    lines = [render_ascii(state.board, piece_marks(state), house_grid=house_grid(state), extra_legend=legend)]
    order = ", ".join(f"{ordinal(i + 1)} player {p}" for i, p in enumerate(state.turn_order)) or "-"
    cap = f"/{state.max_rounds}" if state.max_rounds else ""
    lines.append(
        f"round {state.round}{cap}  {phase_title(state.phase)}  bank ${state.bank}"
        f"  breaks {state.bank_breaks}  CEO slots {state.ceo_slots}  turn order: {order}"
    )
    for number, house in sorted(state.houses.items()):
        if house.demand:
            wants = "".join(GOOD_LETTERS[g] for g in house.demand)
            lines.append(f"  house {number}{' (garden)' if house.has_garden else ''} wants {wants}")
    for c in sorted(state.campaigns, key=lambda c: c.number):
        left = "eternal" if c.eternal else f"{c.remaining} left"
        lines.append(f"  campaign #{c.number} {CampaignType(c.kind).name.lower()} of player {c.owner}: "
                     f"{good_name(c.product)}, {left}")
    for p in state.players:
        cards = ", ".join(
            card_name(t) + (f" x{int(n)}" if n > 1 else "") for t, n in enumerate(p.owned())
            if n and t != EmployeeType.CEO
        )
        stock = ", ".join(f"{int(n)} {good_name(g)}" for g, n in enumerate(p.stock) if n)
        marks = ", ".join(sorted(milestone_name(Milestone(m).key) for m in p.milestones))
        status = " BANKRUPT" if p.bankrupt else ""
        lines.append(f"player {p.player}{status}: ${p.cash}  cards: {cards or '-'}  stock: {stock or '-'}")
        if marks:
            lines.append(f"  milestones: {marks}")
    return "\n".join(lines)

"""Why the table is as it is, in words: what Payday asks, what a milestone does, why a spot is refused,
which houses a campaign spot reaches.

Why a module of its own: a newcomer at ``fcm play`` or ``fcm web`` needs the reason behind a forced
firing or a refused placement, not just the refusal. The engine answers legality (the legal moves);
these explanations read its state and queries and, where the engine gives no reason, the geometry of
the piece, so the terminal and the web page say the same thing.
"""

from __future__ import annotations

from collections.abc import Sequence

from fcm_env.data import MARKETING_TILES, MILESTONES, CampaignType, EmployeeType, Milestone
from fcm_env.engine.actions import Action, ActionKind, Decision
from fcm_env.engine.board.occupancy import entrance_squares, house_grid, occupied
from fcm_env.engine.board.placement import restaurant_entrance
from fcm_env.engine.board.tiles import BRIDGE, DRINK, ROAD
from fcm_env.engine.phases import payday
from fcm_env.engine.queries import campaign_reach, placement_footprint
from fcm_env.engine.state import GameState
from fcm_env.text.words import CORNERS, SIDES

Square = tuple[int, int]

# ------------------------------------------------------------------ milestones


def milestone_effect(milestone: int | str) -> str:
    """A milestone's effect as milestones.json says it (the full ``effect`` text)."""
    key = milestone if isinstance(milestone, str) else Milestone(milestone).key
    return MILESTONES[Milestone[key.upper()]].effect


def milestone_card(milestone: int | str) -> str:
    """A milestone's effect in the card's few words (``card_text_short``): ``+1 Burger Cook``."""
    key = milestone if isinstance(milestone, str) else Milestone(milestone).key
    return MILESTONES[Milestone[key.upper()]].card_text


# ------------------------------------------------------------------ payday


def payday_text(state: GameState, player: int, legal: Sequence[Action]) -> str:
    """What the firing decision is about: the salary owed (after the firings marked) against the cash,
    and why ``done`` is not offered when it is not (C27, R39-R41)."""
    due = payday.salary_due(state, player)
    cash = int(state.players[player].cash)
    owe = f"you owe ${due} in salaries and have ${cash}"
    if any(a.kind == ActionKind.PASS for a in legal):
        return f"{owe}: pass to pay, or fire cards to pay less"
    if due > cash:
        return f"{owe}: fire until you can pay"
    p, cfo = state.players[player], EmployeeType.CFO
    if Milestone.FIRST_HAVE_100 in p.milestones and int(p.fired[cfo]) < int(p.work[cfo] + p.beach[cfo]):
        return (f"{owe}, but you hold First to have $100 (your CEO acts as CFO): "
                "your CFO must be fired")
    return f"{owe}: fire until the rules let you stop"


# ------------------------------------------------------------------ placements


def what_is_at(state: GameState, sq: Square, viewer: int | None = None) -> str | None:
    """What covers a square (a road, house 13, player 1's restaurant, campaign #11); None: nothing."""
    for p in state.players:
        for r in p.restaurants:
            if r.row <= sq[0] <= r.row + 1 and r.col <= sq[1] <= r.col + 1:
                return "your restaurant" if p.player == viewer else f"player {p.player}'s restaurant"
    for campaign in state.campaigns:
        if sq in campaign.squares:
            return f"campaign #{campaign.number}"
    number = int(house_grid(state)[sq])
    if number:
        house = state.houses[number]
        return f"house {number}'s garden" if sq in house.garden else f"house {number}"
    kind = int(state.board.kind[sq])
    return {ROAD: "a road", BRIDGE: "a bridge", DRINK: "a drink source"}.get(kind)


def _piece(kind: ActionKind, tile: int | None) -> tuple[str, str]:
    """(name, size) of the piece a placement puts down."""
    if kind == ActionKind.PLACE_RESTAURANT:
        return "a restaurant", "2x2 squares"
    if kind == ActionKind.PLACE_HOUSE:
        return "a house with its garden", "2x3 squares (3x2 with the garden north or south)"
    if kind == ActionKind.PLACE_GARDEN:
        return "a garden", "1x2 squares"
    spec = MARKETING_TILES[tile - 1]
    return f"campaign tile #{tile}", f"{spec.h}x{spec.w} squares"


def _orientations(kind: ActionKind, tile: int | None) -> range:
    if kind == ActionKind.PLACE_CAMPAIGN:
        spec = MARKETING_TILES[tile - 1]
        return range(2 if spec.rotatable and spec.h != spec.w else 1)
    return range(4)


def placement_refusal(state: GameState, decision: Decision, kind: ActionKind, row: int, col: int,
                      orient: int | None, tile: int | None = None) -> str:
    """Why no legal ``kind`` placement has its top-left square at (row, col) (with ``orient``, or any):
    off the map, an overlap, no road, the first restaurants' one-per-tile rule, out of reach."""
    board, player = state.board, state.pending[-1].player if state.pending else 0
    name, size = _piece(kind, tile)
    if kind == ActionKind.PLACE_CAMPAIGN and MARKETING_TILES[tile - 1].type == CampaignType.AIRPLANE:
        return "an airplane flies along a map edge: its top-left square is on the edge it flies along"
    orients = [orient] if orient is not None else list(_orientations(kind, tile))
    reasons: list[str] = []
    for o in orients:
        try:
            shape = placement_footprint(state, Action(kind, (row, col, o)), tile)
        except ValueError:
            reasons.append(f"orientation {o} does not exist for {name}")
            continue
        squares = list(shape.squares) + list(shape.garden)
        outside = [sq for sq in squares if not board.in_bounds(*sq)]
        if outside:
            reasons.append(f"{name} covers {size}: from ({row},{col}) it runs off the map "
                           f"(rows 0-{board.height - 1}, columns 0-{board.width - 1})")
            continue
        taken = occupied(state)
        if kind == ActionKind.PLACE_RESTAURANT and decision == Decision.RESTAURANT_PLACE:
            pending = state.pending[-1]
            index = pending.context[1] if len(pending.context) > 1 else None
            mine = state.players[player].restaurants
            if index is not None and index < len(mine):  # a moved restaurant's own squares are free
                r = mine[index]
                for sq in ((r.row, r.col), (r.row, r.col + 1), (r.row + 1, r.col), (r.row + 1, r.col + 1)):
                    taken[sq] = False
        blocked = [sq for sq in squares if taken[sq]]
        if blocked:
            sq = blocked[0]
            reasons.append(f"it would overlap {what_is_at(state, sq, player) or 'another piece'} at ({sq[0]},{sq[1]})")
            continue
        reasons.append(_road_or_rule(state, decision, kind, row, col, o, squares, player))
    unique = list(dict.fromkeys(reasons))
    if orient is None and len(unique) > 1:
        words = _orientation_words(kind, tile)
        return "; ".join(f"{words[o]}: {why}" for o, why in zip(orients, reasons))
    return unique[0]


def _orientation_words(kind: ActionKind, tile: int | None) -> list[str]:
    if kind == ActionKind.PLACE_RESTAURANT:
        return [c.lower() for c in CORNERS]
    if kind == ActionKind.PLACE_CAMPAIGN:
        return ["0", "1"]
    return [s.lower() for s in SIDES]


def _road_or_rule(state: GameState, decision: Decision, kind: ActionKind, row: int, col: int, o: int,
                  squares: list[Square], player: int) -> str:
    """The spot is on the map and free: a missing road, the setup rule, or reach says why not."""
    board = state.board
    if kind == ActionKind.PLACE_RESTAURANT:
        door = restaurant_entrance(row, col, o)
        if not board.has_road_access[door]:
            return f"its entrance ({door[0]},{door[1]}) ({CORNERS[o]}) is not next to a road"
        if decision == Decision.INITIAL_RESTAURANT:
            tile = board.tile_at(*door)
            for p in state.players:
                for r in p.restaurants:
                    if board.tile_at(*entrance_squares(r)[0]) == tile:
                        who = "your" if p.player == player else f"player {p.player}'s"
                        return (f"its entrance ({door[0]},{door[1]}) would be on the map tile of {who} first "
                                "restaurant's entrance: one first restaurant per tile")
        if decision == Decision.RESTAURANT_PLACE:
            return "it is out of the local manager's reach (tiles within 3 road steps of your entrances)"
    elif kind == ActionKind.PLACE_HOUSE:
        if not any(board.has_road_access[sq] for sq in squares):
            return "no square of the house or its garden is next to a road"
    elif kind == ActionKind.PLACE_GARDEN:
        return "a garden goes beside a printed house without one, on the side named"
    elif kind == ActionKind.PLACE_CAMPAIGN:
        spec = MARKETING_TILES[state.pending[-1].context[1] - 1] if state.pending else None
        if spec is not None and spec.type == CampaignType.RADIO:
            return "a radio needs a road next to it"
        return "it is out of your marketeer's reach by road from your restaurants' entrances"
    return "the rules allow no piece there"


# ------------------------------------------------------------------ campaigns


def reach_text(state: GameState, action: Action, tile: int | None) -> str:
    """``reaches houses 4, 13`` / ``reaches no house`` for a campaign placement choice."""
    if action.kind != ActionKind.PLACE_CAMPAIGN or tile is None:
        return ""
    houses = campaign_reach(state, tile, *action.args)
    return f"reaches {'houses ' + ', '.join(map(str, houses)) if houses else 'no house'}"

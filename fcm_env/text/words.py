"""Names in words: cards, goods, milestones, campaign tiles, money, and a move's arguments.

Why a module of its own: every text for people (the event sentences, the terminal's map and prompt,
the web page's milestone names) takes its names from here, so a card, a good or a milestone is
called the same everywhere; nothing here reads input or prints.
"""

from __future__ import annotations

from collections.abc import Sequence

from fcm_env.data import (
    MARKETING_TILES,
    MILESTONES,
    RESERVE_CARDS,
    CampaignType,
    Direction,
    EmployeeType,
    Good,
    Milestone,
)
from fcm_env.engine.actions import Action, ActionKind, Decision
from fcm_env.engine.board.geometry import Board
from fcm_env.engine.board.placement import airplane_from_anchor, restaurant_entrance
from fcm_env.engine.phases.working.recruit_train import POOLED  # "First to pay $20": pooled training
from fcm_env.engine.state import GameState, Phase, Restaurant

CORNERS = ("NW", "NE", "SE", "SW")  # restaurant orientation: the entrance corner
SIDES = ("N", "E", "S", "W")  # house / garden orientation: the garden's side; airplanes: the edge
PLACEMENT_KINDS = (ActionKind.PLACE_RESTAURANT, ActionKind.PLACE_HOUSE, ActionKind.PLACE_GARDEN,
                   ActionKind.PLACE_CAMPAIGN)
#: the reserve cards every player of a standard game is dealt, by value (``CHOOSE_RESERVE``'s index)
RESERVE_VALUES = tuple(card.value for card in RESERVE_CARDS)
#: milestone key -> its name as printed on the card (milestones.json), e.g. "First burger produced"
MILESTONE_NAMES = {spec.type.key: spec.name for spec in MILESTONES}
#: each phase as a heading names it: the rulebook's phase number and name; the two setup steps (round 0)
PHASE_TITLES: dict[Phase, str] = {
    Phase.SETUP_RESTAURANTS: "setup: first restaurants",
    Phase.SETUP_RESERVE: "setup: reserve cards",
    Phase.RESTRUCTURING: "phase 1: restructuring",
    Phase.ORDER_OF_BUSINESS: "phase 2: order of business",
    Phase.WORKING: "phase 3: working 9-5",
    Phase.DINNERTIME: "phase 4: dinnertime",
    Phase.PAYDAY: "phase 5: payday",
    Phase.MARKETING: "phase 6: marketing campaigns",
    Phase.CLEANUP: "phase 7: clean-up",
    Phase.GAME_OVER: "game over",
}

# ------------------------------------------------------------------ names


def card_name(card: int | str) -> str:
    """An employee card by number or key: ``marketing trainee``."""
    key = card if isinstance(card, str) else EmployeeType(card).key
    return key.replace("_", " ")


def a_card(card: int) -> str:
    """``a waitress``, ``an errand boy``."""
    name = card_name(card)
    return f"{'an' if name[0] in 'aeiou' else 'a'} {name}"


def good_name(good: int) -> str:
    return Good(good).name.lower()


def milestone_name(milestone: int | str) -> str:
    """A milestone by number or key, as players say it: ``First burger produced``."""
    key = milestone if isinstance(milestone, str) else Milestone(milestone).key
    return MILESTONE_NAMES[key]


def phase_title(phase: Phase | int | str) -> str:
    """A phase in words (``phase 5: payday``, ``setup: reserve cards``), from the enum or its name in any case."""
    return PHASE_TITLES[Phase[phase.upper()] if isinstance(phase, str) else Phase(phase)]


def round_title(round_: int, phase: Phase | int | str) -> str:
    """Where in the game: ``round 3: phase 5: payday``; the setup (round 0) is ``setup: first restaurants``
    (every heading for people: ``fcm play``, ``fcm replay``, the web page)."""
    title = phase_title(phase)
    return f"round {round_}: {title}" if round_ else title


def decision_name(decision: Decision | int | str) -> str:
    """A decision's short name: ``reserve card``, ``turn order``, ``campaign tile``."""
    name = decision if isinstance(decision, str) else Decision(decision).name
    return name.lower().replace("_", " ")


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def money(delta: int) -> str:
    return f"{'+' if delta >= 0 else '-'}${abs(delta)}"


def cards_text(counts: dict[str, int]) -> str:
    """``{"waitress": 2, "ceo": 1}`` as ``waitress x2, ceo`` (``-`` when empty)."""
    return ", ".join(card_name(key) + (f" x{n}" if n != 1 else "") for key, n in counts.items()) or "-"


def goods_text(counts: dict[str, int]) -> str:
    """``{"burger": 2}`` as ``2 burger`` (``nothing`` when empty)."""
    return ", ".join(f"{n} {good}" for good, n in counts.items()) or "nothing"


def tile_text(number: int) -> str:
    tile = MARKETING_TILES[number - 1]
    size = f"{tile.along_edge} lines" if tile.type == CampaignType.AIRPLANE else f"{tile.h}x{tile.w}"
    return f"#{number} {tile.type.key} {size}"


# ------------------------------------------------------------------ moves in words


def action_text(action: Action, state: GameState, player: int, tile: int | None = None) -> str:
    """What ``action`` of ``player`` would do now (a choice offered at the prompt): a restaurant a
    manager may move is named by where it stands; spots count from 1st."""
    if action.kind == ActionKind.SELECT_RESTAURANT:
        return _restaurant_choice(action, state.players[player].restaurants)
    return move_text(action, state.board, tile, state.players[player].reserve_offer)


def pending_tile(state: GameState) -> int | None:
    """The campaign tile being placed when the pending decision is where it goes, else None."""
    pending = state.pending[-1] if state.pending else None
    if pending is not None and pending.decision == Decision.CAMPAIGN_PLACE:
        return int(pending.context[1])
    return None


def move_now_text(action: Action, state: GameState) -> str:
    """The words of ``action``, the move the pending player makes at ``state``, as the event sentence will
    tell it (``fcm replay --list``, the web replay's step titles)."""
    player = state.pending[-1].player if state.pending else 0
    return move_text(action, state.board, pending_tile(state), state.players[player].reserve_offer)


def move_text(action: Action, board: Board, tile: int | None = None,
              reserve_offer: Sequence[int] = RESERVE_VALUES) -> str:
    """What ``action`` does, from its arguments alone (the map names an airplane's lane; ``tile`` is the
    campaign tile being placed): the words of a move once it is made, whenever it is told."""
    a, k = action.args, action.kind
    if k == ActionKind.PASS:
        return "pass"
    if k == ActionKind.PLACE_RESTAURANT:
        r, c = restaurant_entrance(*a)
        return f"place a restaurant at ({a[0]},{a[1]}), entrance {CORNERS[a[2]]} on ({r},{c})"
    if k == ActionKind.CHOOSE_RESERVE:  # by its value: the index is the protocol's, not a person's
        if a[0] < len(reserve_offer):
            return f"keep the ${reserve_offer[a[0]]} reserve card"
        return f"keep reserve card {a[0] + 1}"
    if k == ActionKind.PUT_TO_WORK:
        return f"put {a_card(a[0])} to work"
    if k == ActionKind.TURN_SPOT:
        return f"go {ordinal(a[0] + 1)} in turn order"
    if k == ActionKind.RECRUIT:
        return f"hire {a_card(a[0])}"
    if k == ActionKind.TRAIN:
        trainer = "pooled trainers" if a[0] == POOLED else f"{a_card(a[0])}"
        return f"train {a_card(a[1])} into {a_card(a[2])} (with {trainer})"
    if k == ActionKind.SELECT_MARKETEER:
        return f"launch a campaign with the {card_name(a[0])}"
    if k == ActionKind.CHOOSE_TILE:
        return f"use campaign tile {tile_text(a[0])}"
    if k == ActionKind.PLACE_CAMPAIGN:
        return campaign_place_text(a, board, tile)
    if k == ActionKind.SELECT_RESTAURANT:
        return f"the {card_name(a[0])} places restaurant {a[1] + 1}"
    return _move_text_more(action)


def _restaurant_choice(action: Action, owned: Sequence[Restaurant]) -> str:
    manager, index = action.args
    if index < len(owned):
        r = owned[index]
        return f"move restaurant {index + 1} (at ({r.row},{r.col})) with the {card_name(manager)}"
    return f"open a new restaurant with the {card_name(manager)}"


def campaign_place_text(a: tuple[int, ...], board: Board, tile: int | None) -> str:
    """Where a campaign tile goes (``place the campaign at (8,13) rotated``; an airplane by its lane)."""
    spec = MARKETING_TILES[tile - 1] if tile else None
    if spec is not None and spec.type == CampaignType.AIRPLANE:
        lane = airplane_from_anchor(a[0], a[1], a[2], spec.along_edge, board)
        lines = "columns" if lane.edge in (Direction.N, Direction.S) else "rows"
        return (f"fly the airplane along the {SIDES[lane.edge]} edge over {lines} "
                f"{lane.start}-{lane.start + lane.size - 1}")
    return f"place the campaign at ({a[0]},{a[1]}){' rotated' if a[2] else ''}"


def _move_text_more(action: Action) -> str:
    a, k = action.args, action.kind
    if k == ActionKind.CHOOSE_PRODUCT:
        return f"advertise {good_name(a[0])}"
    if k == ActionKind.CHOOSE_DURATION:
        return f"run it for {a[0]} turn{'s' if a[0] != 1 else ''}"
    if k == ActionKind.PRODUCE:
        return f"the {card_name(a[0])} gets {good_name(a[1])}"
    if k == ActionKind.HAUL:
        return f"the {card_name(a[0])} drives past {a[1]} beer, {a[2]} lemonade, {a[3]} soda source(s)"
    if k == ActionKind.CHOOSE_HOUSE:
        return f"take house #{a[0]} to place"
    if k == ActionKind.PLACE_HOUSE:
        return f"place the house at ({a[0]},{a[1]}) with its garden on the {SIDES[a[2]]} side"
    if k == ActionKind.PLACE_GARDEN:
        return f"place a garden at ({a[0]},{a[1]}) on the {SIDES[a[2]]} side of its house"
    if k == ActionKind.FIRE:
        return f"fire {a_card(a[0])}"
    if k == ActionKind.KEEP:
        return f"keep one {good_name(a[0])} in the freezer"
    return str(action)  # pragma: no cover - every kind is handled above

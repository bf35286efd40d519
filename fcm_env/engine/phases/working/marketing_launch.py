"""Phase 3 Working 9-5, third sub-step: initiate marketing campaigns.

rules: Initiate marketing campaigns; C13-C17, R17-R21, R51; milestones First
billboard placed, First burger / pizza / drink marketed, First airplane campaign,
First radio campaign.

One campaign is a chain of atomic decisions by the same player, its choices so far
kept in ``Pending.context``:

``MARKETEER`` ()  ->  ``CAMPAIGN_TILE`` (marketeer,)  ->  ``CAMPAIGN_PLACE``
(marketeer, tile)  ->  ``CAMPAIGN_PRODUCT`` (marketeer, tile, row, col, orientation)
->  ``CAMPAIGN_DURATION`` (... , product), skipped for an eternal campaign.

A marketeer or a tile is offered only when the chain can be finished (there is no
"back" action): a tile needs at least one legal spot, and any of the five goods and
a duration of at least one turn are always possible. On completion the campaign is
recorded, its tile leaves the supply and the marketeer leaves work: busy until the
campaign ends, or, for an eternal campaign, unavailable for the rest of the game (the
card then lives in the ``Campaign`` record and still counts as the player's for the 1x
limit: ``GameState.owned_cards``).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from fcm_env.data import (
    EMPLOYEES,
    CampaignType,
    EmployeeSpec,
    Good,
    MarketingTileSpec,
    Milestone,
    RangeKind,
    marketing_tile,
)
from fcm_env.engine.actions import Action, ActionKind, Decision, Pending
from fcm_env.engine.board.geometry import AirplaneLane
from fcm_env.engine.board.occupancy import entrances_of, occupied
from fcm_env.engine.board.placement import (
    airplane_anchor,
    airplane_placements,
    campaign_placements,
    campaign_squares,
    list_placements,
)
from fcm_env.engine.rules import milestones
from fcm_env.engine.state import Campaign, GameState

STEP = 0  # position of this sub-step in working.LATER_STEPS

MARKETEERS = tuple(spec.type for spec in EMPLOYEES if spec.is_marketeer)

#: milestone for placing a campaign of each kind
_PLACED_MILESTONE = {
    CampaignType.BILLBOARD: Milestone.FIRST_BILLBOARD,
    CampaignType.AIRPLANE: Milestone.FIRST_AIRPLANE,
    CampaignType.RADIO: Milestone.FIRST_RADIO,
}
#: milestone for advertising each good (any drink counts for the drink milestone)
_PRODUCT_MILESTONE = {
    Good.BURGER: Milestone.FIRST_BURGER_MARKETED,
    Good.PIZZA: Milestone.FIRST_PIZZA_MARKETED,
    Good.BEER: Milestone.FIRST_DRINK_MARKETED,
    Good.LEMONADE: Milestone.FIRST_DRINK_MARKETED,
    Good.SODA: Milestone.FIRST_DRINK_MARKETED,
}


# ------------------------------------------------------------------ where a campaign may go


def marketeer_reach(state: GameState, player: int, spec: EmployeeSpec) -> np.ndarray | None:
    """Squares within the marketeer's range by road from the chain's entrances, None if unlimited.

    rules: Initiate marketing campaigns (range from any restaurant entrance, R19);
    C11 (drive-in corners are entrances too); C13 (brand managers/directors: no range).
    """
    return _reach_within(state, player, _range_of(spec))


def _range_of(spec: EmployeeSpec) -> int | None:
    """The marketeer's range by road; None if unlimited."""
    rng = spec.marketing_range
    if rng is None or rng.kind == RangeKind.UNLIMITED:
        return None
    return int(rng.value or 0)


def _reach_within(state: GameState, player: int, squares_range: int | None) -> np.ndarray | None:
    if squares_range is None:
        return None
    entrances = entrances_of(state, player, open_only=False)  # D16: coming-soon restaurants count
    return state.board.squares_within(entrances, squares_range)


def tile_placements(
    state: GameState, tile: MarketingTileSpec, reach: np.ndarray | None, grid: np.ndarray | None = None
) -> list[tuple[int, int, int]]:
    """Every legal (row, col, orientation) of a campaign tile; airplanes as their edge anchor."""
    board = state.board
    if tile.type == CampaignType.AIRPLANE:
        legal = airplane_placements(board, tile)  # no road, no range, other planes do not block (C15)
        return sorted(
            airplane_anchor(AirplaneLane(edge, start, tile.along_edge), board)
            for edge, start in list_placements(legal)
        )
    if tile.type == CampaignType.RADIO:
        reach = None  # C13, R17: a radio needs a road next to it, not a connection
    grid = occupied(state) if grid is None else grid
    return [tuple(p) for p in list_placements(campaign_placements(board, grid, tile, reach))]


class _SpotCheck:
    """Which campaign tiles have at least one legal spot in one position (a player's marketeers).

    The spots of a tile depend only on its footprints (airplanes: their length) and, for
    billboards and mailboxes, on the marketeer's range: each such key is computed once.
    """

    def __init__(self, state: GameState, player: int):
        self.state = state
        self.player = player
        self.grid = occupied(state)
        self._reach: dict[int | None, np.ndarray | None] = {}
        self._found: dict[tuple, bool] = {}

    def has_spot(self, spec: EmployeeSpec, tile: MarketingTileSpec) -> bool:
        """Whether ``tile_placements`` would list at least one spot (without listing them)."""
        if tile.type == CampaignType.AIRPLANE:
            key: tuple = (CampaignType.AIRPLANE, tile.along_edge)
        else:  # C13, R17: a radio needs a road next to it, not a connection (as in tile_placements)
            key = (None if tile.type == CampaignType.RADIO else _range_of(spec), tile.footprints())
        if key not in self._found:
            self._found[key] = self._any_spot(tile, key[0])
        return self._found[key]

    def _any_spot(self, tile: MarketingTileSpec, squares_range: int | None) -> bool:
        board = self.state.board
        if tile.type == CampaignType.AIRPLANE:
            return bool(airplane_placements(board, tile).any())
        if squares_range not in self._reach:
            self._reach[squares_range] = _reach_within(self.state, self.player, squares_range)
        return bool(campaign_placements(board, self.grid, tile, self._reach[squares_range]).any())


def _placeable_tiles(state: GameState, player: int, etype: int, spots: _SpotCheck) -> Iterator[int]:
    """Supply tiles this marketeer may place that have at least one legal spot, in number order (lazily)."""
    spec = EMPLOYEES[etype]
    for number in sorted(state.marketing_supply):
        tile = marketing_tile(number)
        if tile.type in spec.campaign_types and spots.has_spot(spec, tile):
            yield number


def _tiles_for(state: GameState, player: int, etype: int) -> list[int]:
    """Supply tiles this marketeer may place that have at least one legal spot."""
    return list(_placeable_tiles(state, player, etype, _SpotCheck(state, player)))


def _marketeers_at_work(state: GameState, player: int) -> list[int]:
    """Marketeer types with a card at work whose action is not spent yet."""
    unused = (state.players[player].work - state.turn.used).tolist()
    return [t for t in MARKETEERS if unused[t] > 0]


def _available_marketeers(state: GameState, player: int) -> list[int]:
    spots = _SpotCheck(state, player)
    return [t for t in _marketeers_at_work(state, player)
            if next(_placeable_tiles(state, player, t, spots), None) is not None]


def _any_marketeer_available(state: GameState, player: int) -> bool:
    """``bool(_available_marketeers(...))``, stopping at the first tile found."""
    marketeers = _marketeers_at_work(state, player)
    if not marketeers:
        return False
    spots = _SpotCheck(state, player)
    return any(next(_placeable_tiles(state, player, t, spots), None) is not None for t in marketeers)


# ------------------------------------------------------------------ sub-step flow


def begin(state: GameState, player: int) -> bool:
    """Ask for a marketeer if one can launch a campaign; False when there is nothing to do."""
    if not _any_marketeer_available(state, player):
        return False
    state.pending = [Pending(Decision.MARKETEER, player)]
    return True


def _step_over(state: GameState) -> None:
    """This sub-step is over: the Working turn asks the next one (``working.continue_turn``)."""
    state.pending = []


# ------------------------------------------------------------------ decisions


def legal_marketeer(state: GameState, pending: Pending) -> list[Action]:
    return [Action.pass_()] + [Action.select_marketeer(t) for t in _available_marketeers(state, pending.player)]


def apply_marketeer(state: GameState, pending: Pending, action: Action) -> None:
    if action.kind == ActionKind.PASS:
        _step_over(state)
        return
    state.pending = [Pending(Decision.CAMPAIGN_TILE, pending.player, (action.args[0],))]


def legal_tile(state: GameState, pending: Pending) -> list[Action]:
    return [Action.choose_tile(n) for n in _tiles_for(state, pending.player, pending.context[0])]


def apply_tile(state: GameState, pending: Pending, action: Action) -> None:
    state.pending = [Pending(Decision.CAMPAIGN_PLACE, pending.player, pending.context + (action.args[0],))]


def legal_place(state: GameState, pending: Pending) -> list[Action]:
    etype, number = pending.context
    reach = marketeer_reach(state, pending.player, EMPLOYEES[etype])
    # tile_placements gives (row, col, orientation) tuples of ints already: what place_campaign builds
    return [Action(ActionKind.PLACE_CAMPAIGN, p) for p in tile_placements(state, marketing_tile(number), reach)]


def apply_place(state: GameState, pending: Pending, action: Action) -> None:
    tile = marketing_tile(pending.context[1])
    milestone = _PLACED_MILESTONE.get(tile.type)
    if milestone is not None:  # rules: Milestones — claimed when the campaign is placed
        milestones.claim(state, pending.player, milestone)
    state.pending = [Pending(Decision.CAMPAIGN_PRODUCT, pending.player, pending.context + action.args)]


def legal_product(state: GameState, pending: Pending) -> list[Action]:
    return [Action.choose_product(g) for g in Good]  # C16, R21: any drink, even one not on the map


def apply_product(state: GameState, pending: Pending, action: Action) -> None:
    player = pending.player
    good = Good(action.args[0])
    milestones.claim(state, player, _PRODUCT_MILESTONE[good])
    context = pending.context + (int(good),)
    if milestones.has(state, player, Milestone.FIRST_BILLBOARD):
        _launch(state, player, context, turns=1, eternal=True)  # rules: First billboard placed; R51
        return
    state.pending = [Pending(Decision.CAMPAIGN_DURATION, player, context)]


def legal_duration(state: GameState, pending: Pending) -> list[Action]:
    longest = EMPLOYEES[pending.context[0]].max_duration
    return [Action.choose_duration(d) for d in range(1, longest + 1)]


def apply_duration(state: GameState, pending: Pending, action: Action) -> None:
    _launch(state, pending.player, pending.context, turns=action.args[0], eternal=False)


def _launch(state: GameState, player: int, context: tuple[int, ...], *, turns: int, eternal: bool) -> None:
    """Put the campaign on the board and send its marketeer away (busy, or gone if eternal)."""
    etype, number, row, col, orientation, product = context
    tile = marketing_tile(number)
    squares = () if tile.type == CampaignType.AIRPLANE else campaign_squares(row, col, orientation, tile)
    state.campaigns.append(Campaign(
        number=number, kind=int(tile.type), owner=player, marketeer=etype, product=product,
        remaining=turns, eternal=eternal, row=row, col=col, orientation=orientation, squares=squares,
    ))
    state.marketing_supply.remove(number)
    p = state.players[player]
    p.work[etype] -= 1
    if not eternal:
        p.busy[etype] += 1  # rules: Marketeer will be busy (back when the campaign ends)
    if _any_marketeer_available(state, player):
        state.pending = [Pending(Decision.MARKETEER, player)]
    else:
        _step_over(state)


ROUTES = {
    Decision.MARKETEER: (legal_marketeer, apply_marketeer),
    Decision.CAMPAIGN_TILE: (legal_tile, apply_tile),
    Decision.CAMPAIGN_PLACE: (legal_place, apply_place),
    Decision.CAMPAIGN_PRODUCT: (legal_product, apply_product),
    Decision.CAMPAIGN_DURATION: (legal_duration, apply_duration),
}

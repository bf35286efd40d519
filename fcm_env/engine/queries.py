"""What a player can read at the table, asked of the engine: prices, distances, slots, reach, income.

Front ends, agents and scenario writers use these instead of the phase modules. Every
function takes a ``Game`` or a ``GameState`` and changes nothing (``income_forecast``
works on a copy). Player ids and house numbers are the engine's (docs/engine-api.md).

* ``unit_price(g, player)``: the chain's unit price now (base $10, pricing / discount /
  luxuries managers at work, First to lower prices; rules: Phase 4; R33).
* ``distance(g, player, house)``: road range from the house (or its garden) to the chain's
  nearest open entrance, None when no road connects them (rules: Phase 4; R29-R30).
* ``house_choice(g, house)``: the offers of every chain for the house's current demand and
  the one it would eat at now, with the reason (R33 price + distance, R34 waitresses, seat).
* ``open_slots(g, player)``: empty CEO and manager slots of the structure at work (R10),
  and ``order_slots``: the count phase 2 sorts by (+2 with First airplane campaign).
* ``campaign_houses(g, number)`` and ``campaign_reach(g, tile, row, col, orientation)``:
  the houses a placed or a hypothetical campaign reaches (rules: Phase 6; C15; R45-R46).
* ``income_forecast(g)``: each chain's Dinnertime result (sales, tips, CFO share) if
  Dinnertime ran now with the current stock, demand and bank.
* ``placement_footprint(g, action, tile)``: the squares a placement action would cover (the
  terminal's preview and the web table's hover outline both draw it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from fcm_env.data import CampaignType, EmployeeType, Milestone, marketing_tile
from fcm_env.engine.actions import Action, ActionKind
from fcm_env.engine.board.geometry import UNREACHABLE, AirplaneLane, Board, Square
from fcm_env.engine.board.occupancy import house_grid
from fcm_env.engine.board.placement import (
    airplane_from_anchor,
    campaign_squares,
    garden_squares,
    house_footprint,
    restaurant_entrance,
    restaurant_squares,
)
from fcm_env.engine.phases import dinnertime, marketing, restructuring
from fcm_env.engine.state import Campaign, GameState

if TYPE_CHECKING:
    from fcm_env.engine.game import Game


def _state(g: Game | GameState) -> GameState:
    return g if isinstance(g, GameState) else g.state


def _check_player(state: GameState, player: int) -> int:
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < state.num_players:
        raise ValueError(f"player must be a player id 0..{state.num_players - 1}, got {player!r}")
    return player


def _check_house(state: GameState, house: int) -> int:
    if house not in state.houses or not state.houses[house].squares:
        raise ValueError(f"house {house!r} is not on the map (houses: {sorted(state.houses)})")
    return house


def unit_price(g: Game | GameState, player: int) -> int:
    state = _state(g)
    return dinnertime.unit_price(state, _check_player(state, player))


def distance(g: Game | GameState, player: int, house: int) -> int | None:
    state = _state(g)
    d = dinnertime.distance_to(state, _check_player(state, player), state.houses[_check_house(state, house)])
    return None if d >= UNREACHABLE else int(d)


@dataclass(frozen=True)
class HouseOffer:
    """One chain's offer for a house: it competes when it ``can_supply`` and is ``reachable``."""

    player: int
    unit_price: int
    distance: int | None
    waitresses: int
    seat: int
    can_supply: bool

    @property
    def competes(self) -> bool:
        return self.can_supply and self.distance is not None

    @property
    def total(self) -> int | None:
        """Unit price + distance, what the house compares first (R33); None when it does not compete."""
        return self.unit_price + self.distance if self.competes else None


@dataclass(frozen=True)
class HouseChoice:
    """Where a house would eat now: ``chosen`` (None: nobody) and why."""

    house: int
    demand: tuple[int, ...]  # Good values
    offers: tuple[HouseOffer, ...]  # every chain, in turn order
    chosen: int | None
    reason: str


def house_choice(g: Game | GameState, house: int) -> HouseChoice:
    """The chain the house's current demand would go to, as Dinnertime decides it (R33, R34)."""
    state = _state(g)
    h = state.houses[_check_house(state, house)]
    offers = tuple(
        HouseOffer(player=p, unit_price=dinnertime.unit_price(state, p), distance=distance(state, p, house),
                   waitresses=int(state.players[p].work[EmployeeType.WAITRESS]), seat=seat,
                   can_supply=bool(h.demand) and dinnertime.can_supply(state, p, h.demand))
        for seat, p in enumerate(state.turn_order)
    )
    chosen = dinnertime.choose_chain(state, h) if h.demand else None
    return HouseChoice(house=house, demand=tuple(h.demand), offers=offers, chosen=chosen,
                       reason=_reason(offers, chosen, bool(h.demand)))


def _reason(offers: tuple[HouseOffer, ...], chosen: int | None, hungry: bool) -> str:
    if not hungry:
        return "no demand"
    rivals = [o for o in offers if o.competes]
    if chosen is None:
        return "no chain is connected by road and has the whole demand in stock"
    best = next(o for o in rivals if o.player == chosen)
    if len(rivals) == 1:
        return f"player {chosen} is the only chain that can serve it"
    same_total = [o for o in rivals if o.total == best.total]
    if len(same_total) == 1:
        return f"lowest unit price + distance ({best.unit_price} + {best.distance} = {best.total})"
    same_waitresses = [o for o in same_total if o.waitresses == best.waitresses]
    if len(same_waitresses) == 1:
        return f"tie on price + distance ({best.total}): most waitresses ({best.waitresses})"
    return f"tie on price + distance ({best.total}) and waitresses ({best.waitresses}): earliest in turn order"


def open_slots(g: Game | GameState, player: int) -> int:
    """Empty slots of the structure at work (CEO and managers; busy marketeers use none, R10)."""
    state = _state(g)
    return restructuring.open_slots(state.players[_check_player(state, player)].work, state.ceo_slots)


def order_slots(g: Game | GameState, player: int) -> int:
    """The open slots phase 2 (Order of Business) sorts by: +2 with First airplane campaign."""
    state = _state(g)
    bonus = 2 if Milestone.FIRST_AIRPLANE in state.players[_check_player(state, player)].milestones else 0
    return open_slots(state, player) + bonus


def campaign_houses(g: Game | GameState, number: int) -> tuple[int, ...]:
    """House numbers the placed campaign with tile ``number`` reaches, ascending."""
    state = _state(g)
    for campaign in state.campaigns:
        if campaign.number == number:
            return marketing.houses_reached(state, campaign, house_grid(state))
    raise ValueError(f"no campaign with tile {number} is on the board "
                     f"(placed: {sorted(c.number for c in state.campaigns)})")


def campaign_reach(g: Game | GameState, tile: int, row: int, col: int, orientation: int) -> tuple[int, ...]:
    """Houses a campaign of ``tile`` placed at (row, col, orientation) would reach (airplanes: the
    edge anchor, as in the action). Where it could legally go is the legal actions' business."""
    state = _state(g)
    spec = marketing_tile(tile)
    squares = () if spec.type == CampaignType.AIRPLANE else campaign_squares(row, col, orientation, spec,
                                                                             board=state.board)
    probe = Campaign(number=tile, kind=int(spec.type), owner=0, marketeer=0, product=0, remaining=1,
                     eternal=False, row=row, col=col, orientation=orientation, squares=squares)
    return marketing.houses_reached(state, probe, house_grid(state))


def income_forecast(g: Game | GameState) -> dict[int, int]:
    """Player id -> cash change if Dinnertime ran now (sales, tips, CFO share; negative bills too)."""
    state = _state(g).clone()
    before = [p.cash for p in state.players]
    dinnertime.run(state)
    return {p.player: p.cash - before[p.player] for p in state.players}


@dataclass(frozen=True)
class Footprint:
    """The squares one placement covers (``placement_footprint``)."""

    squares: tuple[Square, ...]  # the piece on the map: a restaurant, house, garden or campaign tile
    entrance: Square | None = None  # a restaurant's entrance square
    garden: tuple[Square, ...] = ()  # the garden a house comes with
    lane: AirplaneLane | None = None  # an airplane flies beside the map: its edge and rows or columns


def placement_footprint(g: Game | GameState | Board, action: Action, tile: int | None = None) -> Footprint:
    """What ``action`` (a restaurant, house, garden or campaign placement) would cover.

    ``tile`` is the campaign tile being placed (the pending context holds it), needed for a
    campaign only. An airplane has no squares on the map: its ``lane`` says where it flies.
    Legality is the legal actions' business: this only reads the shape (a bare ``Board`` is
    enough, as a front end holding only the public map has).
    """
    board = g if isinstance(g, Board) else _state(g).board
    a, kind = action.args, action.kind
    if kind == ActionKind.PLACE_RESTAURANT:
        return Footprint(restaurant_squares(*a), entrance=restaurant_entrance(*a))
    if kind == ActionKind.PLACE_HOUSE:
        house, garden = house_footprint(*a)
        return Footprint(tuple(house), garden=tuple(garden))
    if kind == ActionKind.PLACE_GARDEN:
        return Footprint(tuple(garden_squares(*a)))
    if kind == ActionKind.PLACE_CAMPAIGN:
        if tile is None:
            raise ValueError("a campaign placement needs the tile being placed")
        spec = marketing_tile(tile)
        if spec.type == CampaignType.AIRPLANE:
            return Footprint((), lane=airplane_from_anchor(*a, spec.along_edge, board))
        return Footprint(tuple(campaign_squares(*a, spec)))
    raise ValueError(f"{action} is not a placement")

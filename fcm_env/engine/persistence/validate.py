"""The rule-level facts of a loaded state: what the field types alone do not say, checked field by field.

Why: every later move trusts the loaded position. A tampered or hand-written document that puts a
restaurant off the map, two pieces on one square, a negative cash or a decision into the wrong phase
would be accepted by the types and break the game moves later, far from the cause. ``validate_state``
refuses such a document when it is loaded, with a ``StateFormatError`` naming the field
(``players[0].restaurants[1]: ...``); ``Game.from_dict`` then also tries the pending decision
(``Game._check_loadable``). docs/state-format.md lists what is checked. Money and cards need not be
conserved (a scenario may set up any position), but never exceed the box or go negative.
"""

from __future__ import annotations

import numpy as np

from fcm_env.data import (
    EMPLOYEES,
    HOUSES,
    MARKETING_TILES,
    PRICES,
    RESERVE_CARDS,
    CampaignType,
    EmployeeType,
    marketing_tile,
    setup_for,
)
from fcm_env.engine.actions import CONTEXT_FIELDS, Decision
from fcm_env.engine.board.placement import airplane_from_anchor, campaign_squares, restaurant_squares
from fcm_env.engine.persistence.bounds import check_bounds
from fcm_env.engine.persistence.dataclass_json import fail
from fcm_env.engine.persistence.pending_context import check_context
from fcm_env.engine.state import VARIANTS, GameState, Phase, initial_supply

#: the phase in which each decision is asked (the phase modules' ROUTES)
PHASE_OF: dict[Decision, Phase] = {
    Decision.INITIAL_RESTAURANT: Phase.SETUP_RESTAURANTS,
    Decision.RESERVE_CARD: Phase.SETUP_RESERVE,
    Decision.RESTRUCTURE: Phase.RESTRUCTURING,
    Decision.TURN_ORDER: Phase.ORDER_OF_BUSINESS,
    Decision.FIRE: Phase.PAYDAY,
    Decision.FREEZER: Phase.CLEANUP,
    **{d: Phase.WORKING for d in (
        Decision.RECRUIT, Decision.TRAIN, Decision.MARKETEER, Decision.CAMPAIGN_TILE, Decision.CAMPAIGN_PLACE,
        Decision.CAMPAIGN_PRODUCT, Decision.CAMPAIGN_DURATION, Decision.PRODUCE, Decision.NEW_BUSINESS,
        Decision.HOUSE_PLACE, Decision.RESTAURANT_MANAGER, Decision.RESTAURANT_PLACE)},
}
_POOLS = ("hand", "work", "beach", "busy", "fired")
#: the phases that ask their players in the order of ``queue`` (its first player decides)
_QUEUED = (Phase.RESTRUCTURING, Phase.ORDER_OF_BUSINESS, Phase.WORKING, Phase.PAYDAY, Phase.CLEANUP)


def validate_state(state: GameState) -> None:
    """Raise ``StateFormatError`` (a ``ValueError``) naming the first field that breaks a rule-level fact."""
    _check_setup(state)
    _check_players(state)
    _check_houses(state)
    _check_pieces(state)
    _check_milestones(state)
    _check_campaigns(state)
    _check_turn(state)
    _check_cards(state)
    _check_pending(state)
    check_bounds(state)  # the ranges both engines hold (bounds.py); after the checks above keep their words


# ------------------------------------------------------------------ the game's frame


def _check_setup(state: GameState) -> None:
    n = state.num_players
    try:
        setup = setup_for(n)
    except (KeyError, ValueError):
        fail("num_players", f"expected 2 to 5 players, got {n}")
    if state.variant not in VARIANTS:
        fail("variant", f"expected one of {list(VARIANTS)}, got {state.variant!r}")
    if state.max_rounds is not None and state.max_rounds < 1:
        fail("max_rounds", f"must be null (no cap) or at least 1, got {state.max_rounds}")
    shape = (state.board.tile_rows, state.board.tile_cols)
    if shape != (setup.tile_rows, setup.tile_cols):
        fail("board", f"bad tile layout: a {n}-player board has {setup.tile_rows}x{setup.tile_cols} tiles, "
                       f"got {shape[0]}x{shape[1]}")
    if state.round < 0:
        fail("round", f"must be 0 (setup) or more, got {state.round}")
    if state.max_rounds is not None and state.round > state.max_rounds:
        fail("round", f"round {state.round} is past max_rounds {state.max_rounds}")
    if state.round and state.phase in (Phase.SETUP_RESTAURANTS, Phase.SETUP_RESERVE):
        fail("phase", f"{state.phase.name} in round {state.round}: the setup is round 0")
    if len(set(state.turn_order)) != len(state.turn_order) or not all(0 <= p < n for p in state.turn_order):
        fail("turn_order", f"expected distinct player ids 0..{n - 1}, got {state.turn_order}")
    gone = [p for p in range(n) if p not in state.turn_order and p < len(state.players)]
    if gone and (state.round == 0 or not all(state.players[p].bankrupt for p in gone)):
        # only a chain gone bankrupt leaves the turn order (C21, at Clean-up); the setup seats everyone
        fail("turn_order", f"players {gone} are missing: only a bankrupt chain leaves the turn order, "
                           f"got {state.turn_order}")
    for name in ("queue", "passed"):
        for i, p in enumerate(getattr(state, name)):
            if not 0 <= p < n:
                fail(f"{name}[{i}]", f"player {p} is not in a {n}-player game")
    for i, spot in enumerate(state.spots):
        if not -1 <= spot < n:
            fail(f"spots[{i}]", f"a turn order spot is 0..{n - 1} (or -1: none), got {spot}")
    for name in ("bank", "bank_breaks", "bank_debt", "gardens_left"):
        if getattr(state, name) < 0:
            fail(name, f"must not be negative, got {getattr(state, name)}")
    if state.bank_debt and state.bank_breaks < 2 and state.variant == "standard":
        fail("bank_debt", "the bank owes money only after its second break (C23)")
    slots = sorted({3, *(card.ceo_slots for card in RESERVE_CARDS)})  # the CEO card's 3, or the reserve cards'
    if state.ceo_slots not in slots:
        fail("ceo_slots", f"a CEO has {slots} slots (its card's or the reserve cards'), got {state.ceo_slots}")


def _check_players(state: GameState) -> None:
    n = state.num_players
    if len(state.players) != n:
        fail("players", f"expected {n} players, got {len(state.players)}")
    values = sorted(card.value for card in RESERVE_CARDS)
    most = PRICES.restaurants_per_player
    for i, p in enumerate(state.players):
        where = f"players[{i}]"
        if p.player != i:
            fail(f"{where}.player", f"expected player id {i}, got {p.player}")
        for name in ("cash", "recruit_discounts"):  # income may be negative: cash earned at a negative price
            if getattr(p, name) < 0:
                fail(f"{where}.{name}", f"must not be negative, got {getattr(p, name)}")
        if (p.stock < 0).any():
            fail(f"{where}.stock", "negative count")
        if sorted(p.reserve_offer) not in ([], values):
            fail(f"{where}.reserve_offer", f"the dealt reserve cards are {values} (or none), got {list(p.reserve_offer)}")
        if (state.phase == Phase.SETUP_RESERVE or (state.phase == Phase.SETUP_RESTAURANTS and state.variant == "standard")) \
                and p.reserve is None and sorted(p.reserve_offer) != values:  # the standard setup deals them first
            fail(f"{where}.reserve_offer", f"a player still to keep a reserve card holds the dealt {values}, "
                                           f"got {list(p.reserve_offer)}")
        if p.reserve is not None and p.reserve not in p.reserve_offer:
            fail(f"{where}.reserve", f"{p.reserve} is not one of the dealt cards {list(p.reserve_offer)}")
        if len(p.restaurants) > most:
            fail(f"{where}.restaurants", f"a chain has {most} restaurants in the box, got {len(p.restaurants)}")


def _check_cards(state: GameState) -> None:
    """No negative pile; no more of a card type anywhere than the box holds; 1x cards once; marks on held cards."""
    if (state.supply < 0).any():
        t = int(np.flatnonzero(state.supply < 0)[0])
        fail(f"supply[{t}]", f"negative count of {EmployeeType(t).key}")
    for p in state.players:
        for name in _POOLS:
            pile = getattr(p, name)
            if (pile < 0).any():
                t = int(np.flatnonzero(pile < 0)[0])
                fail(f"players[{p.player}].{name}[{t}]", f"negative count of {EmployeeType(t).key}")
        if int(p.work[EmployeeType.CEO]) != 1 or p.owned()[EmployeeType.CEO] != 1:
            fail(f"players[{p.player}].work", "every chain has exactly one CEO, at work")
        owned = state.owned_cards(p.player)
        for spec in EMPLOYEES:
            if spec.unique and owned[spec.type] > 1:
                fail(f"players[{p.player}]", f"holds {int(owned[spec.type])} {spec.type.key}, a 1x card")
        over = np.flatnonzero(p.fired > p.work + p.beach + p.busy)
        if over.size:
            t = int(over[0])
            fail(f"players[{p.player}].fired[{t}]", f"more {EmployeeType(t).key} marked to fire than the chain holds")
    box = initial_supply(state.num_players)
    box[EmployeeType.CEO] = state.num_players
    total = state.total_cards()
    over = np.flatnonzero(total > box)
    if over.size:
        t = int(over[0])
        fail("supply", f"{int(total[t])} {EmployeeType(t).key} cards in the game (supply, players, campaigns); "
                       f"the box holds {int(box[t])}")


# ------------------------------------------------------------------ the map


def _on_map(state: GameState, squares, where: str) -> None:
    board = state.board
    for r, c in squares:
        if not (0 <= r < board.height and 0 <= c < board.width):
            fail(where, f"square ({r}, {c}) is off the {board.height}x{board.width} map")


def _check_houses(state: GameState) -> None:
    numbers = set(HOUSES.numbers)
    for number, house in state.houses.items():
        where = f"houses[{number}]"
        if house.number != number:
            fail(f"{where}.number", f"house stored under {number} says it is house {house.number}")
        _on_map(state, house.all_squares, where)
        if len(house.squares) != 4 or (house.garden and len(house.garden) != 2):
            fail(where, f"a house covers 4 squares and its garden 2, got {len(house.squares)} and {len(house.garden)}")
        if house.placed and (number not in numbers or not house.garden):
            fail(where, "a placed house is one of the house tokens, always with its garden")
        limit = HOUSES.demand_limit_with_garden if house.has_garden else HOUSES.demand_limit
        if len(house.demand) > limit:
            fail(f"{where}.demand", f"{len(house.demand)} demand tokens, the limit is {limit}")
    for number, squares in state.board.printed_houses.items():
        if number not in state.houses:
            fail("houses", f"printed house {number} of the board is missing")
        if tuple(state.houses[number].squares) != tuple(squares):
            fail(f"houses[{number}].squares", f"printed house {number} lies on {list(squares)}")
    placed = [n for n, h in state.houses.items() if h.placed]
    for i, number in enumerate(state.house_supply):
        if number not in numbers or number in placed or state.house_supply.index(number) != i:
            fail(f"house_supply[{i}]", f"house token {number} is not one of {sorted(numbers)} left in the supply")
    gardens = sum(1 for h in state.houses.values() if h.has_garden and not h.placed)
    for name, count in (("gardens_left", state.gardens_left), ("houses", gardens)):
        if count > HOUSES.garden_tokens:
            fail(name, f"{count} garden tokens {'left' if name == 'gardens_left' else 'on the map'}: "
                       f"the box holds {HOUSES.garden_tokens}")


def _check_pieces(state: GameState) -> None:
    """Restaurants on the map, on squares the printed map leaves empty, and no two pieces on one square."""
    from fcm_env.engine.board.placement import static_occupied

    taken: dict[tuple[int, int], str] = {}
    printed = static_occupied(state.board)

    def put(squares, where: str, *, on_empty: bool) -> None:
        for sq in squares:
            sq = (int(sq[0]), int(sq[1]))
            if on_empty and printed[sq]:
                fail(where, f"square {sq} is not empty on the printed map (road, house or drinks)")
            if sq in taken:
                fail(where, f"square {sq} is also covered by {taken[sq]}")
            taken[sq] = where

    for number, house in sorted(state.houses.items()):
        put(house.squares if house.placed else (), f"houses[{number}]", on_empty=True)
        put(house.garden, f"houses[{number}].garden", on_empty=True)
    for p in state.players:
        for i, r in enumerate(p.restaurants):
            where = f"players[{p.player}].restaurants[{i}]"
            try:
                squares = restaurant_squares(r.row, r.col, r.orientation, board=state.board)
            except ValueError as exc:
                fail(where, str(exc))
            put(squares, where, on_empty=True)
    for i, c in enumerate(state.campaigns):
        _on_map(state, c.squares, f"campaigns[{i}]")
        put(c.squares, f"campaigns[{i}]", on_empty=True)


# ------------------------------------------------------------------ bookkeeping


def _check_milestones(state: GameState) -> None:
    """Claimed milestones: held by someone, claimed in exactly one turn (gone or this turn; C29)."""
    both = state.milestones_gone & state.milestones_this_turn
    if both:
        fail("milestones_this_turn", f"{_names(both)} also listed in milestones_gone")
    held = set().union(*(p.milestones for p in state.players))
    if state.variant != "standard" and held:
        fail("players", f"the {state.variant} game has no milestones, but players hold {_names(held)}")
    for name in ("milestones_gone", "milestones_this_turn"):
        orphans = getattr(state, name) - held
        if orphans:
            fail(name, f"{_names(orphans)} held by no player")
    for p in state.players:
        unclaimed = p.milestones - state.milestones_gone - state.milestones_this_turn
        if unclaimed:
            fail(f"players[{p.player}].milestones",
                 f"{_names(unclaimed)} in neither milestones_gone nor milestones_this_turn")


def _names(milestones: set) -> str:
    return ", ".join(sorted(m.name for m in milestones))


def _check_campaigns(state: GameState) -> None:
    """Each campaign matches its tile (kind, covered squares, an airplane lane on the map), is off the
    supply, and a player's busy marketeers are at most the timed campaigns they run (fired ones left)."""
    tiles = {t.number for t in MARKETING_TILES if state.num_players in t.available_for_players}
    for i, number in enumerate(state.marketing_supply):
        if number not in tiles or state.marketing_supply.index(number) != i:
            fail(f"marketing_supply[{i}]", f"tile {number} is not a {state.num_players}-player tile listed once")
    seen: set[int] = set()
    running = np.zeros((state.num_players, len(state.supply)), dtype=np.int64)
    for i, c in enumerate(state.campaigns):
        where = f"campaigns[{i}]"
        if c.number not in tiles:
            fail(f"{where}.number", f"no marketing tile {c.number} in a {state.num_players}-player game")
        if c.number in seen or c.number in state.marketing_supply:
            fail(f"{where}.number", f"tile {c.number} is also on the board elsewhere or in marketing_supply")
        seen.add(c.number)
        tile = marketing_tile(c.number)
        if c.kind != int(tile.type):
            got = CampaignType(c.kind).name if c.kind in CampaignType._value2member_map_ else c.kind
            fail(f"{where}.kind", f"tile {c.number} is a {tile.type.name}, got {got}")
        if not 0 <= c.owner < state.num_players:
            fail(f"{where}.owner", f"player {c.owner} is not in a {state.num_players}-player game")
        if not 0 <= c.marketeer < len(EMPLOYEES) or not EMPLOYEES[c.marketeer].campaign_types:
            fail(f"{where}.marketeer", f"card type {c.marketeer} is not a marketeer")
        if c.remaining < 0:
            fail(f"{where}.remaining", f"must not be negative, got {c.remaining}")
        try:
            if tile.type == CampaignType.AIRPLANE:
                airplane_from_anchor(c.row, c.col, c.orientation, tile.along_edge, state.board)
                want: tuple = ()
            else:
                want = campaign_squares(c.row, c.col, c.orientation, tile, board=state.board)
        except ValueError as exc:
            fail(where, f"tile {c.number} cannot lie at ({c.row}, {c.col}, {c.orientation}): {exc}")
        if tuple(map(tuple, c.squares)) != tuple(want):
            fail(f"{where}.squares", f"tile {c.number} at ({c.row}, {c.col}, {c.orientation}) covers "
                                     f"{[list(sq) for sq in want]}, got {[list(sq) for sq in c.squares]}")
        if not c.eternal:
            running[c.owner, c.marketeer] += 1
    for p in state.players:
        over = np.flatnonzero(p.busy > running[p.player])
        if over.size:
            t = int(over[0])
            fail(f"players[{p.player}].busy", f"{int(p.busy[t])} busy {EmployeeType(t).key} but "
                                               f"{int(running[p.player, t])} timed campaign(s) of theirs with one")


def _check_turn(state: GameState) -> None:
    """The Working 9-5 bookkeeping: trainers are trainer cards with at most their own actions left."""
    for i, (etype, left) in enumerate(state.turn.trainers):
        if not 0 <= etype < len(EMPLOYEES) or not EMPLOYEES[etype].train:
            fail(f"turn.trainers[{i}]", f"card type {etype} trains nobody")
        if not 0 <= left <= EMPLOYEES[etype].train:
            fail(f"turn.trainers[{i}]", f"a {EmployeeType(etype).key} has 0..{EMPLOYEES[etype].train} "
                                        f"training actions, got {left}")
    for name in ("locked", "phantoms", "returned", "used"):
        if (getattr(state.turn, name) < 0).any():
            fail(f"turn.{name}", "negative count")
    for name in ("hires", "recruits_left"):
        if getattr(state.turn, name) < 0:
            fail(f"turn.{name}", f"must not be negative, got {getattr(state.turn, name)}")


def _check_pending(state: GameState) -> None:
    """Each pending decision belongs to the phase, asks a player of the game, and carries the context its
    decision has (docs/engine-api.md, the pending contexts); the trial of ``Game._check_loadable`` follows."""
    n = state.num_players
    if state.phase == Phase.GAME_OVER and state.pending:
        fail("pending", "the game is over: nothing can be pending")
    for i, pending in enumerate(state.pending):
        where = f"pending[{i}]"
        if not 0 <= pending.player < n:
            fail(f"{where}[1]", f"player {pending.player} is not in a {n}-player game")
        phase = PHASE_OF[pending.decision]
        if phase != state.phase:
            fail(f"{where}[0]", f"{pending.decision.name} is asked in {phase.name}, the game is in {state.phase.name}")
        if state.players[pending.player].bankrupt and pending.player not in state.turn_order:
            fail(f"{where}[1]", f"player {pending.player} is out of the game")
        fields = CONTEXT_FIELDS.get(pending.decision, ())
        if len(pending.context) > len(fields):
            fail(f"{where}[2]", f"{pending.decision.name} carries {len(fields)} context value(s) "
                                f"({', '.join(fields) or 'none'}), got {len(pending.context)}")
        check_context(state, pending, f"{where}[2]")
        if state.phase in _QUEUED and (not state.queue or state.queue[0] != pending.player):
            # the phase asks the players in the queue's order: the next move would act for queue[0]
            fail(f"{where}[1]", f"{state.phase.name} asks the first player of queue {state.queue}, "
                                f"got player {pending.player}")
        if state.phase == Phase.ORDER_OF_BUSINESS:
            # the players still to choose a spot are the queue: each spot left goes to one of them
            choosing = sorted(p for p in state.turn_order if p < len(state.spots) and state.spots[p] == -1)
            if len(state.spots) != n or sorted(state.queue) != choosing:
                fail("queue", f"in ORDER_OF_BUSINESS the queue holds the players without a spot {choosing}, "
                              f"got {state.queue}")

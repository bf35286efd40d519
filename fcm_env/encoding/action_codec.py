"""The flat action codec: every engine ``Action`` <-> one id of a single ``Discrete(N)`` space.

The space is the same for 2-5 players and both variants. It is cut into named,
contiguous segments, one per kind of choice (OpenSpiel style), and each segment
only holds argument combinations the component data allows (valid training
pairs, valid producer/good pairs, drink hauls up to the number of sources of
each drink in the box), so no id is wasted on a move the game can never offer.

Board placements of every piece share ONE segment ``row x col x orientation``
sized for the largest map (20 x 25 x 4). Restaurants, campaign tiles (airplanes
by their edge anchor, see ``placement.airplane_anchor``), houses and gardens are
never asked in the same decision, so :meth:`ActionCodec.decode` reads the
pending decision to know which piece an id of that segment places.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from fcm_env.data import (
    DRINKS,
    EMPLOYEES,
    HOUSES,
    MAP_TILES,
    MARKETING_TILES,
    PRICES,
    RESERVE_CARDS,
    SETUP,
    TILE_SIZE,
    EmployeeType,
    Good,
)
from fcm_env.engine.actions import Action, ActionKind, Decision, IllegalActionError, Pending
from fcm_env.engine.board.placement import (
    AIRPLANE_EDGES,
    CAMPAIGN_ORIENTATIONS,
    GARDEN_ORIENTATIONS,
    HOUSE_ORIENTATIONS,
    RESTAURANT_ORIENTATIONS,
)
from fcm_env.engine.game import Game
from fcm_env.engine.phases.working.recruit_train import (  # the career tree and the pooled-trainer marker
    POOLED,
    TRAIN_STEPS,
)

# ------------------------------------------------------------------ facts the segments are sized from

#: largest map over all player counts, in squares (5 players: 4 x 5 tiles = 20 x 25)
BOARD_ROWS = max(s.tile_rows for s in SETUP.values()) * TILE_SIZE
BOARD_COLS = max(s.tile_cols for s in SETUP.values()) * TILE_SIZE
BOARD_ORIENTATIONS = max(
    RESTAURANT_ORIENTATIONS, HOUSE_ORIENTATIONS, GARDEN_ORIENTATIONS, CAMPAIGN_ORIENTATIONS, AIRPLANE_EDGES
)
MAX_PLAYERS = max(SETUP)

NON_CEO_TYPES = tuple(t for t in EmployeeType if t != EmployeeType.CEO)
ENTRY_LEVEL_TYPES = tuple(s.type for s in EMPLOYEES if s.entry_level)
TRAINER_TYPES = tuple(s.type for s in EMPLOYEES if s.train)
MARKETEER_TYPES = tuple(s.type for s in EMPLOYEES if s.is_marketeer)
ROUTE_BUYER_TYPES = tuple(s.type for s in EMPLOYEES if s.drink_mode in ("road_route", "air_route"))
RESTAURANT_MANAGER_TYPES = tuple(s.type for s in EMPLOYEES if s.restaurant_placement)
MAX_DURATION = max(s.max_duration for s in EMPLOYEES)
#: SELECT_RESTAURANT index: an existing restaurant 0..max-1, or max (= len(restaurants)) for a new one
RESTAURANT_INDICES = PRICES.restaurants_per_player + 1
#: most drink sources of each drink a haul can collect: every source of that drink in the box
HAUL_LIMITS = tuple(sum(1 for t in MAP_TILES for good, _ in t.drinks if good == d) for d in DRINKS)




def _train_args() -> tuple[tuple[int, int, int], ...]:
    """(trainer, source, target): a trainer card reaches ``spec.train`` steps, pooled any number."""
    args = []
    for trainer in (POOLED, *(int(t) for t in TRAINER_TYPES)):
        reach = None if trainer == POOLED else EMPLOYEES[trainer].train
        for source in sorted(TRAIN_STEPS):
            for target, steps in sorted(TRAIN_STEPS[source].items()):
                if reach is None or steps <= reach:
                    args.append((trainer, source, target))
    return tuple(args)


def _produce_args() -> tuple[tuple[int, int], ...]:
    """(producer type, good): kitchen cards and their foods, the errand boy and each drink."""
    args = []
    for spec in EMPLOYEES:
        goods = spec.produces if spec.produces else (DRINKS if spec.drink_mode == "errand" else ())
        args.extend((int(spec.type), int(g)) for g in goods)
    return tuple(args)


def _haul_args() -> tuple[tuple[int, int, int, int], ...]:
    b, lem, s = HAUL_LIMITS
    return tuple(
        (int(t), i, j, k)
        for t in ROUTE_BUYER_TYPES
        for i in range(b + 1)
        for j in range(lem + 1)
        for k in range(s + 1)
    )


#: action kinds whose arguments are (row, col, orientation) in the shared board segment
BOARD_KINDS = (
    ActionKind.PLACE_RESTAURANT, ActionKind.PLACE_CAMPAIGN, ActionKind.PLACE_HOUSE, ActionKind.PLACE_GARDEN,
)

_BOARD_KIND_SET = frozenset(BOARD_KINDS)

#: which piece an id of the board segment places, by pending decision
BOARD_KIND_OF: dict[Decision, ActionKind] = {
    Decision.INITIAL_RESTAURANT: ActionKind.PLACE_RESTAURANT,
    Decision.RESTAURANT_PLACE: ActionKind.PLACE_RESTAURANT,
    Decision.CAMPAIGN_PLACE: ActionKind.PLACE_CAMPAIGN,
    Decision.HOUSE_PLACE: ActionKind.PLACE_HOUSE,
    Decision.NEW_BUSINESS: ActionKind.PLACE_GARDEN,
}

#: the action kinds each decision may ask for (``PASS`` decodes under every decision;
#: whether passing is legal there is the engine's call)
DECISION_KINDS: dict[Decision, frozenset[ActionKind]] = {
    Decision.INITIAL_RESTAURANT: frozenset({ActionKind.PLACE_RESTAURANT}),
    Decision.RESERVE_CARD: frozenset({ActionKind.CHOOSE_RESERVE}),
    Decision.RESTRUCTURE: frozenset({ActionKind.PUT_TO_WORK}),
    Decision.TURN_ORDER: frozenset({ActionKind.TURN_SPOT}),
    Decision.RECRUIT: frozenset({ActionKind.RECRUIT}),
    Decision.TRAIN: frozenset({ActionKind.TRAIN}),
    Decision.MARKETEER: frozenset({ActionKind.SELECT_MARKETEER}),
    Decision.CAMPAIGN_TILE: frozenset({ActionKind.CHOOSE_TILE}),
    Decision.CAMPAIGN_PLACE: frozenset({ActionKind.PLACE_CAMPAIGN}),
    Decision.CAMPAIGN_PRODUCT: frozenset({ActionKind.CHOOSE_PRODUCT}),
    Decision.CAMPAIGN_DURATION: frozenset({ActionKind.CHOOSE_DURATION}),
    Decision.PRODUCE: frozenset({ActionKind.PRODUCE, ActionKind.HAUL}),
    Decision.NEW_BUSINESS: frozenset({ActionKind.CHOOSE_HOUSE, ActionKind.PLACE_GARDEN}),
    Decision.HOUSE_PLACE: frozenset({ActionKind.PLACE_HOUSE}),
    Decision.RESTAURANT_MANAGER: frozenset({ActionKind.SELECT_RESTAURANT}),
    Decision.RESTAURANT_PLACE: frozenset({ActionKind.PLACE_RESTAURANT}),
    Decision.FIRE: frozenset({ActionKind.FIRE}),
    Decision.FREEZER: frozenset({ActionKind.KEEP}),
}


@dataclass(frozen=True)
class Segment:
    """A contiguous block of ids: ``start .. start + size - 1``.

    ``kinds`` are the action kinds it encodes (the board segment has four);
    ``args`` lists the argument tuple of each id in order (empty for the board
    segment, whose ids are computed: ``start + (row * BOARD_COLS + col) * 4 + orientation``).
    """

    name: str
    start: int
    size: int
    kinds: tuple[ActionKind, ...]
    args: tuple[tuple[int, ...], ...]
    description: str

    @property
    def stop(self) -> int:
        return self.start + self.size

    def __contains__(self, index: object) -> bool:
        return isinstance(index, int) and self.start <= index < self.stop


#: how ``action_to_string`` names a board id when it knows the piece (orientations: placement.py)
_BOARD_LABELS: dict[ActionKind, tuple[str, tuple[str, ...]]] = {
    ActionKind.PLACE_RESTAURANT: ("restaurant", ("NW", "NE", "SE", "SW")),
    ActionKind.PLACE_HOUSE: ("house", ("N", "E", "S", "W")),
    ActionKind.PLACE_GARDEN: ("garden", ("N", "E", "S", "W")),
    ActionKind.PLACE_CAMPAIGN: ("campaign", ("o0", "o1", "o2", "o3")),
}


def _label(etype: int) -> str:
    return "pooled" if etype == POOLED else EmployeeType(etype).key


def _good(good: int) -> str:
    return Good(good).name.lower()


class ActionCodec:
    """Maps engine actions to flat ids and back. Stateless; one shared instance is ``CODEC``."""

    def __init__(self) -> None:
        specs: list[tuple[str, ActionKind, Iterable[tuple[int, ...]], str]] = [
            ("pass", ActionKind.PASS, [()], "decline / done with the current step"),
            ("reserve", ActionKind.CHOOSE_RESERVE, [(i,) for i in range(len(RESERVE_CARDS))],
             "setup: keep bank reserve card i ($100, $200, $300)"),
            ("put_to_work", ActionKind.PUT_TO_WORK, [(int(t),) for t in NON_CEO_TYPES],
             "restructuring: put one card of this type to work"),
            ("turn_spot", ActionKind.TURN_SPOT, [(i,) for i in range(MAX_PLAYERS)],
             "order of business: take turn-order spot i (0 = first)"),
            ("recruit", ActionKind.RECRUIT, [(int(t),) for t in ENTRY_LEVEL_TYPES],
             "working: hire one entry-level card"),
            ("train", ActionKind.TRAIN, _train_args(),
             "working: train source -> target with a trainer / coach / guru, or pooled actions"),
            ("marketeer", ActionKind.SELECT_MARKETEER, [(int(t),) for t in MARKETEER_TYPES],
             "working: launch a campaign with this marketeer"),
            ("campaign_tile", ActionKind.CHOOSE_TILE, [(t.number,) for t in MARKETING_TILES],
             "working: the campaign tile (by number) the marketeer places"),
            ("product", ActionKind.CHOOSE_PRODUCT, [(int(g),) for g in Good],
             "working: the good the new campaign advertises"),
            ("duration", ActionKind.CHOOSE_DURATION, [(d,) for d in range(1, MAX_DURATION + 1)],
             "working: how many turns the campaign runs"),
            ("produce", ActionKind.PRODUCE, _produce_args(),
             "working: a kitchen card makes its food, or an errand boy fetches a drink"),
            ("haul", ActionKind.HAUL, _haul_args(),
             "working: a cart operator / truck driver / zeppelin pilot route: (beer, lemonade, soda) sources"),
            ("house", ActionKind.CHOOSE_HOUSE, [(n,) for n in HOUSES.numbers],
             "working: new business developer takes this house token"),
            ("restaurant", ActionKind.SELECT_RESTAURANT,
             [(int(m), i) for m in RESTAURANT_MANAGER_TYPES for i in range(RESTAURANT_INDICES)],
             "working: local / regional manager acts on restaurant i (i = restaurant count: a new one)"),
            ("fire", ActionKind.FIRE, [(int(t),) for t in NON_CEO_TYPES], "payday: fire one card of this type"),
            ("keep", ActionKind.KEEP, [(int(g),) for g in Good], "clean-up: keep one more of this good"),
        ]
        segments: list[Segment] = []
        start = 0
        self._ids: dict[tuple[int, tuple[int, ...]], int] = {}  # by (kind, args): cheaper to hash than Action
        self._actions: list[Action] = []
        for name, kind, arg_list, description in specs:
            arg_list = tuple(tuple(a) for a in arg_list)
            segments.append(Segment(name, start, len(arg_list), (kind,), arg_list, description))
            for args in arg_list:
                action = Action(kind, args)
                self._ids[kind, args] = len(self._actions)
                self._actions.append(action)
            start += len(arg_list)
        board_size = BOARD_ROWS * BOARD_COLS * BOARD_ORIENTATIONS
        segments.append(Segment(
            "place", start, board_size, BOARD_KINDS, (),
            f"board placement (row, col, orientation) on a {BOARD_ROWS} x {BOARD_COLS} grid: a restaurant, "
            "campaign tile (airplanes: edge anchor), house or garden, as the pending decision asks",
        ))
        self.board_start = start
        self.segments: tuple[Segment, ...] = tuple(segments)
        self.n = start + board_size
        self._by_name = {s.name: s for s in self.segments}

    # ------------------------------------------------------------------ lookup

    def segment(self, name: str) -> Segment:
        """The segment called ``name`` (KeyError naming the known ones otherwise)."""
        try:
            return self._by_name[name]
        except KeyError:
            raise KeyError(f"no segment {name!r}; segments are {sorted(self._by_name)}") from None

    def segment_of(self, index: int) -> Segment:
        """The segment holding ``index`` (IllegalActionError when out of range)."""
        index = self._check_index(index)
        if index >= self.board_start:
            return self.segments[-1]
        for seg in self.segments:
            if index < seg.stop:
                return seg
        raise AssertionError("unreachable")  # pragma: no cover

    # ------------------------------------------------------------------ encode / decode

    def encode(self, action: Action) -> int:
        """The flat id of ``action``; ValueError for an action outside the space."""
        if action.kind in BOARD_KINDS:
            index = self._board_id(action.args)
        else:
            index = self._ids.get((action.kind, action.args))
        if index is None:
            raise ValueError(f"action {action!r} ({action}) has no id in the flat action space")
        return index

    def _board_id(self, args: tuple[int, ...]) -> int | None:
        """The id of a board placement's (row, col, orientation); None off the grid."""
        if len(args) == 3:
            row, col, orient = args
            if 0 <= row < BOARD_ROWS and 0 <= col < BOARD_COLS and 0 <= orient < BOARD_ORIENTATIONS:
                return self.board_start + (row * BOARD_COLS + col) * BOARD_ORIENTATIONS + orient
        return None

    def encode_many(self, actions: Iterable[Action]) -> list[int]:
        """``encode`` of each action; the lookups inlined (the mask encodes every legal action)."""
        ids = self._ids
        out = []
        for action in actions:
            index = ids.get((action.kind, action.args))  # never a board kind: those are computed
            if index is None and action.kind in _BOARD_KIND_SET:
                index = self._board_id(action.args)
            out.append(self.encode(action) if index is None else index)  # encode: its error
        return out

    def decode(self, index: int, game: object) -> Action:
        """The action of id ``index`` under the decision ``game`` is asking.

        ``game`` is a ``Game``, a ``GameState``, a ``Pending`` or a ``Decision``. Raises
        ``IllegalActionError`` (a ``ValueError``) for an id out of range, when nothing is
        pending, or when the id's segment does not fit the pending decision. Whether the
        action is legal in the position is ``Game.apply``'s call.
        """
        index = self._check_index(index)
        decision = _decision_of(game)
        if index < self.board_start:
            action = self._actions[index]
            if action.kind != ActionKind.PASS and action.kind not in DECISION_KINDS[decision]:
                raise IllegalActionError(
                    f"action id {index} ({self.action_to_string(index)}) does not answer {decision.name}"
                )
            return action
        kind = BOARD_KIND_OF.get(decision)
        if kind is None:
            raise IllegalActionError(
                f"action id {index} ({self.action_to_string(index)}) is a board placement; "
                f"{decision.name} places nothing"
            )
        return Action(kind, self.board_args(index))

    def board_args(self, index: int) -> tuple[int, int, int]:
        """(row, col, orientation) of an id of the board segment."""
        offset = self._check_index(index) - self.board_start
        if offset < 0:
            raise IllegalActionError(f"action id {index} is not in the board placement segment")
        cell, orient = divmod(offset, BOARD_ORIENTATIONS)
        row, col = divmod(cell, BOARD_COLS)
        return row, col, orient

    def _check_index(self, index: object) -> int:
        if type(index) is int and 0 <= index < self.n:  # the common case, without the generic checks
            return index
        if isinstance(index, bool) or not hasattr(index, "__index__"):
            raise IllegalActionError(f"action id must be an integer, got {index!r}")
        value = int(index.__index__())  # type: ignore[attr-defined]
        if not 0 <= value < self.n:
            raise IllegalActionError(f"action id {value} is out of range 0..{self.n - 1}")
        return value

    # ------------------------------------------------------------------ text

    def action_to_string(self, index: int, game: object | None = None) -> str:
        """A short readable name for every id, e.g. ``recruit:waitress`` or ``place[3,7,o2]``.

        Given the ``game`` (or its pending decision), a board id names its piece and
        orientation instead: ``restaurant[3,7,SE]``, ``house[3,7,S]``, ``campaign[3,7,o1]``.
        """
        index = self._check_index(index)
        if index >= self.board_start:
            row, col, orient = self.board_args(index)
            kind = BOARD_KIND_OF.get(_decision_of(game)) if game is not None else None
            if kind is None:
                return f"place[{row},{col},o{orient}]"
            name, labels = _BOARD_LABELS[kind]
            return f"{name}[{row},{col},{labels[orient] if orient < len(labels) else f'o{orient}'}]"
        seg = self.segment_of(index)
        a = self._actions[index].args
        name = seg.name
        if name == "pass":
            return "pass"
        if name == "reserve":
            return f"reserve:${RESERVE_CARDS[a[0]].value}"
        if name in ("put_to_work", "recruit", "marketeer", "fire"):
            return f"{name}:{EmployeeType(a[0]).key}"
        if name == "train":
            return f"train:{_label(a[0])}:{EmployeeType(a[1]).key}->{EmployeeType(a[2]).key}"
        if name == "produce":
            return f"produce:{EmployeeType(a[0]).key}:{_good(a[1])}"
        if name == "haul":
            return f"haul:{EmployeeType(a[0]).key}:beer{a[1]},lemonade{a[2]},soda{a[3]}"
        if name in ("product", "keep"):
            return f"{name}:{_good(a[0])}"
        if name == "restaurant":
            return f"restaurant:{EmployeeType(a[0]).key}:{a[1]}"
        return f"{name}:{a[0]}"  # turn_spot, campaign_tile, duration, house


def _decision_of(game: object) -> Decision:
    if type(game) is Game:  # the common case first: a Game's top pending record
        pending = game.state.pending
        if pending:
            return pending[-1].decision
    if isinstance(game, Decision):
        return game
    if isinstance(game, Pending):
        return game.decision
    pending = getattr(game, "pending", None)
    if isinstance(pending, list):  # a GameState: the stack of pending records
        pending = pending[-1] if pending else None
    if pending is None:
        raise IllegalActionError("no decision is pending: no action id can be decoded")
    if not isinstance(pending, Pending):
        raise TypeError(f"decode needs a Game, GameState, Pending or Decision, got {type(game).__name__}")
    return pending.decision


CODEC = ActionCodec()
NUM_ACTIONS: int = CODEC.n


def encode(action: Action) -> int:
    return CODEC.encode(action)


def decode(index: int, game: object) -> Action:
    return CODEC.decode(index, game)


def action_to_string(index: int, game: object | None = None) -> str:
    return CODEC.action_to_string(index, game)

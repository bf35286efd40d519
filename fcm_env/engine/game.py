"""``Game``: the engine's public face — new game, pending decision, legal actions, apply.

"Which moves are legal" (one ``legal_*`` function per decision) is kept apart from
"apply this move" (one ``apply_*`` function per decision), and ``apply`` checks
the action against the legal set before touching the state, so an illegal
action raises ``IllegalActionError`` and leaves the state unchanged.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from fcm_env.data import HOUSES, MARKETING_TILES, RESERVE_CARDS, setup_for
from fcm_env.engine import events
from fcm_env.engine.actions import Action, Decision, IllegalActionError, Pending
from fcm_env.engine.board.geometry import Board
from fcm_env.engine.hidden.determinize import HiddenChoiceModel
from fcm_env.engine.hidden.determinize import determinize as determinize_state
from fcm_env.engine.hidden.observed import ObservedAction, observed_action
from fcm_env.engine.hidden.visibility import seat_state
from fcm_env.engine.persistence.bounds import ROUND_MAX, SEED_LIMIT
from fcm_env.engine.persistence.serialize import (
    StateFormatError,
    load_state,
    save_state,
    state_from_dict,
    state_to_dict,
)
from fcm_env.engine.phases import cleanup, flow, payday, restructuring, setup, working
from fcm_env.engine.phases.api import Apply, Legal
from fcm_env.engine.state import VARIANTS, GameState, House, Phase, PlayerState, initial_supply

#: the round cap of the RL envs and bot tools (``Game.new`` itself plays by the rules: no cap)
DEFAULT_MAX_ROUNDS = 30

#: every phase module with decisions publishes ``ROUTES``: decision -> (legal actions, apply)
#: (``working`` publishes its sub-steps' decisions, chained to the rest of the turn)
PHASE_MODULES = (
    setup, restructuring, working, payday, cleanup,
)
ROUTES: dict[Decision, tuple[Legal, Apply]] = {}
for _module in PHASE_MODULES:
    ROUTES.update(_module.ROUTES)


def _action_order(action: Action) -> tuple:
    """``Action``'s own dataclass order as a sort key: one key per action instead of an ``__lt__`` per comparison."""
    return (action.kind, action.args)


def check_new_game_arguments(variant: object, seed: object, max_rounds: object) -> None:
    """``Game.new``'s checks, shared with the native engine's: the same errors for the same bad arguments,
    within the ranges a saved game loads with (``persistence.bounds``)."""
    if variant not in VARIANTS:
        raise ValueError(f"variant must be one of {VARIANTS}, got {variant!r}")
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool):
        raise TypeError(f"seed must be an int, got {seed!r}")
    if not 0 <= seed < SEED_LIMIT:
        raise ValueError(f"seed must be 0..2**63-1, got {seed}")
    if max_rounds is not None and (isinstance(max_rounds, bool) or not isinstance(max_rounds, (int, np.integer))
                                   or not 1 <= max_rounds <= ROUND_MAX):
        raise ValueError(f"max_rounds must be None (no cap: the rules end the game) or 1..{ROUND_MAX}, "
                         f"got {max_rounds!r}")


class Game:
    """A Food Chain Magnate game. Player ids (0..n-1) never change; seats do."""

    def __init__(self, state: GameState):
        self.state = state
        self._legal_cache: list[Action] | None = None
        #: per-position scratch space of the layers above (the encoder's legal ids); emptied on every move
        self.position_cache: dict[str, Any] = {}
        #: opt-in action log: set it to ``[]`` (records.start_recording) and ``apply`` appends to it
        self.history: list[Action] | None = None
        #: opt-in event log (``record_events``): plain dicts, fcm_env.engine.events
        self.events: list[dict[str, Any]] | None = None

    # ------------------------------------------------------------------ creation

    @classmethod
    def new(
        cls,
        num_players: int = 4,
        seed: int = 0,
        variant: str = "standard",
        max_rounds: int | None = None,
        board: Board | None = None,
    ) -> Game:
        """Set up a game: map, bank, supply, turn order; then ask for the first restaurants.

        rules: Setting up; C2, C7. The only randomness is drawn here, from one
        ``numpy.random.Generator`` seeded with ``seed``: the map tiles, their
        rotations, and the initial turn order. ``board`` replaces the random map.
        """
        table = setup_for(num_players)
        check_new_game_arguments(variant, seed, max_rounds)
        rng = np.random.default_rng(int(seed))
        random_board = Board.random(num_players, rng)
        if board is None:
            board = random_board
        elif (board.tile_rows, board.tile_cols) != (table.tile_rows, table.tile_cols):
            raise ValueError(
                f"a {num_players}-player board has {table.tile_rows}x{table.tile_cols} tiles, "
                f"got {board.tile_rows}x{board.tile_cols}"
            )
        order = [int(p) for p in rng.permutation(num_players)]
        standard = variant == "standard"
        state = GameState(
            num_players=num_players,
            variant=variant,
            seed=int(seed),
            board=board,
            max_rounds=max_rounds,
            turn_order=order,
            bank=table.bank if standard else table.bank_introductory,
            supply=initial_supply(num_players),
            marketing_supply=[
                t.number for t in MARKETING_TILES if num_players in t.available_for_players
            ],
            houses={
                number: House(number, tuple(squares))
                for number, squares in sorted(board.printed_houses.items())
            },
            house_supply=list(HOUSES.numbers),
            gardens_left=HOUSES.garden_tokens,
        )
        for p in range(num_players):
            player = PlayerState(player=p)
            player.work[0] = 1  # the CEO is always at work
            if standard:
                player.reserve_offer = tuple(card.value for card in RESERVE_CARDS)
            state.players.append(player)
        setup.start(state)
        game = cls(state)
        game._advance()
        return game

    # ------------------------------------------------------------------ queries

    @property
    def num_players(self) -> int:
        return self.state.num_players

    @property
    def board(self) -> Board:
        return self.state.board

    @property
    def phase(self) -> Phase:
        return self.state.phase

    @property
    def pending(self) -> Pending | None:
        return self.state.pending[-1] if self.state.pending else None

    @property
    def current_player(self) -> int | None:
        pending = self.pending
        return None if pending is None else pending.player

    @property
    def is_over(self) -> bool:
        return self.state.phase == Phase.GAME_OVER

    @property
    def winners(self) -> tuple[int, ...]:
        """Player ids of the winner(s) once the game is over; () while it runs."""
        return flow.winners(self.state)

    def legal_actions(self) -> list[Action]:
        """The actions the pending decision allows, sorted; empty when nothing is asked."""
        return list(self._legal())

    def legal_actions_view(self) -> list[Action]:
        """The legal actions without a copy, for callers that ask every step; do not change the list."""
        return self._legal()

    def _legal(self) -> list[Action]:
        """The cached legal list itself (not to be changed): one computation per position."""
        if self._legal_cache is None:
            pending = self.pending
            if pending is None:
                self._legal_cache = []
            else:
                legal, _ = ROUTES[pending.decision]
                self._legal_cache = sorted(legal(self.state, pending), key=_action_order)
        return self._legal_cache

    # ------------------------------------------------------------------ moves

    def apply(self, action: Action, *, atomic: bool = False) -> None:
        """Play ``action`` for the pending decision (``IllegalActionError`` if it is not legal: nothing changes).

        ``atomic=True``: a move that fails midway with an unexpected error (a bug) leaves the game exactly
        as it was, history and event log included, and the error goes on to the caller. It costs a copy of
        the state per move (``clone``, about 10-20 us), so the front ends use it and the envs and the
        search, which play the engine's own positions at speed, do not.
        """
        pending = self.pending
        if pending is None:
            raise IllegalActionError(f"no decision is pending (phase {self.state.phase.name}); got {action}")
        if not isinstance(action, Action):
            raise IllegalActionError(f"expected an Action, got {action!r}")
        if action not in self._legal():
            raise IllegalActionError(
                f"{action} is not legal for {pending.decision.name} of player {pending.player}"
            )
        if not atomic:
            self._move(pending, action)
            return
        with self.transaction():
            self._move(pending, action)

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Game]:
        """``with game.transaction(): ...``: if the block raises, the game is put back exactly as it was at
        its start (state, history, event log, caches), and the error goes on. A front end wraps a request
        that makes several moves (a player's move and the bots' answers) in one."""
        saved = self._snapshot()
        try:
            yield self
        except BaseException:
            self._restore(saved)
            raise

    def _snapshot(self) -> tuple:
        """What ``_restore`` needs to put this game back as it is now."""
        history = None if self.history is None else len(self.history)
        logged = None if self.events is None else len(self.events)
        return self.state.clone(), self._legal_cache, self.position_cache, history, logged

    def _restore(self, saved: tuple) -> None:
        state, self._legal_cache, self.position_cache, history, logged = saved
        self.state = state
        if history is not None:
            del self.history[history:]
        if logged is not None:
            del self.events[logged:]
            events.attach(self.state, self.events)

    def apply_legal(self, action: Action) -> None:
        """``apply`` for an action already checked against this position's legal actions.

        The envs check every flat id against the cached legal ids before decoding it, so
        checking the decoded action again would only repeat that work on the hot path.
        """
        self._move(self.pending, action)

    def _move(self, pending: Pending, action: Action) -> None:
        state = self.state
        _, apply = ROUTES[pending.decision]
        events.action_event(state, pending.decision, pending.player, action)
        apply(state, pending, action)
        if self.history is not None:
            self.history.append(action)
        self._run_engine()

    def advance(self) -> Game:
        """Run the engine's own steps from this position until a player must decide or the game ends.

        ``apply`` does this after every action; call it on a position built by hand or loaded
        with ``from_dict`` / ``load`` (which never move the game by themselves). A phase whose
        ``pending`` is empty counts as finished: a position in ``WORKING`` with nothing pending
        runs Dinnertime, Payday's start and so on; ``DINNERTIME`` and ``MARKETING``, which ask
        nothing, are still to run (D48; docs/engine-api.md). Returns ``self``.
        """
        self._advance()
        return self

    def _advance(self) -> None:
        """Run the engine's own steps until a player must decide (or the game ends)."""
        self._run_engine()

    def _run_engine(self) -> None:
        """``flow.advance``, dropping the position's caches."""
        flow.advance(self.state)
        self._legal_cache = None
        self.position_cache = {}

    def clone(self) -> Game:
        """An independent game at the same position that plays on bit for bit like this one.

        Nothing mutable is shared (``GameState.clone``); the legal actions already listed are
        (the list is never changed in place, only replaced). A recorded history or event log is
        copied, which costs time in proportion to its length.
        """
        game = self._spawn(self.state.clone())
        game._legal_cache = self._legal_cache
        game.history = None if self.history is None else list(self.history)
        if self.events is not None:
            game.record_events(list(self.events))
        return game

    # ------------------------------------------------------------------ hidden information

    def determinize(self, observer: int, rng: np.random.Generator, model: HiddenChoiceModel | None = None) -> Game:
        """A new game that ``observer`` cannot tell from this one, every fact hidden from it redrawn.

        Another player's hidden reserve card, face-down Restructuring and secret firing marks are
        erased and drawn again from ``model`` (default: ``UniformModel``, any legal choice alike) and
        ``rng``; the result never depends on the true hidden values (``fcm_env.engine.hidden.determinize``).
        The new game keeps no history and no event log: those hold the true hidden moves.
        """
        return self._spawn(determinize_state(self.state, observer, rng, model))

    def _spawn(self, state: GameState) -> Game:
        """A new game of this game's class on ``state`` (so a subclass's clones keep its face)."""
        return type(self)(state)

    def seat_view(self, player: int) -> SeatView:
        """The game as ``player``'s seat may know it: other players' hidden facts erased (a kept reserve
        card unknown, face-down cards in hand, no firing marks). Cheap (a shallow copy) and read-only:
        agents that read the engine read this, so they cannot peek; ``clone()`` it to play moves on."""
        return SeatView(self, player)

    def observed_action(self, action: Action, observer: int) -> ObservedAction:
        """The key under which ``observer`` sees ``action`` taken for the pending decision: equal keys for
        moves it cannot tell apart (another player's face-down choice), as the event log shows them."""
        pending = self.pending
        if pending is None:
            raise IllegalActionError(f"no decision is pending (phase {self.state.phase.name}); got {action}")
        return observed_action(pending, action, observer)

    # ------------------------------------------------------------------ events

    def record_events(self, log: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
        """Log every event from now on into ``self.events`` (a new list, or ``log``); returns it."""
        self.events = [] if log is None else log
        events.attach(self.state, self.events)
        return self.events

    def events_for(self, player: int) -> list[dict[str, Any]]:
        """The logged events ``player`` may see (the hidden-information rules of the observations)."""
        if self.events is None:
            raise RuntimeError("events are not recorded: call record_events() first")
        return [e for e in self.events if events.visible(e, player)]

    # ------------------------------------------------------------------ saving

    def to_dict(self) -> dict[str, Any]:
        """The state as a JSON-safe document (docs/state-format.md); the history is not part of it."""
        return state_to_dict(self.state)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        """A game at exactly the saved position; ``StateFormatError`` if the document is malformed or breaks a
        rule-level fact (``fcm_env.engine.persistence.validate``; docs/state-format.md)."""
        game = cls(state_from_dict(data))
        game._check_loadable()
        return game

    def save(self, path: str | Path) -> None:
        save_state(self.state, path)

    @classmethod
    def load(cls, path: str | Path) -> Game:
        game = cls(load_state(path))
        game._check_loadable()
        return game

    def _check_loadable(self) -> None:
        """The trial of a loaded position: its pending decision can be asked and every answer to it plays,
        each on a copy (``StateFormatError`` naming ``pending`` otherwise). Loading is rare; a few
        milliseconds here spare a game that breaks moves later, far from the bad document."""
        pending = self.pending
        if pending is None:
            return
        where = f"pending[{len(self.state.pending) - 1}]"
        asked = f"{pending.decision.name} of player {pending.player}"
        try:
            legal = self._legal()
        except Exception as exc:  # noqa: BLE001 -- any failure means the position cannot be played
            raise StateFormatError(f"{where}: {asked} cannot be asked in this position "
                                   f"({type(exc).__name__}: {exc})") from None
        if not legal:
            raise StateFormatError(f"{where}: {asked} has no legal answer in this position")
        for action in legal:
            trial = Game(self.state.clone())
            try:
                trial._move(trial.pending, action)
            except Exception as exc:  # noqa: BLE001
                raise StateFormatError(f"{where}: answering {asked} with {action} fails in this position "
                                       f"({type(exc).__name__}: {exc})") from None


class SeatView(Game):
    """A read-only game as one seat may know it (``Game.seat_view``); ``clone()`` gives a playable game.

    It shares the real game's objects (only the masked players are copied), so it refuses every move.
    """

    def __init__(self, game: Game, player: int):
        if not 0 <= player < game.state.num_players:
            raise ValueError(f"player must be a player id 0..{game.state.num_players - 1}, got {player!r}")
        super().__init__(seat_state(game.state, player))
        self.seat = player
        self._playable = getattr(game, "_playable", type(game))
        pending = game.pending
        if pending is not None and pending.player == player:  # the seat's own decision: nothing of it is masked
            self._legal_cache = game._legal_cache

    def _spawn(self, state: GameState) -> Game:
        return self._playable(state)  # a copy of a view plays: the class of the game it was taken from

    def apply(self, action: Action) -> None:
        raise TypeError("a seat view is read-only: clone() it to play moves on it")

    def apply_legal(self, action: Action) -> None:
        raise TypeError("a seat view is read-only: clone() it to play moves on it")

    def advance(self) -> Game:
        raise TypeError("a seat view is read-only: clone() it to play moves on it")

    def record_events(self, log: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
        raise TypeError("a seat view is read-only: it records no events")

"""``NativeGame``: a game on the C++ core with the whole face (``face.GameLike``).

The core holds the state; Python sees it through a few cheap calls per position. What the core does not
keep (the event log, the text and picture renderers, seat views, a determinization by a Python model) a
native game gets from ``snapshot()``, the Python game decoded from the core's own state document (both
engines save the same document for the same position), and back through ``from_game``.

``state`` is a read-only view of the table facts only (phase, round, turn order, each player's cash and
bankruptcy, the round cap's end: ``face.TableFacts``), from the core in one call. Any other field raises an
``AttributeError`` that names ``snapshot()``: a full Python state costs a decode, so it is asked for by name.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from fcm_env.data import setup_for
from fcm_env.encoding import NUM_ACTIONS
from fcm_env.encoding.action_codec import CODEC
from fcm_env.engine.actions import Action, ActionKind, Decision, IllegalActionError, Pending
from fcm_env.engine.game import Game, check_new_game_arguments
from fcm_env.engine.hidden.determinize import UniformModel, checked_observer
from fcm_env.engine.hidden.observed import observed_action
from fcm_env.engine.persistence.bounds import check_bounds
from fcm_env.engine.persistence.dataclass_json import StateFormatError
from fcm_env.engine.persistence.serialize import state_from_dict
from fcm_env.engine.state import Phase
from fcm_env.native import _core

from .python_game import PythonGame

_PHASES = {p.name: p for p in Phase}
_DECISIONS = {d.name: d for d in Decision}


def _not_summarised(what: str, name: str) -> AttributeError:
    return AttributeError(f"a native game's state view holds the table facts only, not {what}.{name}: "
                          "read the full position from game.snapshot().state")


class PlayerSummary:
    """One player of ``StateSummary``: cash and bankruptcy, from the core."""

    __slots__ = ("bankrupt", "cash", "player")

    def __init__(self, player: int, cash: int, bankrupt: bool) -> None:
        self.player, self.cash, self.bankrupt = player, cash, bankrupt

    def __getattr__(self, name: str) -> Any:
        raise _not_summarised(f"players[{self.player}]", name)


class StateSummary:
    """A native game's ``state``: the table facts the rewards, infos and standings read, from the core in one
    call. Read-only: a copy of the facts at one position, changing it changes no game."""

    def __init__(self, raw: tuple) -> None:
        (self.num_players, self.variant, self.round, phase, self.turn_order, self.truncated, players,
         self.seed, max_rounds) = raw
        self.phase = _PHASES[phase]
        self.max_rounds = None if max_rounds < 0 else max_rounds
        self.players = [PlayerSummary(p, cash, bankrupt) for p, (cash, bankrupt) in enumerate(players)]

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        raise _not_summarised("state", name)


def _core_game(document: dict[str, Any]) -> _core.Game:
    """The core's game of a checked document. The checks (``validate``, ``bounds``) keep every number within
    what the core holds; should one slip through, the core's failure to hold it is still the loader's
    ``StateFormatError``, never another error (``tools/fuzz_documents.py`` looks for such numbers)."""
    try:
        return _core.Game.from_checked_dict(document)
    except (RuntimeError, TypeError, OverflowError) as exc:
        raise StateFormatError(f"the native core cannot hold this document: {exc}") from None


def _action(pair: tuple[int, tuple[int, ...]]) -> Action:
    return Action(ActionKind(pair[0]), pair[1])


class NativeGame:
    """A game on the native core (see the module docstring). Player ids 0..n-1 never change; seats do."""

    engine = "native"

    def __init__(self, core: _core.Game) -> None:
        self._core = core
        #: moves are whole under threads: a check, the core's move, the history and the caches together
        #: (each core call keeps the GIL, so the core itself is never entered twice at once)
        self._moving = threading.Lock()
        #: opt-in action log, as ``Game.history``: set it to ``[]`` and ``apply`` appends every action
        self.history: list[Action] | None = None
        self._forget()

    def _forget(self) -> None:
        # a new dict per position, made after the core's move: a fact read from the core is stored in the dict
        # taken before the read, so one read across another thread's move lands in the discarded dict and
        # never outlives its position (a cache attribute set after the read could: a stale legal list kept
        # both threads of tests/native/test_native_threads.py refused forever)
        self._known: dict[str, Any] = {}
        self.position_cache: dict[str, Any] = {}

    def _fact(self, key: str, read: Any) -> Any:
        """This position's ``key``, read from the core once (``read()``)."""
        known = self._known
        if key not in known:
            known[key] = read()
        return known[key]

    @property
    def core(self) -> _core.Game:
        """The core game itself (for the core's own helpers, such as its kept observation rows)."""
        return self._core

    @property
    def native_core(self) -> _core.Game:
        """The face's capability: the core game, for a native player or search to play on."""
        return self._core

    # ------------------------------------------------------------------ creation

    @classmethod
    def new(cls, num_players: int = 4, seed: int = 0, variant: str = "standard",
            max_rounds: int | None = None) -> NativeGame:
        """``Game.new``'s game: the same map, turn order and setup for the same arguments."""
        setup_for(num_players)  # a bad player count: the Python engine's ValueError naming num_players
        check_new_game_arguments(variant, seed, max_rounds)  # and its words for the rest
        return cls(_core.Game.new(int(num_players), int(seed), variant, None if max_rounds is None else int(max_rounds)))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> NativeGame:
        """A game at the document's position. The document is first loaded by the Python engine, so a
        malformed one is refused with the very ``StateFormatError`` (and message) ``Game.from_dict`` gives."""
        checked = Game.from_dict(data)
        return cls(_core_game(checked.to_dict()))

    @classmethod
    def from_game(cls, game: Game) -> NativeGame:
        """The native twin of a Python game at its position (its history and event log stay behind). A position
        edited by hand past the ranges the core holds is refused (``StateFormatError`` naming the field)."""
        check_bounds(game.state)
        return cls(_core_game(game.to_dict()))

    def to_dict(self) -> dict[str, Any]:
        """The state document, as ``Game.to_dict`` writes it for the same position."""
        return self._core.to_dict()

    def snapshot(self) -> PythonGame:
        """The Python game at this position (events, records, pictures, text, the reference agents): the core's
        own document decoded on the trusted path (no rule checks, no trial play). A copy: moves on it leave
        this game as it is."""
        return PythonGame(state_from_dict(self.to_dict(), trusted=True))

    def __getstate__(self) -> dict[str, Any]:
        """Pickles (and deep copies) carry the position as its state document, and the action log."""
        return {"document": self.to_dict(), "history": None if self.history is None else list(self.history)}

    def __setstate__(self, state: dict[str, Any]) -> None:
        # checked as any document is (a pickle may come from anywhere): the loader's StateFormatError, not a crash
        self._core = _core_game(Game.from_dict(state["document"]).to_dict())
        self._moving = threading.Lock()
        self.history = state.get("history")
        self._forget()

    def __deepcopy__(self, memo: dict) -> NativeGame:
        return self.clone()

    def clone(self) -> NativeGame:
        twin = NativeGame(self._core.clone())  # shares nothing with this game: its caches are read anew
        twin.history = None if self.history is None else list(self.history)
        return twin

    # ------------------------------------------------------------------ queries

    @property
    def num_players(self) -> int:
        return self.state.num_players

    @property
    def phase(self) -> Phase:
        return _PHASES[self._core.phase]

    @property
    def pending(self) -> Pending | None:
        return self._fact("pending", self._read_pending)

    def _read_pending(self) -> Pending | None:
        raw = self._core.pending
        return None if raw is None else Pending(_DECISIONS[raw[0]], raw[1], tuple(raw[2]))

    @property
    def current_player(self) -> int | None:
        return self._core.current_player

    @property
    def is_over(self) -> bool:
        return self._core.is_over

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(self._core.winners)

    @property
    def state(self) -> StateSummary:
        return self._fact("state", lambda: StateSummary(self._core.summary()))

    def info_facts(self) -> tuple[int, int, int, int, list[int]]:
        """(phase, pending decision or -1, round, player to move or -1, cash by player): the envs' infos."""
        return self._core.info_facts()

    def legal_actions(self) -> list[Action]:
        """The actions the pending decision allows, sorted as ``Game.legal_actions`` sorts them."""
        return list(self.legal_actions_view())

    def legal_actions_view(self) -> list[Action]:
        return self._fact("legal", lambda: [_action(pair) for pair in self._core.legal_actions()])

    def legal_ids(self) -> np.ndarray:
        """Sorted flat ids (int64, read-only) of the legal actions: ``fcm_env.encoding.legal_action_ids``'s."""
        return self._fact("ids", self._read_ids)

    def _read_ids(self) -> np.ndarray:
        ids = self._core.legal_ids()
        ids.setflags(write=False)
        return ids

    def is_legal_id(self, index: int) -> bool:
        return 0 <= index < NUM_ACTIONS and self._core.is_legal_id(index)  # any int: the core takes int64

    # ------------------------------------------------------------------ moves

    def apply(self, action: Action) -> None:
        """Play ``action`` (``IllegalActionError`` in ``Game.apply``'s words if it is not legal: nothing changes)."""
        pending = self.pending
        if pending is None:
            raise IllegalActionError(f"no decision is pending (phase {self.phase.name}); got {action}")
        if not isinstance(action, Action):
            raise IllegalActionError(f"expected an Action, got {action!r}")
        with self._moving:
            try:
                self._core.apply(int(action.kind), list(action.args))
            except _core.NativeIllegalAction:
                raise IllegalActionError(
                    f"{action} is not legal for {pending.decision.name} of player {pending.player}") from None
            if self.history is not None:
                self.history.append(action)
            self._forget()

    def apply_legal(self, action: Action | int) -> None:
        """``apply`` for an action (or a flat id) already checked against this position's legal ones (a
        check that another thread's move made stale gives ``IllegalActionError``; nothing changes)."""
        with self._moving:
            try:
                if isinstance(action, Action):
                    self._core.apply(int(action.kind), list(action.args))
                elif self.history is not None:
                    action = CODEC.decode(int(action), self.pending)
                    self._core.apply(int(action.kind), list(action.args))
                else:
                    self._core.apply_id(int(action))
            except _core.NativeIllegalAction as exc:
                raise IllegalActionError(f"{action} is not legal here: {exc}") from None
            if self.history is not None:
                self.history.append(action)
            self._forget()

    def play_id(self, index: int) -> tuple[int, int, int, int, list[int], int] | None:
        """Play the flat id when it is legal: the new position's ``info_facts`` and the mover's legal count
        (one core call); None, and nothing changed, when it is not legal."""
        if not 0 <= index < NUM_ACTIONS:  # any int (the core takes int64)
            return None
        with self._moving:
            if self.history is not None:  # the log holds Actions: decode the id before the move
                pending = self.pending
                if pending is None or not self._core.is_legal_id(index):
                    return None
                action = CODEC.decode(int(index), pending)
                facts = self._core.play_id(index)
                self.history.append(action)
            else:
                facts = self._core.play_id(index)
            if facts is not None:
                self._forget()
            return facts

    def play_in_core(self, run: Callable[[Any], list]) -> int:
        """Let ``run(core)`` move the core game itself (a higher layer's native players, ``fcm_agents.match``):
        it returns the moves it made as ``(kind, args)`` pairs, which join ``history``; the face's facts are
        read afresh. Returns how many moves were made."""
        with self._moving:
            moves = run(self._core)
            if moves:
                if self.history is not None:
                    self.history.extend(Action(ActionKind(kind), tuple(args)) for kind, args in moves)
                self._forget()
            return len(moves)

    def advance(self) -> NativeGame:
        """Run the engine's own steps until a decision is pending or the game ends (``Game.advance``)."""
        with self._moving:
            self._core.advance()
            self._forget()
        return self

    def apply_id(self, index: int) -> None:
        """Play the flat id ``index`` (``IllegalActionError`` naming it when it is not legal: nothing changes)."""
        with self._moving:  # the check and the move together: another thread cannot move in between
            pending = self.pending
            if pending is None:
                raise IllegalActionError(f"no decision is pending (phase {self.phase.name}); got action id {index}")
            if not self.is_legal_id(index):
                raise IllegalActionError(f"action id {index} ({CODEC.action_to_string(index, pending)}) is not "
                                         f"legal for {pending.decision.name} of player {pending.player}")
            self._core.apply_id(int(index))
            if self.history is not None:
                self.history.append(CODEC.decode(int(index), pending))
            self._forget()

    # ------------------------------------------------------------------ hidden information

    def observed_action(self, action: Action, observer: int) -> Any:
        """``Game.observed_action``: the key under which ``observer`` sees ``action`` taken for the pending
        decision (another player's face-down choice hides which)."""
        pending = self.pending
        if pending is None:
            raise IllegalActionError(f"no decision is pending (phase {self.phase.name}); got {action}")
        return observed_action(pending, action, observer)

    def determinize(self, observer: int, rng: np.random.Generator, model: Any = None) -> NativeGame:
        """``Game.determinize`` of this position (the same draws from ``rng``, the same world, the same leak
        contract), as a native game. With the default ``UniformModel`` it runs in the core, taking numpy's
        PCG64 state and handing it back advanced; another model (a Python object) runs on the Python engine."""
        observer = checked_observer(observer, self.num_players)  # the Python engine's checks, its words
        if not isinstance(rng, np.random.Generator):
            raise TypeError(f"rng must be a numpy Generator (np.random.default_rng), got {type(rng).__name__}")
        if model is None or type(model) is UniformModel:
            bits = rng.bit_generator
            if isinstance(bits, np.random.PCG64):
                world, after = self._core.determinize(observer, bits.state)
                bits.state = after
                return NativeGame(world)
        return NativeGame.from_game(self.snapshot().determinize(observer, rng, model))

    def seat_view(self, player: int) -> Game:
        """``Game.seat_view`` of this position: a read-only Python game as ``player``'s seat may know it."""
        return self.snapshot().seat_view(player)

    # ------------------------------------------------------------------ observing

    def observe_flat(self, player: int, out: np.ndarray) -> np.ndarray:
        """``player``'s flat observation (``Observer.observe_flat``'s bytes) written into ``out``."""
        return self._core.observe_flat(player, out)

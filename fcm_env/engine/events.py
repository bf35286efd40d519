"""An opt-in log of what happens in a game: every decision's effect and everything the engine does alone.

``Game.record_events()`` turns it on; ``game.events`` then receives one plain, JSON-safe
dict per event, in order, and ``game.events_for(player)`` gives what one player may see.
Every event has ``kind``, ``round``, ``phase`` and ``visible_to`` (None: everybody; else
the player ids who may see it) plus its own fields (docs/engine-api.md lists them all).

Hidden information follows the rules the observations follow (``HIDDEN_DECISIONS``): a
choice made face down (the reserve card kept, the cards put to work in Restructuring, the
cards marked for firing) is an ``action`` event visible to its player only; the others learn
it when the rules open it (``structure_revealed``, ``fired``, ``bank_break``).

Every change of a player's cash is an event with a ``cash`` field (the change, signed):
``sale``, ``tips``, ``cfo_bonus``, ``salaries``. Summed per player they give the cash change
of the game (a test checks it over many games).

The log lives on the ``Game``; the engine's phase modules reach it through the state
(``emit``). ``GameState.clone`` drops it, so look-ahead copies log nothing. The records are
facts, not text: ``fcm_env.text.sentences`` tells them to people.
"""

from __future__ import annotations

from typing import Any

from fcm_env.data import EmployeeType, Good
from fcm_env.engine.actions import Action, Decision
from fcm_env.engine.state import GameState

#: decisions whose choices the other players may not see while they are made
HIDDEN_DECISIONS = frozenset({Decision.RESERVE_CARD, Decision.RESTRUCTURE, Decision.FIRE})
#: the state flag that opens each face-down decision's choices to everybody
_OPENED_BY = {Decision.RESERVE_CARD: "reserve_revealed", Decision.RESTRUCTURE: "structure_revealed",
              Decision.FIRE: "firing_revealed"}


def face_down(state: GameState, decision: Decision) -> bool:
    """Whether the choices of a face-down ``decision`` are still closed to the other players."""
    return not getattr(state, _OPENED_BY[decision])
SINK = "event_sink"  # the attribute of a GameState that holds the log (not a serialized field)


def attach(state: GameState, log: list[dict[str, Any]] | None) -> None:
    """Send the state's events to ``log`` (None: stop logging)."""
    if log is None:
        state.__dict__.pop(SINK, None)
    else:
        setattr(state, SINK, log)


def enabled(state: GameState) -> bool:
    return getattr(state, SINK, None) is not None


def emit(state: GameState, kind: str, visible_to: list[int] | None = None, **fields: Any) -> None:
    """Append one event if the game logs events (cheap no-op otherwise)."""
    log = getattr(state, SINK, None)
    if log is None:
        return
    log.append({"kind": kind, "round": int(state.round), "phase": state.phase.name.lower(),
                "visible_to": None if visible_to is None else sorted(int(p) for p in visible_to), **fields})


def visible(event: dict[str, Any], player: int) -> bool:
    return event["visible_to"] is None or player in event["visible_to"]


def cards(counts) -> dict[str, int]:
    """A card-count vector as ``{card key: count}`` (non-zero only)."""
    return {EmployeeType(t).key: int(n) for t, n in enumerate(counts) if n}


def stock(counts) -> dict[str, int]:
    """A stock vector (one count per good) as ``{good: count}`` (non-zero only)."""
    return {Good(g).name.lower(): int(n) for g, n in enumerate(counts) if n}


def basket(items) -> list[str]:
    """Goods (a house's demand) by name, in order."""
    return [Good(g).name.lower() for g in items]


def action_event(state: GameState, decision: Decision, player: int, action: Action) -> None:
    """The move a player made (before its effects); face-down choices only to their player."""
    if not enabled(state):  # every move passes here: build nothing when no log is kept
        return
    hidden = decision in HIDDEN_DECISIONS
    emit(state, "action", [player] if hidden else None, player=int(player), decision=decision.name.lower(),
         action=action.kind.name.lower(), args=[int(a) for a in action.args], label=str(action))

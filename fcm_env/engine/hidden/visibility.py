"""What one player may see of another: the hidden-information rules, on the state alone.

rules: Phase 1 (cards are chosen face down and opened together); Setting goals (reserve cards
are kept face down); C26 (First to have $20 may look at the face-down reserve cards); C30 (fired
cards are chosen secretly and revealed together); D50-D52.
"""

from __future__ import annotations

from typing import NamedTuple

from fcm_env.data import EmployeeType, Milestone
from fcm_env.engine.state import GameState, PlayerState

CEO = int(EmployeeType.CEO)


def structure_hidden(state: GameState, observer: int, player: int) -> bool:
    """Another player's Restructuring choice is still face down."""
    return player != observer and not state.structure_revealed


def firing_hidden(state: GameState, observer: int, player: int) -> bool:
    """Another player's firing choice is still secret (C30)."""
    return player != observer and not state.firing_revealed


def reserve_visible(state: GameState, observer: int, player: int) -> bool:
    """Whether ``observer`` may see the reserve card ``player`` kept (setup; C26)."""
    if state.players[player].reserve is None:
        return False
    return (
        player == observer
        or state.reserve_revealed
        or Milestone.FIRST_HAVE_20 in state.players[observer].milestones
    )


def reserve_hidden(state: GameState, observer: int, player: int) -> bool:
    """``player`` has kept a reserve card that ``observer`` may not see."""
    return state.players[player].reserve is not None and not reserve_visible(state, observer, player)


class Hidden(NamedTuple):
    """The players whose facts are hidden from one observer, fact by fact (ascending ids)."""

    reserves: list[int]
    structures: list[int]
    firings: list[int]

    def players(self) -> list[int]:
        return sorted(set(self.reserves) | set(self.structures) | set(self.firings))


def hidden_from(state: GameState, observer: int) -> Hidden:
    """Which of the other players' facts ``observer`` may not see now.

    The same answer as asking ``reserve_hidden``, ``structure_hidden`` and ``firing_hidden`` of every
    other player, with each state flag read once: every heuristic move in a search's rollout asks this
    (``Game.seat_view``), and the per-player calls were half the cost of a seat view."""
    players = state.players
    if state.reserve_revealed or Milestone.FIRST_HAVE_20 in players[observer].milestones:
        reserves = []
    else:
        reserves = [p for p in range(state.num_players) if p != observer and players[p].reserve is not None]
    if state.structure_revealed and state.firing_revealed:
        return Hidden(reserves, [], [])
    others = [p for p in range(state.num_players) if p != observer]
    return Hidden(reserves, [] if state.structure_revealed else others,
                  [] if state.firing_revealed else list(others))


def erase(player: PlayerState, hidden: Hidden) -> None:
    """Put ``player``'s hidden facts back as the observer sees them, in place: no reserve card kept,
    every card but the CEO in hand (the CEO is always at work), no firing marks."""
    p = player.player
    if p in hidden.reserves:
        player.reserve = None
    if p in hidden.structures:
        ceo = int(player.work[CEO])
        player.hand += player.work
        player.hand[CEO] -= ceo
        player.work[:] = 0
        player.work[CEO] = ceo
    if p in hidden.firings:
        player.fired[:] = 0


def seat_state(state: GameState, observer: int) -> GameState:
    """The state as ``observer``'s seat may know it: other players' hidden facts erased (``erase``).

    A shallow copy: only the players with something hidden are copied, everything else is the
    real state's own objects (a masked player's untouched arrays too), so it costs a few microseconds; it must be read, never changed
    (``Game.seat_view`` wraps it in a game that refuses moves). The real state when nothing is hidden.
    """
    hidden = hidden_from(state, observer)
    if not (hidden.reserves or hidden.structures or hidden.firings):
        return state
    masked = hidden.players()
    view = object.__new__(GameState)
    fields = state.__dict__.copy()
    fields.pop("event_sink", None)
    players = list(state.players)
    for p in masked:
        players[p] = _masked(players[p], hidden)
    fields["players"] = players
    view.__dict__ = fields
    return view


def _masked(player: PlayerState, hidden: Hidden) -> PlayerState:
    """A shallow copy of ``player`` with its hidden facts erased: new arrays only where they differ."""
    view = object.__new__(PlayerState)
    fields = player.__dict__.copy()
    p = player.player
    if p in hidden.reserves:
        fields["reserve"] = None
    if p in hidden.structures:
        ceo = int(player.work[CEO])
        hand = player.hand + player.work
        hand[CEO] -= ceo
        work = player.work * 0
        work[CEO] = ceo
        fields["hand"], fields["work"] = hand, work
    if p in hidden.firings:
        fields["fired"] = player.fired * 0
    view.__dict__ = fields
    return view

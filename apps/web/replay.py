"""Step through a game record in the browser: any step, forwards or back, with its events.

Why: a replay shows a finished (or saved) game move by move. The record is replayed once
with the event log on, keeping where each step's events start and a copy of the state every
``SNAPSHOT_EVERY`` steps, so jumping to any step replays at most that many moves. Replays
show everything (every player's cards and secret choices): the view of each player is
merged into one full-information view.
"""

from __future__ import annotations

from typing import Any

from fcm_apps.web.shapes import with_lanes
from fcm_apps.web.table import TableError, log_entry
from fcm_env.engine.actions import IllegalActionError
from fcm_env.engine.game import Game
from fcm_env.engine.persistence.records import GameRecord, RecordFormatError, replay
from fcm_env.text.sentences import sentences
from fcm_env.text.words import decision_name, move_now_text, round_title
from fcm_env.view import status, view

SNAPSHOT_EVERY = 25


def full_view(game: Game) -> dict[str, Any]:
    """A view with nothing hidden: each player's block (and the pending decision) as its owner sees it."""
    out = view(game, 0)
    out["players"] = [view(game, p)["players"][p] for p in range(game.num_players)]
    pending = game.pending
    if pending is not None:
        out["pending"] = view(game, pending.player)["pending"]
    out["full"] = True
    return out


class ReplayCursor:
    """A record replayed once, then shown at any step (0 = before the first move)."""

    def __init__(self, document: Any, name: str = "record"):
        try:
            self.record = GameRecord.from_dict(document)
        except RecordFormatError as exc:
            raise TableError(f"replay: {exc}") from None
        self.name = name
        try:
            game = replay(self.record, upto=0)
        except ValueError as exc:
            raise TableError(f"replay: {exc}") from None
        events = game.record_events()
        self.bounds = [0]  # events of step k (k >= 1) are events[bounds[k-1]:bounds[k]]
        self.rounds = [int(game.state.round)]  # the round shown at each step
        self.snapshots = {0: game.state.clone()}
        self.movers: list[tuple[int, str]] = []  # who made each step's move, and which decision it answered
        self.moves: list[str] = []  # each step's move in words, as the event sentence tells it
        for step, action in enumerate(self.record.actions, start=1):
            if game.pending is None:
                raise TableError(f"replay: record.actions[{step - 1}] comes after the end of the game")
            self.movers.append((game.pending.player, game.pending.decision.name))
            try:
                self.moves.append(move_now_text(action, game.state))
            except (IndexError, ValueError):  # arguments the words cannot name: the move is refused below
                self.moves.append(str(action))
            try:
                game.apply(action)
            except IllegalActionError as exc:
                raise TableError(f"replay: record.actions[{step - 1}] does not replay: {exc}") from None
            self.bounds.append(len(events))
            self.rounds.append(int(game.state.round))
            if step % SNAPSHOT_EVERY == 0:
                self.snapshots[step] = game.state.clone()
        self.events = events
        self.texts = sentences(events, game.state)  # nobody's seat: third person, as fcm replay --events

    @property
    def total(self) -> int:
        return len(self.record.actions)

    def game_at(self, step: int) -> Game:
        """The game after ``step`` actions (a fresh copy)."""
        base = step - step % SNAPSHOT_EVERY
        game = Game(self.snapshots[base].clone())
        for action in self.record.actions[base:step]:
            game.apply(action)
        return game

    def round_starts(self) -> list[list[int]]:
        """``[round, first step showing it]`` for every round of the game."""
        starts: list[list[int]] = []
        for step, rnd in enumerate(self.rounds):
            if not starts or starts[-1][0] != rnd:
                starts.append([rnd, step])
        return starts

    def message(self, step: Any) -> dict[str, Any]:
        """The page's replay message at ``step``: full view, the step's move and its events."""
        if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= self.total:
            raise TableError(f"replay: step must be an integer 0..{self.total}, got {step!r}")
        game = self.game_at(step)
        before = self.bounds[step - 1] if step else 0
        events = [log_entry(i, self.events[i], self.texts[i]) for i in range(before, self.bounds[step])]
        move = None
        if step:
            action = self.record.actions[step - 1]
            player, decision = self.movers[step - 1]
            move = {"player": player, "decision": decision, "kind": action.kind.name, "label": str(action),
                    "decision_text": decision_name(decision), "text": self.moves[step - 1]}
        result = self.record.result
        return {
            "type": "replay", "name": self.name, "step": step, "total": self.total,
            "players": list(self.record.agents or [f"player {p}" for p in range(self.record.num_players)]),
            "rounds": self.round_starts(), "move": move, "events": events,
            "heading": round_title(game.state.round, game.phase),
            "view": with_lanes(full_view(game)), "status": status(game),
            "result": None if result is None else {"winners": result.winners, "cash": result.cash},
        }

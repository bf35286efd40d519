"""The engine's events as a story for one seat, and how the game ended.

Why a module of its own: between two of the human's decisions ``fcm play`` prints what that seat may
see of what happened (``fcm_env.engine.events``): the bots' moves, sales, tips, salaries, demand,
milestones, bank breaks, grouped per phase with a heading. The sentences are the ones every front
end writes (``fcm_env.text.sentences``: the seat is ``you``, money events carry the cash after them);
this module adds the headings and the one line per run of another player's secret choices.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from fcm_env.engine import events as ev
from fcm_env.engine.game import Game
from fcm_env.engine.state import GameState
from fcm_env.text.explain import milestone_effect
from fcm_env.text.sentences import EventWriter, repeats_own_moves
from fcm_env.text.words import round_title  # the headings of every front end

# ------------------------------------------------------------------ events


class Narrator:
    """The engine's events as lines for one seat: per-phase headings, another's secret choices as one
    line per run; the sentences (and the running cash) are ``fcm_env.text.sentences``'."""

    def __init__(self, human: int, cash: Sequence[int], milestones: Mapping[int, Iterable[str]] | None = None):
        self.human = human
        self.writer = EventWriter(cash, viewer=human, milestones=milestones)
        self.heading: tuple[int, str] | None = None
        self.last_secret: tuple[int, str] | None = None

    @property
    def cash(self) -> list[int]:
        """Every player's cash as the story has told it so far."""
        return self.writer.cash

    def who(self, player: int) -> str:
        return self.writer.who(player)

    def head(self, round_: int, phase: str) -> list[str]:
        """A heading when the phase changed since the last line printed (else nothing)."""
        if self.heading == (round_, phase):
            return []
        self.heading = (round_, phase)
        self.last_secret = None
        return [f"== {round_title(round_, phase)} =="]

    def lines(self, events: Iterable[dict[str, Any]], state: GameState) -> list[str]:
        """The lines of ``events`` this seat may see; another's secret choice is one line per run."""
        out: list[str] = []
        for e in events:
            if not ev.visible(e, self.human):
                if e["kind"] == "action":
                    key = (e["player"], e["decision"])
                    if key != self.last_secret:
                        out += self.head(e["round"], e["phase"])
                        out.append("  " + self.writer.secret(e["player"], e["decision"]))
                    self.last_secret = key
                continue
            if repeats_own_moves(e, self.human):  # your fire moves said it: one fire, one line
                continue
            out += self.head(e["round"], e["phase"])
            self.last_secret = None
            out.append("  " + self.writer.sentence(e, state.board))
            if e["kind"] == "milestone" and e["player"] == self.human:  # yours: the card's whole text
                out.append(f"    what it does: {milestone_effect(e['milestone'])}")
        return out


# ------------------------------------------------------------------ the end


def end_lines(game: Game, names: Sequence[str], human: int) -> list[str]:
    """How the game ended (per variant and cause), every player's final cash, and the winner."""
    from fcm_agents.match import final_ranks

    state = game.state
    if state.truncated:
        cause = f"the round limit ({state.max_rounds} rounds, --max-rounds) stopped the game; the rules did not end it"
    elif all(p.bankrupt for p in state.players):
        cause = "every player went bankrupt"
    elif state.variant == "introductory":
        cause = "the bank broke (introductory game: its first break ends the game)"
    else:
        cause = "the bank broke for the second time"
    lines = [f"== game over after round {state.round}: {cause} =="]
    ranks = final_ranks(game)
    for p in sorted(range(game.num_players), key=lambda p: ranks[p]):
        who = f"you (player {p})" if p == human else f"player {p} ({names[p]})"
        mark = "  winner" if p in game.winners else ""
        broke = "  bankrupt" if state.players[p].bankrupt else ""
        lines.append(f"  {ranks[p]}. {who}: ${state.players[p].cash}{broke}{mark}")
    for w in game.winners:
        who = "you" if w == human else f"player {w} ({names[w]})"
        lines.append(f"winner: {who} with ${state.players[w].cash}")
    return lines

"""The engine's events as a story for one seat, and how the game ended.

Why a module of its own: between two of the human's decisions ``fcm play`` prints what that seat may
see of what happened (``fcm_env.engine.events``): the bots' moves, sales, tips, salaries, demand,
milestones, bank breaks, grouped per phase with a heading. Every printed money event carries the
player's cash after it, so each cash change is explained.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from fcm_env.data import Milestone
from fcm_env.engine import events as ev
from fcm_env.engine.actions import Action, ActionKind
from fcm_env.engine.game import Game
from fcm_env.engine.rules.bank import final_breaks
from fcm_env.engine.state import GameState, Phase
from fcm_env.terminal.words import action_text, cards_text, money

PHASE_TITLES = {
    Phase.SETUP_RESTAURANTS: "setup: first restaurants",
    Phase.SETUP_RESERVE: "setup: reserve cards",
    Phase.RESTRUCTURING: "phase 1: restructuring",
    Phase.ORDER_OF_BUSINESS: "phase 2: order of business",
    Phase.WORKING: "phase 3: working 9-5",
    Phase.DINNERTIME: "phase 4: dinnertime",
    Phase.PAYDAY: "phase 5: payday",
    Phase.MARKETING: "phase 6: marketing campaigns",
    Phase.CLEANUP: "phase 7: clean-up",
    Phase.GAME_OVER: "game over",
}


# ------------------------------------------------------------------ events


@dataclass
class Narrator:
    """Turns the engine's events into lines for one seat: per-phase headings, running cash."""

    human: int
    cash: list[int]
    heading: tuple[int, str] | None = None
    last_secret: tuple[int, str] | None = None
    tiles: dict[int, int] = field(default_factory=dict)  # last campaign tile each player chose

    def who(self, player: int) -> str:
        return "you" if player == self.human else f"player {player}"

    def head(self, round_: int, phase: str) -> list[str]:
        """A heading when the phase changed since the last line printed (else nothing)."""
        if self.heading == (round_, phase):
            return []
        self.heading = (round_, phase)
        self.last_secret = None
        title = PHASE_TITLES[Phase[phase.upper()]]
        return [f"== round {round_}: {title} ==" if round_ else f"== {title} =="]

    def lines(self, events: Iterable[dict[str, Any]], state: GameState) -> list[str]:
        """The lines of ``events`` this seat may see; another's secret choice is one line per run."""
        out: list[str] = []
        for e in events:
            if not ev.visible(e, self.human):
                if e["kind"] == "action":
                    key = (e["player"], e["decision"])
                    if key != self.last_secret:
                        out += self.head(e["round"], e["phase"])
                        decision = e["decision"].replace("_", " ")
                        out.append(f"  {self.who(e['player'])}: chooses in secret ({decision})")
                    self.last_secret = key
                continue
            out += self.head(e["round"], e["phase"])
            self.last_secret = None
            out.append("  " + self.event_text(e, state))
        return out

    def event_text(self, e: dict[str, Any], state: GameState) -> str:
        kind, who = e["kind"], self.who(e["player"]) if "player" in e else ""
        if "cash" in e:
            self.cash[e["player"]] += e["cash"]
            after = f" ({money(e['cash'])}, {'you have' if e['player'] == self.human else 'now'} " \
                    f"${self.cash[e['player']]})"
        if kind == "action":
            action = Action(ActionKind[e["action"].upper()], tuple(e["args"]))
            if action.kind == ActionKind.CHOOSE_TILE:
                self.tiles[e["player"]] = action.args[0]
            return f"{who}: {action_text(action, state, e['player'], self.tiles.get(e['player']))}"
        if kind == "sale":
            garden = " (garden: price doubled)" if e["garden"] else ""
            bonus = f" + ${e['bonus']} bonus" if e["bonus"] else ""
            broke = "; cannot pay in full: bankrupt" if e["bankrupt"] else ""
            return (f"house {e['house']}{garden} eats at {who}: {', '.join(e['items'])} at ${e['unit_price']} "
                    f"each (distance {e['distance']}){bonus} = ${e['amount']}{broke}{after}")
        if kind == "tips":
            return f"{who}: {e['waitresses']} waitress(es) earn ${e['amount']} in tips{after}"
        if kind == "cfo_bonus":
            return f"{who}: the CFO share of ${e['income']} income is ${e['amount']}{after}"
        if kind == "bank_break":
            return self._bank_text(e, state)
        if kind == "salaries":
            short = f" (${e['due']} due: could not pay it all)" if e["paid"] < e["due"] else ""
            return f"{who} pay{'s' if who != 'you' else ''} ${e['paid']} in salaries{short}{after}"
        return self._event_text_more(e, who)

    def _event_text_more(self, e: dict[str, Any], who: str) -> str:
        kind = e["kind"]
        if kind == "structure_revealed":
            return f"{who} {'work' if who == 'you' else 'works'} with: {cards_text(e['work'])}"
        if kind == "milestone":
            return f"{who} {'claim' if who == 'you' else 'claims'} a milestone: " \
                   f"{Milestone[e['milestone'].upper()].key.replace('_', ' ')}"
        if kind == "fired":
            return f"{who} {'fire' if who == 'you' else 'fires'} {cards_text(e['cards'])}"
        if kind == "demand":
            houses = ", ".join(f"house {h} +{n} {e['product']}" for h, n in e["houses"].items())
            return f"campaign #{e['campaign']} of {who}: {houses or 'no house in reach has room'}"
        if kind == "campaign_expired":
            back = f"; the {e['marketeer_back'].replace('_', ' ')} comes back" if e["marketeer_back"] else ""
            return f"campaign #{e['campaign']} of {who} runs out{back}"
        if kind == "freezer":
            kept = ", ".join(f"{n} {g}" for g, n in e["kept"].items()) or "nothing"
            lost = ", ".join(f"{n} {g}" for g, n in e["thrown_away"].items()) or "nothing"
            return f"{who}: freezer keeps {kept}; thrown away: {lost}"
        if kind == "thrown_away":
            return f"{who}: thrown away {', '.join(f'{n} {g}' for g, n in e['goods'].items())}"
        if kind == "restaurants_opened":
            return f"{who}: {e['count']} coming-soon restaurant(s) open"
        return ev.describe(e)

    def _bank_text(self, e: dict[str, Any], state: GameState) -> str:
        if e["final"]:
            which = "for the second time" if final_breaks(state) == 2 else \
                "(introductory game: its first break is the last)"
            return f"the bank breaks {which}: the game ends after this dinnertime"
        kept = ", ".join(f"{self.who(int(p))} ${v}" for p, v in sorted(e["reserves"].items()))
        return f"the bank breaks: reserve cards ({kept}) add ${e['added']}; CEOs get {e['ceo_slots']} slots"


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

"""The engine's events in sentences, told to one viewer: the one writer of every front end.

Why a module of its own: ``fcm replay --events``, the terminal story (``fcm play``) and the web page's
log all tell the engine's event records (``fcm_env.engine.events``), so they write them here and a
sale, a milestone or a move reads the same everywhere. The viewer's own seat is ``you`` (second
person); every other seat is ``player 1`` (or the names given); no viewer (a replay): third person
for everyone. Every money event ends with the player's cash after it, so each change is explained.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from fcm_env.data import MARKETING_TILES, CampaignType, Milestone
from fcm_env.engine.actions import Action, ActionKind
from fcm_env.engine.board.geometry import Board
from fcm_env.engine.state import GameState
from fcm_env.text.explain import milestone_card
from fcm_env.text.words import (
    card_name,
    cards_text,
    decision_name,
    goods_text,
    milestone_name,
    money,
    move_text,
)

DRINKS = ("beer", "lemonade", "soda")
#: milestones that change what a player pays at Payday, and how the salaries line says so
SALARY_MILESTONES = (("first_train", "First to train someone: $15 off"),
                     ("first_billboard", "First billboard placed: marketeers unpaid"))


def repeats_own_moves(event: dict[str, Any], viewer: int | None) -> bool:
    """Whether ``event`` only repeats what the viewer's own moves told: the Payday reveal of the viewer's
    own firing (``you fire a waitress`` was each fire move's line already). A front end told to a seat
    leaves it out, so one fire is one line; a replay (no viewer) keeps it, where it marks the moment every
    firing is opened."""
    return viewer is not None and event["kind"] == "fired" and event.get("player") == viewer


class EventWriter:
    """Sentences for one game's events in order, told to ``viewer`` (None: nobody's seat).

    ``cash``: every player's cash before the first event written (the running cash of the money
    events); the writer also remembers each player's last campaign tile, which names an airplane's lane.
    """

    def __init__(self, cash: Sequence[int], viewer: int | None = None, names: Sequence[str] | None = None,
                 milestones: Mapping[int, Iterable[str]] | None = None):
        self.cash = [int(c) for c in cash]
        self.viewer = viewer
        self.names = names
        self.tiles: dict[int, int] = {}  # the campaign tile each player chose last
        #: player -> {milestone key: round claimed} (``milestones``: held before the first event, round 0),
        #: so a sale, tips or salaries can say which milestone changed them
        self.held: dict[int, dict[str, int]] = {int(p): dict.fromkeys(keys, 0)
                                                for p, keys in (milestones or {}).items()}

    def _has(self, player: int, key: str, before_round: int | None = None) -> bool:
        """Whether ``player`` holds the milestone (claimed before ``before_round`` when given)."""
        claimed = self.held.get(player, {}).get(key)
        return claimed is not None and (before_round is None or claimed < before_round)

    def who(self, player: int) -> str:
        if player == self.viewer:
            return "you"
        return self.names[player] if self.names is not None else f"player {player}"

    def _does(self, player: int, verb: str) -> str:
        """``you pay`` / ``player 1 pays``."""
        return f"you {verb}" if player == self.viewer else f"{self.who(player)} {verb}s"

    def _campaign(self, e: dict[str, Any]) -> str:
        """``your campaign #11`` / ``campaign #11 of player 1``."""
        if e["player"] == self.viewer:
            return f"your campaign #{e['campaign']}"
        return f"campaign #{e['campaign']} of {self.who(e['player'])}"

    def secret(self, player: int, decision: str) -> str:
        """A face-down choice the viewer may not see: that it was made, not what (decision: its name)."""
        return f"{self.who(player)}: chooses in secret ({decision_name(decision)})"

    def sentence(self, event: dict[str, Any], board: Board) -> str:
        """One event in words (the events must come in order: cash and tiles run on); ``board`` is the map."""
        e, kind = event, event["kind"]
        if kind == "action":
            return self._action(e, board)
        if "cash" in e:
            return self._money(e)
        if kind == "bank_break":
            return self._bank_break(e)
        who = self.who(e["player"]) if "player" in e else ""
        if kind == "structure_revealed":
            return f"{self._does(e['player'], 'work')} with: {cards_text(e['work'])}"
        if kind == "milestone":
            self.held.setdefault(e["player"], {})[e["milestone"]] = e["round"]
            return (f"{self._does(e['player'], 'claim')} a milestone: {milestone_name(e['milestone'])} "
                    f"(effect: {milestone_card(e['milestone'])})")
        if kind == "fired":
            return f"{self._does(e['player'], 'fire')} {cards_text(e['cards'])}"
        if kind == "demand":
            houses = ", ".join(f"house {h} +{n} {e['product']}" for h, n in e["houses"].items())
            radio = MARKETING_TILES[e["campaign"] - 1].type == CampaignType.RADIO
            two = " (First radio campaign: 2 each)" if radio and self._has(e["player"], "first_radio") else ""
            return f"{self._campaign(e)}: {houses or 'no house in reach has room'}{two}"
        if kind == "campaign_expired":
            back = f"; the {card_name(e['marketeer_back'])} comes back" if e["marketeer_back"] else ""
            return f"{self._campaign(e)} runs out{back}"
        if kind == "freezer":
            return f"{who}: freezer (First to throw away drink/food) keeps {goods_text(e['kept'])}; thrown away: {goods_text(e['thrown_away'])}"
        if kind == "thrown_away":
            return f"{who}: thrown away {goods_text(e['goods'])}"
        if kind == "restaurants_opened":
            return f"{who}: {e['count']} coming-soon restaurant(s) open"
        return _unknown(e, who)

    def _action(self, e: dict[str, Any], board: Board) -> str:
        player = e["player"]
        action = Action(ActionKind[e["action"].upper()], tuple(e["args"]))
        if action.kind == ActionKind.CHOOSE_TILE:
            self.tiles[player] = action.args[0]
        return f"{self.who(player)}: {move_text(action, board, self.tiles.get(player))}"

    def _money(self, e: dict[str, Any]) -> str:
        player, kind = e["player"], e["kind"]
        self.cash[player] += e["cash"]
        after = f" ({money(e['cash'])}, {'you have' if player == self.viewer else 'now'} ${self.cash[player]})"
        who = self.who(player)
        if kind == "sale":
            garden = " (garden: price doubled)" if e["garden"] else ""
            lower = " (First to lower prices: $1 less)" if self._has(player, "first_lower_prices") else ""
            bonus = f" + ${e['bonus']} bonus ({self._marketed(player, e['items'])})" if e["bonus"] else ""
            broke = "; cannot pay in full: bankrupt" if e["bankrupt"] else ""
            return (f"house {e['house']}{garden} eats at {who}: {', '.join(e['items'])} at ${e['unit_price']} "
                    f"each{lower} (distance {e['distance']}){bonus} = ${e['amount']}{broke}{after}")
        if kind == "tips":
            more = " ($5 each: First waitress played)" if self._has(player, "first_waitress") else ""
            return f"{who}: {e['waitresses']} waitress(es) earn ${e['amount']} in tips{more}{after}"
        if kind == "cfo_bonus":
            ceo = " (the CEO acts as CFO: First to have $100)" if self._has(player, "first_have_100", e["round"]) \
                else ""
            return f"{who}: the CFO share of ${e['income']} income is ${e['amount']}{ceo}{after}"
        if kind == "salaries":
            short = f" (${e['due']} due: could not pay it all)" if e["paid"] < e["due"] else ""
            notes = [text for key, text in SALARY_MILESTONES if self._has(player, key)]
            why = f" ({'; '.join(notes)})" if notes else ""
            return f"{self._does(player, 'pay')} ${e['paid']} in salaries{why}{short}{after}"
        return _unknown(e, who) + after

    def _marketed(self, player: int, items: Sequence[str]) -> str:
        """The "First ... marketed" milestones behind a sale's bonus, by name."""
        keys = dict.fromkeys("first_drink_marketed" if good in DRINKS else f"first_{good}_marketed" for good in items)
        return ", ".join(milestone_name(k) for k in keys if self._has(player, k)) or "milestones"

    def _bank_break(self, e: dict[str, Any]) -> str:
        if e["final"]:
            # the final break is the second of a standard game, the first of an introductory one
            which = "for the second time" if e["number"] >= 2 else "(introductory game: its first break is the last)"
            return f"the bank breaks {which}: the game ends after this dinnertime"
        kept = ", ".join(f"{self.who(int(p))} ${v}" for p, v in sorted(e["reserves"].items()))
        return f"the bank breaks: reserve cards ({kept}) add ${e['added']}; CEOs get {e['ceo_slots']} slots"


def _unknown(e: dict[str, Any], who: str) -> str:
    """An event kind this module does not know yet: its name and fields, still one line."""
    common = {"kind", "round", "phase", "visible_to", "player", "cash"}
    fields = ", ".join(f"{k} {v}" for k, v in e.items() if k not in common)
    return f"{who + ': ' if who else ''}{e['kind'].replace('_', ' ')}" + (f" ({fields})" if fields else "")


def milestones_before(events: Iterable[dict[str, Any]], held: Mapping[int, Iterable[str]]) -> dict[int, list[str]]:
    """Each player's milestones before ``events``: those ``held`` after them less the ones claimed in them."""
    claimed = {(e["player"], e["milestone"]) for e in events if e["kind"] == "milestone"}
    return {int(p): [k for k in keys if (int(p), k) not in claimed] for p, keys in held.items()}


def cash_before(events: Iterable[dict[str, Any]], cash_after: Sequence[int]) -> list[int]:
    """Every player's cash before ``events``, counted back from their cash after them (every change of
    cash is an event with a ``cash`` field, and every such event is public)."""
    cash = [int(c) for c in cash_after]
    for e in events:
        if "cash" in e:
            cash[e["player"]] -= e["cash"]
    return cash


def sentences(events: Sequence[dict[str, Any]], state: GameState, viewer: int | None = None,
              names: Sequence[str] | None = None) -> list[str]:
    """One sentence per event of ``events``, a run of a game's events that ends at ``state``."""
    held = milestones_before(events, {p.player: [Milestone(m).key for m in p.milestones] for p in state.players})
    writer = EventWriter(cash_before(events, [p.cash for p in state.players]), viewer, names, held)
    return [writer.sentence(e, state.board) for e in events]

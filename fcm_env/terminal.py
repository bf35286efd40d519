"""``fcm play``: one human seat against bots in the terminal, telling the story between decisions.

Why a module of its own: the terminal game is a small front end (like ``fcm_env.server``), not
part of the command-line parser. It reads the engine's event log (``fcm_env.engine.events``) and
prints, between two of the human's decisions, what that seat may see of what happened: the bots'
moves, sales, tips, salaries, demand, milestones, bank breaks, grouped per phase with a heading.
Every printed money event carries the player's cash after it, so each cash change is explained.

Pieces, each usable alone (tests call them on seeded games):

* names and action labels in words (``action_text``, ``context_text``, ``cards_text``);
* ``Narrator``: event lines per phase, secret choices as one line, running cash;
* ``board_text`` / ``preview_text``: a three-characters-per-square map (house numbers never
  touch restaurant digits) and the footprint of a placement before it is confirmed;
* ``parse_coordinate``: ``9 8 r2`` / ``9 8 sw`` as a placement;
* ``end_lines``: how the game ended (per variant and cause), final cash, the winner;
* ``TerminalGame`` and ``play``: the loop, the record saved on any exit (Ctrl-C too) and ``--resume``.

docs/terminal.md describes the commands.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from fcm_env.data import MARKETING_TILES, TILE_SIZE, CampaignType, Direction, EmployeeType, Good, Milestone
from fcm_env.engine import events as ev
from fcm_env.engine.actions import Action, ActionKind, Decision
from fcm_env.engine.bank import final_breaks
from fcm_env.engine.game import Game
from fcm_env.engine.occupancy import house_grid
from fcm_env.engine.placement import (
    airplane_from_anchor,
    campaign_squares,
    garden_squares,
    house_footprint,
    restaurant_entrance,
    restaurant_squares,
)
from fcm_env.engine.state import GameState, Phase
from fcm_env.engine.tiles import BRIDGE, DRINK, HOUSE, ROAD

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
CORNERS = ("NW", "NE", "SE", "SW")  # restaurant orientation: the entrance corner
SIDES = ("N", "E", "S", "W")  # house / garden orientation: the garden's side; airplanes: the edge
PLACEMENT_KINDS = (ActionKind.PLACE_RESTAURANT, ActionKind.PLACE_HOUSE, ActionKind.PLACE_GARDEN,
                   ActionKind.PLACE_CAMPAIGN)
POOLED_TRAINER = int(EmployeeType.CEO)  # fcm_env.engine.working.POOLED: "First to pay $20" pooled training
HELP = """commands:
  NUMBER          pick that choice from the list
  ROW COL [O]     place by coordinate (restaurant, house, garden, campaign), e.g. 9 8 sw or 9 8 r3;
                  O is the orientation (a number or its name); you see the footprint and confirm with y
  b, board        show the whole map and the houses' demand
  s, status       everybody's cash, cards and stock (what your seat may see)
  l, list         list every choice again, numbered (placements too)
  ?, help         this help
  q, quit         stop; the record is saved and `fcm play --resume FILE` continues it
Ctrl-C also stops and saves the record."""

# ------------------------------------------------------------------ names


def card_name(card: int) -> str:
    return EmployeeType(card).key.replace("_", " ")


def a_card(card: int) -> str:
    """``a waitress``, ``an errand boy``."""
    name = card_name(card)
    return f"{'an' if name[0] in 'aeiou' else 'a'} {name}"


def good_name(good: int) -> str:
    return Good(good).name.lower()


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def money(delta: int) -> str:
    return f"{'+' if delta >= 0 else '-'}${abs(delta)}"


def cards_text(counts: dict[str, int]) -> str:
    """``{"waitress": 2, "ceo": 1}`` as ``waitress x2, ceo`` (``-`` when empty)."""
    return ", ".join(key.replace("_", " ") + (f" x{n}" if n != 1 else "") for key, n in counts.items()) or "-"


def tile_text(number: int) -> str:
    tile = MARKETING_TILES[number - 1]
    size = f"{tile.along_edge} lines" if tile.type == CampaignType.AIRPLANE else f"{tile.h}x{tile.w}"
    return f"#{number} {tile.type.key} {size}"


# ------------------------------------------------------------------ actions and contexts in words


def action_text(action: Action, state: GameState, player: int, tile: int | None = None) -> str:
    """What ``action`` does, in words; numbers printed are the ones that happen (spots count from 1st)."""
    a, k = action.args, action.kind
    if k == ActionKind.PASS:
        return "pass"
    if k == ActionKind.PLACE_RESTAURANT:
        r, c = restaurant_entrance(*a)
        return f"place a restaurant at ({a[0]},{a[1]}), entrance {CORNERS[a[2]]} on ({r},{c})"
    if k == ActionKind.CHOOSE_RESERVE:
        offer = state.players[player].reserve_offer
        worth = f" (${offer[a[0]]})" if a[0] < len(offer) else ""
        return f"keep reserve card {a[0] + 1}{worth}"
    if k == ActionKind.PUT_TO_WORK:
        return f"put {a_card(a[0])} to work"
    if k == ActionKind.TURN_SPOT:
        return f"go {ordinal(a[0] + 1)} in turn order"
    if k == ActionKind.RECRUIT:
        return f"hire {a_card(a[0])}"
    if k == ActionKind.TRAIN:
        trainer = "pooled trainers" if a[0] == POOLED_TRAINER else f"{a_card(a[0])}"
        return f"train {a_card(a[1])} into {a_card(a[2])} (with {trainer})"
    if k == ActionKind.SELECT_MARKETEER:
        return f"launch a campaign with the {card_name(a[0])}"
    if k == ActionKind.CHOOSE_TILE:
        return f"use campaign tile {tile_text(a[0])}"
    if k == ActionKind.PLACE_CAMPAIGN:
        return _campaign_place_text(a, state, tile)
    return _action_text_more(action, state, player)


def _campaign_place_text(a: tuple[int, ...], state: GameState, tile: int | None) -> str:
    spec = MARKETING_TILES[tile - 1] if tile else None
    if spec is not None and spec.type == CampaignType.AIRPLANE:
        lane = airplane_from_anchor(a[0], a[1], a[2], spec.along_edge, state.board)
        lines = "columns" if lane.edge in (Direction.N, Direction.S) else "rows"
        return (f"fly the airplane along the {SIDES[lane.edge]} edge over {lines} "
                f"{lane.start}-{lane.start + lane.size - 1}")
    return f"place the campaign at ({a[0]},{a[1]}){' rotated' if a[2] else ''}"


def _action_text_more(action: Action, state: GameState, player: int) -> str:
    a, k = action.args, action.kind
    if k == ActionKind.CHOOSE_PRODUCT:
        return f"advertise {good_name(a[0])}"
    if k == ActionKind.CHOOSE_DURATION:
        return f"run it for {a[0]} turn{'s' if a[0] != 1 else ''}"
    if k == ActionKind.PRODUCE:
        return f"the {card_name(a[0])} gets {good_name(a[1])}"
    if k == ActionKind.HAUL:
        return f"the {card_name(a[0])} drives past {a[1]} beer, {a[2]} lemonade, {a[3]} soda source(s)"
    if k == ActionKind.CHOOSE_HOUSE:
        return f"take house #{a[0]} to place"
    if k == ActionKind.PLACE_HOUSE:
        return f"place the house at ({a[0]},{a[1]}) with its garden on the {SIDES[a[2]]} side"
    if k == ActionKind.PLACE_GARDEN:
        return f"place a garden at ({a[0]},{a[1]}) on the {SIDES[a[2]]} side of its house"
    if k == ActionKind.SELECT_RESTAURANT:
        owned = state.players[player].restaurants
        if a[1] < len(owned):
            r = owned[a[1]]
            return f"move restaurant {a[1] + 1} (at ({r.row},{r.col})) with the {card_name(a[0])}"
        return f"open a new restaurant with the {card_name(a[0])}"
    if k == ActionKind.FIRE:
        return f"fire {a_card(a[0])}"
    if k == ActionKind.KEEP:
        return f"keep one {good_name(a[0])} in the freezer"
    return str(action)  # pragma: no cover - every kind is handled above


def context_text(decision: Decision, fields: dict[str, int], state: GameState, player: int) -> str | None:
    """The pending decision's context in words (names, not enum numbers); None when it has none."""
    if not fields:
        return None
    if decision == Decision.INITIAL_RESTAURANT:
        return f"setup round {fields['setup_round']}"
    if decision == Decision.HOUSE_PLACE:
        return f"placing house #{fields['house']}"
    if decision == Decision.RESTAURANT_PLACE:
        what = action_text(Action.select_restaurant(fields["manager"], fields["restaurant"]), state, player)
        return what[0].upper() + what[1:]
    if decision == Decision.FREEZER:
        kept = {name[5:]: n for name, n in fields.items() if n}
        return "kept so far: " + (", ".join(f"{n} {g}" for g, n in kept.items()) or "nothing")
    parts = [f"marketeer: {card_name(fields['marketeer'])}"]
    if "tile" in fields:
        parts.append(f"tile {tile_text(fields['tile'])}")
    if "row" in fields:
        parts.append(_campaign_place_text((fields["row"], fields["col"], fields["orientation"]), state,
                                          fields["tile"]).replace("place the campaign", "placed"))
    if "product" in fields:
        parts.append(f"advertising {good_name(fields['product'])}")
    return "; ".join(parts)


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


# ------------------------------------------------------------------ the map


def _cells(state: GameState) -> list[list[str]]:
    """Three characters per square: `` . `` empty, ``###`` road, ``H12`` house 12 (``H4 `` house 4), ``[1]`` restaurant
    of player 1 (``<1>`` its entrance, ``(1)`` entrance while coming soon), `` g `` garden,
    ``$11`` / ``M 7`` / ``R 2`` billboard, mailbox, radio campaign by number."""
    board = state.board
    houses = house_grid(state)
    drinks = {int(Good.BEER): " b ", int(Good.LEMONADE): " l ", int(Good.SODA): " s "}
    cells = []
    for r in range(board.height):
        row = []
        for c in range(board.width):
            kind = int(board.kind[r, c])
            if kind == ROAD:
                row.append("###")
            elif kind == BRIDGE:
                row.append("=X=")
            elif kind == DRINK:
                row.append(drinks[int(board.drink[r, c])])
            elif kind == HOUSE or houses[r, c] > 0:
                row.append(f"H{int(houses[r, c]):<2}")
            else:
                row.append(" . ")
        cells.append(row)
    for house in state.houses.values():
        for r, c in house.garden:
            cells[r][c] = " g "
    letters = {int(CampaignType.BILLBOARD): "$", int(CampaignType.MAILBOX): "M", int(CampaignType.RADIO): "R"}
    for camp in state.campaigns:
        for r, c in camp.squares:
            cells[r][c] = f"{letters.get(camp.kind, '?')}{camp.number:>2}"
    for p in state.players:
        for rest in p.restaurants:
            for r, c in restaurant_squares(rest.row, rest.col, rest.orientation):
                cells[r][c] = f"[{p.player}]"
            r, c = restaurant_entrance(rest.row, rest.col, rest.orientation)
            cells[r][c] = f"({p.player})" if rest.coming_soon else f"<{p.player}>"
    return cells


def _grid(cells: list[list[str]], rows: range, cols: range) -> list[str]:
    """Rows ``rows`` x columns ``cols`` of the cell grid with row / column numbers and tile borders."""
    def bar(c: int) -> str:
        return "|" if c % TILE_SIZE == 0 else ""

    header = "    " + "".join(bar(c).replace("|", " ") + f"{c:^3}" for c in cols)
    border = "    " + "".join(bar(c).replace("|", "+") + "---" for c in cols) + "+"
    lines = [header.rstrip(), border]
    for r in rows:
        lines.append(f"{r:>3} " + "".join(bar(c) + cells[r][c] for c in cols) + "|")
        if r % TILE_SIZE == TILE_SIZE - 1 or r == rows[-1]:
            lines.append(border)
    return lines


LEGEND = ("legend: ### road  =X= bridge  b/l/s beer/lemonade/soda  H12 house 12  g garden\n"
          "        [1] restaurant of player 1, <1> its entrance ((1) coming soon)  $11 M 7 R 2 campaigns")


def board_text(state: GameState) -> str:
    """The whole map, then the houses' demand, the campaigns and the bank (all public)."""
    board = state.board
    lines = _grid(_cells(state), range(board.height), range(board.width))
    lines.append(LEGEND)
    letters = {int(Good.BURGER): "burger", int(Good.PIZZA): "pizza", int(Good.BEER): "beer",
               int(Good.LEMONADE): "lemonade", int(Good.SODA): "soda"}
    for number, house in sorted(state.houses.items()):
        if house.demand:
            wants = ", ".join(letters[g] for g in house.demand)
            lines.append(f"house {number}{' (garden)' if house.has_garden else ''} wants: {wants}")
    for camp in sorted(state.campaigns, key=lambda c: c.number):
        left = "forever" if camp.eternal else f"{camp.remaining} more turn(s)"
        lines.append(f"campaign #{camp.number} {CampaignType(camp.kind).key} of player {camp.owner}: "
                     f"{good_name(camp.product)}, {left}")
    order = ", ".join(f"{ordinal(i + 1)} player {p}" for i, p in enumerate(state.turn_order))
    lines.append(f"bank ${state.bank} (breaks {state.bank_breaks}); turn order: {order}")
    return "\n".join(lines)


def footprint(action: Action, state: GameState, tile: int | None = None) -> dict[tuple[int, int], str]:
    """The squares a placement would cover, each with its preview mark (``*E*`` a restaurant's
    entrance, ``*g*`` a garden, ``***`` the rest)."""
    a, k = action.args, action.kind
    if k == ActionKind.PLACE_RESTAURANT:
        marks = {sq: "***" for sq in restaurant_squares(*a)}
        marks[restaurant_entrance(*a)] = "*E*"
        return marks
    if k == ActionKind.PLACE_HOUSE:
        house, garden = house_footprint(*a)
        return {**{sq: "*H*" for sq in house}, **{sq: "*g*" for sq in garden}}
    if k == ActionKind.PLACE_GARDEN:
        return {sq: "*g*" for sq in garden_squares(*a)}
    if k == ActionKind.PLACE_CAMPAIGN and tile is not None:
        spec = MARKETING_TILES[tile - 1]
        board = state.board
        if spec.type == CampaignType.AIRPLANE:
            lane = airplane_from_anchor(*a, spec.along_edge, board)
            if lane.edge in (Direction.N, Direction.S):
                return {(r, c): "*A*" for r in range(board.height) for c in lane.span()}
            return {(r, c): "*A*" for r in lane.span() for c in range(board.width)}
        return {sq: "***" for sq in campaign_squares(*a, spec)}
    raise ValueError(f"{action} is not a placement with a known footprint")


def preview_text(action: Action, state: GameState, tile: int | None = None, margin: int = 3) -> str:
    """The map around a placement with the squares it would cover marked."""
    marks = footprint(action, state, tile)
    cells = _cells(state)
    for (r, c), mark in marks.items():
        cells[r][c] = mark
    rs = [r for r, _ in marks]
    cs = [c for _, c in marks]
    board = state.board
    rows = range(max(0, min(rs) - margin), min(board.height, max(rs) + margin + 1))
    cols = range(max(0, min(cs) - margin), min(board.width, max(cs) + margin + 1))
    return "\n".join(_grid(cells, rows, cols))


# ------------------------------------------------------------------ input


_ORIENT_NAMES = {
    ActionKind.PLACE_RESTAURANT: CORNERS,
    ActionKind.PLACE_HOUSE: SIDES,
    ActionKind.PLACE_GARDEN: SIDES,
    ActionKind.PLACE_CAMPAIGN: SIDES,  # airplanes: the edge; other tiles take 0 / 1 (rotated)
}
_COORD = re.compile(r"^\(?\s*(\d+)\s*[ ,]\s*(\d+)\s*\)?(?:\s*[ ,]\s*([a-z]*)(\d*))?$")


def parse_coordinate(text: str, kind: ActionKind) -> tuple[int, int, int | None] | None:
    """``"9 8 r2"``, ``"9,8,2"``, ``"(9,8) sw"`` as (row, col, orientation or None); None if not a coordinate.

    ``ValueError`` for a coordinate whose orientation word is unknown for this kind of placement."""
    m = _COORD.match(text.strip().lower())
    if not m:
        return None
    row, col, word, digits = int(m.group(1)), int(m.group(2)), m.group(3) or "", m.group(4) or ""
    if not word and not digits:
        return row, col, None
    if digits and word in ("", "r", "o"):
        return row, col, int(digits)
    names = [n.lower() for n in _ORIENT_NAMES[kind]]
    if word in names and not digits:
        return row, col, names.index(word)
    raise ValueError(f"orientation {word + digits!r}: use a number or one of {', '.join(names)}")


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


# ------------------------------------------------------------------ companies


def company_text(p: dict[str, Any]) -> str:
    """One player's company from the protocol view: cards marked for firing are already gone
    (they leave beach first, then work, then busy, as Payday removes them)."""
    fired = dict(p["fired"])
    pools = {}
    for name in ("beach", "work", "busy"):
        pool = dict(p[name])
        for key, n in fired.items():
            take = min(n, pool.get(key, 0))
            pool[key] = pool.get(key, 0) - take
            fired[key] = n - take
        pools[name] = {k: n for k, n in pool.items() if n}
    work = "(secret until everyone chose)" if p["structure_hidden"] else cards_text(pools["work"])
    parts = [f"${p['cash']}", f"hand: {cards_text(p['hand'])}", f"at work: {work}",
             f"beach: {cards_text(pools['beach'])}"]
    if pools["busy"]:
        parts.append(f"busy on campaigns: {cards_text(pools['busy'])}")
    parts.append(f"stock: {', '.join(f'{n} {g}' for g, n in p['stock'].items()) or '-'}")
    if p["fired"]:
        parts.append(f"to be fired: {cards_text(p['fired'])}")
    return " | ".join(parts)


# ------------------------------------------------------------------ the game loop

SHORT_LIST = 20  # a decision with more choices than this lists placements only on request (l)


class TerminalGame:
    """One human seat in the terminal; the other seats are bots. The game must log events."""

    def __init__(self, game: Game, human: int, bots: dict[int, Any], names: list[str], infile: IO[str],
                 out: IO[str]):
        if game.events is None:
            game.record_events()
        self.game, self.human, self.bots, self.names = game, human, bots, names
        self.infile, self.out = infile, out
        self.narrator = Narrator(human, [int(p.cash) for p in game.state.players])
        self._seen = len(game.events)

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def flush(self) -> None:
        """Print the events since the last flush that this seat may see."""
        events = self.game.events
        new, self._seen = events[self._seen:], len(events)
        state = self.game.state
        for line in self.narrator.lines(new, state):
            self.say(line)
        for p, told in enumerate(self.narrator.cash):  # a guard: the events explain every cash change
            if told != int(state.players[p].cash):
                self.say(f"  (cash of {self.narrator.who(p)} is ${state.players[p].cash}, not ${told})")
                self.narrator.cash[p] = int(state.players[p].cash)

    def run(self) -> int:
        """0 when the game ends; 1 when the human quits or the input ends first."""
        from fcm_env.server import bot_move

        game = self.game
        others = ", ".join(f"player {p}: {self.names[p]}" for p in sorted(self.bots))
        self.say(f"fcm play: you are player {self.human}; {others}. Type ? for help, b for the map.")
        self.say(board_text(game.state))
        while not game.is_over:
            player = game.current_player
            if player == self.human:
                if not self._human_turn():
                    return 1
            else:
                game.apply(bot_move(self.bots[player], game, player))
            self.flush()
        for line in end_lines(game, self.names, self.human):
            self.say(line)
        return 0

    # -------------------------------------------------------------- the human's decision

    def _read(self, prompt: str) -> str | None:
        self.out.write(prompt)
        self.out.flush()
        line = self.infile.readline()
        if line and not _is_tty(self.infile):
            self.out.write(line if line.endswith("\n") else line + "\n")  # echo piped input
        return line.strip().lower() if line else None

    def _tile(self) -> int | None:
        pending = self.game.pending
        if pending.decision == Decision.CAMPAIGN_PLACE:
            return int(pending.context[1])
        return None

    def _human_turn(self) -> bool:
        from fcm_env.protocol import DECISION_TEXT, view

        game, state = self.game, self.game.state
        for line in self.narrator.head(state.round, game.phase.name.lower()):
            self.say(line)
        pending = game.pending
        me = view(game, self.human)
        self.say(f"-- your decision: {DECISION_TEXT[pending.decision]}")
        context = context_text(pending.decision, me["pending"].get("fields") or {}, state, self.human)
        if context:
            self.say(f"   {context}")
        self.say(f"   you: {company_text(me['players'][self.human])}")
        actions = game.legal_actions()
        labels = [action_text(a, state, self.human, self._tile()) for a in actions]
        placing = [a for a in actions if a.kind in PLACEMENT_KINDS]
        self._list(labels, actions, full=len(actions) <= SHORT_LIST)
        if placing:
            self.say(self._placement_hint(placing))
        coords = " or ROW COL O" if placing else ""
        prompt = f"your choice (1-{len(actions)}{coords}; b s l ? q): "
        while True:
            text = self._read(prompt)
            if text is None:
                self.say()
                self.say(f"input ended before the game did (round {state.round}, {game.phase.name.lower()})")
                return False
            if text in ("q", "quit", "exit"):
                self.say("quit: the game is unfinished")
                return False
            action = self._answer(text, actions, labels, placing)
            if action is not None and self._confirm(action):
                game.apply(action)
                return True

    def _list(self, labels: list[str], actions: list[Action], full: bool) -> None:
        shown = [i for i, a in enumerate(actions) if full or a.kind not in PLACEMENT_KINDS]
        for line in choice_lines([f"{i + 1:>3}) {labels[i]}" for i in shown]):
            self.say(line)
        hidden = len(actions) - len(shown)
        if hidden:
            self.say(f"   ... and {hidden} placements, numbered in the full list (l)")

    def _placement_hint(self, placing: list[Action]) -> str:
        example = placing[len(placing) // 2]
        kind = example.kind
        names = _ORIENT_NAMES[kind]
        if kind == ActionKind.PLACE_CAMPAIGN and MARKETING_TILES[self._tile() - 1].type != CampaignType.AIRPLANE:
            meaning, word = "0 as printed, 1 rotated", str(example.args[2])
        else:
            meaning = {ActionKind.PLACE_RESTAURANT: "the entrance corner",
                       ActionKind.PLACE_CAMPAIGN: "the map edge the airplane flies along"}.get(
                kind, "the garden's side")
            meaning += ": " + " ".join(f"{i} {n}" for i, n in enumerate(names))
            word = names[example.args[2]].lower()
        return (f"   place by coordinate: ROW COL ORIENTATION (the top-left square of the piece; "
                f"orientation = {meaning}), e.g. {example.args[0]} {example.args[1]} {word}")

    def _answer(self, text: str, actions: list[Action], labels: list[str], placing: list[Action]) -> Action | None:
        """The action ``text`` picks, or None after printing what a command asked for or what was wrong."""
        if text in ("b", "board"):
            self.say(board_text(self.game.state))
        elif text in ("l", "list"):
            self._list(labels, actions, full=True)
        elif text in ("s", "status"):
            self._status()
        elif text in ("?", "h", "help"):
            self.say(HELP)
        elif text.isdigit():
            if 1 <= int(text) <= len(actions):
                return actions[int(text) - 1]
            self.say(f"'{text}' is not a choice: type a number from 1 to {len(actions)}, or ? for help")
        elif placing and (spot := self._coordinate(text, placing)) is not False:
            return spot
        else:
            shown = text or "(empty line)"
            coords = ", a coordinate ROW COL [O]" if placing else ""
            self.say(f"'{shown}' is not a choice: type a number from 1 to {len(actions)}{coords}, "
                     "or b, s, l, ?, q")
        return None

    def _coordinate(self, text: str, placing: list[Action]) -> Action | None | bool:
        """The placement a coordinate names; None when it names none (said why); False: not a coordinate."""
        kind = placing[0].kind
        try:
            spot = parse_coordinate(text, kind)
        except ValueError as exc:
            self.say(str(exc))
            return None
        if spot is None:
            return False
        row, col, orient = spot
        here = [a for a in placing if a.args[:2] == (row, col)]
        if not here:
            self.say(f"no legal placement has its top-left square at ({row},{col}); b shows the map, "
                     "l lists every placement")
            return None
        if orient is None and len(here) > 1:
            options = ", ".join(f"{row} {col} {self._orient_word(a)}" for a in here)
            self.say(f"({row},{col}) takes an orientation: {options}")
            return None
        match = here if orient is None else [a for a in here if a.args[2] == orient]
        if not match:
            options = ", ".join(self._orient_word(a) for a in here)
            self.say(f"orientation {orient} is not legal at ({row},{col}); legal there: {options}")
            return None
        return match[0]

    def _orient_word(self, action: Action) -> str:
        if action.kind == ActionKind.PLACE_CAMPAIGN and MARKETING_TILES[self._tile() - 1].type != CampaignType.AIRPLANE:
            return str(action.args[2])
        return _ORIENT_NAMES[action.kind][action.args[2]].lower()

    def _confirm(self, action: Action) -> bool:
        """Placements show their footprint first and need a ``y``; every other choice is taken at once."""
        if action.kind not in PLACEMENT_KINDS:
            return True
        state = self.game.state
        self.say(preview_text(action, state, self._tile()))
        label = action_text(action, state, self.human, self._tile())
        answer = self._read(f"{label}? [y/n]: ")
        if answer in ("y", "yes"):
            return True
        self.say("not placed; choose again")
        return False

    def _status(self) -> None:
        from fcm_env.protocol import view

        me = view(self.game, self.human)
        order = me["turn_order"]
        for p in me["players"]:
            who = "you" if p["player"] == self.human else f"player {p['player']} ({self.names[p['player']]})"
            seat = f"{ordinal(order.index(p['player']) + 1)} in turn order" if p["player"] in order else "out"
            self.say(f"{who}, {seat}: {company_text(p)}")
            if p["milestones"]:
                self.say(f"   milestones: {', '.join(m.replace('_', ' ') for m in p['milestones'])}")


def choice_lines(items: Sequence[str], width: int = 108) -> list[str]:
    """Numbered choices, in columns when there are many."""
    if len(items) <= 12:
        return list(items)
    cell = max(len(s) for s in items) + 2
    cols = max(1, width // cell)
    rows = (len(items) + cols - 1) // cols
    return ["".join(items[r + c * rows].ljust(cell) for c in range(cols) if r + c * rows < len(items)).rstrip()
            for r in range(rows)]


def _is_tty(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


# ------------------------------------------------------------------ starting, resuming, saving


@dataclass
class PlayOptions:
    """What ``fcm play`` was asked for (the command line's options)."""

    players: int = 2
    seat: int = 0
    opponents: str = "heuristic"
    seed: int = 0
    variant: str = "standard"
    max_rounds: int | None = 30
    save_record: str | None = None
    resume: str | None = None


def default_record_path() -> Path:
    return Path("runs") / f"play-{time.strftime('%Y%m%d-%H%M%S')}.json"


def _setup(options: PlayOptions) -> tuple[Game, int, list[str]]:
    """The game (new, or replayed from ``--resume``), the human's seat and one name per seat."""
    from fcm_env.engine.records import GameRecord, new_recorded_game, replay

    if options.resume:
        record = GameRecord.load(options.resume)
        names = list(record.agents) if record.agents else None
        if names is None:
            names = ["human" if p == options.seat else spec
                     for p, spec in zip(range(record.num_players), _lineup(options, record.num_players))]
        if names.count("human") != 1:
            raise ValueError(f"{options.resume}: the record's agents {names} name no single human seat")
        return replay(record), names.index("human"), names
    n = options.players
    if not 0 <= options.seat < n:
        raise ValueError(f"--seat must be a player id 0..{n - 1}, got {options.seat}")
    names = _lineup(options, n)
    game = new_recorded_game(n, seed=options.seed, variant=options.variant, max_rounds=options.max_rounds)
    return game, options.seat, names


def _lineup(options: PlayOptions, n: int) -> list[str]:
    """``human`` at the seat, the ``--opponents`` specs in the other seats."""
    if not 0 <= options.seat < n:
        raise ValueError(f"--seat must be a player id 0..{n - 1}, got {options.seat}")
    specs = [s.strip() for s in options.opponents.split(",") if s.strip()]
    if len(specs) == 1:
        specs = specs * (n - 1)
    if len(specs) != n - 1:
        raise ValueError(f"--opponents: give one spec or {n - 1} (one per other player), got {len(specs)}")
    others = iter(specs)
    return ["human" if p == options.seat else next(others) for p in range(n)]


def play(options: PlayOptions, infile: IO[str], out: IO[str]) -> int:
    """Play (or continue) a game; the record is saved on every exit, Ctrl-C included.

    0: the game ended; 1: left unfinished (quit, input ended); 130: interrupted."""
    from fcm_agents.registry import make_agent
    from fcm_env.engine.records import GameRecord

    game, human, names = _setup(options)
    bots = {p: make_agent(spec, seed=game.state.seed * 10 + p) for p, spec in enumerate(names) if p != human}
    path = Path(options.save_record or options.resume or default_record_path())
    session = TerminalGame(game, human, bots, names, infile, out)
    if options.resume:
        session.say(f"resumed {options.resume}: {len(game.history)} actions replayed "
                    f"(round {game.state.round}, {game.phase.name.lower()})")
    code = 130
    try:
        code = session.run()
    except KeyboardInterrupt:
        session.say("\ninterrupted (Ctrl-C)")
    finally:
        path.parent.mkdir(parents=True, exist_ok=True)
        GameRecord.from_game(game, agents=names).save(path)
        state = "finished game" if game.is_over else "unfinished game"
        session.say(f"record of the {state} saved to {path} ({len(game.history)} actions)")
        if not game.is_over:
            session.say(f"continue it with: fcm play --resume {path}")
    return code

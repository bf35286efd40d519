"""What the LLM agent says to the model, and how it reads the model's answer.

Why a module of its own: the prompt decides what the model may know, so it is built in one place,
from the seat's view only. ``game.seat_view(player)`` erases the other players' hidden facts, and
the protocol's ``view`` of that (``fcm_env.view``, the per-player view every front end gets)
is what the text is written from; the numbered choices carry the protocol's kind and params. The
reply parser is here too, so the words of the question and the rules of the answer stay together.
"""

from __future__ import annotations

import json
import re
from typing import Any

from fcm_env.engine.actions import Action, Decision
from fcm_env.engine.board.occupancy import house_grid
from fcm_env.engine.game import Game
from fcm_env.engine.queries import unit_price
from fcm_env.text.context import company_text, context_text
from fcm_env.text.map import render_ascii
from fcm_env.text.state import piece_marks
from fcm_env.text.words import action_text, cards_text, milestone_name, ordinal, tile_text
from fcm_env.view import action_params, view

MAP_WIDTH = 3  # characters per square: house numbers never touch restaurant digits

SYSTEM_PROMPT = """\
You play Food Chain Magnate, a board game of fast-food chains, as one player. At each of your \
decisions you get what your seat can see and a numbered list of the moves allowed now.

How to answer: reply with the number of one choice and nothing else (for example: 3), or with the \
JSON object {"action": 3}. A reply that is not one of the numbers listed is refused and asked again. \
Squares are (row,col), rows counted from the top of the map; a placement names the top-left square \
of the piece.

Goal: have the most cash when the game ends. Money comes from the bank, which pays for every \
meal sold. When the bank runs out the first time, every player's secretly kept reserve card \
($100, $200 or $300) is opened and added to the bank, and the CEO's number of slots becomes the \
one shown on most of those cards. When it runs out the second time (the first time in the \
introductory game), the game ends after that Dinnertime. Games may also be cut off after a set \
number of rounds. A tie goes to the player earlier in turn order. A chain that cannot pay a bill \
is bankrupt: it leaves at the end of the turn and cannot win.

Setup: everyone places a first restaurant (2x2 squares, its entrance corner next to a road) and, \
in the standard game, keeps one reserve card in secret.

Every round has seven phases:
1. Restructuring (face down, all at once): put cards from your hand to work. Your CEO has a few \
slots; managers at work open more slots. Cards not put to work go to the beach and do nothing \
this round.
2. Order of business: the players with the most open slots choose their turn order spot first.
3. Working 9-5, in turn order; each card at work acts once: recruiters hire entry-level cards \
from the supply (they arrive on the beach); trainers train a card on the beach into a better \
one; marketeers launch campaigns (billboard, mailbox, radio, airplane) that advertise one good \
(burger, pizza, beer, lemonade or soda) for some turns; kitchen cards make burgers or pizzas; \
errand boys and drivers fetch drinks from the drink sources on the map; new business developers \
place houses or gardens; local and regional managers open or move restaurants.
4. Dinnertime: each house that wants goods eats at one chain that has everything it wants, in \
one restaurant connected to it by road: the lowest unit price plus distance (tile borders crossed \
by road) wins, then the most waitresses, then turn order. The unit price is $10, changed by \
pricing, discount and luxuries managers at work; a house with a garden pays double. Waitresses \
earn tips; a CFO adds half of the cash earned.
5. Payday: you may fire cards (in secret), then pay $5 to every card at work, on the beach or \
busy that earns a salary. Salaries can bankrupt you.
6. Marketing: every running campaign puts one more demand for its good on the houses it reaches \
(up to 3 per house, 5 with a garden).
7. Clean-up: unsold food and drinks are thrown away (a freezer keeps up to 10), and the cards \
return to your hand (marketeers stay busy while their campaign runs).

Milestones: the first player(s) to do certain things (first to train, first billboard placed, \
first burger produced, ...) get a lasting bonus; a milestone is gone for everyone else after the \
round it was first reached.

Sales need demand: houses only want what campaigns advertised to them, and a house buys only if \
one chain can serve its whole wish. Plan marketing, production and restaurants together."""

ANSWER_HINT = 'Reply with the number of your choice only (or {"action": N}).'

# ------------------------------------------------------------------ the seat's view


def _who(p: int, me: int) -> str:
    return "you" if p == me else f"player {p}"


def _player_line(p: dict[str, Any], me: int, price: int) -> str:
    """One player's block of the protocol view in words (face-down facts show as the view has them)."""
    who = f"you (player {me})" if p["player"] == me else f"player {p['player']}"
    parts = [f"- {who}: {company_text(p)}", f"unit price ${price}",
             f"restaurants {p['restaurants']}"]
    if p["reserve"] is not None:
        parts.append(f"reserve card ${p['reserve']}")
    elif p["reserve_offer"]:
        parts.append("reserve card: face down")
    if p["milestones"]:
        parts.append("milestones: " + ", ".join(milestone_name(m) for m in p["milestones"]))
    if p["bankrupt"]:
        parts.append("BANKRUPT")
    return " | ".join(parts)


def _board_lines(v: dict[str, Any], me: int) -> list[str]:
    lines = []
    for h in v["houses"]:
        if h["demand"] or h["garden"]:
            top = "({},{})".format(*min(map(tuple, h["squares"])))
            wants = ", ".join(h["demand"]) or "nothing yet"
            garden = ", garden (pays double)" if h["garden"] else ""
            room = f"room for {h['demand_limit']}"
            lines.append(f"- house {h['number']} at {top}{garden}: wants {wants} ({room})")
    for r in v["restaurants"]:
        soon = " (coming soon: opens next round)" if r["coming_soon"] else ""
        lines.append(f"- restaurant {r['index'] + 1} of {_who(r['owner'], me)} at ({r['row']},{r['col']}), "
                     f"entrance ({r['entrance'][0]},{r['entrance'][1]}){soon}")
    for c in v["campaigns"]:
        left = "forever" if c["eternal"] else f"{c['remaining']} more turn(s)"
        where = f" at ({c['row']},{c['col']})" if c["squares"] else " (airplane)"
        lines.append(f"- campaign #{c['number']} {c['type']} of {_who(c['owner'], me)}{where}: "
                     f"advertises {c['product']}, {left}")
    return lines


def view_text(seat: Game, player: int, v: dict[str, Any] | None = None) -> str:
    """The game as ``player`` may know it, in words: bank, players, supply, map, houses, campaigns
    (``v``: the protocol's view of ``seat`` for ``player``, when the caller has it already)."""
    v = view(seat, player) if v is None else v
    state = seat.state
    final = "second" if v["variant"] == "standard" else "first"
    debt = f", ${v['bank_debt']} owed" if v["bank_debt"] else ""
    lines = [
        f"{v['num_players']} players, {v['variant']} game. You are player {player}.",
        (f"Bank: ${v['bank']}{debt}; broken {v['bank_breaks']} time(s) (the game ends at the {final} break); "
         f"reserve cards {'open' if v['reserve_revealed'] else 'face down'}; CEO slots {v['ceo_slots']}."),
        "Turn order: " + ", ".join(f"{ordinal(i + 1)} {_who(p, player)}"
                                   for i, p in enumerate(v["turn_order"])),
        "",
        "Players (hand, at work, beach, stock as you may see them):",
    ]
    lines += [_player_line(p, player, unit_price(state, p["player"])) for p in v["players"]]
    left = ", ".join(tile_text(n) for n in v["marketing_supply"]) or "none"
    lines += [
        "",
        f"Cards in the supply: {cards_text(v['supply'])}",
        f"Campaign tiles left: {left}",
        (f"House tokens left: {', '.join(map(str, v['house_supply'])) or 'none'}; "
         f"gardens left: {v['gardens_left']}"),
    ]
    if v["milestones_available"]:
        names = ", ".join(milestone_name(m) for m in v["milestones_available"])
        lines.append(f"Milestones still to win: {names}")
    lines += ["", "Map (row numbers on the left, column numbers on top; squares are (row,col)):"]
    lines.append(render_ascii(state.board, piece_marks(state, MAP_WIDTH), house_grid=house_grid(state),
                              width=MAP_WIDTH))
    board = _board_lines(v, player)
    if board:
        lines += ["", "On the map:"] + board
    return "\n".join(lines)


def view_json(seat: Game, player: int) -> str:
    """The protocol's view of ``player`` (docs/protocol.md) as compact JSON."""
    return json.dumps(view(seat, player), separators=(",", ":"))


def _turn_line(turn: dict[str, Any]) -> str:
    trainers = ", ".join(f"{key.replace('_', ' ')} ({n} left)" for key, n in turn["trainers"])
    parts = [f"hires so far {turn['hires']}", f"hires left {turn['recruits_left']}"]
    if trainers:
        parts.append(f"trainer actions: {trainers}")
    if turn["used"]:
        parts.append(f"cards already used: {cards_text(turn['used'])}")
    if turn["locked"]:
        parts.append(f"trained this turn (locked): {cards_text(turn['locked'])}")
    return "This turn: " + "; ".join(parts)


def choice_text(action: Action, seat: Game, player: int, tile: int | None) -> str:
    """One choice: what it does in words, then the protocol's kind and params."""
    params = " ".join(f"{k}={v}" for k, v in action_params(action).items())
    protocol = action.kind.name + (f" {params}" if params else "")
    return f"{action_text(action, seat.state, player, tile)}  [{protocol}]"


def seat_prompt(game: Game, player: int, observation: str = "text") -> tuple[str, list[Action]]:
    """The user message for ``player``'s pending decision and the legal actions in its numbered order."""
    pending = game.pending
    if pending is None or pending.player != player:
        raise ValueError(f"player {player} is not the one to move")
    seat = game.seat_view(player)
    v = view(seat, player)
    actions = list(game.legal_actions())
    tile = int(pending.context[1]) if pending.decision == Decision.CAMPAIGN_PLACE else None
    if observation == "json":
        head = ["What you see (the per-player view of the game protocol, as JSON):",
                json.dumps(v, separators=(",", ":"))]
    else:
        head = [view_text(seat, player, v)]
    rounds = f" of at most {v['max_rounds']}" if v["max_rounds"] else ""
    lines = head + ["", f"Round {v['round']}{rounds}, phase {v['phase'].lower().replace('_', ' ')}.",
                    f"Your decision ({pending.decision.name}): {v['pending']['text']}"]
    about = context_text(pending.decision, v["pending"].get("fields") or {}, seat.state, player)
    if about:
        lines.append(f"About it: {about}")
    if v["turn"] is not None and v["pending"]["you"]:
        lines.append(_turn_line(v["turn"]))
    lines += ["", f"Choices ({len(actions)}):"]
    lines += [f"{i}) {choice_text(a, seat, player, tile)}" for i, a in enumerate(actions, 1)]
    lines += ["", ANSWER_HINT]
    return "\n".join(lines), actions


# ------------------------------------------------------------------ reading the reply


class ReplyError(ValueError):
    """A reply that names no choice; ``kind`` is ``unparsable`` (no number read) or ``illegal`` (a number
    that is not listed)."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind


_THINK = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)
_OBJECT = re.compile(r"\{[^{}]*\}")
_BARE = re.compile(r"[\s*_`'\"(\[]*"  # markdown or quotes before
                   r"(?:(?:action|choice|answer|option|move)\s*[:#=]?\s*)?(-?\d+)"  # "Action: 3"
                   r"[\s.)\]*_`'\"]*", re.IGNORECASE)
_LISTED = re.compile(r"\s*(\d+)\)")  # a choice line echoed back: "3) hire a waitress"
_INT = re.compile(r"-?\d+")


def _number(text: str) -> int:
    """The number a reply's text names (not yet checked against the choices)."""
    for blob in reversed(_OBJECT.findall(text)):
        try:
            data = json.loads(blob)
        except ValueError:
            continue
        if isinstance(data, dict) and "action" in data:
            value = data["action"]
            if isinstance(value, int) and not isinstance(value, bool):
                return value
            if isinstance(value, str) and _INT.fullmatch(value.strip()):
                return int(value)
            raise ReplyError("unparsable", f'"action" must be a choice number, got {value!r}')
    lines = [line for line in text.splitlines() if line.strip()]
    for pattern in (_BARE, _LISTED):
        match = pattern.fullmatch(lines[-1]) if pattern is _BARE else pattern.match(lines[-1])
        if match:
            return int(match.group(1))
    numbers = set(_INT.findall(text))
    if len(numbers) == 1:
        return int(numbers.pop())
    what = "no number" if not numbers else f"{len(numbers)} different numbers"
    raise ReplyError("unparsable", f"the reply holds {what}, so it names no single choice")


def parse_reply(text: str | None, count: int) -> int:
    """The 1-based choice a reply names: a bare number, ``{"action": N}``, or a text with one number in it
    (a ``<think>`` section is skipped). ``ReplyError`` says what was wrong."""
    body = _THINK.sub("", text or "")
    opened = body.lower().find("<think>")
    if opened >= 0:  # a reasoning section that never closed (the reply was cut off): nothing after it counts
        body = body[:opened]
    if not body.strip():
        raise ReplyError("unparsable", "the reply was empty")
    number = _number(body)
    if not 1 <= number <= count:
        raise ReplyError("illegal", f"{number} is not one of the choices, which are numbered 1 to {count}")
    return number


def retry_text(error: ReplyError, count: int) -> str:
    """The message that asks again after a bad reply: what was wrong and what is wanted."""
    return f"That reply was refused: {error}. Reply with one number from 1 to {count} and nothing else."

"""Reading and parsing the human's input: the choice list, commands, coordinates, confirmation.

Why a module of its own: the human's decision is the one place ``fcm play`` reads input; what a
line of text means (a number, a command, ``9 8 sw`` as a placement) is kept apart from the loop
that plays the bots and saves the record (``fcm_apps.terminal.game``).
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Sequence
from typing import IO, Any

from fcm_apps.terminal.board import board_text, preview_text
from fcm_apps.terminal.story import Narrator
from fcm_env.data import MARKETING_TILES, CampaignType
from fcm_env.engine.actions import Action, ActionKind, Decision
from fcm_env.engine.game import Game
from fcm_env.text.cards import card_index, card_sheet, choice_note, find_card
from fcm_env.text.context import company_text, context_text
from fcm_env.text.explain import payday_text, placement_refusal, reach_text
from fcm_env.text.words import (
    CORNERS,
    PLACEMENT_KINDS,
    SIDES,
    action_text,
    card_name,
    milestone_name,
    ordinal,
    pending_tile,
)

HELP = """commands:
  NUMBER          pick that choice from the list
  ROW COL [O]     place by coordinate (restaurant, house, garden, campaign), e.g. 9 8 sw or 9 8 r3;
                  O is the orientation (a number or its name); you see the footprint and confirm with y
  b, board        show the whole map and the houses' demand
  s, status       everybody's cash, cards and stock (what your seat may see)
  l, list         list every choice again, numbered (placements too)
  card NAME       what a card does, its salary and what it trains into, e.g. card kitchen trainee
  info            every card in one line each
  ?, help         this help
  q, quit         stop; the record is saved and `fcm play --resume FILE` continues it
Ctrl-C also stops and saves the record."""


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


SHORT_LIST = 20  # a decision with more choices than this lists placements only on request (l)


class HumanTurn:
    """The human's decisions of a ``TerminalGame`` (which supplies ``say`` and these attributes)."""

    game: Game
    human: int
    names: list[str]
    infile: IO[str]
    out: IO[str]
    narrator: Narrator
    board_shown: bool
    line_reader: Any

    def _read(self, prompt: str) -> str | None:
        """One line of input; at a terminal with line editing and history (``prompt_toolkit``, else
        ``readline``), so a long coordinate can be fixed or typed again with the arrow keys."""
        if _is_tty(self.infile) and self.infile is sys.stdin and _is_tty(self.out) and self.out is sys.stdout:
            return self._read_edited(prompt)
        self.out.write(prompt)
        self.out.flush()
        line = self.infile.readline()
        if line and not _is_tty(self.infile):
            self.out.write(line if line.endswith("\n") else line + "\n")  # echo piped input
        return line.strip().lower() if line else None

    def _read_edited(self, prompt: str) -> str | None:
        if self.line_reader is None:
            self.line_reader = _line_reader()
        try:
            line = self.line_reader(prompt)
        except EOFError:
            return None
        return line.strip().lower()

    def _tile(self) -> int | None:
        return pending_tile(self.game.state)

    def _human_turn(self) -> bool:
        from fcm_env.view import DECISION_TEXT, view

        game, state = self.game, self.game.state
        for line in self.narrator.head(state.round, game.phase.name.lower()):
            self.say(line)
        pending = game.pending
        me = view(game, self.human)
        if not self.board_shown or pending.decision == Decision.INITIAL_RESTAURANT:
            # the map as it is now: at setup, with the first restaurants placed before yours
            self.say(board_text(state))
            self.board_shown = True
        self.say(f"-- your decision: {DECISION_TEXT[pending.decision]}")
        context = context_text(pending.decision, me["pending"].get("fields") or {}, state, self.human)
        if context:
            self.say(f"   {context}")
        actions = game.legal_actions()
        if pending.decision == Decision.FIRE:
            self.say(f"   {payday_text(state, self.human, actions)}")
        self.say(f"   you: {company_text(me['players'][self.human])}")
        labels = [self._label(a, note=True) for a in actions]
        placing = [a for a in actions if a.kind in PLACEMENT_KINDS]
        self._list(labels, actions, full=len(actions) <= SHORT_LIST)
        if placing:
            self.say(self._placement_hint(placing))
        coords = " or ROW COL O" if placing else ""
        prompt = f"your choice (1-{len(actions)}{coords}; b s l info ? q): "
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
                game.apply(action, atomic=True)
                return True

    def _label(self, action: Action, note: bool = False) -> str:
        """A choice in words; a campaign spot also names the houses it would reach, and with ``note`` a hire,
        training or put-to-work choice says what its card does and costs (the choice list)."""
        label = action_text(action, self.game.state, self.human, self._tile())
        reach = reach_text(self.game.state, action, self._tile())
        if reach:
            return f"{label} ({reach})"
        what = choice_note(action) if note else None
        return f"{label} -- {what}" if what else label

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
        elif text in ("i", "info", "cards"):
            for line in card_index():
                self.say(f"  {line}")
            self.say("card NAME tells one card in full (1x: one copy with 2-3 players, two with 4, three with 5)")
        elif text == "card" or text.startswith("card "):
            self._card(text[4:])
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
                     "or b, s, l, info, card NAME, ?, q")
        return None

    def _card(self, name: str) -> None:
        """``card NAME``: the card's sheet; a name matching several cards lists them."""
        keys = find_card(name)
        if len(keys) == 1:
            for line in card_sheet(keys[0]):
                self.say(line)
        elif keys:
            self.say(f"'{name.strip()}' names several cards: {', '.join(card_name(k) for k in keys)}")
        elif name.strip():
            self.say(f"no card is called '{name.strip()}'; info lists every card")
        else:
            self.say("card NAME: which card? e.g. card waitress; info lists every card")

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
            why = placement_refusal(self.game.state, self.game.pending.decision, kind, row, col, orient,
                                    self._tile())
            self.say(f"no legal placement has its top-left square at ({row},{col}): {why}; b shows the map, "
                     "l lists every placement")
            return None
        if orient is None and len(here) > 1:
            options = ", ".join(f"{row} {col} {self._orient_word(a)}" for a in here)
            self.say(f"({row},{col}) takes an orientation: {options}")
            return None
        match = here if orient is None else [a for a in here if a.args[2] == orient]
        if not match:
            options = ", ".join(self._orient_word(a) for a in here)
            why = placement_refusal(self.game.state, self.game.pending.decision, kind, row, col, orient,
                                    self._tile())
            self.say(f"orientation {orient} is not legal at ({row},{col}) ({why}); legal there: {options}")
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
        label = self._label(action)
        answer = self._read(f"{label}? [y/n]: ")
        if answer in ("y", "yes"):
            return True
        self.say("not placed; choose again")
        return False

    def _status(self) -> None:
        from fcm_env.view import view

        me = view(self.game, self.human)
        order = me["turn_order"]
        for p in me["players"]:
            who = "you" if p["player"] == self.human else f"player {p['player']} ({self.names[p['player']]})"
            seat = f"{ordinal(order.index(p['player']) + 1)} in turn order" if p["player"] in order else "out"
            self.say(f"{who}, {seat}: {company_text(p)}")
            if p["milestones"]:
                self.say(f"   milestones: {', '.join(milestone_name(m) for m in p['milestones'])}")


def choice_lines(items: Sequence[str], width: int = 108) -> list[str]:
    """Numbered choices, in columns when there are many."""
    if len(items) <= 12:
        return list(items)
    cell = max(len(s) for s in items) + 2
    cols = max(1, width // cell)
    rows = (len(items) + cols - 1) // cols
    return ["".join(items[r + c * rows].ljust(cell) for c in range(cols) if r + c * rows < len(items)).rstrip()
            for r in range(rows)]


def _line_reader() -> Callable[[str], str]:
    """``prompt_toolkit``'s prompt with history when it is installed, else ``input`` (with ``readline``'s
    editing and history where Python has it); both raise EOFError at the end of input.

    ``FCM_PLAIN_INPUT=1`` picks ``input`` even with prompt_toolkit: its screen redraws (escape codes,
    a cursor-position query) get in the way of a script driving the terminal."""
    try:
        if os.environ.get("FCM_PLAIN_INPUT", "") not in ("", "0"):
            raise ImportError("FCM_PLAIN_INPUT")
        from prompt_toolkit import PromptSession
        from prompt_toolkit.history import InMemoryHistory
    except ImportError:
        try:
            import readline  # noqa: F401 - importing it gives input() editing and history
        except ImportError:
            pass
        return input
    session = PromptSession(history=InMemoryHistory())
    return lambda prompt: session.prompt(prompt)


def _is_tty(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False

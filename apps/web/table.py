"""One human seat at a served game: what the browser may see of it, and the human's moves.

Why: the web page plays one seat against bots; everything it receives must be what that seat
may see. ``PlayTable`` goes through ``fcm_apps.server.Session`` (the protocol server, with its
request checks and bots) and only ever asks it for the human's ``view``, ``legal`` and ``log``;
the full ``save`` document (every secret) is handed out separately, as a file to download.
The log's sentences are ``fcm_env.text.sentences``' (the human's seat is ``you``), the words of
``fcm play`` and ``fcm replay --events``; what ``fcm play`` explains beside them (a forced firing at
Payday, what a milestone you claimed does) comes from ``fcm_env.text.explain`` here too.
"""

from __future__ import annotations

from typing import Any

from fcm_apps.server import Session
from fcm_apps.web.shapes import with_lanes, with_shapes
from fcm_env.engine.actions import Decision
from fcm_env.engine.board.geometry import Board
from fcm_env.engine.game import Game
from fcm_env.engine.queries import campaign_reach
from fcm_env.text.cards import choice_tip
from fcm_env.text.explain import milestone_effect, payday_text
from fcm_env.text.sentences import EventWriter, cash_before, milestones_before, repeats_own_moves
from fcm_env.text.words import action_text, pending_tile, round_title
from fcm_env.view import describe_action

#: the bot kinds the page offers (paths to model files are not taken from the browser); ``search`` is
#: the strong one (information-set MCTS at its default budget, about 0.2 s a decision: docs/search.md)
BOT_SPECS = ("random", "heuristic", "policy", "search")
SAVE_FORMAT = "fcm-magnate/web-save"
MIN_PLAYERS, MAX_PLAYERS = 2, 5


class TableError(ValueError):
    """A request the table cannot accept; nothing changed."""


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _ok(reply: dict[str, Any]) -> dict[str, Any]:
    if not reply.get("ok"):
        raise TableError(reply.get("error", "the server refused the request"))
    return reply


def _check_specs(bots: dict[str, Any], where: str) -> None:
    for seat, spec in bots.items():
        if spec not in BOT_SPECS:
            raise TableError(f"{where}.{seat}: bots are {', '.join(BOT_SPECS)}, got {spec!r}")


def log_entry(index: int, event: dict[str, Any], text: str, detail: str | None = None) -> dict[str, Any]:
    """One line of the page's log: the event's sentence plus what the page colours it by; ``detail``:
    a second line under it (what a milestone you claimed does), or None; ``heading``: the round and
    phase in the words of ``fcm play``'s headings (``round 3: phase 5: payday``, ``setup: reserve cards``)."""
    return {"index": index, "kind": event["kind"], "round": event["round"], "phase": event["phase"],
            "heading": round_title(event["round"], event["phase"]),
            "player": event.get("player"), "text": text, "detail": detail}


def add_words(legal: list[dict[str, Any]], game: Game, player: int) -> None:
    """Each legal move of ``player`` gets ``text``, the choice in the words of ``fcm play``'s list
    (``fcm_env.text.words.action_text``: ``keep the $200 reserve card``, ``go 1st in turn order``), and,
    when it names employee cards, ``card``: what they do (``fcm_env.text.cards``; the button's tooltip).
    The words read only what the player may see (the map, its own restaurants and reserve offer)."""
    actions = {describe_action(a)["id"]: a for a in game.legal_actions()} if legal else {}
    tile = pending_tile(game.state)
    for entry in legal:
        action = actions.get(entry["id"])
        if action is None:  # not this game's move list (cannot happen for the served game's own legal moves)
            continue
        entry["text"] = action_text(action, game.state, player, tile)
        tip = choice_tip(action)
        if tip:
            entry["card"] = tip


class PlayTable:
    """A game of ``session`` in which seat ``human`` is played from the browser."""

    def __init__(self, session: Session, game: str, human: int, names: list[str]):
        self.session = session
        self.game = game
        self.human = human
        self.names = names
        self.next_log = 0  # the server log's index of the next event to fetch
        self.lines = 0  # log lines sent to the page so far
        self.writer: EventWriter | None = None  # the log's sentences, from the first message on
        self.board: Board | None = None

    # -------------------------------------------------------------- opening

    @classmethod
    def start(cls, session: Session, request: dict[str, Any]) -> PlayTable:
        """A new game from the start form: ``num_players``, ``human``, ``bots``, ``seed``, ``variant``."""
        fields = {"num_players", "human", "bots", "seed", "variant", "max_rounds"}
        unknown = sorted(set(request) - fields)
        if unknown:
            raise TableError(f"new: unknown field {unknown[0]!r}; new takes {', '.join(sorted(fields))}")
        num_players = request.get("num_players", 2)
        human = request.get("human", 0)
        if not _is_int(human) or not _is_int(num_players):
            raise TableError("new: num_players and human must be integers")
        if not MIN_PLAYERS <= num_players <= MAX_PLAYERS:  # checked before any loop over the seats
            raise TableError(f"new.num_players: {MIN_PLAYERS} to {MAX_PLAYERS} players, got {num_players}")
        if not 0 <= human < num_players:
            raise TableError(f"new.human: the human seat must be 0..{num_players - 1}, got {human}")
        bots = request.get("bots") or {str(p): "heuristic" for p in range(num_players) if p != human}
        if not isinstance(bots, dict):
            raise TableError("new.bots: expected an object {seat: agent}")
        bots = {str(k): v for k, v in bots.items()}
        if str(human) in bots:
            raise TableError(f"new.bots: seat {human} is the human's seat")
        _check_specs(bots, "new.bots")
        missing = [p for p in range(num_players) if p != human and str(p) not in bots]
        if missing:
            raise TableError(f"new.bots: seat {missing[0]} needs an agent ({', '.join(BOT_SPECS)})")
        cmd = {"cmd": "new", "num_players": num_players, "bots": bots}
        for key in ("seed", "variant", "max_rounds"):
            if request.get(key) is not None:
                cmd[key] = request[key]
        reply = _ok(session.handle(cmd))
        return cls(session, reply["game"], human, reply["setup"]["players"])

    @classmethod
    def load(cls, session: Session, document: Any) -> PlayTable:
        """Resume a downloaded save: the bots take their seats again, the lowest other seat is the human's."""
        if not isinstance(document, dict):
            raise TableError("load: a saved game is a JSON object")
        if document.get("format") == "fcm-magnate/record":
            raise TableError("load: this is a game record, not a saved game: open it under Replay")
        if document.get("format") != SAVE_FORMAT or "state" not in document:
            raise TableError(f"load: not a saved game of this table (format {SAVE_FORMAT!r} expected)")
        bots = document.get("bots")
        if not isinstance(bots, dict):
            raise TableError("load.bots: expected an object {seat: agent}")
        _check_specs(bots, "load.bots")
        source = document["record"] if document.get("record") is not None else document["state"]
        seats = source.get("num_players") if isinstance(source, dict) else None
        if _is_int(seats) and 0 < seats <= len(bots) and all(str(p) in bots for p in range(seats)):
            # refused before the server opens it: opening would let the bots play the whole game first
            raise TableError("load: every seat of this game is a bot: nobody to play")
        cmd: dict[str, Any] = {"cmd": "load", "bots": bots}
        if document.get("record") is not None:
            cmd["record"] = document["record"]  # replayed: the whole log comes back too
        else:
            cmd["state"] = document["state"]
        human = document.get("human")
        reply = _ok(session.handle(cmd))
        names = reply["setup"]["players"]
        humans = [p for p, name in enumerate(names) if name == "human"]
        if not humans:
            session.handle({"cmd": "close", "game": reply["game"]})
            raise TableError("load: every seat of this game is a bot: nobody to play")
        if human not in humans:
            human = humans[0]
        return cls(session, reply["game"], human, names)

    # -------------------------------------------------------------- moves and messages

    def act(self, action: Any) -> dict[str, Any]:
        """Play the human's move (an action id or a structured action); the bots answer at once."""
        _ok(self.session.handle({"cmd": "act", "game": self.game, "player": self.human, "action": action}))
        return self.message()

    def message(self) -> dict[str, Any]:
        """What the page shows now: the human's view, legal moves with footprints, the new log lines."""
        view = _ok(self.session.handle({"cmd": "view", "game": self.game, "player": self.human}))["view"]
        legal = _ok(self.session.handle({"cmd": "legal", "game": self.game, "player": self.human}))
        log = _ok(self.session.handle({"cmd": "log", "game": self.game, "player": self.human,
                                       "since": self.next_log}))
        if self.writer is None:  # the log starts here: the cash before it, counted back from the view's
            cash = cash_before(log["log"], [p["cash"] for p in view["players"]])
            held = milestones_before(log["log"], {p["player"]: p["milestones"] for p in view["players"]})
            self.writer = EventWriter(cash, viewer=self.human, milestones=held)
            self.board = Board.from_tiles(view["map"]["tiles"])
        legal_moves = with_shapes(legal["actions"], view)
        self._add_reach(legal_moves, view)
        add_words(legal_moves, self.session.games[self.game].game, self.human)
        told = [e for e in log["log"] if not repeats_own_moves(e, self.human)]  # one fire: one line
        entries = [log_entry(self.lines + i, e, self.writer.sentence(e, self.board), self._detail(e))
                   for i, e in enumerate(told)]
        self.next_log, self.lines = log["next"], self.lines + len(entries)
        return {"type": "table", "game": self.game, "you": self.human, "players": list(self.names),
                "heading": round_title(view["round"], view["phase"]),
                "view": with_lanes(view), "legal": legal_moves,
                "status": legal["status"], "explain": self._explain(), "log": entries}

    def _detail(self, event: dict[str, Any]) -> str | None:
        """A milestone the human claimed: the card's whole text, as ``fcm play`` prints it under the line."""
        if event["kind"] == "milestone" and event.get("player") == self.human:
            return f"what it does: {milestone_effect(event['milestone'])}"
        return None

    def _explain(self) -> str | None:
        """Why the human's decision is as it is, in ``fcm play``'s words: at a Payday firing, the salaries
        owed against the cash and why ``done`` is not offered (C27); None otherwise. It reads only the
        human's own cards and cash."""
        game = self.session.games[self.game].game
        pending = game.pending
        if pending is None or pending.player != self.human or pending.decision != Decision.FIRE:
            return None
        return payday_text(game.state, self.human, game.legal_actions())

    def _add_reach(self, legal: list[dict[str, Any]], view: dict[str, Any]) -> None:
        """Campaign spots carry ``reach``: the houses they would reach (houses and the map are public,
        so reading them from the served game shows nothing the seat may not see)."""
        tile = ((view.get("pending") or {}).get("fields") or {}).get("tile")
        if tile is None or not any(a["kind"] == "PLACE_CAMPAIGN" for a in legal):
            return
        state = self.session.games[self.game].game.state
        for action in legal:
            if action["kind"] == "PLACE_CAMPAIGN":
                p = action["params"]
                action["reach"] = list(campaign_reach(state, tile, p["row"], p["col"], p["orientation"]))

    def save(self) -> dict[str, Any]:
        """The document to download: the server's save (every secret) plus which seat is human."""
        reply = _ok(self.session.handle({"cmd": "save", "game": self.game}))
        return {"format": SAVE_FORMAT, "human": self.human, "players": reply["players"], "bots": reply["bots"],
                "state": reply["state"], "record": reply["record"]}

    def close(self) -> None:
        self.session.handle({"cmd": "close", "game": self.game})

"""The JSON-lines game server behind ``fcm serve --stdio``: several games per process.

Why: a front end drives games over a pipe or socket with one JSON request per line; the
server must answer every line with exactly one strict-JSON reply, whatever the line holds,
and never change a game on a rejected request. Each request is checked against its
command's fields (``fcm_apps.server_requests``); views, legal actions and moves come from
``fcm_env.view``. ``docs/protocol.md`` documents the commands.

* ``Session``: the request handler (dicts or lines in, dicts out), games by id;
* ``serve(infile, outfile, agent_factory)``: the line loop until ``quit`` or end of input;
* ``bot_move`` / ``bot_event``: how served (and terminal) games ask bots and report their moves.

No torch / SB3 / gym imports; server bots come from an ``agent_factory`` the caller passes in.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import IO, Any, ClassVar

from fcm_agents.base import agent_move
from fcm_apps.server_requests import (
    SEED_LIMIT,
    ActRequest,
    GameRequest,
    LoadRequest,
    LogRequest,
    NewRequest,
    PlayerRequest,
    Request,
    RequestError,
    json_type,
    parse_request,
    short,
)
from fcm_env.encoding import Observer, legal_action_mask, visibility
from fcm_env.engine import events as engine_events
from fcm_env.engine.actions import Action, Decision, IllegalActionError
from fcm_env.engine.game import Game
from fcm_env.engine.persistence.records import (
    GameRecord,
    RecordFormatError,
    new_recorded_game,
    replay,
    result_of,
)
from fcm_env.engine.persistence.serialize import StateFormatError, state_to_dict
from fcm_env.engine.persistence.strict_json import MAX_DEPTH as STRICT_DEPTH
from fcm_env.engine.persistence.strict_json import JsonRefused, loads_strict
from fcm_env.view import (
    ProtocolError,
    apply,
    check_player,
    describe_action,
    legal_actions,
    status,
    view,
)

# ------------------------------------------------------------------ the server session

AgentFactory = Callable[[str, int], Any]
MAX_BOT_DECISIONS = 200_000  # bots that play this long without an end are stuck: the request fails


def bot_move(agent: Any, game: Game, player: int) -> Action:
    """Ask an agent for its move (``fcm_agents.base.agent_move``: ``act_on_game`` if it reads the
    engine, else observation + mask)."""
    return agent_move(agent, game, player)


def bot_event(player: int, name: str, action: Action, decision: Decision) -> dict[str, Any]:
    """What everyone may learn of a bot's move: secret choices show only their decision."""
    event: dict[str, Any] = {"player": player, "agent": name, "decision": decision.name}
    if decision in visibility.HIDDEN_DECISIONS:
        event["hidden"] = True
    else:
        event["action"] = describe_action(action)
    return event


# ------------------------------------------------------------------ reading request lines

MAX_DEPTH = STRICT_DEPTH  # nesting levels of a request (a saved state or record needs fewer than 10)
MAX_LINE_CHARS = 16_000_000  # a request line (a long game's record is a few MB) is parsed only below this
MAX_OPEN_GAMES = 32
MAX_ERROR_CHARS = 2000


def decode_line(line: str, *, max_chars: int = MAX_LINE_CHARS, unit: str = "line") -> Any:
    """The JSON value of one request line; ``ProtocolError`` for anything but one strict JSON value.

    The one strict reader of untrusted JSON: ``fcm serve`` reads its lines with it and ``fcm web``
    its websocket messages (``unit="message"``, its own ``max_chars``), so both refuse the same
    inputs (NaN, Infinity, repeated keys, over-long integers, deep nesting) with the same words.
    """
    if len(line) > max_chars:
        raise ProtocolError(f"not accepted: a request {unit} holds at most {max_chars:,} characters, "
                            f"got {len(line):,}")
    if not line.strip():
        raise ProtocolError(f"empty {unit}: send one JSON object per {unit}")
    try:
        line.encode("utf-8")
    except UnicodeEncodeError:
        raise ProtocolError("not valid UTF-8 text") from None
    try:
        return loads_strict(line, max_depth=MAX_DEPTH)  # files are read with the same reader
    except JsonRefused as exc:
        raise ProtocolError(str(exc)) from None


def encode_reply(reply: dict[str, Any]) -> str:
    """One line of strict JSON (no NaN / Infinity); a reply that cannot be written becomes an error reply."""
    try:
        return json.dumps(reply, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError) as exc:
        fallback = {"ok": False, "error": f"internal error: the reply is not JSON: {type(exc).__name__}: {exc}"}
        if "id" in reply:
            fallback["id"] = reply["id"]
        return json.dumps(fallback, separators=(",", ":"))


def _request_id(request: Any) -> tuple[bool, str | int | None, str | None]:
    """(whether to echo an id, the id, the error of an id that is not a string, an integer or null)."""
    if not isinstance(request, dict) or "id" not in request:
        return False, None, None
    rid = request["id"]
    if rid is None or isinstance(rid, str) or (isinstance(rid, int) and not isinstance(rid, bool)):
        return True, rid, None
    return False, None, f"id must be a string, an integer or null, got {json_type(rid)}"


# ------------------------------------------------------------------ the server session


@dataclass
class ServedGame:
    """One open game of a session: the engine game, its bots by player id, the name of each seat."""

    game: Game
    bots: dict[int, Any]
    names: list[str]
    observer: Observer | None = None

    def setup(self) -> dict[str, Any]:
        state = self.game.state
        return {"num_players": state.num_players, "seed": state.seed, "variant": state.variant,
                "max_rounds": state.max_rounds, "players": list(self.names)}


class Session:
    """Games served over requests (dicts in, dicts out); bots play their seats automatically.

    ``new`` and ``load`` open games named ``"g1"``, ``"g2"``, ... (never reused); the other game
    commands take the id in ``game``, which may be left out while exactly one game is open.
    ``agent_factory(spec, seed)`` builds the bots (``fcm_agents.registry.make_agent``);
    without one, no seat can be a bot.
    """

    def __init__(self, agent_factory: AgentFactory | None = None):
        self.agent_factory = agent_factory
        self.games: dict[str, ServedGame] = {}
        self._opened = 0

    def handle_line(self, line: str) -> dict[str, Any]:
        """The reply to one request line (blank, malformed or not, a line always gets one reply)."""
        try:
            request = decode_line(line)
        except ProtocolError as exc:
            return {"ok": False, "error": str(exc)[:MAX_ERROR_CHARS]}
        return self.handle(request)

    def handle(self, request: Any) -> dict[str, Any]:
        """One reply per request: ``{"ok": true, ...}`` or ``{"ok": false, "error": ...}``; never raises.

        A valid ``id`` (string, integer or null) is echoed, an invalid one is an error and is not.
        """
        echo, rid, id_error = _request_id(request)
        try:
            if id_error:
                raise ProtocolError(id_error)
            req = parse_request(request)
            reply = {"ok": True, **self._HANDLERS[req.cmd](self, req)}
        except (ProtocolError, RequestError, IllegalActionError) as exc:
            reply = {"ok": False, "error": str(exc)[:MAX_ERROR_CHARS]}
        except Exception as exc:  # noqa: BLE001 -- a bug must not kill the server: report it, go on
            reply = {"ok": False, "error": f"internal error: {type(exc).__name__}: {exc}"[:MAX_ERROR_CHARS]}
        if echo:
            reply["id"] = rid
        return reply

    # -------------------------------------------------------------- games

    def _select(self, req: GameRequest) -> tuple[str, ServedGame]:
        if req.game is not None:
            if req.game not in self.games:
                open_ids = ", ".join(self.games) or "none"
                raise ProtocolError(f"no open game {short(req.game)} (open games: {open_ids})")
            return req.game, self.games[req.game]
        if not self.games:
            raise ProtocolError('no game: send {"cmd": "new", ...} first')
        if len(self.games) > 1:
            raise ProtocolError(f"{len(self.games)} games are open ({', '.join(self.games)}): name one with 'game'")
        return next(iter(self.games.items()))

    def _check_room(self) -> None:
        if len(self.games) >= MAX_OPEN_GAMES:
            raise ProtocolError(f"{MAX_OPEN_GAMES} games are open, the most a server holds: close one first")

    def _make_bots(self, specs: Mapping[str, str], n: int, seed: int) -> tuple[dict[int, Any], list[str]]:
        bots: dict[int, Any] = {}
        names = ["human"] * n
        seats = {str(p): p for p in range(n)}
        for key, spec in sorted(specs.items()):
            if key not in seats:
                raise ProtocolError(f"bots: {short(key)} is not a player id 0..{n - 1}")
            if self.agent_factory is None:
                raise ProtocolError("this server has no bots")
            player = seats[key]
            try:
                bots[player] = self.agent_factory(spec, seed * 10 + player)
            except ValueError as exc:
                raise ProtocolError(f"bots.{key}: {exc}") from None
            except Exception as exc:  # noqa: BLE001 -- e.g. policy:PATH naming a missing or broken file
                raise ProtocolError(f"bots.{key}: cannot make {short(spec)}: {type(exc).__name__}: {exc}") from None
            names[player] = spec
        return bots, names

    def _open(self, served: ServedGame) -> dict[str, Any]:
        """Start the bots of a new or loaded game, then give it an id."""
        for agent in served.bots.values():
            if hasattr(agent, "reset"):
                agent.reset()
        events = self._run_bots(served)
        self._opened += 1
        gid = f"g{self._opened}"
        self.games[gid] = served
        return {"game": gid, "setup": served.setup(), "events": events, "status": status(served.game)}

    # -------------------------------------------------------------- commands

    def _cmd_new(self, req: NewRequest) -> dict[str, Any]:
        self._check_room()
        bots, names = self._make_bots(req.bots, req.num_players, req.seed)
        game = new_recorded_game(req.num_players, seed=req.seed, variant=req.variant, max_rounds=req.max_rounds)
        game.record_events()  # the engine's event log, streamed per player by "log"
        return self._open(ServedGame(game, bots, names))

    def _cmd_load(self, req: LoadRequest) -> dict[str, Any]:
        self._check_room()
        game = _game_from_record(req.record) if req.record is not None else _game_from_state(req.state or {})
        bots, names = self._make_bots(req.bots, game.num_players, game.state.seed)
        return self._open(ServedGame(game, bots, names))

    def _cmd_games(self, req: Request) -> dict[str, Any]:
        return {"games": [{"game": gid, **served.setup(), "status": status(served.game)}
                          for gid, served in self.games.items()]}

    def _cmd_view(self, req: PlayerRequest) -> dict[str, Any]:
        gid, served = self._select(req)
        return {"game": gid, "view": view(served.game, req.player)}

    def _cmd_observe(self, req: PlayerRequest) -> dict[str, Any]:
        """The seat's observation and legal-action mask as the envs and the shipped models read them, so a
        front end in another language needs no encoder of its own (docs/models.md: the model inputs)."""
        gid, served = self._select(req)
        player = check_player(served.game, req.player)
        served.observer = served.observer or Observer()
        observation = served.observer.observe_flat(served.game, player)
        return {"game": gid, "player": player, "observation": observation.tolist(),
                "action_mask": legal_action_mask(served.game, player).tolist()}

    def _cmd_legal(self, req: PlayerRequest) -> dict[str, Any]:
        gid, served = self._select(req)
        player = check_player(served.game, req.player)
        return {"game": gid, "player": player, "actions": legal_actions(served.game, player),
                "status": status(served.game)}

    def _cmd_act(self, req: ActRequest) -> dict[str, Any]:
        gid, served = self._select(req)
        player = check_player(served.game, req.player)
        if player in served.bots:
            raise ProtocolError(f"player {player} is played by the server ({served.names[player]})")
        with served.game.transaction():  # the move and the bots' answers, or nothing (docs/protocol.md)
            action = apply(served.game, player, req.action)
            events = self._run_bots(served)
        return {"game": gid, "applied": describe_action(action), "events": events, "status": status(served.game)}

    def _cmd_log(self, req: LogRequest) -> dict[str, Any]:
        """The engine's events ``player`` may see, from index ``since`` of the game's log on."""
        gid, served = self._select(req)
        game = served.game
        player = check_player(game, req.player)
        total = len(game.events)
        if req.since > total:
            raise ProtocolError(f"since must be 0..{total} (the log holds {total} events), got {req.since}")
        return {"game": gid, "player": player, "next": total,
                "log": [e for e in game.events[req.since:] if engine_events.visible(e, player)]}

    def _cmd_record(self, req: GameRequest) -> dict[str, Any]:
        gid, served = self._select(req)
        if served.game.history is None:
            raise ProtocolError(f"game {gid} was loaded from a state: it has no record of its moves")
        return {"game": gid, "record": GameRecord.from_game(served.game, agents=served.names).to_dict()}

    def _cmd_save(self, req: GameRequest) -> dict[str, Any]:
        gid, served = self._select(req)
        game = served.game
        record = None if game.history is None else GameRecord.from_game(game, agents=served.names).to_dict()
        return {"game": gid, "players": list(served.names), "bots": {str(p): served.names[p] for p in served.bots},
                "state": state_to_dict(game.state), "record": record}

    def _cmd_close(self, req: GameRequest) -> dict[str, Any]:
        gid, _ = self._select(req)
        del self.games[gid]
        return {"game": gid, "closed": True}

    def _cmd_quit(self, req: Request) -> dict[str, Any]:
        return {"bye": True}

    _HANDLERS: ClassVar[dict[str, Callable[[Session, Any], dict[str, Any]]]] = {
        "new": _cmd_new, "load": _cmd_load, "games": _cmd_games, "view": _cmd_view, "legal": _cmd_legal,
        "observe": _cmd_observe,
        "act": _cmd_act, "log": _cmd_log, "record": _cmd_record, "save": _cmd_save, "close": _cmd_close,
        "quit": _cmd_quit,
    }

    def _run_bots(self, served: ServedGame) -> list[dict[str, Any]]:
        """Play the bots' decisions until a human must decide or the game ends."""
        game = served.game
        events: list[dict[str, Any]] = []
        decisions = 0
        while game.current_player in served.bots:
            if decisions >= MAX_BOT_DECISIONS:
                raise RuntimeError(f"the bots made {MAX_BOT_DECISIONS} decisions without an end")
            player = game.current_player
            decision = game.pending.decision
            action = bot_move(served.bots[player], game, player)
            game.apply(action, atomic=True)
            decisions += 1
            event = bot_event(player, served.names[player], action, decision)
            if not (event.get("hidden") and events and events[-1] == event):
                events.append(event)  # secret choices in a row show once: their number is secret too
        return events


# ------------------------------------------------------------------ loading saved games


def _check_seed(where: str, seed: int) -> None:
    if not 0 <= seed < SEED_LIMIT:
        raise ProtocolError(f"{where}: must be 0..2**63-1, got {short(seed)}")  # the state loader's words


def _game_from_record(doc: dict[str, Any]) -> Game:
    """Replay a record with the event log on, so ``log`` streams the whole game; nothing opens on an error."""
    try:
        record = GameRecord.from_dict(doc)
    except RecordFormatError as exc:
        raise ProtocolError(f"record: {exc}") from None
    _check_seed("record.seed", record.seed)
    try:
        game = replay(record, upto=0)
    except ValueError as exc:  # a board that does not fit the player count
        raise ProtocolError(f"record: {exc}") from None
    game.record_events()
    for step, action in enumerate(record.actions):
        try:
            game.apply(action)
        except IllegalActionError as exc:
            raise ProtocolError(f"record.actions[{step}]: does not replay (round {game.state.round}, "
                                f"{game.state.phase.name}): {exc}") from None
    if record.result is not None and result_of(game) != record.result:
        raise ProtocolError(f"record.result: the actions end with {result_of(game)}, the record says {record.result}")
    return game


def _game_from_state(doc: dict[str, Any]) -> Game:
    """A game at a saved position (no record of earlier moves; its log starts at the load)."""
    try:
        game = Game.from_dict(doc)
    except StateFormatError as exc:
        raise ProtocolError(f"state: {exc}") from None  # the seed's range included (persistence.bounds)
    game.record_events()
    return game


def serve(infile: IO[str], outfile: IO[str], agent_factory: AgentFactory | None = None) -> int:
    """The JSON-lines loop: one reply line per request line, until ``quit`` or EOF; bad input never ends it."""
    session = Session(agent_factory)
    for line in infile:
        reply = session.handle_line(line)
        outfile.write(encode_reply(reply) + "\n")
        outfile.flush()
        if reply.get("ok") and reply.get("bye"):
            break
    return 0

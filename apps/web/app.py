"""The Starlette app behind ``fcm web``: the page, one websocket per table, save downloads.

Why: a browser table needs a small local server: it serves the static page, speaks the game
over a websocket (one JSON message in, one JSON message out, in order) and hands out saved
games as files. Each websocket connection has its own ``Session`` (its games close when the
page goes away), so two tabs never share a game. docs/web.md lists the messages.

Messages the page sends (``type`` plus fields): ``hello``, ``new``, ``act``, ``refresh``, ``save``,
``load``, ``replay_open``, ``replay_step``. Replies: ``hello``, ``table``, ``replay``,
``saved``, ``error`` (with ``error``, one line of text; nothing changed).

Hostile input (docs/web.md, "Security"): any web page the browser shows may try to reach this
server, so only its own origin and host names are let in (``--allow-origin`` adds others: DNS
rebinding and cross-site websockets are refused); frames are read by ``fcm serve``'s strict JSON
reader; each connection runs one request at a time with a few waiting behind it; at most
``MAX_CONNECTIONS`` pages are served at once and each keeps its own downloads.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import secrets
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket

from fcm_apps.server import MAX_ERROR_CHARS, AgentFactory, Session, decode_line
from fcm_apps.web.replay import ReplayCursor
from fcm_apps.web.table import BOT_SPECS, PlayTable, TableError
from fcm_env.data import EMPLOYEES
from fcm_env.engine.game import VARIANTS
from fcm_env.engine.persistence.strict_json import JsonRefused, loads_strict
from fcm_env.text.cards import card_line
from fcm_env.text.explain import milestone_effect
from fcm_env.text.words import MILESTONE_NAMES
from fcm_env.view import ProtocolError

STATIC = Path(__file__).parent / "static"
MAX_SAVES = 32  # downloads kept per connection for its page to fetch (oldest dropped first)
MAX_MESSAGE_CHARS = 8_000_000  # a message (a saved game or record is a few MB) is parsed only below this
MAX_CONNECTIONS = 16  # pages (websockets) served at once; one more is closed with WS_TRY_LATER
MAX_WAITING = 4  # requests that may wait behind the one running on a connection; more are refused as busy
IDLE_TIMEOUT_S = 30 * 60  # a page that sends nothing for this long gives its connection slot up
WS_GOING_AWAY = 1001
MAX_INBOX = 32  # frames read ahead of their replies; beyond, the server stops reading (TCP pushes back)
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
WS_POLICY_VIOLATION = 1008  # websocket close codes (RFC 6455)
WS_TRY_LATER = 1013


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address or name to listen on) only reaches this machine."""
    name = host.strip("[]").lower()
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def _split_netloc(netloc: str) -> tuple[str, str]:
    """(name, port) of ``host[:port]``; IPv6 names keep their brackets; port ``""`` when absent."""
    netloc = netloc.strip().lower()
    if netloc.startswith("["):
        name, _, rest = netloc.partition("]")
        return name + "]", rest[1:] if rest.startswith(":") else ""
    if netloc.count(":") > 1:  # a bare IPv6 address, as --host may give it
        return f"[{netloc}]", ""
    name, _, port = netloc.partition(":")
    return name, port


class Gate:
    """Which hosts and origins the server answers: its own names, plus those allowed on the command line.

    Why: the server runs on the player's machine without a login. A page from any other site the
    browser shows may open a websocket to it (browsers do not apply the same-origin policy to
    websockets), and a site whose name is re-pointed at 127.0.0.1 (DNS rebinding) may even read
    its pages. Checking ``Origin`` (sent by browsers on every websocket) and ``Host`` stops both.
    """

    def __init__(self, host: str = "127.0.0.1", port: int | None = None, allow_origins: Iterable[str] = ()):
        names = {*LOOPBACK_NAMES, _split_netloc(host)[0]}
        self.names = names
        self.port = None if port is None else str(port)
        self.any = False
        self.origins: set[str] = set()
        self.hosts: set[str] = set()  # host[:port] of the allowed origins
        for origin in allow_origins:
            if origin.strip() == "*":
                self.any = True
                continue
            parts = urlsplit(origin.strip().lower())
            if parts.scheme not in ("http", "https") or not parts.netloc:
                raise ValueError(f"--allow-origin: expected http://NAME[:PORT] or '*', got {origin!r}")
            self.origins.add(f"{parts.scheme}://{parts.netloc}")
            self.hosts.add(parts.netloc)

    def host_ok(self, netloc: str | None) -> bool:
        """A ``Host`` header naming this server (a missing one, HTTP/1.0, cannot be a rebinding attack)."""
        if self.any or netloc is None:
            return True
        if netloc.strip().lower() in self.hosts:
            return True
        name, port = _split_netloc(netloc)
        return name in self.names and (self.port is None or port == self.port or (not port and self.port == "80"))

    def origin_ok(self, origin: str | None) -> bool:
        """An ``Origin`` that is this server's own page or an allowed one; no Origin: not a browser page."""
        if self.any or origin is None:
            return True
        origin = origin.strip().lower()
        if origin in self.origins:
            return True
        parts = urlsplit(origin)
        return parts.scheme in ("http", "https") and bool(parts.netloc) and self.host_ok(parts.netloc)


class GateMiddleware:
    """Refuses requests from other hosts or origins before the app sees them: HTTP 403, websocket 1008."""

    def __init__(self, app: ASGIApp, gate: Gate):
        self.app = app
        self.gate = gate

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        hosts: list[str | None] = [None]
        origins: list[str | None] = [None]
        for key, value in scope.get("headers", []):
            if key.lower() in (b"host", b"origin"):  # every copy of a repeated header is checked
                (hosts if key.lower() == b"host" else origins).append(value.decode("latin-1"))
        bad_host = next((h for h in hosts if not self.gate.host_ok(h)), None)
        bad_origin = next((o for o in origins if not self.gate.origin_ok(o)), None)
        if bad_host is not None:
            why = f"host {bad_host[:60]!r} is not this server"
        elif bad_origin is not None:
            why = f"origin {bad_origin[:60]!r} is not this server's page"
        else:
            await self.app(scope, receive, send)
            return
        why += " (fcm web --allow-origin adds others: docs/web.md)"
        if scope["type"] == "websocket":  # closed before the handshake completes: nothing runs
            await WebSocket(scope, receive, send).close(code=WS_POLICY_VIOLATION, reason=why[:120])
        else:
            await PlainTextResponse(f"forbidden: {why}", status_code=403)(scope, receive, send)


class Connection:
    """What one page (one websocket) holds: its session, its table and its replay."""

    def __init__(self, app_state: Any):
        self.app_state = app_state
        self.session = Session(app_state.agent_factory)
        self.table: PlayTable | None = None
        self.replay: ReplayCursor | None = None
        self.saves: OrderedDict[str, dict[str, Any]] = OrderedDict()  # this page's downloads, by token
        self.requests = 0  # requests running or waiting on this connection
        self.gone = False  # the page went away: waiting requests are dropped unanswered
        self.frames = 0  # frames read so far (tests wait on it)

    def handle(self, message: Any) -> dict[str, Any]:
        """One reply per message; bad input gives ``{"type": "error"}`` and changes nothing."""
        kind = message.get("type") if isinstance(message, dict) else None
        handler = self._HANDLERS.get(kind) if isinstance(kind, str) else None
        if handler is None:
            return {"type": "error", "error": f"unknown message type {kind!r}; types are {', '.join(self._HANDLERS)}"}
        try:
            return handler(self, {k: v for k, v in message.items() if k != "type"})
        except TableError as exc:
            return {"type": "error", "request": kind, "error": str(exc)}
        except Exception as exc:  # noqa: BLE001 -- a bug must not close the page's connection: report it
            return {"type": "error", "request": kind, "error": f"internal error: {type(exc).__name__}: {exc}"}

    def _hello(self, msg: dict[str, Any]) -> dict[str, Any]:
        path = self.app_state.replay_path
        return {"type": "hello", "bots": list(BOT_SPECS), "variants": list(VARIANTS),
                "replay": None if path is None else Path(path).name,
                "milestones": dict(MILESTONE_NAMES),  # the companies panel names them as the log does
                "milestone_effects": {key: milestone_effect(key) for key in MILESTONE_NAMES},  # their tooltips
                # every employee card in one line (fcm_env.text.cards): the tooltip of a card's chip
                "cards": {spec.type.key: card_line(spec.type) for spec in EMPLOYEES}}

    def _new(self, msg: dict[str, Any]) -> dict[str, Any]:
        return self._seat(PlayTable.start(self.session, msg))

    def _load(self, msg: dict[str, Any]) -> dict[str, Any]:
        return self._seat(PlayTable.load(self.session, msg.get("document")))

    def _seat(self, table: PlayTable) -> dict[str, Any]:
        """The new table's first message, then the table replaces the old one: a table that cannot show
        itself is closed and the page keeps its game (a refused message changes nothing, docs/web.md)."""
        try:
            reply = table.message()
        except BaseException:
            table.close()
            raise
        if self.table is not None:
            self.table.close()
        self.table = table
        return reply

    def _act(self, msg: dict[str, Any]) -> dict[str, Any]:
        if self.table is None:
            raise TableError("act: no game: start one first")
        if "action" not in msg:
            raise TableError("act needs 'action' (an action id from the legal list)")
        return self.table.act(msg["action"])

    def _refresh(self, msg: dict[str, Any]) -> dict[str, Any]:
        if self.table is None:
            raise TableError("refresh: no game: start one first")
        return self.table.message()

    def _save(self, msg: dict[str, Any]) -> dict[str, Any]:
        if self.table is None:
            raise TableError("save: no game to save")
        document = self.table.save()
        token = secrets.token_urlsafe(16)
        self.saves[token] = document
        while len(self.saves) > MAX_SAVES:
            self.saves.popitem(last=False)
        state = document["state"]
        name = f"fcm-game-seed{state.get('seed', 0)}-round{state.get('round', 0)}.json"
        return {"type": "saved", "url": f"/download/{token}", "filename": name}

    def _replay_open(self, msg: dict[str, Any]) -> dict[str, Any]:
        if msg.get("server"):
            path = self.app_state.replay_path
            if path is None:
                raise TableError("replay: the server was started without --replay")
            cursor = ReplayCursor(_read_json(path), name=Path(path).name)
        else:
            cursor = ReplayCursor(msg.get("record"), name=str(msg.get("name") or "record"))
        reply = cursor.message(msg.get("step", 0))  # a bad step is refused here, before anything changes
        self.replay = cursor  # only a record that opened replaces the one open
        return reply

    def _replay_step(self, msg: dict[str, Any]) -> dict[str, Any]:
        if self.replay is None:
            raise TableError("replay: open a record first")
        return self.replay.message(msg.get("step"))

    def frame(self, frame: dict[str, Any]) -> dict[str, Any] | _Run:
        """What to do with one websocket frame: a reply at once (a bad frame, or busy), or a request to run.

        Bad frames are answered here, in order with the other replies, and change nothing: the
        connection and its game stay as they were.
        """
        self.frames += 1
        text = frame.get("text")
        if text is None:
            return {"type": "error", "error": "binary frames are not accepted: send each message as JSON text"}
        try:
            message = decode_line(text, max_chars=MAX_MESSAGE_CHARS, unit="message")
        except ProtocolError as exc:
            return {"type": "error", "error": str(exc)[:MAX_ERROR_CHARS]}
        kind = message.get("type") if isinstance(message, dict) else None
        if self.requests > MAX_WAITING:
            return {"type": "error", "request": kind if isinstance(kind, str) else None,
                    "error": f"busy: {self.requests} requests of this page are running or waiting "
                             f"(one runs at a time, {MAX_WAITING} may wait): wait for their replies"}
        self.requests += 1
        return _Run(message)

    def close(self) -> None:
        """Free what the page held: its games, its replay and its downloads."""
        self.gone = True
        for game in list(self.session.games):
            self.session.handle({"cmd": "close", "game": game})
        self.table = self.replay = None
        self.saves.clear()

    _HANDLERS: ClassVar[dict[str, Callable[[Connection, dict[str, Any]], dict[str, Any]]]] = {
        "hello": _hello, "new": _new, "act": _act, "refresh": _refresh, "save": _save, "load": _load,
        "replay_open": _replay_open, "replay_step": _replay_step,
    }


def _read_json(path: str | Path) -> Any:
    try:
        return loads_strict(Path(path).read_text(encoding="utf-8"))  # the one strict reader (strict_json.py)
    except (OSError, UnicodeDecodeError, JsonRefused) as exc:
        raise TableError(f"replay: cannot read {path}: {exc}") from None


async def _index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html")


async def _download(request: Request) -> Response:
    token = request.path_params["token"]
    for conn in request.app.state.connections:
        document = conn.saves.get(token)
        if document is not None:
            return JSONResponse(document, headers={"Content-Disposition": 'attachment; filename="fcm-game.json"'})
    return JSONResponse({"error": "no such saved game (a page's saves are kept while it stays open)"},
                        status_code=404)


@dataclass
class _Run:
    """A decoded message waiting for its turn to run."""

    message: Any


def _encode(reply: dict[str, Any]) -> str:
    """Strict JSON; a reply that cannot be written becomes an error reply (the connection goes on)."""
    try:
        return json.dumps(reply, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError) as exc:
        return json.dumps({"type": "error", "error": f"internal error: the reply is not JSON: {exc}"[:MAX_ERROR_CHARS]})


async def _socket(websocket: WebSocket) -> None:
    """One page: refused when ``MAX_CONNECTIONS`` are open, else served until it goes away, then freed."""
    state = websocket.app.state
    if len(state.connections) >= state.max_connections:
        await websocket.accept()  # accepted to close with a reason the page can show
        await websocket.close(code=WS_TRY_LATER, reason=f"fcm web serves {state.max_connections} pages at once: "
                                                        "close one, then reload")
        return
    conn = Connection(state)
    state.connections.add(conn)  # counted before the first await, so the cap holds
    try:
        await websocket.accept()
        await _serve(websocket, conn)
    finally:
        state.connections.discard(conn)
        conn.close()


async def _serve(websocket: WebSocket, conn: Connection) -> None:
    """Read frames while a worker answers them in order, one request at a time (bots think off the loop)."""
    inbox: asyncio.Queue[dict[str, Any] | _Run | None] = asyncio.Queue(maxsize=MAX_INBOX)
    worker = asyncio.create_task(_answer(websocket, conn, inbox))
    idle_s = conn.app_state.idle_timeout_s
    try:
        while True:
            try:
                frame = await asyncio.wait_for(websocket.receive(), timeout=idle_s)
            except TimeoutError:
                if conn.requests:  # a request still runs (a bot thinking): the page is waiting, not idle
                    continue
                minutes = f"{idle_s / 60:g} minutes" if idle_s >= 60 else f"{idle_s:g} s"
                await websocket.close(code=WS_GOING_AWAY, reason=f"idle for {minutes}: this page gave its "
                                                                 "connection up; reload it to go on")
                break
            if frame["type"] == "websocket.disconnect":
                break
            await inbox.put(conn.frame(frame))
    finally:
        conn.gone = True
        while not inbox.empty():  # what still waits is dropped; the running request finishes
            inbox.get_nowait()
        inbox.put_nowait(None)
        await worker


async def _answer(websocket: WebSocket, conn: Connection, inbox: asyncio.Queue[dict[str, Any] | _Run | None]) -> None:
    while (item := await inbox.get()) is not None:
        if conn.gone:
            continue
        if isinstance(item, _Run):
            try:
                reply = await run_in_threadpool(conn.handle, item.message)
            finally:
                conn.requests -= 1
        else:
            reply = item
        try:
            await websocket.send_text(_encode(reply))
        except Exception:  # noqa: BLE001 -- the page went away mid-reply: the reader sees the disconnect
            conn.gone = True


def create_app(agent_factory: AgentFactory | None = None, replay_path: str | Path | None = None, *,
               host: str = "127.0.0.1", port: int | None = None, allow_origins: Iterable[str] = (),
               max_connections: int = MAX_CONNECTIONS, idle_timeout_s: float = IDLE_TIMEOUT_S) -> Starlette:
    """The web table; ``agent_factory`` builds bots (default ``fcm_agents.registry.make_agent``);
    ``replay_path``: a record the page offers to replay (checked now, so a bad file fails at start).

    ``max_connections`` pages are served at once; one that sends nothing for ``idle_timeout_s`` (and waits
    for no reply) is closed with a reason the page shows, so idle pages cannot hold every slot.
    ``host`` / ``port``: where it is served; requests must name it (or a loopback name) in ``Host``
    and ``Origin`` (any port when ``port`` is None). ``allow_origins``: other origins
    (``http://NAME:PORT``, their host names too) to let in, ``"*"`` for any (docs/web.md, "Security").
    """
    if agent_factory is None:
        from fcm_agents.registry import make_agent

        agent_factory = make_agent
    if replay_path is not None:
        ReplayCursor(_read_json(replay_path), name=Path(replay_path).name)
    gate = Gate(host, port, allow_origins)
    app = Starlette(routes=[
        Route("/", _index),
        Route("/download/{token}", _download),
        WebSocketRoute("/ws", _socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ])
    app.add_middleware(GateMiddleware, gate=gate)
    app.state.agent_factory = agent_factory
    app.state.replay_path = None if replay_path is None else str(replay_path)
    app.state.connections = set()
    app.state.max_connections = max_connections
    app.state.idle_timeout_s = idle_timeout_s
    app.state.gate = gate
    return app

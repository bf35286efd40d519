"""The Starlette app behind ``fcm web``: the page, one websocket per table, save downloads.

Why: a browser table needs a small local server: it serves the static page, speaks the game
over a websocket (one JSON message in, one JSON message out, in order) and hands out saved
games as files. Each websocket connection has its own ``Session`` (its games close when the
page goes away), so two tabs never share a game. docs/web.md lists the messages.

Messages the page sends (``type`` plus fields): ``hello``, ``new``, ``act``, ``refresh``, ``save``,
``load``, ``replay_open``, ``replay_step``. Replies: ``hello``, ``table``, ``replay``,
``saved``, ``error`` (with ``error``, one line of text; nothing changed).
"""

from __future__ import annotations

import json
import secrets
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from fcm_env.engine.game import VARIANTS
from fcm_env.server import AgentFactory, Session
from fcm_env.text.words import MILESTONE_NAMES
from fcm_env.web.replay import ReplayCursor
from fcm_env.web.table import BOT_SPECS, PlayTable, TableError

STATIC = Path(__file__).parent / "static"
MAX_SAVES = 32  # downloads kept for the page to fetch (oldest dropped first)
MAX_MESSAGE_CHARS = 8_000_000


class Connection:
    """What one page (one websocket) holds: its session, its table and its replay."""

    def __init__(self, app_state: Any):
        self.app_state = app_state
        self.session = Session(app_state.agent_factory)
        self.table: PlayTable | None = None
        self.replay: ReplayCursor | None = None

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
                "milestones": dict(MILESTONE_NAMES)}  # the companies panel names them as the log does

    def _new(self, msg: dict[str, Any]) -> dict[str, Any]:
        table = PlayTable.start(self.session, msg)
        self._seat(table)
        return table.message()

    def _load(self, msg: dict[str, Any]) -> dict[str, Any]:
        table = PlayTable.load(self.session, msg.get("document"))
        self._seat(table)
        return table.message()

    def _seat(self, table: PlayTable) -> None:
        if self.table is not None:
            self.table.close()
        self.table = table

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
        saves: OrderedDict[str, dict[str, Any]] = self.app_state.saves
        saves[token] = document
        while len(saves) > MAX_SAVES:
            saves.popitem(last=False)
        state = document["state"]
        name = f"fcm-game-seed{state.get('seed', 0)}-round{state.get('round', 0)}.json"
        return {"type": "saved", "url": f"/download/{token}", "filename": name}

    def _replay_open(self, msg: dict[str, Any]) -> dict[str, Any]:
        if msg.get("server"):
            path = self.app_state.replay_path
            if path is None:
                raise TableError("replay: the server was started without --replay")
            self.replay = ReplayCursor(_read_json(path), name=Path(path).name)
        else:
            self.replay = ReplayCursor(msg.get("record"), name=str(msg.get("name") or "record"))
        return self.replay.message(int(msg.get("step", 0)) if isinstance(msg.get("step"), int) else 0)

    def _replay_step(self, msg: dict[str, Any]) -> dict[str, Any]:
        if self.replay is None:
            raise TableError("replay: open a record first")
        return self.replay.message(msg.get("step"))

    def close(self) -> None:
        for game in list(self.session.games):
            self.session.handle({"cmd": "close", "game": game})

    _HANDLERS: ClassVar[dict[str, Callable[[Connection, dict[str, Any]], dict[str, Any]]]] = {
        "hello": _hello, "new": _new, "act": _act, "refresh": _refresh, "save": _save, "load": _load,
        "replay_open": _replay_open, "replay_step": _replay_step,
    }


def _read_json(path: str | Path) -> Any:
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise TableError(f"replay: cannot read {path}: {exc}") from None


async def _index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html")


async def _download(request: Request) -> Response:
    document = request.app.state.saves.get(request.path_params["token"])
    if document is None:
        return JSONResponse({"error": "no such saved game (saves are kept while the server runs)"}, status_code=404)
    return JSONResponse(document, headers={"Content-Disposition": 'attachment; filename="fcm-game.json"'})


async def _socket(websocket: WebSocket) -> None:
    await websocket.accept()
    conn = Connection(websocket.app.state)
    try:
        while True:
            text = await websocket.receive_text()
            if len(text) > MAX_MESSAGE_CHARS:
                reply: dict[str, Any] = {"type": "error", "error": f"message over {MAX_MESSAGE_CHARS} characters"}
            else:
                try:
                    message = json.loads(text)
                except json.JSONDecodeError as exc:
                    reply = {"type": "error", "error": f"not valid JSON: {exc}"}
                else:
                    reply = await run_in_threadpool(conn.handle, message)  # bots think off the event loop
            await websocket.send_text(json.dumps(reply, allow_nan=False, separators=(",", ":")))
    except WebSocketDisconnect:
        pass
    finally:
        conn.close()


def create_app(agent_factory: AgentFactory | None = None, replay_path: str | Path | None = None) -> Starlette:
    """The web table; ``agent_factory`` builds bots (default ``fcm_agents.registry.make_agent``);
    ``replay_path``: a record the page offers to replay (checked now, so a bad file fails at start)."""
    if agent_factory is None:
        from fcm_agents.registry import make_agent

        agent_factory = make_agent
    if replay_path is not None:
        ReplayCursor(_read_json(replay_path), name=Path(replay_path).name)
    app = Starlette(routes=[
        Route("/", _index),
        Route("/download/{token}", _download),
        WebSocketRoute("/ws", _socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ])
    app.state.agent_factory = agent_factory
    app.state.replay_path = None if replay_path is None else str(replay_path)
    app.state.saves = OrderedDict()
    return app

"""The requests of the JSON-lines server (``fcm serve --stdio``): one strict pydantic model per command.

Why: a front end's typo (``num_player``) or a wrong type (``"seed": "7"``, ``"player": true``)
must come back as an error naming the field, never be ignored or coerced into a default.
Each command lists its fields; ``id`` and ``cmd`` are always allowed. Values that depend on
a game (player ids, bot seats) are checked by the session, which knows the game.
``parse_request`` turns pydantic's ``ValidationError`` into one line (``RequestError``).
"""

from __future__ import annotations

import reprlib
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, ValidationError, model_validator

from fcm_env.engine.game import VARIANTS
from fcm_env.engine.persistence.bounds import ROUND_MAX, SEED_LIMIT

#: seeds are 0 <= seed < 2**63 (SEED_LIMIT), rounds at most ROUND_MAX: the ranges a saved game loads with

_SHORT = reprlib.Repr()
_SHORT.maxstring, _SHORT.maxother, _SHORT.maxlong, _SHORT.maxlevel = 60, 60, 40, 3


class RequestError(ValueError):
    """A request whose shape is wrong (unknown command or field, wrong type, value out of range)."""


class Request(BaseModel):
    """Fields every request may carry."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    id: StrictStr | StrictInt | None = None
    cmd: str


class GameRequest(Request):
    game: StrictStr | None = Field(None, description="a game id from new or load; needed when several are open")


class PlayerRequest(GameRequest):
    player: StrictInt = Field(description="a player id")


Bots = dict[StrictStr, StrictStr]


class NewRequest(Request):
    num_players: StrictInt = Field(4, ge=2, le=5)
    seed: StrictInt = Field(0, ge=0, lt=SEED_LIMIT)
    variant: Literal[VARIANTS] = "standard"  # type: ignore[valid-type]
    max_rounds: StrictInt | None = Field(None, ge=1, le=ROUND_MAX)  # what Game.new and a saved game take
    bots: Bots = Field(default_factory=dict)


class ActRequest(PlayerRequest):
    action: Any = Field(description="an id or a structured action")


class LogRequest(PlayerRequest):
    since: StrictInt = Field(0, ge=0)


class LoadRequest(Request):
    record: dict[StrictStr, Any] | None = Field(None, description="a record document (from save or record)")
    state: dict[StrictStr, Any] | None = Field(None, description="a state document (from save)")
    bots: Bots = Field(default_factory=dict)

    @model_validator(mode="after")
    def _one_source(self) -> LoadRequest:
        if (self.record is None) == (self.state is None):
            raise ValueError("give a 'record' or a 'state', exactly one")
        return self


#: the model of each command's request
REQUESTS: dict[str, type[Request]] = {
    "new": NewRequest,
    "load": LoadRequest,
    "games": Request,
    "view": PlayerRequest,
    "legal": PlayerRequest,
    "observe": PlayerRequest,
    "act": ActRequest,
    "log": LogRequest,
    "record": GameRequest,
    "save": GameRequest,
    "close": GameRequest,
    "quit": Request,
}


def short(value: Any) -> str:
    """A value for an error message, cut short (a bad field may hold a huge string or list)."""
    return _SHORT.repr(value)


def parse_request(data: Any) -> Request:
    """The validated request of a decoded JSON value; ``RequestError`` names what is wrong."""
    if not isinstance(data, dict):
        raise RequestError(f"a request is a JSON object, got {json_type(data)}")
    cmd = data.get("cmd")
    model = REQUESTS.get(cmd) if isinstance(cmd, str) else None
    if model is None:
        given = "no cmd" if "cmd" not in data else f"unknown cmd {short(cmd)}"
        raise RequestError(f"{given}; commands are {', '.join(sorted(REQUESTS))}")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise RequestError(_one_line(exc, cmd, model)) from None


def _one_line(exc: ValidationError, cmd: str, model: type[Request]) -> str:
    errors = exc.errors(include_url=False)
    unknown = [".".join(map(str, e["loc"])) for e in errors if e["type"] == "extra_forbidden"]
    if unknown:
        known = ", ".join(name for name in model.model_fields if name not in ("id", "cmd")) or "no fields"
        names = ", ".join(repr(name) for name in unknown)
        return f"{cmd}: unknown field{'s' if len(unknown) > 1 else ''} {names}; {cmd} takes {known} (and id)"
    first = errors[0]
    field = ".".join(map(str, first["loc"]))
    if first["type"] == "missing":
        info = model.model_fields[field].description
        return f"{cmd} needs {field!r}" + (f" ({info})" if info else "")
    message = first["msg"].removeprefix("Value error, ")
    if not field:
        return f"{cmd}: {message}"
    return f"{cmd}.{field}: {message[:1].lower()}{message[1:]}, got {short(first['input'])}"


def json_type(value: Any) -> str:
    """The JSON name of a decoded value's type."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    names = {dict: "object", list: "array", str: "string", int: "integer", float: "number"}
    return next((name for kind, name in names.items() if isinstance(value, kind)), type(value).__name__)

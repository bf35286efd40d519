"""Which engine plays the envs' games: ``engine="native" | "python" | "auto"``.

* ``"python"``: ``fcm_env.engine.Game``, the readable reference implementation of the rules.
* ``"native"``: ``fcm_env.native.NativeGame``, the C++ core built with the package: the same games for
  the same seeds and actions (the lockstep tests compare legal ids, observations, rewards and states),
  many times faster.
* ``"auto"`` (the envs' default): native when the core is built in this install, else Python with a
  one-line notice on stderr (once per process). A pure-Python install (``FCM_PURE_PYTHON=1 pip install .``,
  docs/native.md) runs everything on the Python engine.

The envs reach the game only through what both engines share (``new_game``, ``legal_ids``, the rows of
observations), so the rest of their code is the same for both.
"""

from __future__ import annotations

import sys
from functools import cache
from typing import Any

import numpy as np

from fcm_env.encoding import FLAT_SIZE, legal_action_ids
from fcm_env.encoding.rows import ObservationRows
from fcm_env.engine.game import Game

ENGINES = ("auto", "native", "python")
_notice_given: list[bool] = []


@cache
def native_error() -> str | None:
    """Why the native core cannot be used here (None: it can)."""
    try:
        import fcm_env.native  # noqa: F401 - the import is the check
    except ImportError as exc:
        return str(exc)
    return None


def native_available() -> bool:
    return native_error() is None


def resolve_engine(engine: str) -> str:
    """``"native"`` or ``"python"`` for an ``engine`` argument (ValueError naming a bad one)."""
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {ENGINES}, got {engine!r}")
    if engine == "python":
        return engine
    if native_available():
        return "native"
    if engine == "native":
        raise ValueError(f"engine='native' needs the C++ core, which this install lacks: {native_error()}")
    if not _notice_given:
        _notice_given.append(True)
        print("fcm_env: the native core is not built in this install; the envs run on the Python engine "
              "(docs/native.md says how to build it)", file=sys.stderr)
    return "python"


def new_game(engine: str, num_players: int, seed: int, variant: str, max_rounds: int | None) -> Any:
    """A new game on the resolved ``engine`` (``"native"`` or ``"python"``)."""
    if engine == "native":
        from fcm_env.native.game import NativeGame

        return NativeGame.new(num_players, seed, variant, max_rounds)
    return Game.new(num_players, seed, variant, max_rounds)


def is_native(game: object) -> bool:
    return getattr(game, "engine", None) == "native"


def legal_ids(game: Any) -> np.ndarray:
    """The sorted legal flat ids of either engine's game (read-only)."""
    return game.legal_ids() if is_native(game) else legal_action_ids(game)


def python_game(game: Any) -> Game:
    """The Python game at ``game``'s position (``game`` itself on the Python engine): for the renderers and
    for agents that read the engine's state (the heuristic), which only the Python engine exposes."""
    return game.to_python() if is_native(game) else game


class NativeRows:
    """``ObservationRows``' face for native games: ``observe(game, p)`` brings row ``p`` up to date in place, in
    C++, redrawing only what may have changed since its last write (the map's fixed planes stay while the
    board is the same; only the squares the pieces covered are cleared)."""

    def __init__(self, num_players: int) -> None:
        from fcm_env.native import _core

        self.rows = np.zeros((num_players, FLAT_SIZE), dtype=np.float32)
        self._num_players = num_players
        self._kept = _core.ObservationRows(num_players)

    def observe(self, game: Any, player: int) -> np.ndarray:
        return self._kept.observe(game.core, player, self.rows[player])

    def forget(self) -> None:
        """The next ``observe`` of every row draws it all."""
        from fcm_env.native import _core

        self._kept = _core.ObservationRows(self._num_players)

    def __getstate__(self) -> dict[str, Any]:
        """Copies keep the rows; the marks of what they show are not copied (the next writes draw everything)."""
        return {"rows": self.rows.copy(), "_num_players": self._num_players}

    def __setstate__(self, state: dict[str, Any]) -> None:
        from fcm_env.native import _core

        self.__dict__.update(state)
        self._kept = _core.ObservationRows(self._num_players)


def observation_rows(engine: str, num_players: int) -> ObservationRows | NativeRows:
    return NativeRows(num_players) if engine == "native" else ObservationRows(num_players)


def observe_flat(game: Any, player: int, out: np.ndarray, observer: Any) -> np.ndarray:
    """``player``'s flat observation of either engine's game into ``out`` (``observer``: the Python
    engine's ``Observer``)."""
    if is_native(game):
        return game.observe_flat(player, out)
    return observer.observe_flat(game, player, out=out)

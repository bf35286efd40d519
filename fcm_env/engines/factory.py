"""Which engine plays the envs' games: ``engine="native" | "python" | "auto"``.

* ``"python"``: ``fcm_env.engine.Game``, the readable reference implementation of the rules.
* ``"native"``: ``fcm_env.native.NativeGame``, the C++ core built with the package: the same games for
  the same seeds and actions (the lockstep tests compare legal ids, observations, rewards and states),
  many times faster.
* ``"auto"`` (the envs' default): native when the core is built in this install, else Python with a
  one-line notice on stderr (once per process). A pure-Python install (``FCM_PURE_PYTHON=1 pip install .``,
  docs/native.md) runs everything on the Python engine.

This module is the one place that knows the engines by name: ``new_game`` and ``load_game`` make a game of
either, ``on_engine`` moves a position across, ``face_of`` gives a plain ``Game`` the face, and
``observation_rows`` the envs' kept observation rows of the engine. Everything else reads the face
(``face.GameLike``).
"""

from __future__ import annotations

import sys
from functools import cache
from typing import Any

import numpy as np

from fcm_env.encoding import FLAT_SIZE, NUM_ACTIONS
from fcm_env.engine.game import Game

from .face import GameLike
from .python_game import PythonGame

ENGINES = ("auto", "native", "python")
_notice_given: list[bool] = []


@cache
def native_error() -> str | None:
    """Why the native core cannot be used here (None: it can)."""
    try:
        import fcm_env.native  # noqa: F401 - the import is the check
    except (ImportError, AttributeError) as exc:  # AttributeError: a core built from older sources
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


def new_game(engine: str, num_players: int, seed: int, variant: str = "standard",
             max_rounds: int | None = None) -> GameLike:
    """A new game on ``engine`` (``"auto"``, ``"native"`` or ``"python"``): the same setup on either."""
    if resolve_engine(engine) == "native":
        from .native_game import NativeGame

        return NativeGame.new(num_players, seed, variant, max_rounds)
    return PythonGame.new(num_players, seed, variant, max_rounds)


def load_game(engine: str, document: dict[str, Any]) -> GameLike:
    """A game at a state document's position on ``engine`` (``StateFormatError`` naming the field of a
    malformed document, on either engine: the Python loader checks it first)."""
    if resolve_engine(engine) == "native":
        from .native_game import NativeGame

        return NativeGame.from_dict(document)
    return PythonGame.from_dict(document)


def face_of(game: Any) -> GameLike:
    """``game`` with the whole face: a game of either engine as it is, a plain ``fcm_env.engine.Game`` (a
    hand-built or replayed one) raised to ``PythonGame`` in place (the same object; it gains methods only)."""
    if isinstance(game, PythonGame) or getattr(game, "native_core", None) is not None:
        return game
    if isinstance(game, Game):
        return PythonGame.adopt(game)
    raise TypeError(f"expected a game of either engine, got {type(game).__name__}")


def from_core(core: Any) -> GameLike:
    """The face of a C++ core game (``fcm_env.native.Game``: what the native batch, search and players hand
    back), without a copy: moves through the face move ``core``."""
    from .native_game import NativeGame

    return NativeGame(core)


def batch_core(engine: str) -> Any | None:
    """The C++ batched env (``fcm_env.native._core.VecEnv``, driven by ``fcm_env.env.native_vector``) for envs
    on the resolved ``engine``, or None where that engine steps its sub-envs one by one in Python."""
    if engine not in ("native", "python"):
        raise ValueError(f"engine must be resolved to 'native' or 'python', got {engine!r}")
    if engine == "python":
        return None
    from fcm_env.native import _core

    return _core.VecEnv


def on_engine(game: GameLike | Game, engine: str) -> GameLike:
    """The game at ``game``'s position on ``engine``: ``game`` itself where it is on that engine already,
    else a twin made through the state document (its history and event log stay behind)."""
    target = resolve_engine(engine)
    native = getattr(game, "native_core", None) is not None
    if target == "native":
        if native:
            return game
        from .native_game import NativeGame

        return NativeGame.from_game(game)  # type: ignore[arg-type]
    return face_of(game.snapshot()) if native else face_of(game)


class PythonRows:
    """The envs' observation rows on the Python engine: ``observe(game, p)`` writes row ``p`` afresh
    (``Observer.observe_flat``, whose caches keep the static map planes and unchanged player blocks).

    The readable reference keeps no move stamps: the incremental rows are the native engine's job
    (``NativeRows``), which does them in C++ many times faster."""

    def __init__(self, num_players: int) -> None:
        self.rows = np.zeros((num_players, FLAT_SIZE), dtype=np.float32)

    def observe(self, game: Any, player: int) -> np.ndarray:
        return game.observe_flat(player, self.rows[player])

    def observe_fresh(self, game: Any, player: int) -> tuple[np.ndarray, np.ndarray]:
        """(a fresh copy of ``player``'s row, a fresh int8 mask of its legal ids: zeros when another player is
        to move): the AEC env's observation."""
        row = self.observe(game, player).copy()
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        if game.current_player == player:
            mask[game.legal_ids()] = 1
        return row, mask

    def forget(self) -> None:
        """Nothing is kept between writes."""


class NativeRows:
    """The envs' observation rows on the native engine: ``observe(game, p)`` brings row ``p`` up to date in
    place, in C++, redrawing only what may have changed since its last write (the map's fixed planes stay
    while the board is the same; only the squares the pieces covered are cleared)."""

    def __init__(self, num_players: int) -> None:
        from fcm_env.native import _core

        self.rows = np.zeros((num_players, FLAT_SIZE), dtype=np.float32)
        self._num_players = num_players
        self._kept = _core.ObservationRows(num_players)

    def observe(self, game: Any, player: int) -> np.ndarray:
        return self._kept.observe(game.native_core, player, self.rows[player])

    def observe_fresh(self, game: Any, player: int) -> tuple[np.ndarray, np.ndarray]:
        """``PythonRows.observe_fresh``'s two arrays, in one core call."""
        return self._kept.observe_fresh(game.native_core, player, self.rows[player])

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


def observation_rows(engine: str, num_players: int) -> PythonRows | NativeRows:
    """The envs' kept observation rows for games of ``engine``."""
    return NativeRows(num_players) if resolve_engine(engine) == "native" else PythonRows(num_players)

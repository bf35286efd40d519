"""The engine seam: one face for a game of either engine, and the one place that picks an engine.

* ``GameLike`` (``face``): what every consumer calls on a game: legal ids, apply, observe into a buffer, the
  table facts, clone, determinize, the state document, ``snapshot()`` (the full Python position) and the
  capability ``native_core`` (the C++ core game, or None). Both engines implement all of it:
  ``PythonGame`` (the readable reference, ``fcm_env.engine.Game`` with the encoded views) and
  ``NativeGame`` (the C++ core).
* ``new_game``, ``load_game``, ``on_engine``, ``face_of`` (``factory``): make a game on an engine
  (``"auto"``: native when built), load a document, move a position across, give a plain ``Game`` the face.

Outside this package nothing asks a game which engine it is.
"""

from __future__ import annotations

from .face import FACE_MEMBERS, GameLike, PlayerFacts, TableFacts
from .factory import (
    ENGINES,
    NativeRows,
    batch_core,
    face_of,
    from_core,
    load_game,
    native_available,
    native_error,
    new_game,
    observation_rows,
    on_engine,
    resolve_engine,
)
from .python_game import PythonGame
from .random_player import RandomLegalPlayer, random_legal_action

__all__ = [
    "ENGINES",
    "FACE_MEMBERS",
    "GameLike",
    "NativeRows",
    "PlayerFacts",
    "PythonGame",
    "RandomLegalPlayer",
    "TableFacts",
    "batch_core",
    "face_of",
    "from_core",
    "load_game",
    "native_available",
    "native_error",
    "new_game",
    "observation_rows",
    "on_engine",
    "random_legal_action",
    "resolve_engine",
]

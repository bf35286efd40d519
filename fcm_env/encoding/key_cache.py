"""``KeyCache``: the small memo in which the observation encoder keeps what it drew, by what it drew it from.

A module of its own because every part of the encoder uses it: the board planes
(``board_planes``), the vector's head (``vector_head``), the player blocks
(``player_blocks``) and the envs' rows (``rows``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_MISSING = object()


class KeyCache:
    """The last few values computed, by key (the oldest is dropped first).

    The key last asked for is checked first by equality, which is cheap when it
    shares its parts with the key before (tuples of the same objects) and saves
    hashing a long key again: most steps move no piece.
    """

    def __init__(self, size: int):
        self._size = size
        self._values: dict[object, object] = {}
        self._last: tuple[object, object] = (_MISSING, None)

    def clear(self) -> None:
        self._values.clear()
        self._last = (_MISSING, None)

    def get(self, key: object, build: Callable[..., Any], *args: object) -> Any:
        """The value for ``key``, computed as ``build(*args)`` if it is not cached."""
        last_key, last = self._last
        if key == last_key:
            return last
        try:
            hit = self._values.get(key, _MISSING)
        except TypeError:  # squares held in lists (a hand-made state): not cacheable
            return build(*args)
        if hit is _MISSING:
            hit = build(*args)
            if len(self._values) >= self._size:
                self._values.pop(next(iter(self._values)))
            self._values[key] = hit
        self._last = (key, hit)
        return hit

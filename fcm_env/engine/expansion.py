"""(being written) — see the module list in game.PHASE_MODULES."""

from __future__ import annotations

ROUTES: dict = {}

"""Thread settings that do not spin: OpenMP's default wait policy busy-waits between torch's parallel
regions, and with ``torch_threads > 1`` on a shared 2-core machine that made training 5x slower
(forward passes took 121 s instead of 5 s over one run) while the game workers starved.

``passive_openmp`` asks OpenMP to sleep instead (``OMP_WAIT_POLICY=PASSIVE``). OpenMP reads it once,
when torch loads it, so ``fcm train`` sets it before importing torch; a program that imported torch
first gets ``spin_warning``'s line from the trainer instead.
"""

from __future__ import annotations

import os
from collections.abc import MutableMapping

VARIABLE = "OMP_WAIT_POLICY"


def passive_openmp(environ: MutableMapping[str, str] | None = None) -> bool:
    """Set ``OMP_WAIT_POLICY=PASSIVE`` unless the user chose a policy; whether it is passive now."""
    environ = os.environ if environ is None else environ
    environ.setdefault(VARIABLE, "PASSIVE")
    return environ[VARIABLE].strip().upper() == "PASSIVE"


def spin_warning(torch_threads: int, environ: MutableMapping[str, str] | None = None) -> str | None:
    """A line for a run whose torch threads may spin (more than one, and no passive wait policy)."""
    environ = os.environ if environ is None else environ
    if torch_threads <= 1 or environ.get(VARIABLE, "").strip().upper() == "PASSIVE":
        return None
    return (f"torch_threads={torch_threads} with OpenMP's spin-wait ({VARIABLE}={environ.get(VARIABLE, 'unset')}): "
            f"on a busy machine this ran training 5x slower; start Python with {VARIABLE}=PASSIVE "
            f"(fcm train does) or use torch_threads: 1")

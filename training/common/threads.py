"""Thread and process settings that pay on the machine a run starts on.

OpenMP's default wait policy busy-waits between torch's parallel regions, and with
``torch_threads > 1`` on a shared 2-core machine that made training 5x slower (forward passes
took 121 s instead of 5 s over one run) while the game workers starved.

``passive_openmp`` asks OpenMP to sleep instead (``OMP_WAIT_POLICY=PASSIVE``). OpenMP reads it once,
when torch loads it, so ``fcm train`` sets it before importing torch; a program that imported torch
first gets ``spin_warning``'s line from the trainer instead.

``env_workers`` processes step the learner's games (the learner's own process is one of them); on
the shared 2-core machine, with other jobs running, ``env_workers: 1`` ran 1.3-1.6x faster than 2:
workers only pay where cores are free. ``workers_warning`` says so when a run asks for more game
processes than the cores left over by the machine's other work (its load average) and the torch threads.
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


def free_cores() -> float:
    """This process's cores less the machine's 1-minute load average (other work), at least 1."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        cores = os.cpu_count() or 1
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # pragma: no cover - no load average here
        load = 0.0
    return max(1.0, cores - load)


def workers_warning(env_workers: int, torch_threads: int, free: float | None = None) -> str | None:
    """A line for a run whose game processes and torch threads want more cores than are free."""
    free = free_cores() if free is None else free
    wanted = env_workers + torch_threads - 1  # the learner's process steps games and runs torch
    if env_workers <= 1 or wanted <= free + 0.5:
        return None
    return (f"env_workers={env_workers} with torch_threads={torch_threads} want {wanted} cores but about "
            f"{free:.1f} are free (cores less the load average): the game processes will share cores, "
            f"which ran 1.3-1.6x slower than env_workers: 1 on a busy 2-core machine; consider "
            f"env_workers: {max(1, int(free + 0.5) - torch_threads + 1)}")


def spin_warning(torch_threads: int, environ: MutableMapping[str, str] | None = None) -> str | None:
    """A line for a run whose torch threads may spin (more than one, and no passive wait policy)."""
    environ = os.environ if environ is None else environ
    if torch_threads <= 1 or environ.get(VARIABLE, "").strip().upper() == "PASSIVE":
        return None
    return (f"torch_threads={torch_threads} with OpenMP's spin-wait ({VARIABLE}={environ.get(VARIABLE, 'unset')}): "
            f"on a busy machine this ran training 5x slower; start Python with {VARIABLE}=PASSIVE "
            f"(fcm train does) or use torch_threads: 1")

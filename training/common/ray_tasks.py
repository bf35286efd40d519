"""Ray tasks for any package of the trainer: a cluster joined or started for a block, and a map whose
results come back as each task ends. Ray is imported only when called (the ``distributed`` extra)."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import contextmanager


@contextmanager
def _ray(address: str | None, workers: int):
    """Ray, joined at ``address`` or started locally with ``workers`` CPUs (and stopped again) unless
    it is already running."""
    try:
        import ray
    except ImportError as error:
        raise ImportError('--backend ray needs Ray: pip install -e ".[distributed]"') from error
    started = not ray.is_initialized()
    if started:
        if address:
            ray.init(address=address, include_dashboard=False)
        else:
            ray.init(num_cpus=max(1, workers), include_dashboard=False)
    try:
        yield ray
    finally:
        if started:
            ray.shutdown()


def ray_map_unordered(fn: Callable, jobs: list, address: str | None = None, workers: int = 1):
    """``(job, fn(job))`` for every job, each as its Ray task ends (one CPU a task): the cluster at
    ``address``, or a local one of ``workers`` CPUs started and stopped here. A generator: the caller
    keeps each result as it comes (a stopped run keeps what had ended)."""
    with _ray(address, workers) as ray:
        task = ray.remote(num_cpus=1)(fn)
        pending = {task.remote(job): job for job in jobs}
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                yield pending.pop(ref), ray.get(ref)

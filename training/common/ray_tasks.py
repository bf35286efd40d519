"""Ray tasks for any package of the trainer: a cluster joined or started for a block, and a map whose
results come back as each task ends. Ray is imported only when called (the ``distributed`` extra)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from contextlib import contextmanager


@contextmanager
def _ray(address: str | None, workers: int):
    """Ray, joined at ``address`` or started locally with ``workers`` CPUs (and stopped again) unless
    it is already running."""
    try:
        import ray
    except ImportError as error:
        raise ImportError("--backend ray needs Ray: pip install 'fcm-magnate[distributed]'") from error
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


def _on_node(fn: Callable, job):
    """``fn(job)`` and the id of the Ray node that ran it (how a run shows where its tasks went)."""
    import ray

    return ray.get_runtime_context().get_node_id(), fn(job)


def ray_map_unordered(fn: Callable, jobs: list, address: str | None = None, workers: int = 1,
                      nodes: Counter | None = None):
    """``(job, fn(job))`` for every job, each as its Ray task ends (one CPU a task): the cluster at
    ``address``, or a local one of ``workers`` CPUs started and stopped here. A generator: the caller
    keeps each result as it comes (a stopped run keeps what had ended). ``nodes``, when given, counts
    the finished tasks per node id (a multi-node run shows that every node took its share)."""
    with _ray(address, workers) as ray:
        task = ray.remote(num_cpus=1)(_on_node)
        pending = {task.remote(fn, job): job for job in jobs}
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                node, result = ray.get(ref)
                if nodes is not None:
                    nodes[node] += 1
                yield pending.pop(ref), result

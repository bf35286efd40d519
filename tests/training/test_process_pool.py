"""The worker pool of the long commands (distill and value positions, parallel demonstrations, tournaments):
results in order, a job's error raised with its message, and a stop that never hangs.

The stop check is the one CI caught: ``multiprocessing.Pool`` workers share a task-queue lock, a worker
killed while it waits for its next task keeps it, and ``Pool.terminate`` then waits forever. The script
below hung on its first stop with that pool; ``ProcessPool`` shares nothing between its workers.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest
from stop_helpers import HANG_S

from fcm_training.common.process_pool import ProcessPool, WorkerLost, map_in_processes


def _square(x: int) -> int:
    return x * x


def _refuse_seven(x: int) -> int:
    if x == 7:
        raise ValueError("seven is refused")
    return x


def test_results_come_back_in_the_items_order_whatever_order_they_finish_in():
    items = list(range(40))
    assert map_in_processes(_square, items, 2) == [x * x for x in items]
    assert map_in_processes(_square, [], 2) == []


def test_a_jobs_error_stops_the_run_with_its_own_message():
    with pytest.raises(ValueError, match="seven is refused"):
        map_in_processes(_refuse_seven, list(range(20)), 2)


def test_a_pool_needs_a_worker():
    with pytest.raises(ValueError, match="size must be at least 1, got 0"):
        ProcessPool(0)


def test_worker_lost_is_the_tournaments_error():
    from fcm_training.common import tournament_workers

    assert tournament_workers.WorkerLost is WorkerLost


STOPS = textwrap.dedent("""
    import os, signal, sys, threading
    from fcm_training.common.interrupts import Interrupted, stop_on_signals
    from fcm_training.common.process_pool import map_in_processes

    def tiny(x):
        return x + 1

    for attempt in range(4):  # tiny jobs: the workers spend most of their time waiting for the next one
        threading.Timer(0.2 + 0.05 * attempt, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
        try:
            with stop_on_signals():
                map_in_processes(tiny, range(10**6), 2)
        except Interrupted:
            print("stopped", attempt, flush=True)
        threading.Event().wait(2.2)  # past the grace period: the next SIGINT is a first one again
    alive = os.popen(f"ps -o pid= --ppid {os.getpid()}").read().split()
    print("workers left", len(alive) - 1)  # ps itself is a child
""")


def test_a_stop_while_the_workers_wait_for_jobs_ends_every_time():
    done = subprocess.run([sys.executable, "-c", STOPS], check=False, capture_output=True, text=True,
                          timeout=HANG_S + 30)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n") == ["stopped 0", "stopped 1", "stopped 2", "stopped 3", "workers left 0", ""]


SIGNAL_AS_A_WORKER_STARTS = textwrap.dedent("""
    import os, signal, threading
    from fcm_training.common import process_pool
    from fcm_training.common.interrupts import Interrupted, register_worker, stop_on_signals

    go, sent = threading.Event(), threading.Event()

    def send():  # a thread started before the block: the signal is not blocked here, so it lands at once
        go.wait()
        os.kill(os.getpid(), signal.SIGINT)
        sent.set()

    def signal_then_register(process, **kwargs):  # the worker has started and is in nobody's list yet
        go.set()
        sent.wait(30)  # the handler runs in this thread at the next bytecode, the block notwithstanding
        register_worker(process, **kwargs)

    threading.Thread(target=send, daemon=True).start()
    process_pool.register_worker = signal_then_register
    try:
        with stop_on_signals():
            process_pool.map_in_processes(abs, range(10), 2)
    except Interrupted:
        print("stopped", flush=True)
    try:
        pid, _ = os.waitpid(-1, os.WNOHANG)  # a zombie or a live child: the pool lost track of a worker
        print("children left", pid)
    except ChildProcessError:
        print("children left none")
""")


def test_a_stop_that_lands_as_a_worker_starts_leaves_no_child_behind():
    # the CI failure: a timer thread's SIGINT ran the handler between a worker's start and its joining the list
    done = subprocess.run([sys.executable, "-c", SIGNAL_AS_A_WORKER_STARTS], check=False, capture_output=True,
                          text=True, timeout=HANG_S + 30)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n") == ["stopped", "children left none", ""]

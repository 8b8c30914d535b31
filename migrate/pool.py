"""The one process pool: signal-safe workers for the rewrite and the facts parse.

A leaf module (standard library only), so the index and the rewriter share it without
importing each other.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import signal
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager

_STOP = (signal.SIGINT, signal.SIGTERM)


def ignore_stop_signals() -> None:
    """A worker leaves SIGINT/SIGTERM to its parent, which ends it (see `pool_map`).

    Forked from a parent inside `signals_raise`, a worker would otherwise raise
    `Interrupted` in the middle of a task or hang the pool's shutdown."""
    for s in _STOP:
        signal.signal(s, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP)


def usable_cores(most: int = 8) -> int:
    """Workers for a pool: the cores this process may run on (its CPU affinity, as
    `taskset` or a container's cpuset set it), at most `most`. `os.cpu_count()` counts
    the host's cores: under `taskset -c 0,1` on a 16-core host it made 8 workers share
    two cores, each forked with its own copy of whatever pages it touched."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # no affinity on this platform
        cores = os.cpu_count() or 1
    return max(1, min(cores, most))


def pool_map(
    fn, jobs: list, workers: int, initializer, initargs, chunksize: int = 8, done=None
) -> list:
    """`fn` over `jobs` in a process pool; on a signal or error the workers are killed.

    `done(n)` is called as each chunk of `n` results arrives (in job order), so progress
    moves while the pool works.

    The stop signals are blocked while the workers are forked, so none starts with our
    handler; a signal that arrives meanwhile is delivered right after, to us. No future
    is ever cancelled: the pool's own thread fails the pending ones when it sees the
    killed workers, and a cancelled one would make it raise (CPython's `terminate_broken`
    sets an exception on every pending future).
    """
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP)
    try:
        with _heap_frozen():
            pool = ProcessPoolExecutor(workers, initializer=initializer, initargs=initargs)
            chunks = [jobs[i : i + chunksize] for i in range(0, len(jobs), chunksize)]
            futures = [pool.submit(_run_chunk, fn, chunk) for chunk in chunks]  # forks now
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
    try:
        out = []
        for f in futures:
            chunk = f.result()
            out += chunk
            if done is not None:
                done(len(chunk))
    except BaseException:
        for p in multiprocessing.active_children():
            p.kill()  # they ignore SIGINT/SIGTERM by design
        pool.shutdown(wait=True)
        raise
    pool.shutdown(wait=True)
    return out


@contextmanager
def _heap_frozen():
    """The parent's heap out of the cyclic GC's sight while the workers fork (`gc.freeze`):
    a worker's full collection would otherwise walk every inherited object and write to
    its header, copying each page of the parent's heap into the worker (the CPython docs'
    advice for forking). The parent's objects go back to the GC after the fork, unless
    a caller had frozen the heap already (verify's checks): then they stay for it."""
    owner = gc.get_freeze_count() == 0
    gc.freeze()
    try:
        yield
    finally:
        if owner:
            gc.unfreeze()


def _run_chunk(fn, chunk: list) -> list:
    return [fn(job) for job in chunk]

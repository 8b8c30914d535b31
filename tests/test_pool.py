"""The one process pool: how many workers it starts, and the parent's heap while it forks."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import textwrap

import pytest

from migrate.pool import pool_map, usable_cores

ONE_CORE = textwrap.dedent(
    """
    import os
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # as `taskset -c N` does
    import migrate.pool as pool
    from migrate.index.facts import POOL_MIN_FILES, prefetch_facts

    started = []
    real = pool.pool_map
    def recorded(fn, jobs, workers, *args, **kwargs):
        started.append(workers)
        return real(fn, jobs, workers, *args, **kwargs)
    pool.pool_map = recorded

    class Tree:
        def text(self, path):
            return f"import os\\nX{path[1:-3]} = os.sep\\n"
        def module_of(self, path):
            return path[:-3]
    tree = Tree()
    paths = [f"m{i}.py" for i in range(POOL_MIN_FILES * 2)]
    prefetch_facts(tree, paths)
    print(os.cpu_count(), started)
    """
)


@pytest.mark.skipif(
    not hasattr(os, "sched_setaffinity") or (os.cpu_count() or 1) < 2,
    reason="needs CPU affinity and two cores",
)
def test_a_process_allowed_one_core_parses_without_a_pool():
    """`os.cpu_count()` counts the host's cores; under `taskset` the pool started one
    worker per host core on the cores it was given (idle host: 8 workers on 2 cores)."""
    res = subprocess.run([sys.executable, "-c", ONE_CORE], capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    host_cores, started = res.stdout.split(maxsplit=1)
    assert int(host_cores) >= 2
    assert started.strip() == "[]"  # one core: the facts are read on demand, no workers


@pytest.mark.skipif(not hasattr(os, "sched_getaffinity"), reason="needs CPU affinity")
def test_usable_cores_is_the_affinity_capped():
    assert usable_cores() == min(len(os.sched_getaffinity(0)), 8)
    assert usable_cores(most=1) == 1


def _square(n: int) -> int:
    return n * n


def test_the_heap_is_frozen_only_while_the_workers_fork():
    assert gc.get_freeze_count() == 0
    assert pool_map(_square, list(range(20)), 2, None, (), chunksize=4) == [
        n * n for n in range(20)
    ]
    assert gc.get_freeze_count() == 0  # the parent's objects are the GC's again
    gc.freeze()  # a caller that froze its heap (verify's checks) keeps it frozen
    try:
        frozen = gc.get_freeze_count()
        pool_map(_square, list(range(20)), 2, None, (), chunksize=4)
        assert gc.get_freeze_count() >= frozen
    finally:
        gc.unfreeze()

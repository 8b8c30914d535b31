"""The one process pool: how many workers it starts."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from migrate.pool import usable_cores

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

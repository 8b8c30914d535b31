"""Pytest plugin for bench/parity_gpu_run.sh: which tests put work on the GPU.

Counts the CUDA caching allocator's allocations made during each test's call phase
(`torch.cuda.memory_stats()["allocation.all.allocated"]`): a test that created a tensor
on the GPU, or ran a kernel that allocated its output there, counts more than zero.
Written as JSON `{nodeid: allocations}` to the file named by CUDA_USAGE_OUT.
"""

from __future__ import annotations

import json
import os

import pytest

_counts: dict[str, int] = {}


def _allocated() -> int:
    import torch

    if not torch.cuda.is_available():
        return 0
    return int(torch.cuda.memory_stats().get("allocation.all.allocated", 0))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    before = _allocated()
    yield
    _counts[item.nodeid] = _allocated() - before


def pytest_sessionfinish(session):
    path = os.environ.get("CUDA_USAGE_OUT")
    if path:
        with open(path, "w", encoding="utf-8") as fh:
            json.dump(_counts, fh, indent=1, sort_keys=True)

"""Fixtures shared by every test under test/.

Kernel tests run on the GPU when there is one, and on the CPU through the Triton
interpreter otherwise (`sglang.test.kernels.device.DEVICE`). TRITON_INTERPRET must be set
before `triton` is first imported; this conftest is loaded before any test module, so it
sets it when no GPU is present (running with TRITON_INTERPRET=1 in the environment does
the same thing explicitly, also on a GPU host).
"""

import os

import pytest
import torch

if not torch.cuda.is_available():
    os.environ.setdefault("TRITON_INTERPRET", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")


@pytest.fixture(autouse=True)
def _seed_everything():
    torch.manual_seed(0)
    yield


@pytest.fixture
def device() -> str:
    from sglang.test.kernels.device import DEVICE

    return DEVICE

"""Legacy kernel tests mixing three groups (gemm, moe, sampling) in one file."""

import math
import os  # unused by every test: dropped from all outputs
import sys
import unittest
from functools import lru_cache, partial  # partial is unused

import pytest

from sglang.test.ci.ci_register import register_amd_ci, register_cuda_ci

# ci-cost-override: measured on H100, see #4242
register_cuda_ci(est_time=7, stage="base-b-kernel-unit", runner_config="1-gpu-large")
register_cuda_ci(est_time=100, suite="nightly-kernel-1-gpu", nightly=True)
# backend-specific: ROCm tolerances are looser
register_amd_ci(
    est_time=20,
    suite="stage-a-test-1-amd",
    disabled="MI300 driver hang #5151 until 2027-01-31",
    in_process_group="kernels",
)

ATOL = 1e-6
GEMM_SHAPES = [(2, 3), (4, 4)]
TOPK = [1, 2]  # moe only
os_sep = os.sep  # never used by a test


def assert_close(a, b, atol=ATOL):
    """Shared helper: used by both gemm and moe tests."""
    assert abs(a - b) <= atol, (a, b)


@lru_cache(maxsize=None)
def _gemm_ref(m, n):
    return float(m * n)


def _softmax(xs):
    # moe-only helper
    e = [math.exp(x) for x in xs]
    s = sum(e)
    return [v / s for v in e]


@pytest.fixture
def scale():
    """A fixture both pytest groups request."""
    return 1.0


@pytest.fixture
def logits(scale):
    return [scale * x for x in (0.5, 1.5, 3.0)]


class TestGemm(unittest.TestCase):
    def test_square(self):
        assert_close(_gemm_ref(4, 4), 16.0)

    def test_rect(self):
        assert_close(_gemm_ref(2, 3), 6.0)


@pytest.mark.parametrize("shape", GEMM_SHAPES, ids=["small", "square"])
@pytest.mark.parametrize("dtype", ["float32"])
def test_gemm_shapes(shape, dtype, scale):
    m, n = shape
    assert_close(_gemm_ref(m, n) * scale, float(m * n))


def test_gemm_zero():
    assert _gemm_ref(0, 5) == 0.0


@pytest.mark.parametrize("k", TOPK)
def test_moe_topk(k, logits):
    probs = _softmax(logits)
    top = sorted(probs, reverse=True)[:k]
    assert len(top) == k
    assert_close(sum(probs), 1.0)


def test_moe_softmax_sums_to_one():
    assert_close(sum(_softmax([1.0, 2.0])), 1.0)


def test_sampling_greedy(logits):
    assert max(range(len(logits)), key=logits.__getitem__) == 2


if __name__ == "__main__":
    sys.exit(pytest.main([__file__]))

"""Legacy kernel tests mixing three groups (gemm, moe, sampling) in one file."""

import sys

import pytest

from sglang.test.ci.ci_register import register_amd_ci, register_cuda_ci

# ci-cost-override: measured on H100, see #4242
register_cuda_ci(est_time=1, stage="base-b-kernel-unit", runner_config="1-gpu-large")
register_cuda_ci(est_time=11, suite="nightly-kernel-1-gpu", nightly=True)
# backend-specific: ROCm tolerances are looser
register_amd_ci(
    est_time=2,
    suite="stage-a-test-1-amd",
    disabled="MI300 driver hang #5151 until 2027-01-31",
    in_process_group="kernels",
)


@pytest.fixture
def scale():
    """A fixture both pytest groups request."""
    return 1.0


@pytest.fixture
def logits(scale):
    return [scale * x for x in (0.5, 1.5, 3.0)]


def test_sampling_greedy(logits):
    assert max(range(len(logits)), key=logits.__getitem__) == 2


if __name__ == "__main__":
    sys.exit(pytest.main([__file__]))

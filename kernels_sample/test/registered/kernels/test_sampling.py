"""Min-p sampling with given uniforms (sglang.jit_kernel.sampling)."""

import sys

import pytest
import torch

from sglang.jit_kernel.sampling import min_p_sampling_from_probs, sampling_from_probs
from sglang.test.ci.ci_register import register_cuda_ci
from sglang.test.kernels.device import DEVICE
from sglang.test.kernels.references import min_p_sample_ref

register_cuda_ci(est_time=10, stage="base-b-kernel-unit", runner_config="1-gpu-small")


@pytest.mark.parametrize("min_p", [0.0, 0.05, 0.5])
def test_min_p_matches_inverse_cdf(min_p):
    probs = torch.softmax(torch.randn(8, 32, device=DEVICE) * 2, dim=-1)
    uniform = torch.rand(8, device=DEVICE)
    ids = min_p_sampling_from_probs(probs, uniform, min_p)
    assert torch.equal(ids, min_p_sample_ref(probs, uniform, min_p))


def test_min_p_one_is_greedy():
    probs = torch.softmax(torch.randn(4, 16, device=DEVICE), dim=-1)
    ids = min_p_sampling_from_probs(probs, torch.rand(4, device=DEVICE), 1.0)
    assert torch.equal(ids.long(), probs.argmax(-1))


def test_plain_sampling_never_picks_zero_probability():
    probs = torch.zeros(3, 10, device=DEVICE)
    probs[:, [2, 7]] = 0.5
    ids = sampling_from_probs(probs, torch.tensor([0.0, 0.49, 0.999], device=DEVICE))
    assert ids.tolist() == [2, 2, 7]


if __name__ == "__main__":
    sys.exit(pytest.main([__file__]))

"""Numerical tests of RMSNorm and RMSNorm + FP8-quant (sglang.jit_kernel.norm, .norm_quant)."""

import os
import sys
import unittest

import pytest
import torch

from sglang.jit_kernel import utils as jit_utils
from sglang.jit_kernel.norm import rmsnorm
from sglang.jit_kernel.norm_quant import FP8_E4M3_MAX, rmsnorm_quant
from sglang.test.ci.ci_register import register_amd_ci, register_cpu_ci, register_cuda_ci
from sglang.test.kernels.device import DEVICE
from sglang.test.kernels.references import assert_close, per_token_quant_ref, rmsnorm_ref

register_cuda_ci(est_time=20, stage="base-b-kernel-unit", runner_config="1-gpu-large")
register_amd_ci(est_time=25, suite="stage-a-test-1-amd")
register_cpu_ci(est_time=15, suite="base-a-test-cpu")


class TestRMSNorm(unittest.TestCase):
    def test_matches_reference(self):
        x = torch.randn(6, 64, device=DEVICE)
        w = torch.randn(64, device=DEVICE)
        assert_close(rmsnorm(x, w), rmsnorm_ref(x, w))

    def test_3d_input_keeps_shape(self):
        x = torch.randn(2, 3, 32, device=DEVICE)
        w = torch.rand(32, device=DEVICE)
        out = rmsnorm(x, w, eps=1e-5)
        self.assertEqual(out.shape, x.shape)
        assert_close(out, rmsnorm_ref(x, w, 1e-5))

    def test_rejects_mismatched_weight(self):
        with self.assertRaises(ValueError):
            rmsnorm(torch.randn(2, 16, device=DEVICE), torch.randn(8, device=DEVICE))

    def test_call_without_jit_opt_in_never_builds_the_jit_module(self):
        rmsnorm(torch.randn(2, 16, device=DEVICE), torch.ones(16, device=DEVICE))
        self.assertNotIn("norm", jit_utils._JIT_MODULES)


def test_jit_cuda_source_ships_with_the_package():
    path = jit_utils.csrc_path("norm.cuh")
    assert os.path.isfile(path), path


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16], ids=["fp32", "fp16"])
@pytest.mark.parametrize("hidden", [16, 40])
def test_rmsnorm_dtypes(dtype, hidden):
    x = torch.randn(4, hidden, device=DEVICE).to(dtype)
    w = torch.randn(hidden, device=DEVICE).to(dtype)
    tol = 1e-5 if dtype == torch.float32 else 2e-3
    assert_close(rmsnorm(x, w), rmsnorm_ref(x, w), atol=tol, rtol=tol)


def test_rmsnorm_quant_roundtrip():
    x = torch.randn(5, 48, device=DEVICE)
    w = torch.randn(48, device=DEVICE)
    q, scale = rmsnorm_quant(x, w)
    q_ref, scale_ref = per_token_quant_ref(rmsnorm_ref(x, w), FP8_E4M3_MAX)
    assert_close(scale, scale_ref)
    assert_close(q, q_ref, atol=1e-3, rtol=1e-5)
    assert q.abs().max() <= FP8_E4M3_MAX


if __name__ == "__main__":
    sys.exit(pytest.main([__file__]))

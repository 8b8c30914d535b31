"""silu_and_mul and silu_and_mul + per-token FP8 quant (sglang.jit_kernel.activation)."""

import sys

import pytest
import torch

import sglang.jit_kernel.activation as act
from sglang.test.ci.ci_register import register_cuda_ci, register_npu_ci
from sglang.test.kernels.references import assert_close, per_token_quant_ref, silu_and_mul_ref

register_cuda_ci(est_time=15, stage="base-b-kernel-unit", runner_config="1-gpu-large")
register_npu_ci(est_time=30, suite="per-commit-1-npu-a2", disabled="no Triton NPU backend yet #4521 until 2026-09-30")

SHAPES = [(1, 16), (4, 64), (3, 2, 40)]


@pytest.mark.parametrize("shape", SHAPES, ids=["token", "batch", "3d"])
def test_silu_and_mul(shape):
    x = torch.randn(*shape)
    out = act.silu_and_mul(x)
    assert out.shape == (*shape[:-1], shape[-1] // 2)
    assert_close(out, silu_and_mul_ref(x))


def test_silu_and_mul_fp16():
    x = torch.randn(4, 32).half()
    assert_close(act.silu_and_mul(x), silu_and_mul_ref(x), atol=2e-3, rtol=2e-3)


@pytest.mark.parametrize("shape", SHAPES[:2], ids=["token", "batch"])
def test_silu_and_mul_quant(shape):
    x = torch.randn(*shape) * 4
    q, scale = act.silu_and_mul_quant(x)
    q_ref, scale_ref = per_token_quant_ref(silu_and_mul_ref(x).reshape(-1, shape[-1] // 2), act.FP8_E4M3_MAX)
    assert_close(scale, scale_ref)
    assert_close(q.reshape(q_ref.shape), q_ref, atol=1e-3, rtol=1e-5)


def test_odd_width_is_rejected():
    with pytest.raises(ValueError):
        act.silu_and_mul(torch.randn(2, 7))


if __name__ == "__main__":
    sys.exit(pytest.main([__file__]))

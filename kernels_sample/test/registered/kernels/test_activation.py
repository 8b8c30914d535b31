"""silu_and_mul, silu_and_mul + per-token FP8 quant, gelu_tanh_and_mul (sglang.jit_kernel.activation)."""

import sys

import pytest
import torch

import sglang.jit_kernel.activation as act
from sglang.kernels.registry import get_kernel
from sglang.test.ci.ci_register import register_cuda_ci, register_npu_ci
from sglang.test.kernels.device import DEVICE
from sglang.test.kernels.references import assert_close, gelu_tanh_and_mul_ref, per_token_quant_ref, silu_and_mul_ref

register_cuda_ci(est_time=15, stage="base-b-kernel-unit", runner_config="1-gpu-large")
register_npu_ci(est_time=30, suite="per-commit-1-npu-a2", disabled="no Triton NPU backend yet #4521 until 2026-09-30")

SHAPES = [(1, 16), (4, 64), (3, 2, 40)]


@pytest.mark.parametrize("shape", SHAPES, ids=["token", "batch", "3d"])
def test_silu_and_mul(shape):
    x = torch.randn(*shape, device=DEVICE)
    out = act.silu_and_mul(x)
    assert out.shape == (*shape[:-1], shape[-1] // 2)
    assert_close(out, silu_and_mul_ref(x))


def test_silu_and_mul_fp16():
    x = torch.randn(4, 32, device=DEVICE).half()
    assert_close(act.silu_and_mul(x), silu_and_mul_ref(x), atol=2e-3, rtol=2e-3)


@pytest.mark.parametrize("shape", SHAPES[:2], ids=["token", "batch"])
def test_silu_and_mul_quant(shape):
    x = torch.randn(*shape, device=DEVICE) * 4
    q, scale = act.silu_and_mul_quant(x)
    q_ref, scale_ref = per_token_quant_ref(silu_and_mul_ref(x).reshape(-1, shape[-1] // 2), act.FP8_E4M3_MAX)
    assert_close(scale, scale_ref)
    assert_close(q.reshape(q_ref.shape), q_ref, atol=1e-3, rtol=1e-5)


def test_kernel_launched_directly():
    """SGLang's kernel tests often launch a kernel themselves, into a fresh buffer."""
    x = torch.randn(3, 32, device=DEVICE)
    out = torch.empty(3, 16, device=DEVICE)
    act._silu_and_mul_kernel[(3,)](x, out, 16, BLOCK=16)
    assert_close(out, silu_and_mul_ref(x))


def test_gelu_tanh_and_mul_custom_op():
    x = torch.randn(4, 32, device=DEVICE)
    out = torch.ops.sglang.gelu_tanh_and_mul(x)
    assert_close(out, gelu_tanh_and_mul_ref(x))
    assert torch.equal(act.gelu_tanh_and_mul(x), out)  # the module attribute is the op


@pytest.mark.parametrize("backend", ["torch", "triton"])
def test_gelu_tanh_and_mul_fused_op_backends(backend):
    x = torch.randn(2, 3, 40, device=DEVICE)
    out = get_kernel("activation.gelu_tanh_and_mul", backend)(x)
    assert out.shape == (2, 3, 20)
    assert_close(out, gelu_tanh_and_mul_ref(x))


def test_odd_width_is_rejected():
    with pytest.raises(ValueError):
        act.silu_and_mul(torch.randn(2, 7, device=DEVICE))


if __name__ == "__main__":
    sys.exit(pytest.main([__file__]))

"""Per-token int8 quant / dequant (sglang.jit_kernel.quant)."""

import sys
import unittest

import pytest
import torch

import sglang.kernels.ops.quantization  # noqa: F401  (registers the codec's dotted target)
from sglang.jit_kernel.quant import dequant_per_token_int8, per_token_quant_int8
from sglang.kernels.registry import get_kernel
from sglang.test.ci.ci_register import register_cpu_ci, register_cuda_ci
from sglang.test.kernels.device import DEVICE
from sglang.test.kernels.references import quant_int8_ref

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="Triton is not available on Windows")

register_cuda_ci(est_time=12, stage="base-b-kernel-unit", runner_config="1-gpu-small")
register_cpu_ci(est_time=10, stage="base-a", runner_config="cpu")


class TestPerTokenQuantInt8(unittest.TestCase):
    def test_matches_reference(self):
        x = torch.randn(6, 40, device=DEVICE) * 3
        q, scale = per_token_quant_int8(x)
        q_ref, scale_ref = quant_int8_ref(x)
        torch.testing.assert_close(scale, scale_ref)
        self.assertLessEqual((q.int() - q_ref.int()).abs().max().item(), 1)  # x/scale rounding ties

    def test_roundtrip_error_bounded_by_half_step(self):
        x = torch.randn(4, 64, device=DEVICE)
        q, scale = per_token_quant_int8(x)
        err = (dequant_per_token_int8(q, scale) - x).abs()
        self.assertTrue(bool((err <= scale[:, None] * 0.5 + 1e-6).all()))

    def test_registered_codec_member_is_the_dequant_kernel(self):
        x = torch.randn(3, 16, device=DEVICE)
        q, scale = per_token_quant_int8(x)
        out = get_kernel("quantization.int8_codec_dequant")(q, scale)
        torch.testing.assert_close(out, dequant_per_token_int8(q, scale), rtol=0, atol=0)

    def test_zero_rows(self):
        q, scale = per_token_quant_int8(torch.zeros(2, 8, device=DEVICE))
        self.assertEqual(q.abs().sum().item(), 0)


if __name__ == "__main__":
    unittest.main()

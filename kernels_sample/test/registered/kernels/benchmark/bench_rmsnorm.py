"""CI microbenchmark: RMSNorm and fused add + RMSNorm latency over a few shapes.

On CPU (TRITON_INTERPRET=1) the numbers only prove the benchmark runs.
"""

import time
import unittest

import torch

from sglang.jit_kernel.norm import fused_add_rmsnorm, rmsnorm
from sglang.test.ci.ci_register import register_cuda_ci
from sglang.test.kernels.device import DEVICE

register_cuda_ci(est_time=45, stage="base-b-kernel-benchmark", runner_config="1-gpu-large")

SHAPES = [(1, 128), (16, 256)]


def _time_ms(fn, iters: int = 3) -> float:
    fn()
    start = time.perf_counter()
    for _ in range(iters):
        fn()
    if torch.cuda.is_available():
        torch.cuda.synchronize()
    return (time.perf_counter() - start) / iters * 1e3


class BenchRMSNorm(unittest.TestCase):
    def test_bench(self):
        for rows, hidden in SHAPES:
            x = torch.randn(rows, hidden, device=DEVICE)
            r = torch.randn(rows, hidden, device=DEVICE)
            w = torch.ones(hidden, device=DEVICE)
            plain = _time_ms(lambda: rmsnorm(x, w))
            fused = _time_ms(lambda: fused_add_rmsnorm(x, r, w))
            print(f"rows={rows:<4} hidden={hidden:<5} rmsnorm {plain:8.3f} ms  fused_add {fused:8.3f} ms")
            self.assertGreater(plain, 0)


if __name__ == "__main__":
    unittest.main()

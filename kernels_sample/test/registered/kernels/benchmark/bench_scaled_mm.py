"""CI microbenchmark: scaled GEMM with tuned vs default configs."""

import sys
import time

import pytest
import torch

from sglang.jit_kernel.gemm.scaled_mm import get_scaled_mm_configs, scaled_mm
from sglang.test.ci.ci_register import register_cuda_ci
from sglang.test.kernels.device import DEVICE

# ci-cost-override: tuned shapes only on H200; the default-config sweep runs nightly
register_cuda_ci(est_time=90, stage="base-b-kernel-benchmark", runner_config="1-gpu-h200")
register_cuda_ci(est_time=600, suite="nightly-kernel-benchmark-1-gpu", nightly=True)


@pytest.mark.parametrize("M,N,K", [(16, 64, 32)], ids=["tuned-cpu-shape"])
def test_bench_scaled_mm(M, N, K):
    a, b = torch.randn(M, K, device=DEVICE), torch.randn(K, N, device=DEVICE)
    sa, sb = torch.ones(M, device=DEVICE), torch.ones(N, device=DEVICE)
    _, source = get_scaled_mm_configs(N, K)
    start = time.perf_counter()
    scaled_mm(a, b, sa, sb)
    print(f"M={M} N={N} K={K}: {(time.perf_counter() - start) * 1e3:.2f} ms (config: {source})")


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-s"]))

"""Scaled GEMM and its tuning-config lookup (sglang.jit_kernel.gemm.scaled_mm)."""

import os
import sys

import pytest
import torch

from sglang.jit_kernel.gemm import scaled_mm as scaled_mm_mod
from sglang.test.ci.ci_register import register_cuda_ci
from sglang.test.kernels.device import DEVICE, DOT_TOL
from sglang.test.kernels.references import assert_close

register_cuda_ci(est_time=35, stage="base-b-kernel-unit", runner_config="1-gpu-large")


@pytest.mark.parametrize("M", [1, 20])
def test_scaled_mm_matches_reference(M):
    a, b = torch.randn(M, 32, device=DEVICE), torch.randn(32, 64, device=DEVICE)
    sa, sb = torch.rand(M, device=DEVICE), torch.rand(64, device=DEVICE)
    out = scaled_mm_mod.scaled_mm(a, b, sa, sb)
    assert_close(out, (a @ b) * sa[:, None] * sb[None, :], **DOT_TOL)


def test_untuned_shape_uses_default_config():
    a, b = torch.randn(3, 16, device=DEVICE), torch.randn(16, 24, device=DEVICE)
    configs, source = scaled_mm_mod.get_scaled_mm_configs(24, 16)
    assert configs is None and source == "default"
    out = scaled_mm_mod.scaled_mm(a, b, torch.ones(3, device=DEVICE), torch.ones(24, device=DEVICE))
    assert_close(out, a @ b, **DOT_TOL)


def test_config_file_names_the_device_the_kernel_runs_on():
    expected = "cpu" if DEVICE == "cpu" else torch.cuda.get_device_name().replace(" ", "_")
    assert scaled_mm_mod.get_config_file_name(64, 32) == f"N=64,K=32,device_name={expected}.json"


def test_tuned_config_is_found_next_to_the_module():
    """The configs/ directory must stay beside scaled_mm.py: a miss is a silent slowdown."""
    expected_dir = os.path.join(os.path.dirname(os.path.realpath(scaled_mm_mod.__file__)), "configs")
    name = scaled_mm_mod.get_config_file_name(64, 32)
    if not os.path.exists(os.path.join(expected_dir, name)):
        pytest.skip(f"no tuned config for this device ({name})")
    configs, source = scaled_mm_mod.get_scaled_mm_configs(64, 32)
    assert source == os.path.join(expected_dir, name)
    assert configs[16] == {"BLOCK_M": 16, "BLOCK_N": 32, "BLOCK_K": 32}
    assert scaled_mm_mod.get_config(60, 64, 32)["BLOCK_M"] == 32


if __name__ == "__main__":
    sys.exit(pytest.main([__file__]))

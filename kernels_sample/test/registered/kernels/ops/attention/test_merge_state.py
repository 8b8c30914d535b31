"""merge_attn_states (sglang.kernels.ops.attention.merge_state), already in its group."""

import sys

import pytest
import torch

from sglang.kernels.ops.attention.merge_state import merge_attn_states
from sglang.test.ci.ci_register import register_cuda_ci
from sglang.test.kernels.device import DEVICE
from sglang.test.kernels.references import assert_close

register_cuda_ci(est_time=10, stage="base-b-kernel-unit", runner_config="1-gpu-small")


@pytest.mark.parametrize("head_dim", [16, 24])
def test_merge_matches_full_softmax(head_dim):
    tokens, heads = 3, 2
    va, vb = torch.randn(tokens, heads, head_dim, device=DEVICE), torch.randn(tokens, heads, head_dim, device=DEVICE)
    la, lb = torch.randn(tokens, heads, device=DEVICE), torch.randn(tokens, heads, device=DEVICE)
    out, lse = merge_attn_states(va, la, vb, lb)
    wa = torch.sigmoid(la - lb)[..., None]
    assert_close(out, wa * va + (1 - wa) * vb)
    assert_close(lse, torch.logaddexp(la, lb))


if __name__ == "__main__":
    sys.exit(pytest.main([__file__]))

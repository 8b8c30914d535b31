"""KV cache store (sglang.jit_kernel.kvcache)."""

import unittest

import torch

from sglang.jit_kernel.kvcache import store_kv_cache
from sglang.test.ci.ci_register import register_cuda_ci
from sglang.test.kernels.device import DEVICE

register_cuda_ci(est_time=10, stage="base-b-kernel-unit", runner_config="1-gpu-small")


class TestStoreKVCache(unittest.TestCase):
    def setUp(self):
        torch.manual_seed(1)
        self.k_cache = torch.zeros(16, 2, 8, device=DEVICE)
        self.v_cache = torch.zeros(16, 2, 8, device=DEVICE)

    def test_scatter_to_slots(self):
        k, v = torch.randn(3, 2, 8, device=DEVICE), torch.randn(3, 2, 8, device=DEVICE)
        slots = torch.tensor([5, 0, 11], device=DEVICE)
        store_kv_cache(k, v, self.k_cache, self.v_cache, slots)
        torch.testing.assert_close(self.k_cache[slots], k)
        torch.testing.assert_close(self.v_cache[slots], v)
        untouched = torch.ones(16, dtype=torch.bool, device=DEVICE)
        untouched[slots] = False
        self.assertEqual(self.k_cache[untouched].abs().sum().item(), 0.0)

    def test_padded_tokens_are_skipped(self):
        k, v = torch.randn(2, 2, 8, device=DEVICE), torch.randn(2, 2, 8, device=DEVICE)
        store_kv_cache(k, v, self.k_cache, self.v_cache, torch.tensor([-1, 3], device=DEVICE))
        torch.testing.assert_close(self.k_cache[3], k[1])
        self.assertEqual(self.k_cache.abs().sum().item(), k[1].abs().sum().item())

    def test_dtype_mismatch(self):
        with self.assertRaises(ValueError):
            store_kv_cache(torch.randn(1, 2, 8, device=DEVICE).half(), torch.randn(1, 2, 8, device=DEVICE).half(), self.k_cache, self.v_cache,
                           torch.tensor([0], device=DEVICE))


if __name__ == "__main__":
    unittest.main()

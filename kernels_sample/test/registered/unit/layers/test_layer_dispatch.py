"""Runtime layers dispatch to their kernels (patched where only the call matters)."""

import sys
from unittest import mock

import pytest
import torch

import sglang.jit_kernel.norm as norm_mod
from sglang.srt.kernel_plugins.nvidia.binding import should_bind
from sglang.srt.layers import RMSNorm, rmsnorm
from sglang.srt.layers.activation import SiluAndMul
from sglang.srt.layers.communication.allreduce_norm import get_allreduce_norm_adapter
from sglang.srt.layers.moe_topk import align_for_grouped_gemm, select_experts
from sglang.srt.layers.quant_utils import apply_w8a8_int8_linear, fake_quant
from sglang.srt.layers.rotary_embedding import QKNormRotaryEmbedding, RotaryEmbedding
from sglang.srt.layers.sampler import Sampler
from sglang.srt.mem_cache.memory_pool import MHATokenToKVPool, can_use_hicache_jit_kernel
from sglang.srt.model_executor.forward_batch_info import ForwardBatch
from sglang.srt.models.deepseek_v2 import DeepseekV3Gate
from sglang.test.ci.ci_register import register_cpu_ci
from sglang.test.kernels.device import DEVICE
from sglang.test.kernels.references import assert_close, rmsnorm_ref

register_cpu_ci(est_time=20, suite="base-a-test-cpu")


def test_layers_package_reexports_the_kernel():
    assert rmsnorm is norm_mod.rmsnorm


def test_rmsnorm_layer_goes_through_the_kernel_module():
    layer = RMSNorm(16).to(DEVICE)
    x = torch.randn(2, 16, device=DEVICE)
    with mock.patch("sglang.jit_kernel"
                    ".norm.rmsnorm", wraps=norm_mod.rmsnorm) as spy:
        out = layer(x)
    spy.assert_called_once()
    assert_close(out, rmsnorm_ref(x, layer.weight.data))


def test_rmsnorm_layer_with_residual_and_quant():
    layer = RMSNorm(16).to(DEVICE)
    x, residual = torch.randn(2, 16, device=DEVICE), torch.randn(2, 16, device=DEVICE)
    expected = rmsnorm_ref(x + residual, layer.weight.data)
    out, _ = layer(x.clone(), residual)
    assert_close(out, expected)
    q, scale = layer.forward_with_quant(x)
    assert_close(q * scale[:, None], rmsnorm_ref(x, layer.weight.data), atol=1e-4, rtol=1e-4)


def test_silu_layer_dispatch():
    with mock.patch("sglang.jit_kernel.activation.silu_and_mul", return_value="patched") as fake:
        assert SiluAndMul()(torch.randn(2, 8, device=DEVICE)) == "patched"
    fake.assert_called_once()
    q, scale = SiluAndMul(quantize_output=True)(torch.randn(2, 8, device=DEVICE))
    assert q.shape == (2, 4) and scale.shape == (2,)


def test_sampler_uses_min_p_kernel(monkeypatch):
    calls = []

    def fake(probs, uniform, min_p):
        calls.append(min_p)
        return torch.zeros(probs.shape[0], dtype=torch.int32, device=DEVICE)

    monkeypatch.setattr("sglang.jit_kernel.sampling.min_p_sampling_from_probs", fake)
    ids = Sampler().sample(torch.randn(3, 10, device=DEVICE), min_p=0.1)
    assert calls == [0.1] and ids.tolist() == [0, 0, 0]


def test_sampler_real_kernel_is_deterministic():
    logits = torch.randn(4, 32, device=DEVICE)
    assert torch.equal(Sampler(seed=7).sample(logits), Sampler(seed=7).sample(logits))


def test_rotary_layers():
    rope = RotaryEmbedding(head_dim=16, max_position=32, device=DEVICE)
    with pytest.raises(TypeError):
        RotaryEmbedding(16, 32, cache=object())
    q, k = torch.randn(2, 2, 16, device=DEVICE), torch.randn(2, 1, 16, device=DEVICE)
    q0 = q.clone()
    rope(torch.tensor([0, 0], device=DEVICE), q, k)
    assert_close(q, q0)
    QKNormRotaryEmbedding(16, 32, device=DEVICE)(torch.tensor([1, 2], device=DEVICE), q, k)


def test_kv_pool_and_batch_metadata():
    assert can_use_hicache_jit_kernel(1, torch.float32)
    pool = MHATokenToKVPool(size=8, head_num=2, head_dim=4, device=DEVICE)
    k, v = torch.randn(2, 2, 4, device=DEVICE), torch.randn(2, 2, 4, device=DEVICE)
    pool.set_kv_buffer(torch.tensor([6, 1], device=DEVICE), k, v)
    assert_close(pool.k_buffer[6], k[0])
    batch = ForwardBatch(req_pool_indices=torch.tensor([1], device=DEVICE), seq_lens=torch.tensor([5], device=DEVICE), positions=torch.arange(5, device=DEVICE))
    batch.init_attention_metadata(torch.arange(64, device=DEVICE).view(2, 32), page_size=4)
    assert batch.cu_seqlens.tolist() == [0, 5]
    assert batch.page_table.tolist() == [[8, 9]]


def test_moe_and_quant_layers():
    logits = torch.randn(3, 8, device=DEVICE)
    weights, ids = select_experts(logits, topk=2)
    assert weights.shape == ids.shape == (3, 2)
    sorted_ids, expert_ids, total = align_for_grouped_gemm(ids, 8, 4)
    assert int(total) % 4 == 0
    gate = DeepseekV3Gate(hidden_size=16, n_routed_experts=16, topk=4, n_group=4, topk_group=2).to(DEVICE)
    w, e = gate(torch.randn(2, 16, device=DEVICE))
    assert_close(w.sum(-1), torch.full((2,), 2.5, device=DEVICE))
    x = torch.randn(4, 32, device=DEVICE)
    w_q = torch.randint(-127, 128, (32, 64), dtype=torch.int8, device=DEVICE)
    w_scale = torch.rand(64, device=DEVICE) * 0.01
    out = apply_w8a8_int8_linear(x, w_q, w_scale)
    assert_close(out, fake_quant(x) @ (w_q.float() * w_scale), atol=1e-3, rtol=1e-3)


def test_communication_adapter_is_a_singleton():
    adapter = get_allreduce_norm_adapter()
    assert adapter is get_allreduce_norm_adapter()
    x, residual, w = torch.randn(2, 8, device=DEVICE), torch.randn(2, 8, device=DEVICE), torch.ones(8, device=DEVICE)
    expected = rmsnorm_ref(x + residual, w)
    normed, _ = adapter(x, residual, w)
    assert_close(normed, expected)
    assert not should_bind(True, "DeepseekV3ForCausalLM")


if __name__ == "__main__":
    sys.exit(pytest.main([__file__]))

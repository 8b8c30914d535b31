"""The classifier applies the decided placement rules, in order, from code alone."""

from __future__ import annotations

import pytest

from migrate.layout.classify import INFRA, classify_source


def group(src: str, module: str = "sglang.jit_kernel.k") -> str | None:
    return classify_source(src, module).group


@pytest.mark.parametrize(
    ("src", "module", "expected"),
    [
        # any cross-rank collective wins, whatever it fuses
        (
            "def fused_allreduce_rmsnorm(x, w):\n    return custom_all_reduce(rmsnorm(x, w))\n",
            "sglang.jit_kernel.fused",
            "communication",
        ),
        (
            "def gather(x, peer_ptrs):\n    return symm_mem_all_gather(x, peer_ptrs)\n",
            "sglang.jit_kernel.g",
            "communication",
        ),
        # producer + output quantization stays with the producer
        (
            "def rmsnorm_quant_fp8(x, w):\n    return per_tensor_quant_fp8(rmsnorm(x, w))\n",
            "sglang.jit_kernel.nq",
            "layernorm",
        ),
        (
            "def silu_and_mul_fp8_quant(x):\n    return fp8_quant(silu_and_mul(x))\n",
            "sglang.jit_kernel.aq",
            "activation",
        ),
        (
            "def fp8_scaled_gemm(a, b, scale):\n    return gemm_fp8(a, b, scale)\n",
            "sglang.jit_kernel.g",
            "gemm",
        ),
        # pure format conversion
        (
            "def per_token_group_quant_fp8(x, group_size):\n    return x\n",
            "sglang.jit_kernel.q",
            "quantization",
        ),
        # RoPE, including QK-norm + RoPE, is attention
        (
            "def apply_rope_with_cos_sin_cache(q, k, cos_sin_cache):\n    return q, k\n",
            "sglang.jit_kernel.r",
            "attention",
        ),
        (
            "def fused_qk_norm_rope(q, k, w, cos_sin_cache):\n"
            "    return apply_rotary(qk_rmsnorm(q, k, w))\n",
            "sglang.jit_kernel.qknorm_rope",
            "attention",
        ),
        # KV-cache contents vs index tables
        (
            "def store_kv_cache(k, v, k_cache, v_cache, loc):\n    k_cache[loc] = k\n",
            "sglang.jit_kernel.kv",
            "kvcache",
        ),
        (
            "def create_kv_indices(req_to_token, kv_indptr, kv_indices):\n    pass\n",
            "sglang.jit_kernel.idx",
            "attention",
        ),
        # shared build infrastructure
        (
            "def load_jit(name, cuda_files=()):\n    return find_spec('x')\n",
            "sglang.jit_kernel.utils",
            INFRA,
        ),
    ],
)
def test_decided_rules(src, module, expected):
    assert group(src, module) == expected


def test_model_name_does_not_decide():
    src = "def deepseek_v3_grouped_topk(router_logits, num_experts):\n    return router_logits\n"
    assert group(src, "sglang.jit_kernel.deepseek_v3_router") == "moe"


def test_docstrings_and_comments_are_not_evidence():
    src = (
        '"""Used before the all_reduce in the RoPE path."""\n'
        "# all_gather\ndef silu(x):\n    return x\n"
    )
    assert group(src, "sglang.jit_kernel.act") == "activation"


def test_jit_prefix_is_ignored_in_the_file_name():
    assert group("def run(x):\n    return x\n", "sglang.jit_kernel._jit_rmsnorm") == "layernorm"


def test_no_signal_is_low_confidence():
    c = classify_source("def f(x):\n    return x\n", "sglang.jit_kernel.misc")
    assert c.group is None and c.review


def test_evidence_names_the_identifiers():
    c = classify_source("def custom_all_reduce(x):\n    return x\n", "sglang.jit_kernel.ar")
    assert "custom_all_reduce (def, line 1)" in c.evidence and c.confidence >= 0.9

"""What a kernel module computes, read from its code: kernel names, calls, identifiers.

Signals come from definitions, calls, other identifiers and identifiers inside string
literals (such as `.cu` file names); comments and docstrings are ignored, and so are
model names: a model name says nothing about the computation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

# Weight of a token by where it appears: the kernel's own name and what it calls say
# most about its contract.
WEIGHTS = {"def": 3, "call": 2, "name": 1, "string": 1}

PATTERNS: dict[str, str] = {
    # TMA multicast is intra-cluster (not NVLS); symmetric *allocation* helpers do not
    # access peers themselves.
    "communication": r"^(?!.*tma)(?!(?:use|is_allocation)_symm)(?:.*(?:all_?reduce|all_?gather|"
    r"reduce_?scatter|all_?to_?all|^a2a|_a2a|multicast|nvls|symm_?mem|symmetric_mem|custom_ar|"
    r"^nccl|_nccl|ipc_handle|peer_ptr|peer_mem|mnnvl|two_shot|one_shot))",
    "rope": r"(?:^|_)m?rope(?:$|_)|rotary|cos_sin|^positions?$|position_ids|clamp_position",
    "attention": r"attention|attn|flash_|paged_|softmax_lse|merge_state|sdpa|decode_kernel|"
    r"extend_kernel|cascade|mqa|gqa|^mha|_mha|gdn|gated_delta|linear_attn|sparse_mla",
    # MLA names a KV layout as much as a computation: attention evidence, not compute.
    "mla": r"^mla|_mla|mla_",
    "attention_index": r"page_table|cu_seqlens|kv_indices|kv_indptr|qo_indptr|split_kv|"
    r"num_splits|req_to_token|kv_last_page|block_table",
    "kvcache": r"kv_?cache|k_cache|v_cache|kv_buffer|store_kv|set_kv|cache_loc|kv_pool|"
    r"write_cache|copy_kv|hicache|transfer_kv|kv_?store|k_buffer|v_buffer|store_cache",
    "layernorm": r"rms_?norm|layer_?norm|qk_?norm|group_?norm|^norm$|fused_add_rms",
    "activation": r"silu|gelu|swiglu|geglu|act_and_mul|relu|activation",
    "gemm": r"gemm|gemv|matmul|^bmm|scaled_mm|cublas|^mm$|_mm$|^mm_",
    "moe": r"^moe|moe_|_moe|topk|expert|router|routing|unpermute|permute_(?:tokens|experts)|"
    r"align_block|ep_scatter|ep_gather",
    "quantization": r"quant|fp8|int8|fp4|mxfp|e4m3|e5m2|per_token_group|per_tensor|"
    r"scale_inv|repack|ue8m0|awq|gptq|marlin|hadamard",
    "sampling": r"sampling|sample|top_p|min_p|multinomial|penalt|temperature",
    "speculative": r"eagle|draft|speculat|verify_tree|tree_mask|build_tree|accept_|ngram",
    "mamba": r"mamba|^ssm|_ssm|selective_scan|causal_conv|conv1d|chunk_scan|ssd_",
    "elementwise": r"elementwise|concat|clamp|add_constant",
    "embeddings": r"embedding|vocab_parallel|^embed",
    "lora": r"lora|sgmv|bgmv",
    "grammar": r"grammar|bitmask|vocab_mask|token_mask",
    "diffusion": r"diffusion|timestep|adaln|modulat|^dit_",
    "memory": r"memcpy|memset|host_to_device|pin_memory|offload",
    "mm": r"vision|pixel|patch_embed|multimodal",
    "lplb": r"lplb|load_balanc",
    "kv_canary": r"canary",
    "infrastructure": r"load_jit|load_inline|cpp_extension|find_spec|tvm_ffi|build_dir|"
    r"cache_dir|nvcc|make_cpp_args|cpp_files|cuda_files|compile_flags|extra_cflags",
}
_COMPILED = {k: re.compile(v) for k, v in PATTERNS.items()}
_ANY = re.compile("|".join(f"(?:{v})" for v in PATTERNS.values()))  # one search for most tokens
# Tokens too generic to be evidence of anything.
_STOP = {"self", "torch", "triton", "tl", "x", "y", "out", "input", "output", "args"}


@dataclass
class Signals:
    scores: dict[str, int] = field(default_factory=dict)
    hits: dict[str, dict[str, tuple[str, int]]] = field(default_factory=dict)  # tok->(kind,line)

    def score(self, key: str) -> int:
        return self.scores.get(key, 0)

    def strong(self, key: str, exclude: re.Pattern | None = None) -> int:
        """Weight from definitions and calls only (not mere mentions), one per identifier;
        identifiers matching `exclude` do not count."""
        return sum(
            WEIGHTS[kind]
            for tok, (kind, _) in self.hits.get(key, {}).items()
            if kind in ("def", "call") and not (exclude and exclude.search(tok))
        )

    def evidence(self, key: str, limit: int = 4) -> str:
        items = sorted(self.hits.get(key, {}).items(), key=lambda kv: (kv[1][1], kv[0]))
        shown = [
            f"{tok} ({'file name' if not line else f'{kind}, line {line}'})"
            for tok, (kind, line) in items[:limit]
        ]
        more = len(items) - limit
        return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


# Comments and triple-quoted strings (docstrings) carry prose, not computation.
_PROSE = re.compile(r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|#[^\n]*')
_TOKEN = re.compile(r"\b(?:(?:def|class)\s+([A-Za-z_]\w*)|([A-Za-z_]\w*)(\s*\()?)")


def _blank(m: re.Match) -> str:
    return "\n" * m.group(0).count("\n")  # keep line numbers


def _tokens(text: str):
    """(token, kind, line) for each identifier: `def`/`class` names, calls, other names.

    A text scan, not an AST walk: it is run on every operator module of a real tree and
    must take milliseconds. Identifiers inside string literals (`.cu` file names) count.
    """
    text = _PROSE.sub(_blank, text)
    line, pos = 1, 0
    for m in _TOKEN.finditer(text):
        line += text.count("\n", pos, m.start())
        pos = m.start()
        if m.group(1):
            yield m.group(1), "def", line
        elif m.group(3) is not None:
            yield m.group(2), "call", line
        else:
            yield m.group(2), "name", line


@lru_cache(maxsize=65536)
def _keys_of(low: str) -> tuple[str, ...]:
    """Signal keys a lowercased token matches (tokens repeat a lot: cached)."""
    if low in _STOP or len(low) < 2 or not _ANY.search(low):
        return ()
    return tuple(key for key, rx in _COMPILED.items() if rx.search(low))


def signals_of(text: str, extra: tuple[tuple[str, str, int], ...] = ()) -> Signals:
    """Signals of module source `text`; `extra` adds tokens such as the file name."""
    sig = Signals()
    best: dict[tuple[str, str], tuple[int, str, int]] = {}
    for tok, kind, line in (*extra, *_tokens(text)):
        low = tok.lower()
        for key in _keys_of(low):
            sig.scores[key] = sig.scores.get(key, 0) + WEIGHTS[kind]
            prev = best.get((key, low))
            if prev is None or WEIGHTS[kind] > prev[0]:
                best[(key, low)] = (WEIGHTS[kind], kind, line)
    for (key, low), (_, kind, line) in best.items():
        sig.hits.setdefault(key, {})[low] = (kind, line)
    return sig

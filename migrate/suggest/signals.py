"""What a kernel module computes, read from its code: kernel names, calls, identifiers.

Signals come from the AST only (definitions, calls, other identifiers, string literals
such as `.cu` file names); comments and docstrings are ignored, and so are model names:
a model name says nothing about the computation.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

# Weight of a token by where it appears: the kernel's own name and what it calls say
# most about its contract.
WEIGHTS = {"def": 3, "call": 2, "name": 1, "string": 1}

PATTERNS: dict[str, str] = {
    "communication": r"all_?reduce|all_?gather|reduce_?scatter|all_?to_?all|^a2a|_a2a|"
    r"multicast|nvls|symm_?mem|symmetric_mem|custom_ar|^nccl|_nccl|ipc_handle|peer_ptr|"
    r"peer_mem|mnnvl|two_shot|one_shot",
    "rope": r"rope|rotary|cos_sin|mrope",
    "attention": r"attention|attn|flash_|^mla|_mla|mla_|paged_|softmax_lse|merge_state|"
    r"sdpa|decode_kernel|extend_kernel|cascade",
    "attention_index": r"page_table|cu_seqlens|kv_indices|kv_indptr|qo_indptr|split_kv|"
    r"num_splits|req_to_token|kv_last_page|block_table",
    "kvcache": r"kv_?cache|k_cache|v_cache|kv_buffer|store_kv|set_kv|cache_loc|kv_pool|"
    r"write_cache|copy_kv|hicache|transfer_kv|kv_?store|k_buffer|v_buffer",
    "layernorm": r"rms_?norm|layer_?norm|qk_?norm|group_?norm|^norm$|fused_add_rms",
    "activation": r"silu|gelu|swiglu|geglu|act_and_mul|relu|activation",
    "gemm": r"gemm|gemv|matmul|^bmm|scaled_mm|cublas|^mm$|_mm$|^mm_",
    "moe": r"^moe|moe_|_moe|topk|expert|router|routing|permute|align_block",
    "quantization": r"quant|fp8|int8|fp4|mxfp|e4m3|e5m2|per_token_group|per_tensor|"
    r"scale_inv|repack|swizzle|ue8m0|awq|gptq|marlin",
    "sampling": r"sampling|sample|top_p|min_p|multinomial|penalt|temperature",
    "speculative": r"eagle|draft|speculat|verify_tree|tree_mask|build_tree|accept_",
    "mamba": r"mamba|^ssm|_ssm|selective_scan|causal_conv|conv1d|chunk_scan|gated_delta|ssd_",
    "elementwise": r"elementwise|^cast$|^copy$|^fill$|concat|clamp",
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
# Tokens too generic to be evidence of anything.
_STOP = {"self", "torch", "triton", "tl", "x", "y", "out", "input", "output", "args"}


@dataclass
class Signals:
    scores: dict[str, int] = field(default_factory=dict)
    hits: dict[str, dict[str, tuple[str, int]]] = field(default_factory=dict)  # tok->(kind,line)

    def score(self, key: str) -> int:
        return self.scores.get(key, 0)

    def strong(self, key: str) -> int:
        """Weight from definitions and calls only (not mere mentions)."""
        return sum(
            WEIGHTS[kind] for kind, _ in self.hits.get(key, {}).values() if kind in ("def", "call")
        )

    def evidence(self, key: str, limit: int = 4) -> str:
        items = sorted(self.hits.get(key, {}).items(), key=lambda kv: (kv[1][1], kv[0]))
        shown = [
            f"{tok} ({'file name' if not line else f'{kind}, line {line}'})"
            for tok, (kind, line) in items[:limit]
        ]
        more = len(items) - limit
        return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


def _docstring_nodes(tree: ast.Module) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
    return ids


def _tokens(tree: ast.Module):
    """(token, kind, line) for every identifier and string literal that can carry meaning."""
    docs = _docstring_nodes(tree)
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield node.name, "def", node.lineno
        elif isinstance(node, ast.Call):
            f = node.func
            name = (
                f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            )
            if name:
                yield name, "call", node.lineno
        elif isinstance(node, ast.Name):
            yield node.id, "name", node.lineno
        elif isinstance(node, ast.Attribute):
            yield node.attr, "name", node.lineno
        elif isinstance(node, ast.alias):
            yield node.name.rsplit(".", 1)[-1], "name", getattr(node, "lineno", 0)
        elif isinstance(node, ast.arg):
            yield node.arg, "name", node.lineno
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docs
            and len(node.value) < 120
        ):
            for piece in re.split(r"[^A-Za-z0-9_]+", node.value):
                if piece:
                    yield piece, "string", node.lineno


def signals_of(tree: ast.Module) -> Signals:
    sig = Signals()
    best: dict[tuple[str, str], tuple[int, str, int]] = {}
    for tok, kind, line in _tokens(tree):
        low = tok.lower()
        if low in _STOP or len(low) < 2:
            continue
        for key, rx in _COMPILED.items():
            if rx.search(low):
                sig.scores[key] = sig.scores.get(key, 0) + WEIGHTS[kind]
                prev = best.get((key, low))
                if prev is None or WEIGHTS[kind] > prev[0]:
                    best[(key, low)] = (WEIGHTS[kind], kind, line)
    for (key, low), (_, kind, line) in best.items():
        sig.hits.setdefault(key, {})[low] = (kind, line)
    return sig


def signals_of_text(text: str) -> Signals | None:
    try:
        return signals_of(ast.parse(text))
    except (SyntaxError, ValueError):
        return None

"""Choose a module's group from its computation, applying the decided placement rules.

Order matters and follows kernel-organization.md: any cross-rank collective or peer
memory wins (communication); RoPE goes to attention; KV-cache content reads/writes go to
kvcache while index/schedule tables go to attention; producer + output quantization
stays with the producer and quantization keeps only pure format conversion. Otherwise
the strongest computation signal decides, and a thin margin lowers the confidence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from migrate.layout.signals import Signals, signals_of

INFRA = "jit"  # shared build/runtime infrastructure: sglang.kernels.jit
PRODUCERS = ("layernorm", "activation", "gemm", "moe")
COMPUTE = (
    "attention", "kvcache", "layernorm", "activation", "gemm", "moe", "quantization",
    "sampling", "speculative", "mamba", "elementwise", "embeddings", "lora", "grammar",
    "diffusion", "memory", "mm", "lplb", "kv_canary",
)  # fmt: skip
REVIEW_BELOW = 0.6
# Pure format conversion verbs: `awq_marlin_moe_repack` converts MoE weights, it does
# not run an MoE; such identifiers are not evidence of a producer.
CONVERSION = re.compile(r"repack|dequant|convert|layout|transpose|shuffle|pack_|_pack|unpack")


@dataclass(frozen=True)
class Classification:
    group: str | None  # None: no signal at all
    confidence: float
    reason: str
    evidence: str

    @property
    def review(self) -> bool:
        return self.group is None or self.confidence < REVIEW_BELOW


def _scores(sig: Signals) -> dict[str, int]:
    s = {g: sig.score(g) for g in COMPUTE}
    s["attention"] += sig.score("rope") + sig.score("attention_index") + sig.score("mla")
    return s


def _defines(sig: Signals, key: str) -> bool:
    """The module defines (not merely calls) something of `key`: build helpers are
    infrastructure, a wrapper calling `load_jit` is an operator."""
    return any(kind == "def" and line for kind, line in sig.hits.get(key, {}).values())


def _margin(top: int, second: int) -> float:
    return round(min(0.95, top / (top + second)) if top else 0.0, 2)


def classify_signals(sig: Signals) -> Classification:
    comm = sig.score("communication")
    if sig.strong("communication") >= 2 or comm >= 3:
        conf = 0.95 if sig.strong("communication") >= 3 else 0.75
        return Classification(
            "communication",
            conf,
            "cross-rank collective or peer memory (communication, whatever it fuses)",
            sig.evidence("communication"),
        )
    scores = _scores(sig)
    ranked = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
    (top, top_s), (_, second_s) = ranked[0], ranked[1]
    if sig.strong("infrastructure") and _defines(sig, "infrastructure") and top_s < 3:
        return Classification(
            INFRA, 0.8, "shared JIT build/runtime infrastructure", sig.evidence("infrastructure")
        )
    if sig.strong("rope") >= 2:  # a RoPE kernel or call, not a stored `k_rope` part
        return Classification("attention", 0.85, "RoPE stays in attention", sig.evidence("rope"))
    kv, idx, att = sig.score("kvcache"), sig.score("attention_index"), sig.score("attention")
    att_all = att + sig.score("mla")
    producer = max(PRODUCERS, key=lambda g: (scores[g], g))
    if kv >= 3 and kv >= att and kv >= scores[producer] and kv >= idx:
        return Classification(
            "kvcache",
            _margin(kv, max(att, idx, scores[producer])),
            "reads/writes KV-cache contents",
            sig.evidence("kvcache"),
        )
    if idx >= 3 and idx >= kv and top in ("attention", "kvcache"):
        return Classification(
            "attention",
            _margin(idx + att_all, kv),
            "index/shape/schedule tables belong to attention",
            sig.evidence("attention_index"),
        )
    if top == "quantization":
        producer = max(PRODUCERS, key=lambda g: (sig.strong(g, CONVERSION), g))
        if sig.strong(producer, CONVERSION) >= 3:
            return Classification(
                producer,
                _margin(scores[producer], second_s // 2),
                f"{producer} with an output quantization epilogue stays with the producer",
                sig.evidence(producer) + "; quantization: " + sig.evidence("quantization", 2),
            )
        return Classification(
            "quantization",
            _margin(top_s, second_s),
            "pure format conversion",
            sig.evidence("quantization"),
        )
    if top_s == 0:
        return Classification(None, 0.0, "no computation signal", "")
    return Classification(
        top, _margin(top_s, second_s), "strongest computation signal", sig.evidence(top)
    )


INFRA_NAMES = {"utils", "__main__", "build", "jit_utils", "loader", "load", "compile"}


def classify_source(text: str, module: str = "") -> Classification:
    """Classify module source; the module's file name counts as a kernel name, and its
    last word (the head noun: `dsv3_router_gemm` is a GEMM) counts once more."""
    base = re.sub(r"^_?jit_", "", module.rsplit(".", 1)[-1])
    if base in INFRA_NAMES:
        evidence = signals_of(text).evidence("infrastructure")
        return Classification(INFRA, 0.8, f"`{base}` module: shared infrastructure", evidence)
    extra: tuple = ()
    if base and base != "__init__":
        head = base.rsplit("_", 1)[-1]
        extra = ((base, "def", 0),) + (((head, "def", 0),) if head != base else ())
    return classify_signals(signals_of(text, extra))

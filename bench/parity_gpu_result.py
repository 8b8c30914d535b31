"""Summarize a bench/parity_gpu_run.sh run directory as markdown (stdout).

Everything stated is read from the run's own outputs: the environment probe, the exit
status and summary line of each native suite run, the per-test CUDA allocation counts
(bench/cuda_usage.py), and the parity JSON of the applied sample and of each mutant.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path


def _suite(raw: Path, side: str) -> list[str]:
    text = (raw / f"suite-{side}.txt").read_text(errors="replace").splitlines()
    rc = (raw / f"suite-{side}.rc").read_text().strip()
    usage = json.loads((raw / f"cuda-{side}.json").read_text())
    on_gpu = sorted(n for n, k in usage.items() if k > 0)
    off_gpu = sorted(n for n, k in usage.items() if k <= 0)
    lines = [
        f"- **{side.upper()}**: exit {rc}, `{text[-1] if text else '?'}`; {len(on_gpu)} of "
        f"{len(usage)} tests allocated CUDA memory during their call"
    ]
    if off_gpu and len(off_gpu) < len(usage):  # all of them: the count says it
        lines.append(
            f"  - no CUDA allocation ({len(off_gpu)}): " + ", ".join(f"`{n}`" for n in off_gpu)
        )
    failed = [ln for ln in text if ln.startswith(("FAILED", "ERROR"))]
    lines += [f"  - {ln}" for ln in failed]
    return lines


def _parity(raw: Path, name: str) -> tuple[dict, list[str]]:
    r = json.loads((raw / f"{name}.json").read_text())
    calls = [c for c in r["calls"] if c["status"] not in ("base_only", "head_only")]
    devices = Counter(d for c in calls for d in c["devices"] or ["-"])
    status = Counter(c["status"] for c in r["calls"])
    last = (raw / f"{name}.txt").read_text().strip().splitlines()[-1]
    lines = [
        f"- `{last}` (ok={r['ok']}); calls by status: {dict(status)}; by tensor device: "
        f"{dict(devices)}; {len(r['modules'])} moved Triton module(s), {len(r['ops'])} op(s)"
    ]
    return r, lines


def main(raw: Path) -> None:
    out = ["# GPU run of the sample (bench/parity_gpu_run.sh)", "", "## Environment", "", "```"]
    out += [(raw / "env.txt").read_text().rstrip(), "```", ""]
    interp = "TRITON_INTERPRET=1" in (raw / "env.txt").read_text()
    how = "in the Triton interpreter (dry run)" if interp else "natively (TRITON_INTERPRET unset)"
    out += [f"## The sample's own suite, {how}", ""]
    out += _suite(raw, "base") + _suite(raw, "head") + [""]
    r, lines = _parity(raw, "parity")
    out += ["## `migrate parity BASE..HEAD --plan plans/sample-jit-to-ops.yaml`", ""] + lines
    kinds = Counter()
    for op in r["ops"]:
        attr = op["op"].partition(":")[2]
        kind = (
            "torch.ops"
            if attr.startswith("torch.ops.")
            else "launch by a test"
            if attr in op["kernels"]
            else "fused-op method"
            if ".forward_" in attr
            else "dotted target"
            if "." in attr
            else "function"
        )
        if op["status"] == "identical":
            kinds[kind] += 1
    out.append(f"- identical ops by entry kind: {dict(kinds)}")
    out += [
        f"  - {f['severity'].replace('error', 'problem')}: {f['message']}" for f in r["findings"]
    ]
    out.append("")
    for name in ("mutant-silu", "mutant-gelu"):
        if not (raw / f"{name}.json").exists():
            out.append(f"- {name}: did not run")
            continue
        m, lines = _parity(raw, name)
        out += [f"## {name} (one changed constant, parity on the activation module)", ""] + lines
        out += [
            f"  - {f['message']}"
            for f in m["findings"]
            if f["severity"] == "error" and "different" in f["message"]
        ][:12]
        out.append("")
    out += [
        "## Not run",
        "",
        "- multi-GPU collectives: one GPU; the all-reduce + RMSNorm kernel reads simulated peer"
        " buffers on one device and its entry point runs in a one-rank gloo group",
        "- CUDA JIT paths (`load_jit` of `csrc/*.cuh`, behind `SGLANG_JIT_CUDA_*`, unset) and"
        " the `sgl_kernel` AOT path (not installed)",
        "- the CI microbenchmarks (`bench_*.py`, not collected by pytest)",
    ]
    print("\n".join(out))


if __name__ == "__main__":
    main(Path(sys.argv[1]))

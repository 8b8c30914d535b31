"""Human-readable parity report. It says exactly what ran where: no GPU claim without a GPU."""

from __future__ import annotations

from collections import Counter

from migrate.parity.model import ParityResult, SideRun


def _env_line(name: str, run: SideRun) -> str:
    e = run.env
    if not e:
        return f"  {name} {run.rev} ({run.sha[:10]}): did not run"
    gpu = ", ".join(e.get("gpus", [])) or "no GPU visible"
    if e.get("capability"):
        gpu += f" ({e['capability']})"
    interp = " TRITON_INTERPRET=1" if e.get("triton_interpret") == "1" else ""
    return (
        f"  {name} {run.rev} ({run.sha[:10]}): python {e.get('python')}, torch {e.get('torch')}"
        f", triton {e.get('triton', e.get('triton_error'))}, {gpu}{interp}, {run.seconds}s"
    )


def device_summary(r: ParityResult) -> list[str]:
    """Which checks ran on which device, counted from the recorded calls themselves."""
    paired = [c for c in r.calls if c.status not in ("base_only", "head_only")]
    per_dev = Counter(d for c in paired for d in c.devices or ["-"])
    gpu_calls = sum(1 for c in paired if any(d.startswith("cuda") for d in c.devices))
    lines = [f"device: {r.device} (requested {r.device_requested})"]
    if r.device == "cpu":
        lines.append(
            "  Triton kernels ran in the CPU interpreter (TRITON_INTERPRET=1, CUDA hidden)"
        )
    if r.default_device:
        lines.append(
            f"  tensors created by tests without a device were placed on {r.default_device}"
        )
    if gpu_calls:
        gpus = sorted({g for run in (r.base, r.head) for g in run.env.get("gpus", [])})
        lines.append(f"  GPU checks: {gpu_calls} paired call(s) ran on {', '.join(gpus)}")
    else:
        lines.append("  GPU checks: none ran")
    if per_dev:
        lines.append(
            "  calls by tensor device: " + ", ".join(f"{d} {n}" for d, n in per_dev.items())
        )
    return lines


def render(r: ParityResult) -> str:
    out = [f"migrate parity {r.base.rev}..{r.head.rev}", *device_summary(r)]
    out += [_env_line("BASE", r.base), _env_line("HEAD", r.head)]
    out.append(f"moved Triton modules: {len(r.modules)}")
    for m in r.modules:
        out.append(f"  {m.old} -> {m.new}")
        kernels, entries = ", ".join(m.kernels) or "-", ", ".join(m.wrappers)
        out.append(f"    kernels: {kernels}; entry points: {entries}")
    for name, run in (("BASE", r.base), ("HEAD", r.head)):
        counts = Counter(getattr(t, name.lower()) for t in r.tests)
        counts.pop("absent", None)
        tally = ", ".join(f"{n} {k}" for k, n in sorted(counts.items())) or "none"
        out.append(f"tests {name}: {len(run.tests)} file(s); {tally}")
    out.append("ops:")
    for op in r.ops:
        devs = f" on {', '.join(op.devices)}" if op.devices else ""
        out.append(
            f"  {op.status:<10} {op.op}: {op.identical}/{op.calls} identical"
            + (f", {op.different} different" if op.different else "")
            + (f", {op.unpaired} one-side-only" if op.unpaired else "")
            + devs
        )
    for title, found in (("warnings", r.warnings), ("problems", r.problems)):
        if found:
            out.append(f"{title} ({len(found)}):")
            out += [f"  - {f}" for f in found]
    calls = sum(1 for c in r.calls if c.status == "identical")
    if r.ok:
        where = "in the Triton CPU interpreter" if r.device == "cpu" else f"on {r.device}"
        out.append(f"PARITY OK: {calls} paired call(s) bit-identical, run {where}")
    else:
        out.append(f"PARITY FAILED: {len(r.problems)} problem(s)")
    return "\n".join(out)

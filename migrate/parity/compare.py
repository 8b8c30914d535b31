"""Pair the calls of the BASE and HEAD runs and judge them; summarize tests and imports."""

from __future__ import annotations

import re
from pathlib import Path

from migrate.findings import Finding
from migrate.parity import bitwise
from migrate.parity.model import (
    CallResult,
    MovedModule,
    OpResult,
    ParityResult,
    TestOutcome,
    problem,
    warning,
)
from migrate.parity.runner import SideOutput


def normalize_nodeid(nodeid: str, path_map: dict[str, str]) -> str:
    path, sep, rest = nodeid.partition("::")
    return path_map.get(path, path) + sep + rest


def match_nodeids(base: SideOutput, head: SideOutput, path_map: dict[str, str]) -> dict:
    """BASE node id -> HEAD node id: through moved test paths, then, for a test that
    landed in another file (a split), through its unique `Class::test[param]` name."""
    raw = {r["nodeid"] for r in base.outcomes + base.calls}
    head_ids = {r["nodeid"] for r in head.outcomes + head.calls}
    mapped = {b: normalize_nodeid(b, path_map) for b in raw}
    taken = set(mapped.values()) & head_ids
    by_name: dict[str, list[str]] = {}
    for h in head_ids - taken:
        if "::" in h:
            by_name.setdefault(h.split("::", 1)[1], []).append(h)
    for b, m in mapped.items():
        if m not in head_ids and "::" in m:
            cands = by_name.get(m.split("::", 1)[1], [])
            if len(cands) == 1:
                mapped[b] = cands[0]
    return mapped


class _Tensors:
    """Lazy, cached loading of the per-call .pt files of one side."""

    def __init__(self, out_dir: Path):
        self.out_dir, self.cache = out_dir, {}

    def get(self, name: str) -> dict:
        if name not in self.cache:
            import torch

            self.cache[name] = torch.load(self.out_dir / name, map_location="cpu")
        return self.cache[name]


def _shapes(rec: dict) -> list[str]:
    rows = []
    for path, d in sorted(rec.get("inputs", {}).items()):
        if d.get("tensor"):
            rows.append(f"{path}: {d['dtype']}{d['shape']}@{d['device']}")
    return rows


def _devices(rec: dict) -> list[str]:
    return sorted({d["device"] for d in rec.get("inputs", {}).values() if d.get("tensor")})


def _judge(b: dict, h: dict, tb: _Tensors, th: _Tensors) -> CallResult:
    res = CallResult(
        op=h["op"],
        nodeid=h["nodeid"],
        ordinal=h["ordinal"],
        status="identical",
        shapes=_shapes(h),
        devices=sorted(set(_devices(b)) | set(_devices(h))),
    )
    if b.get("error") or h.get("error"):
        if b.get("error") != h.get("error"):
            res.status = "different"
            res.detail = f"BASE raised {b.get('error')!r}; HEAD raised {h.get('error')!r}"
        return res
    if b["input_hash"] != h["input_hash"]:
        ins_b, ins_h = b["inputs"], h["inputs"]
        bad = sorted(p for p in set(ins_b) | set(ins_h) if ins_b.get(p) != ins_h.get(p))
        res.status = "inputs_differ"
        res.detail = "inputs differ (so outputs cannot be compared): " + ", ".join(bad[:6])
        return res
    out_b, out_h = b.get("outputs", {}), h.get("outputs", {})
    notes = []
    for path in sorted(set(out_b) | set(out_h)):
        db, dh = out_b.get(path), out_h.get(path)
        if db is None or dh is None:
            side = "HEAD" if db is None else "BASE"
            notes.append(f"{path}: only {side} produced/mutated it")
            continue
        if not db.get("tensor") or not dh.get("tensor"):
            if (db.get("type"), db.get("repr")) != (dh.get("type"), dh.get("repr")):
                notes.append(f"{path}: BASE {db.get('repr')} vs HEAD {dh.get('repr')}")
            continue
        if db["hash"] == dh["hash"] and db["dtype"] == dh["dtype"]:
            continue
        diff = bitwise.compare(tb.get(b["tensors"])[path], th.get(h["tensors"])[path])
        if diff.identical:
            continue
        notes.append(f"{path} {dh['dtype']}{dh['shape']}: {diff.detail}")
        for attr in ("max_abs", "max_rel"):
            val = getattr(diff, attr)
            if val is not None:
                setattr(res, attr, max(val, getattr(res, attr) or 0.0))
    if notes:
        res.status = "different"
        res.detail = "; ".join(notes)
    return res


def _index(calls: list[dict], ids: dict[str, str] | None = None) -> dict:
    out = {}
    for rec in calls:
        nodeid = (ids or {}).get(rec["nodeid"], rec["nodeid"])
        rec = dict(rec, nodeid=nodeid)
        out[(rec["op"], nodeid, rec["ordinal"])] = rec
    return out


def pair_calls(base: SideOutput, head: SideOutput, ids: dict[str, str]) -> list[CallResult]:
    b_idx, h_idx = _index(base.calls, ids), _index(head.calls)
    tb, th = _Tensors(base.out_dir), _Tensors(head.out_dir)
    results = []
    for key in sorted(set(b_idx) | set(h_idx)):
        b, h = b_idx.get(key), h_idx.get(key)
        if b and h:
            results.append(_judge(b, h, tb, th))
        else:
            rec = b or h
            results.append(
                CallResult(
                    op=key[0],
                    nodeid=key[1],
                    ordinal=key[2],
                    status="base_only" if b else "head_only",
                    shapes=_shapes(rec),
                    devices=_devices(rec),
                    detail=f"called only at {'BASE' if b else 'HEAD'}",
                )
            )
    return results


def summarize_ops(modules: list[MovedModule], calls: list[CallResult]) -> list[OpResult]:
    ops: dict[str, OpResult] = {}
    for m in modules:
        for fn in m.wrappers:
            ops[f"{m.new}:{fn}"] = OpResult(
                op=f"{m.new}:{fn}", old=f"{m.old}:{fn}", kernels=m.kernels_of.get(fn, [])
            )
    by_new = {m.new: m for m in modules}
    for c in calls:
        if c.op not in ops:  # a kernel launched by a test itself
            mod, _, attr = c.op.partition(":")
            m = by_new.get(mod)
            old = f"{m.old}:{attr}" if m else "?"
            kernels = [attr] if m and attr in m.kernels else []
            ops[c.op] = OpResult(op=c.op, old=old, kernels=kernels)
        op = ops[c.op]
        op.calls += 1
        op.devices = sorted(set(op.devices) | set(c.devices))
        if c.status == "identical":
            op.identical += 1
        elif c.status in ("base_only", "head_only"):
            op.unpaired += 1
        else:
            op.different += 1
    for op in ops.values():
        if op.different:
            op.status = "different"
        elif op.unpaired:
            op.status = "unpaired"
        elif op.calls:
            op.status = "identical"
    return sorted(ops.values(), key=lambda o: o.op)


def summarize_tests(base: SideOutput, head: SideOutput, ids: dict[str, str]) -> list[TestOutcome]:
    tests: dict[str, TestOutcome] = {}
    rank = {"passed": 0, "skipped": 1, "failed": 2, "error": 3}
    for side, out, idmap in (("base", base, ids), ("head", head, {})):
        for row in out.outcomes:
            nodeid = idmap.get(row["nodeid"], row["nodeid"])
            t = tests.setdefault(nodeid, TestOutcome(nodeid))
            cur = getattr(t, side)
            if cur == "absent" or rank.get(row["outcome"], 0) > rank.get(cur, 0):
                setattr(t, side, row["outcome"])
                setattr(t, f"{side}_detail", _last_error_line(row.get("detail", "")))
    return sorted(tests.values(), key=lambda t: t.nodeid)


def _last_error_line(text: str) -> str:
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    for ln in reversed(lines):
        if "Error" in ln or "Exception" in ln or ln.startswith("E "):
            return ln.removeprefix("E").strip()[:300]
    return lines[-1][:300] if lines else ""


NOTHING_COMPARED = "nothing was compared: no call of a moved kernel was recorded on both sides"
_NO_MODULE = re.compile(r"No module named '[^']+'")


def could_not_run(out: SideOutput) -> str | None:
    """Why one side's run proves nothing, or None when its tests ran.

    The recorder writes the side's environment when pytest starts with it loaded: no
    environment means pytest itself never ran (missing, broken, killed); a torch or triton
    that does not import means no kernel could run. pytest's own exit codes above 1
    (interrupted, internal error, usage error, nothing collected) say the same.
    """
    if out.returncode is None:
        return _last_error_line(out.stderr_tail) or "no result (timed out or killed)"
    if not out.env:
        text = out.stderr_tail
        found = _NO_MODULE.search(text)
        detail = found.group(0) if found else _last_error_line(text)
        return f"pytest did not start with the recorder (exit {out.returncode}): {detail}"
    for lib in ("torch", "triton"):
        if out.env.get(f"{lib}_error"):
            return f"{lib} does not import: {out.env[f'{lib}_error']}"
    if out.returncode not in (0, 1):
        return f"pytest exited with {out.returncode}: {_last_error_line(out.stderr_tail)}"
    return None


def _import_problems(result: ParityResult, base: SideOutput, head: SideOutput) -> list[Finding]:
    """A moved module that imports on one side only (or on neither)."""
    out = []
    for m in result.modules:
        eb, eh = base.imports.get(m.old), head.imports.get(m.new)
        if eh and not eb:
            why = f"HEAD: import {m.new} fails (BASE {m.old} imports): {eh}"
        elif eb and not eh:
            why = f"BASE: import {m.old} fails (HEAD {m.new} imports): {eb}"
        elif eb and eh:
            why = f"both sides fail to import: BASE {m.old}: {eb}; HEAD {m.new}: {eh}"
        else:
            continue
        out.append(problem("imports", why, m.old_path if eb and not eh else m.new_path))
    return out


def _config_problems(result: ParityResult, base: SideOutput, head: SideOutput) -> list[Finding]:
    """Tuning files beside a moved module that did not come along (lookups fall back)."""
    old_to_new = {m.old: m.new for m in result.modules}
    cfg_b = {old_to_new.get(r["module"], r["module"]): r for r in base.modules}
    cfg_h = {r["module"]: r for r in head.modules}
    config_users = {m.new for m in result.modules if m.uses_configs}
    path_of = {m.new: m.new_path for m in result.modules}
    out = []
    for mod in sorted(set(cfg_b) & set(cfg_h) & config_users):
        fb, fh = cfg_b[mod]["configs"], cfg_h[mod]["configs"]
        if fb and fh != fb:
            lost = sorted(set(fb) - set(fh or []))
            why = (
                f"{mod}: configs/ beside the module had {len(fb)} file(s) at BASE; at HEAD "
                + ("the directory is missing" if fh is None else f"{len(lost)} are missing")
                + f" ({cfg_h[mod]['dir']}/configs): lookups there fall back to defaults"
            )
            out.append(problem("configs", why, path_of[mod]))
    return out


def judge(result: ParityResult, base: SideOutput, head: SideOutput) -> None:
    """Add the findings: anything that keeps the move from being a proven no-op (errors),
    and what a reviewer should know that does not (warnings)."""
    out = result.findings
    for side, side_out in (("BASE", base), ("HEAD", head)):
        reason = could_not_run(side_out)
        if reason:
            out.append(problem("could-not-run", f"{side} could not run: {reason}"))
    out += _import_problems(result, base, head)
    out += _config_problems(result, base, head)
    for rec in base.modules + head.modules:
        if rec.get("missing"):
            why = f"{rec['module']}: expected function(s) not found: {rec['missing']}"
            out.append(warning("entry-points", why))
    out += _call_problems(result)
    out += _failing_on_both_sides(result)
    if result.device == "cuda" and not any(
        d.startswith("cuda") for c in result.calls for d in c.devices
    ):
        why = "device cuda: no recorded call had a CUDA tensor; no GPU parity was shown"
        out.append(problem("device", why))
    if not any(c.status not in ("base_only", "head_only") for c in result.calls):
        out.append(problem("nothing-compared", NOTHING_COMPARED))
    out += _outcome_changes(result)
    out += _coverage_warnings(result)


def _call_problems(result: ParityResult) -> list[Finding]:
    """Every recorded call whose outputs are not bit-identical (or that has no pair)."""
    out = []
    for c in result.calls:
        if c.status != "identical":
            extra = ""
            if c.max_abs is not None:
                extra = f" (max abs diff {c.max_abs:.6g}, max rel diff {c.max_rel:.6g})"
            why = f"{c.op} [{c.nodeid} #{c.ordinal}]: {c.status}: {c.detail}{extra}"
            out.append(problem("calls", why))
    return out


def _failing_on_both_sides(result: ParityResult) -> list[Finding]:
    """Tests that fail on both sides check nothing."""
    both_bad = [t for t in result.tests if t.base == t.head and t.base in ("failed", "error")]
    out = []
    for t in both_bad[:20]:
        what = "could not be collected" if "::" not in t.nodeid else f"{t.base}"
        why = f"test {t.nodeid}: {what} at BASE and HEAD (checks nothing): {t.head_detail}"
        out.append(problem("tests", why))
    if len(both_bad) > 20:
        more = f"... and {len(both_bad) - 20} more tests failing on both sides"
        out.append(problem("tests", more))
    return out


def _outcome_changes(result: ParityResult) -> list[Finding]:
    """Tests whose outcome differs between BASE and HEAD."""
    out = []
    for t in result.tests:
        if t.base != t.head:
            detail = t.head_detail or t.base_detail
            why = f"test {t.nodeid}: BASE {t.base}, HEAD {t.head}" + (
                f": {detail}" if detail else ""
            )
            out.append(problem("tests", why))
    return out


def _coverage_warnings(result: ParityResult) -> list[Finding]:
    """Moved code no recorded call reached: parity says nothing about it."""
    out = []
    for op in result.ops:
        if op.status == "not_called" and op.kernels:  # helpers without kernels: not a gap
            what = f" (kernels {', '.join(op.kernels)})" if op.kernels else ""
            why = f"{op.op}{what}: never called by the tests; not checked"
            out.append(warning("coverage", why))
    called = {k for op in result.ops if op.calls for k in op.kernels}
    for m in result.modules:
        missed = sorted(set(m.kernels) - called)
        if missed:
            why = f"{m.new}: kernel(s) {', '.join(missed)} not reached by any recorded call"
            out.append(warning("coverage", why, m.new_path))
    return out

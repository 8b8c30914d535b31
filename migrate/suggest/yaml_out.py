"""Render a draft as plan YAML, every decision explained in a comment above its move."""

from __future__ import annotations

from migrate.suggest.draft import Decision, Draft

HEADER = """\
# Draft plan: {legacy} -> sglang.kernels (written by `migrate suggest --from {legacy}`).
# Each move says why: the group, the confidence (0-1), the rule that decided it and the
# evidence (identifiers in the code). Lines marked `# REVIEW` are low-confidence or
# need a human decision. Validate: `migrate PLAN --dry-run`, `migrate check --plan PLAN`.
"""


def _scalar(s: str) -> str:
    """A plain YAML scalar when safe, else double-quoted."""
    if s and all(c.isalnum() or c in "._/-=," for c in s) and s[0] not in "-,":
        return s
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _comment(d: Decision) -> list[str]:
    tag = "REVIEW " if d.review else ""
    where = d.group or "?"
    lines = [f"  # {tag}{d.what} -> {where} (confidence {d.confidence:.2f}): {d.reason}"]
    if d.evidence:
        lines.append(f"  #   evidence: {d.evidence}")
    if d.note:
        lines.append(f"  #   note: {d.note}")
    return lines


def render(draft: Draft) -> str:
    out = [HEADER.format(legacy=draft.legacy), "version: 1"]
    out.append("roots: [" + ", ".join(draft.roots) + "]")
    if draft.groups_add:
        out += ["groups:", "  add:"] + [f"    - {g}" for g in draft.groups_add]
    order = ("infrastructure", "operator", "data", "test", "benchmark", "helper")
    out.append("moves:")
    for what in order:
        items = [d for d in draft.decisions if d.what == what]
        if not items:
            continue
        out.append(f"  # -- {what} " + "-" * max(0, 70 - len(what)))
        for d in sorted(items, key=lambda d: (d.group or "", d.src)):
            out += _comment(d)
            out.append(f"  - from: {_scalar(d.src)}")
            out.append(f"    to: {_scalar(d.dst)}")
    if draft.splits:
        out.append("# Test files of several groups: one output per group; `rest` keeps helpers")
        out.append("# and anything unassigned. est_time is apportioned by the split, not copied.")
        out.append("splits:")
        for sp in draft.splits:
            out.append(f"  # REVIEW {sp.reason}; check the output names")
            out.append(f"  - file: {_scalar(sp.file)}")
            out.append("    into:")
            for path, group, take in sp.outputs:
                out.append(f"      - path: {_scalar(path)}  # {group}")
                out.append("        take: [" + ", ".join(_scalar(t) for t in take) + "]")
    if draft.op_ids:
        out.append("# Registered op ids that are not `<group>.<name>` of their registering group.")
        out.append("op_ids:")
        for r in draft.op_ids:
            tag = "REVIEW " if r.note else ""
            out.append(f"  # {tag}registered at {r.where}" + (f": {r.note}" if r.note else ""))
            out += [f"  - from: {r.src}", f"    to: {r.dst}"]
    if draft.delete:
        out += ["delete:"] + [f"  - {n}" for n in draft.delete]
    n_review = sum(d.review for d in draft.decisions)
    out.append(f"# {len(draft.decisions)} moves, {n_review} marked REVIEW.")
    return "\n".join(out) + "\n"

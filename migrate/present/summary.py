"""The dry run for people: what each step would do, file by file, and what needs review."""

from __future__ import annotations

from migrate.changes import EDIT_KINDS, ChangeSet
from migrate.present.facts import dry_run_facts


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _step_line(step: str, s: dict) -> str:
    parts = []
    if s["moves"]:
        edited = s["moves"] - s["pure_renames"]
        pure = _plural(s["pure_renames"], "pure rename")
        parts.append(f"{_plural(s['moves'], 'move')} ({pure}, {edited} with edits)")
    if s["edits"]:
        review = f" ({s['review']} to review)" if s["review"] else ""
        parts.append(_plural(s["edits"], "edit") + review)
    if s["writes"]:
        parts.append(_plural(s["writes"], "file write"))
    if s["removals"]:
        parts.append(_plural(s["removals"], "removal"))
    return f"  {step:<9} {s['files']:>5} files  " + ", ".join(parts)


def _short(s: str, width: int = 60) -> str:
    s = s.replace("\n", "\\n")
    return s if len(s) <= width else s[: width - 3] + "..."


def summary(changeset: ChangeSet, prep) -> str:
    """A plain-text report of every step, file and review item of the dry run."""
    f = dry_run_facts(changeset, prep)
    out = [f"plan {f['plan']['path']} (sha256:{f['plan']['sha256'][:12]}) is valid"]
    if not f["steps"]:
        out.append("nothing to do")
    else:
        out.append("steps: " + " -> ".join(f["steps"]))
        out += [_step_line(step, s) for step, s in f["per_step"].items()]
    if f["moves"]:
        subs = changeset.submodules
        out.append(f"\nmoves ({len(f['moves'])}):")
        out += [
            f"  {m['old']} -> {m['new']}"
            + ("  (edited)" if m["edited"] else "")
            + ("  (submodule: gitlink, checkout and .gitmodules path)" if m["old"] in subs else "")
            for m in f["moves"]
        ]
    if f["files"]:
        width = max(len(r["path"]) for r in f["files"])
        n_edits = len(f["edits"])
        out.append(
            f"\nedits by file ({_plural(len(f['files']), 'file')}, {_plural(n_edits, 'edit')}):"
        )
        out.append(
            "  " + "path".ljust(width) + "".join(f"  {k:>6}" for k in (*EDIT_KINDS, "review"))
        )
        for r in f["files"]:
            cells = "".join(f"  {r[k] or '-':>6}" for k in (*EDIT_KINDS, "review"))
            out.append("  " + r["path"].ljust(width) + cells)
    for key, title in (("writes", "files written"), ("removals", "files removed")):
        if f[key]:
            out.append(f"\n{title} ({len(f[key])}):")
            out += [
                f"  {w['path']}  [{w['step']}]" + ("  (new)" if w.get("new_file") else "")
                for w in f[key]
            ]
    tests = getattr(prep, "derived_moves", None) or {}
    if tests:
        out.append(f"\ntests following their kernels to a new group ({len(tests)}):")
        out += [f"  {old} -> {new}" for old, new in tests.items()]
    split = getattr(prep, "derived_splits", None) or {}
    if split:
        out.append(f"\ntests split after their kernels' groups ({len(split)}):")
        out += [f"  {old} -> {', '.join(new)}" for old, new in split.items()]
    derived = getattr(prep, "derived_op_ids", None) or {}
    if derived:
        out.append(f"\nop ids following their kernels to a new group ({len(derived)}):")
        out += [f"  {old} -> {new}" for old, new in derived.items()]
    exports = getattr(prep, "derived_exports", None) or []
    if exports:
        out.append(f"\nlazy exports following their module to a new group ({len(exports)}):")
        out += [f"  {e.group}.{e.name} -> {e.new_group}.{e.name}" for e in exports]
    review = [e for e in f["edits"] if e["applicability"] == "review"]
    if review:
        out.append(f"\nreview ({len(review)}):")
        out += [
            f"  {e['path']}:{e['line']}:{e['col']}  [{e['kind']}]  {_short(e['old'])!r} -> "
            f"{_short(e['new'])!r}  ({e['reason']})"
            for e in review
        ]
    if f["notes"]:
        out.append(f"\nnotes ({len(f['notes'])}):")
        for n in f["notes"]:
            where = n["file"] or ""
            if n["line"]:
                where += f":{n['line']}:{n['col']}"
            out.append(f"  {where}: {n['severity']}: {n['message']}")
    return "\n".join(out) + "\n"

"""The dry run's facts as plain data; `to_json` is this, `summary` renders it as text.

Versioned (`schema`) because CI jobs and the reviewer preview read it: a field is
only ever added under a new version.
"""

from __future__ import annotations

from collections import Counter

from migrate.changes import EDIT_KINDS, STEPS, ChangeSet, FileMove
from migrate.present.tree import file_changes

SCHEMA = "migrate.dryrun/1"


def _note(n) -> dict:
    pos = getattr(n, "pos", None)
    return {
        "file": getattr(pos, "file", None),
        "line": getattr(pos, "line", 0),
        "col": getattr(pos, "col", 0),
        "severity": getattr(n, "severity", "warning"),
        "message": getattr(n, "message", str(n)),
    }


# An edit's fields in the order the JSON shows them.
_EDIT_KEYS = (
    "path",
    "line",
    "col",
    "start",
    "end",
    "old",
    "new",
    "kind",
    "applicability",
    "reason",
)


def _edit(e) -> dict:
    return {k: getattr(e, k) for k in _EDIT_KEYS}


def dry_run_facts(changeset: ChangeSet, prep) -> dict:
    """Everything the dry run shows, as JSON-ready data (deterministic order)."""
    index = prep.index
    changes = {c.new: c for c in file_changes(changeset, index) if c.new}
    edits = sorted(changeset.edits, key=lambda e: (e.path, e.start))
    submodules = [FileMove(o, n) for o, n in changeset.submodules.items()]  # pure renames
    moves = sorted([*changeset.moves, *submodules], key=lambda m: m.new)
    moved_to = {m.new for m in moves}
    per_file: dict[str, Counter] = {}
    for e in edits:
        c = per_file.setdefault(e.path, Counter())
        c[e.kind] += 1
        c["review"] += e.applicability == "review"
    steps = {}
    for step in STEPS:
        s_edits = [e for e in edits if e.kind == step]
        s_writes = sorted(p for p, (st, _) in changeset.writes.items() if st == step)
        s_removals = sorted(p for p, st in changeset.removals.items() if st == step)
        s_moves = moves if step == "relocate" else []
        files = {e.path for e in s_edits} | set(s_writes) | set(s_removals)
        files |= {m.new for m in s_moves}
        if files:
            steps[step] = {
                "files": len(files),
                "moves": len(s_moves),
                "pure_renames": sum(
                    1
                    for m in s_moves
                    if m.old in changeset.submodules
                    or (m.new in changes and not changes[m.new].changed_content)
                ),
                "edits": len(s_edits),
                "review": sum(e.applicability == "review" for e in s_edits),
                "writes": len(s_writes),
                "removals": len(s_removals),
            }
    notes = [_note(n) for n in changeset.notes]
    severities = Counter(n["severity"] for n in notes)
    return {
        "schema": SCHEMA,
        "plan": {"path": str(prep.plan.path), "sha256": prep.plan.sha256},
        "steps": list(steps),
        "counts": {
            "moves": len(moves),
            "edits": {k: sum(e.kind == k for e in edits) for k in EDIT_KINDS},
            "review": sum(e.applicability == "review" for e in edits),
            "writes": len(changeset.writes),
            "removals": len(changeset.removals),
            "notes": {"error": severities["error"], "warning": severities["warning"]},
        },
        "per_step": steps,
        "moves": [
            {
                "old": m.old,
                "new": m.new,
                "edited": m.new in changes and changes[m.new].changed_content,
            }
            for m in moves
        ],
        "files": [
            {"path": p, **{k: c[k] for k in EDIT_KINDS}, "review": c["review"]}
            for p, c in sorted(per_file.items())
        ],
        "edits": [_edit(e) for e in edits],
        "writes": [
            {
                "path": p,
                "step": st,
                "new_file": p not in index.files and p not in moved_to,
                "text": text,
            }
            for p, (st, text) in sorted(changeset.writes.items())
        ],
        "removals": [{"path": p, "step": st} for p, st in sorted(changeset.removals.items())],
        "notes": notes,
    }


def to_json(changeset: ChangeSet, prep) -> dict:
    """The dry run as versioned data (`schema: migrate.dryrun/1`)."""
    return dry_run_facts(changeset, prep)

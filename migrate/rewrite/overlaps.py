"""The edits of one file, settled: each made once, in order, none overlapping.

Two forms that rewrite overlapping spans are composed where one knows how (the import
finaliser folds the edits inside a statement it rewrites, `ImportScratch.finalise`).
What is left overlapping is an error: keeping one edit and dropping the other without a
word wrote broken files (issue 12, Defect A: `from pkg import time` left after `pkg.time`
moved, exit 0).
"""

from __future__ import annotations

from dataclasses import replace

from migrate.changes import Edit
from migrate.errors import OVERLAP, Diagnostic
from migrate.rewrite.spans import note_at


def settled(path: str, text: str, edits: list[Edit]) -> tuple[list[Edit], list[Diagnostic]]:
    """The file's edits in order, each made once; two forms that rewrite overlapping
    spans differently are an error at the first (apply refuses the plan): one of them
    dropped without a word writes a broken file (the forms compose what they can first,
    `ImportScratch.finalise`)."""
    out: list[Edit] = []
    notes: list[Diagnostic] = []
    reach = -1  # the farthest end of the edits kept so far
    for e in sorted(edits, key=lambda e: (e.start, e.end)):
        if out and (out[-1].start, out[-1].end, out[-1].new) == (e.start, e.end, e.new):
            continue  # two forms made the same edit
        prev = None
        if e.start < reach:
            prev = next((k for k in reversed(out) if k.start < e.end and e.start < k.end), None)
        if prev is not None:
            why = (
                f"two rewrites of one span cannot be combined: {prev.reason} "
                f"({prev.old!r} -> {prev.new!r}) and {e.reason} ({e.old!r} -> {e.new!r})"
            )
            notes.append(replace(note_at(path, text, e.start, why), kind=OVERLAP))
            continue
        out.append(e)
        reach = max(reach, e.end)
    return out, notes

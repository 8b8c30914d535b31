"""Commit messages: what each step did, with counts (the trailers come from `migrate.git`)."""

from __future__ import annotations

from migrate.changes import ChangeSet
from migrate.git.trailers import BLAME_STEP, Trailers, trailer_lines
from migrate.git_steps.fingerprint import engine_fingerprint


def _files(paths) -> str:
    n = len(set(paths))
    return f"{n} file{'s' if n != 1 else ''}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def summary(step: str, cs: ChangeSet) -> tuple[str, list[str]]:
    """(subject, body lines) describing `step` of `cs` with counts."""
    writes = [p for p, (s, _) in cs.writes.items() if s == step]
    removals = [p for p, s in cs.removals.items() if s == step]
    edits = [e for e in cs.edits if e.kind == step]
    body: list[str] = []
    if step == "relocate":
        dirs = sorted({(m.old.rsplit("/", 1)[0], m.new.rsplit("/", 1)[0]) for m in cs.moves})
        subject = f"relocate {_files(m.old for m in cs.moves)} (renames only)"
        body += [f"  {a}/ -> {b}/" for a, b in dirs[:40]]
        if len(dirs) > 40:
            body.append(f"  ... and {len(dirs) - 40} more directories")
        if cs.submodules:
            n = _plural(len(cs.submodules), "submodule")
            subject = f"relocate {_files(m.old for m in cs.moves)} and {n} (renames + .gitmodules)"
            body += [f"  submodule {a} -> {b}" for a, b in sorted(cs.submodules.items())]
            body.append(".gitmodules: the moved submodules' paths (their names are kept).")
    elif step in ("code", "string", "prose"):
        what = {
            "code": "code references",
            "string": "string references",
            "prose": "prose references",
        }[step]
        subject = f"rewrite {len(edits)} {what} in {_files(e.path for e in edits)}"
        if not edits and (writes or removals):  # no reference edit: say what it does
            done = [f"write {_files(writes)}"] if writes else []
            subject = ", ".join(done + ([f"remove {_files(removals)}"] if removals else []))
            writes, removals = [], []  # said in the subject, not again below
        review = sum(e.applicability == "review" for e in edits)
        if review:
            body.append(f"{_plural(review, 'edit')} marked for review.")
    elif step == "tests":
        subject = f"split tests: write {_files(writes)}, remove {_files(removals)}"
    elif step == "delete":
        subject = f"delete legacy packages: remove {_files(removals)}"
    else:
        subject = step
    extra = [f"{_plural(len(writes), 'file')} written"] if writes and step != "tests" else []
    if removals and step not in ("tests", "delete"):
        extra.append(f"{_plural(len(removals), 'file')} removed")
    if extra:
        body.append("Also: " + ", ".join(extra) + ".")
    return f"migrate({step}): {subject}", body


def compose(subject: str, body: list[str], trailers: Trailers) -> str:
    parts = [subject, ""]
    if body:
        parts += [*body, ""]
    parts += [
        "Mechanical commit made by `migrate apply`; `migrate verify` reproduces it.",
        "",
        *trailer_lines(trailers),
    ]
    return "\n".join(parts) + "\n"


def step_message(step: str, cs: ChangeSet, plan_path: str, plan_sha256: str) -> str:
    subject, body = summary(step, cs)
    return compose(subject, body, Trailers(plan_path, plan_sha256, step, engine_fingerprint()))


def blame_message(shas: list[str], plan_path: str, plan_sha256: str) -> str:
    subject = f"migrate({BLAME_STEP}): ignore {_plural(len(shas), 'mechanical commit')} in blame"
    return compose(subject, [], Trailers(plan_path, plan_sha256, BLAME_STEP, engine_fingerprint()))

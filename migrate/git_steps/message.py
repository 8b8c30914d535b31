"""Commit messages and trailers: what each step did, with counts, and how to reproduce it.

The trailers are the contract with `verify`: `Migrate-Plan: <path> sha256:<hash>` names the
plan (repo-relative when inside the repo) and `Migrate-Step: <step>` the step it reproduces.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from migrate.changes import ChangeSet
from migrate.git_steps.fingerprint import engine_fingerprint

PLAN_TRAILER = "Migrate-Plan"
STEP_TRAILER = "Migrate-Step"
ENGINE_TRAILER = "Migrate-Engine"  # fingerprint of the code that made the commit
BLAME_STEP = "blame-ignore-revs"  # the final commit that records the others for `git blame`
BLAME_FILE = ".git-blame-ignore-revs"
_TRAILER = re.compile(r"^([A-Za-z][A-Za-z0-9-]*):[ \t]*(.*?)\s*$")


@dataclass(frozen=True)
class Trailers:
    plan_path: str
    plan_sha256: str
    step: str
    engine: str = ""


def plan_ref(plan_path: str | Path, repo_dir: str | Path) -> str:
    """The plan path as recorded: relative to the repo if it lies inside, else as given."""
    p, root = Path(plan_path).resolve(), Path(repo_dir).resolve()
    try:
        return p.relative_to(root).as_posix()
    except ValueError:
        return str(plan_path)


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
    elif step in ("code", "string", "prose"):
        what = {
            "code": "code references",
            "string": "string references",
            "prose": "prose references",
        }[step]
        subject = f"rewrite {len(edits)} {what} in {_files(e.path for e in edits)}"
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
        f"{PLAN_TRAILER}: {trailers.plan_path} sha256:{trailers.plan_sha256}",
        f"{STEP_TRAILER}: {trailers.step}",
    ]
    if trailers.engine:
        parts.append(f"{ENGINE_TRAILER}: {trailers.engine}")
    return "\n".join(parts) + "\n"


def step_message(step: str, cs: ChangeSet, plan_path: str, plan_sha256: str) -> str:
    subject, body = summary(step, cs)
    return compose(subject, body, Trailers(plan_path, plan_sha256, step, engine_fingerprint()))


def blame_message(shas: list[str], plan_path: str, plan_sha256: str) -> str:
    subject = f"migrate({BLAME_STEP}): ignore {_plural(len(shas), 'mechanical commit')} in blame"
    return compose(subject, [], Trailers(plan_path, plan_sha256, BLAME_STEP, engine_fingerprint()))


def blame_file_text(
    existing: bytes | None, shas: list[str], plan_path: str, plan_sha256: str
) -> bytes:
    """`.git-blame-ignore-revs` with one commented block for this plan appended."""
    text = (existing or b"").decode("utf-8")
    if text and not text.endswith("\n"):
        text += "\n"
    block = [f"# migrate {plan_path} sha256:{plan_sha256[:12]}", *shas]
    return (text + "\n".join(block) + "\n").encode("utf-8")


def parse_trailers(message: str) -> Trailers | None:
    """The migrate trailers of a commit message, or None when it has none."""
    found: dict[str, str] = {}
    for line in message.strip().splitlines()[::-1]:
        m = _TRAILER.match(line)
        if not m:
            if found:
                break
            continue
        found.setdefault(m.group(1), m.group(2))
    plan, step = found.get(PLAN_TRAILER), found.get(STEP_TRAILER)
    if not plan or not step or " sha256:" not in plan:
        return None
    path, sha = plan.rsplit(" sha256:", 1)
    return Trailers(path, sha, step, found.get(ENGINE_TRAILER, ""))

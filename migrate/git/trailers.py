"""The records `migrate apply` leaves in history, written and read only here.

Commit trailers are the contract with `verify` and `report`:
`Migrate-Plan: <plan> sha256:<hash>` names the plan (repo-relative when inside the repo),
`Migrate-Step: <step>` the step the commit reproduces, `Migrate-Engine: <fingerprint>` the
code that made it. `.git-blame-ignore-revs` gets one commented block per plan.
A chain of plans (`apply A.yaml B.yaml`) is recorded as one plan: the refs joined by commas
(`a.yaml,b.yaml`) with the chain's hash (sha256 of the members' sha256s, in order).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

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
    """The plan path as recorded: relative to the repo if it lies inside, else its file name
    only (the sha256 beside it identifies it; a local absolute path is nobody's business)."""
    p, root = Path(plan_path).resolve(), Path(repo_dir).resolve()
    try:
        return p.relative_to(root).as_posix()
    except ValueError:
        return p.name


def chain_ref(refs: list[str]) -> str:
    """The recorded plan of a chain: its members' refs, in order, joined by commas."""
    return ",".join(refs)


def chain_refs(recorded: str) -> list[str]:
    """The members of a recorded plan ref: one for a single plan, several for a chain."""
    return [r for r in recorded.split(",") if r] or [recorded]


def trailer_lines(t: Trailers) -> list[str]:
    """The trailer block of a migrate commit message (its last paragraph)."""
    lines = [f"{PLAN_TRAILER}: {t.plan_path} sha256:{t.plan_sha256}", f"{STEP_TRAILER}: {t.step}"]
    if t.engine:
        lines.append(f"{ENGINE_TRAILER}: {t.engine}")
    return lines


def trailer_block(message: str) -> dict[str, str]:
    """`Key: value` lines at the end of a message (git's trailer block); the last one wins."""
    found: dict[str, str] = {}
    for line in message.strip().splitlines()[::-1]:
        m = _TRAILER.match(line)
        if not m:
            if found:
                break
            continue
        found.setdefault(m.group(1), m.group(2))
    return found


def parse_trailers(message: str) -> Trailers | None:
    """The migrate trailers of a commit message, or None when it has none."""
    found = trailer_block(message)
    plan, step = found.get(PLAN_TRAILER), found.get(STEP_TRAILER)
    if not plan or not step or " sha256:" not in plan:
        return None
    path, sha = plan.rsplit(" sha256:", 1)
    return Trailers(path, sha, step, found.get(ENGINE_TRAILER, ""))


def blame_file_text(
    existing: bytes | None, shas: list[str], plan_path: str, plan_sha256: str
) -> bytes:
    """`.git-blame-ignore-revs` with one commented block for this plan appended."""
    text = (existing or b"").decode("utf-8")
    if text and not text.endswith("\n"):
        text += "\n"
    block = [f"# migrate {plan_path} sha256:{plan_sha256[:12]}", *shas]
    return (text + "\n".join(block) + "\n").encode("utf-8")

"""Golden cases: golden/rewrite/<case>/{plan.yaml, before/} -> after/ and edits.txt.

Goldens are only rewritten on request: MIGRATE_UPDATE_GOLDENS=1.
"""

from __future__ import annotations

import os
import shutil

import pytest
from conftest import GOLDEN, init_repo
from test_rewrite_support import apply_changeset

from migrate.index import build_index
from migrate.pipeline import prepare
from migrate.rewrite.engine import plan_changes
from migrate.rewrite.fix_mode import fix_changes

CASES = sorted(p.name for p in (GOLDEN / "rewrite").iterdir() if (p / "before").is_dir())
UPDATE = os.environ.get("MIGRATE_UPDATE_GOLDENS") == "1"


def _files(root) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".git" not in p.relative_to(root).parts
    }


def _edits_txt(cs) -> str:
    lines = [f"move {m.old} -> {m.new}" for m in cs.moves]
    for e in sorted(cs.edits, key=lambda e: (e.path, e.start)):
        lines.append(
            f"{e.path}:{e.line}:{e.col} {e.kind}/{e.applicability} {e.old!r} -> {e.new!r}"
            f"  # {e.reason}"
        )
    lines += [f"write {p} ({step})" for p, (step, _) in sorted(cs.writes.items())]
    lines += [f"remove {p} ({step})" for p, step in sorted(cs.removals.items())]
    lines += [f"note {n}" for n in cs.notes]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("case", CASES)
def test_golden(case, tmp_path):
    here = GOLDEN / "rewrite" / case
    repo = tmp_path / "repo"
    shutil.copytree(here / "before", repo)
    init_repo(repo)
    prep = prepare(here / "plan.yaml", repo)
    cs = plan_changes(prep)
    out = tmp_path / "out"
    shutil.copytree(repo, out, ignore=shutil.ignore_patterns(".git"))
    apply_changeset(out, prep, cs)
    edits = _edits_txt(cs).replace(str(here), "<case>")
    if UPDATE:
        shutil.rmtree(here / "after", ignore_errors=True)
        shutil.copytree(out, here / "after")
        (here / "edits.txt").write_text(edits)
    assert (here / "after").is_dir(), "missing golden; run with MIGRATE_UPDATE_GOLDENS=1"
    assert _files(out) == _files(here / "after")
    assert edits == (here / "edits.txt").read_text()
    # Idempotence: the same plan finds nothing more to change in its own output.
    again = fix_changes(prep.plan, build_index(out, prep.plan.roots))
    assert again.edits == []

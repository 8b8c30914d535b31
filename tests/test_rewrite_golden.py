"""Golden cases: golden/rewrite/<case>/{plan.yaml, before/} -> after/ and edits.txt.

Goldens are only rewritten on request: MIGRATE_UPDATE_GOLDENS=1. Every case runs twice:
the second run, on the tree the first produced, must change nothing. A case the engine
refuses has no after/: its edits.txt holds the errors (tests/test_import_cycles.py shows
the CLI writes nothing).
"""

from __future__ import annotations

import shutil

import pytest
from helpers import GOLDEN, assert_golden, assert_golden_dir, files_below, init_repo
from rewrite_helpers import apply_changeset, second_run_edits

from migrate.errors import MigrateError
from migrate.pipeline import prepare
from migrate.rewrite.engine import plan_changes

CASES = sorted(p.name for p in (GOLDEN / "rewrite").iterdir() if (p / "before").is_dir())


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
    out = tmp_path / "out"
    shutil.copytree(repo, out, ignore=shutil.ignore_patterns(".git"))
    try:
        cs = plan_changes(prep)
    except MigrateError as exc:  # a refused plan: its errors, and nothing written
        edits = "".join(f"{d}\n" for d in exc.diagnostics)
        assert_golden(here / "edits.txt", edits.replace(str(here), "<case>"))
        assert not (here / "after").exists()
        return
    apply_changeset(out, prep, cs)
    edits = _edits_txt(cs).replace(str(here), "<case>")
    assert_golden_dir(here / "after", files_below(out))
    assert_golden(here / "edits.txt", edits)
    # The second run: the rewriter finds nothing more to change in its own output.
    assert second_run_edits(prep, out) == []

"""The dry-run preview: the same report for a plan before it is applied."""

from __future__ import annotations

import report_fixtures as rf
from click.testing import CliRunner

from migrate.changes import ChangeSet
from migrate.cli import main
from migrate.pipeline import prepare
from migrate.report import collect_preview, render_preview_md, to_markdown, verdict


def _prep(make_repo, tmp_path):
    repo = make_repo(rf.FILES, git_init=False)
    return prepare(rf.write_plan(tmp_path), repo)


def test_preview_reports_what_the_plan_would_do(make_repo, tmp_path):
    prep = _prep(make_repo, tmp_path)
    cs = rf.changeset(prep)
    data = collect_preview(prep, cs)
    assert data.meta.mode == "preview" and data.commits == []
    assert data.leftovers.status == "ok" and data.leftovers.items == []
    assert data.inventory.status == "ok" and data.inventory.lost == []
    v = verdict(data)
    assert v.level == "review"
    assert v.reasons == ["2 edit(s) need a human (1 prose, 1 string)", "not run: parity"]
    md = render_preview_md(prep, cs)
    assert md == to_markdown(data)
    assert "preview of a plan not yet applied (dry run)" in md
    assert "### Commits" not in md


def test_preview_names_what_an_incomplete_changeset_leaves_behind(make_repo, tmp_path):
    prep = _prep(make_repo, tmp_path)
    cs = rf.changeset(prep)
    partial = ChangeSet(moves=cs.moves, edits=[e for e in cs.edits if e.kind != "code"])
    v = verdict(collect_preview(prep, partial))
    assert v.level == "broken"
    assert v.reasons[:2] == [
        "stale reference `sglang.jit_kernel.norm` at python/sglang/srt/user.py:1",
        "stale reference `sglang.jit_kernel.norm` at test/registered/test_norm.py:1",
    ]


def test_dry_run_format_md(make_repo, tmp_path):
    repo = make_repo(rf.FILES, git_init=False)
    plan = rf.write_plan(tmp_path)
    res = CliRunner().invoke(main, [str(plan), "--dry-run", "--format", "md", "--repo", str(repo)])
    assert res.exit_code in (0, 1), res.output
    assert res.output.startswith("## ") and "### Summary" in res.output

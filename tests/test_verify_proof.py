"""verify is a proof: no PASS on a broken, foreign or unbuildable result.

Each test is one of the cases where verify used to say PASS on a broken tree (or FAIL on
a healthy one); every migration here is made by the real engine (`migrate apply`).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import git, write_tree

from migrate.cli import main

MOVE = "version: 1\nmoves:\n  - from: pkg.old\n    to: pkg.new\n"
TREE = {
    "pkg/__init__.py": "",
    "pkg/old/__init__.py": "",
    "pkg/old/mod.py": "def f():\n    return 1\n",
    "pkg/user.py": "from pkg.old.mod import f\n\nprint(f())\n",
    "docs/notes.md": "See pkg.old.mod for f.\n",
    "other/use.py": "from pkg.old.mod import f\n",
}


def cli(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def migrated(make_repo, tmp_path, files=TREE, plan_text=MOVE, sparse=None) -> tuple[Path, str]:
    """A repo with `files`, migrated by `migrate apply` (in a sparse checkout if asked)."""
    repo = make_repo(files)
    plan = tmp_path / "plan.yaml"
    plan.write_text(plan_text)
    if sparse:
        git(repo, "sparse-checkout", "set", "--no-cone", *sparse)
    base = git(repo, "rev-parse", "HEAD").strip()
    res = cli("apply", str(plan), "--repo", str(repo))
    assert res.exit_code == 0, res.output
    return repo, base


def verify(repo: Path, spec: str, *extra: str):
    return cli("verify", spec, "--repo", str(repo), "--no-wheel", *extra)


def commit(repo: Path, files: dict[str, str], message: str) -> str:
    write_tree(repo, files)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", message)
    return git(repo, "rev-parse", "HEAD").strip()


def test_a_correct_migration_passes(make_repo, tmp_path):
    repo, base = migrated(make_repo, tmp_path)
    res = verify(repo, f"{base}..HEAD")
    assert res.exit_code == 0, res.output
    assert "PASS check range-commits (4 commits, 0 foreign)" in res.output


def test_a_hand_written_commit_in_the_range_fails_by_name(make_repo, tmp_path):
    repo, base = migrated(make_repo, tmp_path)
    sha = commit(repo, {"pkg/extra.py": "X = 1\n"}, "a hand-written commit")
    res = verify(repo, f"{base}..HEAD")
    assert res.exit_code == 1, res.output
    assert f"commit {sha[:12]} ('a hand-written commit') is not a Migrate-Step commit" in (
        res.output
    )
    allowed = verify(repo, f"{base}..HEAD", "--allow-foreign")
    assert allowed.exit_code == 0, allowed.output
    assert "warning: commit" in allowed.output and sha[:12] in allowed.output


def test_a_merge_that_adds_a_file_fails_by_name(make_repo, tmp_path):
    repo, base = migrated(make_repo, tmp_path)
    git(repo, "checkout", "-q", "-b", "side", "HEAD~1")
    commit(repo, {"pkg/side.py": "Y = 2\n"}, "side work")
    git(repo, "checkout", "-q", "main")
    git(repo, "merge", "-q", "--no-ff", "-m", "merge side", "side")
    merge = git(repo, "rev-parse", "HEAD").strip()
    res = verify(repo, f"{base}..HEAD")
    assert res.exit_code == 1, res.output
    assert f"merge commit {merge[:12]} ('merge side')" in res.output
    assert "('side work') is not a Migrate-Step commit" in res.output


@pytest.mark.parametrize(
    "spec, why",
    [
        ("HEAD..HEAD", "empty range"),
        ("HEAD..HEAD~2", "reversed range"),
        ("HEAD~2...HEAD", "expected BASE..HEAD"),
        ("HEAD", "expected BASE..HEAD"),
        ("..HEAD", "both ends"),
        ("nosuch..HEAD", "unknown revision"),
    ],
)
def test_an_empty_reversed_or_malformed_range_is_bad_input(make_repo, tmp_path, spec, why):
    repo, _ = migrated(make_repo, tmp_path)
    res = verify(repo, spec)
    assert res.exit_code == 2, res.output
    assert why in res.output


def test_a_migration_applied_in_a_sparse_checkout_fails_on_the_excluded_files(
    make_repo, tmp_path, monkeypatch
):
    # apply now refuses a sparse checkout; this is the migration an apply that did not
    # (or another tool) leaves, and verify must still see the excluded files in git.
    from migrate.git_steps import preflight

    monkeypatch.setattr(preflight, "sparse", lambda repo_dir: False)
    repo, base = migrated(make_repo, tmp_path, sparse=["/pkg/"])
    monkeypatch.undo()
    assert not (repo / "other").exists()  # the engine never saw other/ nor docs/
    assert "pkg.old.mod" in git(repo, "show", "HEAD:other/use.py")
    res = verify(repo, f"{base}..HEAD")
    assert res.exit_code == 1, res.output
    assert "other/use.py:1: module pkg.old.mod does not exist" in res.output
    assert "docs/notes.md:1: old name pkg.old.mod" in res.output


def test_a_plan_committed_inside_the_repository_is_used_as_it_was_and_left_alone(
    make_repo, tmp_path
):
    repo = make_repo({**TREE, "plans/move.yaml": MOVE})
    base = git(repo, "rev-parse", "HEAD").strip()
    res = cli("apply", str(repo / "plans/move.yaml"), "--repo", str(repo))
    assert res.exit_code == 0, res.output
    assert git(repo, "show", "HEAD:plans/move.yaml") == MOVE  # names pkg.old on purpose
    (repo / "plans/move.yaml").write_text(MOVE + "# edited after the migration\n")
    res = verify(repo, f"{base}..HEAD")
    assert res.exit_code == 0, res.output
    assert "plans/move.yaml" not in res.output


def test_help_names_every_check_and_the_exit_statuses():
    from migrate.verify import CHECK_NAMES

    res = cli("verify", "--help")
    text = " ".join(res.output.split())
    assert all(name in "".join(res.output.split()) for name in CHECK_NAMES), text
    assert "3 could not check" in text and "2 bad input" in text

"""Odd repositories: apply refuses what it cannot migrate exactly, and changes nothing."""

from __future__ import annotations

import os

import pytest
from click.testing import CliRunner
from helpers import git
from test_apply import PLAN, full_changeset, make_sample
from test_apply_atomic import snapshot, strip_stat

from migrate.cli import main


@pytest.fixture
def repo(make_repo, tmp_path):
    repo = make_sample(make_repo)
    plan = tmp_path / "plan.yaml"
    plan.write_text(PLAN)
    return repo, plan


def apply(repo, plan):
    return CliRunner().invoke(main, ["apply", str(plan), "--repo", str(repo)], obj=full_changeset)


def test_a_sparse_checkout_is_refused(repo):
    repo, plan = repo
    git(repo, "sparse-checkout", "set", "--no-cone", "/pkg/", "/tests/")
    assert not (repo / "README.md").exists()
    before = strip_stat(snapshot(repo))
    res = apply(repo, plan)
    assert res.exit_code == 3, res.output
    assert "this is a sparse checkout" in res.output
    assert strip_stat(snapshot(repo)) == before


def test_a_change_to_a_submodule_other_than_its_move_is_refused(repo):
    """Submodules move with their package (tests/test_submodules.py); an engine that
    would remove or change a gitlink is stopped before the switch."""
    repo, plan = repo
    sha = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "update-index", "--add", "--cacheinfo", f"160000,{sha},pkg/old/vendored")
    (repo / "pkg/old/vendored").mkdir()
    (repo / ".gitmodules").write_text(
        '[submodule "vendored"]\n\tpath = pkg/old/vendored\n\turl = ../vendored\n'
    )
    git(repo, "add", ".gitmodules")
    git(repo, "commit", "-qm", "submodule")
    before = strip_stat(snapshot(repo))

    def removes_it(prep=None):
        cs = full_changeset(prep)
        cs.removals["pkg/old/vendored"] = "delete"
        return cs

    args = ["apply", str(plan), "--repo", str(repo), "--allow-rule-errors"]
    res = CliRunner().invoke(main, args, obj=removes_it)
    assert res.exit_code == 3, res.output
    assert "pkg/old/vendored: a submodule the plan would change (refused)" in res.output
    assert strip_stat(snapshot(repo)) == before


def test_a_submodule_deeper_in_a_moved_package_moves_with_it(repo):
    repo, plan = repo  # pkg/old/third_party holds no file of its own: only the gitlink
    sha = git(repo, "rev-parse", "HEAD").strip()
    link = "pkg/old/third_party/vendored"
    git(repo, "update-index", "--add", "--cacheinfo", f"160000,{sha},{link}")
    (repo / link).mkdir(parents=True)
    git(repo, "commit", "-qm", "submodule")
    before = strip_stat(snapshot(repo))
    res = CliRunner().invoke(main, [str(plan), "--dry-run", "--repo", str(repo)])
    assert res.exit_code == 0, res.output
    assert f"  {link} -> pkg/new/third_party/vendored  (submodule: " in res.output
    assert strip_stat(snapshot(repo)) == before


def test_a_symlinked_blame_ignore_file_is_not_written_through(repo):
    repo, plan = repo
    (repo / "docs").mkdir()
    (repo / "docs/ignore-revs").write_text("# revs\n")
    os.symlink("docs/ignore-revs", repo / ".git-blame-ignore-revs")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "blame file")
    before = strip_stat(snapshot(repo))
    res = apply(repo, plan)
    assert res.exit_code == 2, res.output
    assert ".git-blame-ignore-revs is a symlink" in res.output
    assert strip_stat(snapshot(repo)) == before


@pytest.mark.parametrize(
    "attributes, shown",
    [
        ("*.md filter=lfs\n", "README.md: has filter=lfs"),
        ("*.py ident\n", "pkg/new/mod.py: has ident"),
    ],
)
def test_filtered_files_that_would_be_edited_are_listed_and_refused(repo, attributes, shown):
    repo, plan = repo
    (repo / ".gitattributes").write_text(attributes)
    git(repo, "add", ".gitattributes")
    git(repo, "commit", "-qm", "attributes")
    before = strip_stat(snapshot(repo))
    res = apply(repo, plan)
    assert res.exit_code == 3, res.output
    assert shown in res.output
    assert strip_stat(snapshot(repo)) == before


@pytest.mark.parametrize("attributes", ["*.json filter=lfs\n", "*.sh ident\n"])
def test_filtered_files_that_only_move_are_renamed_untouched(repo, attributes):
    """A pure move is renamed in place: its bytes never pass through the filter."""
    repo, plan = repo
    (repo / ".gitattributes").write_text(attributes)
    git(repo, "add", ".gitattributes")
    git(repo, "commit", "-qm", "attributes")
    data = {p: (repo / p).read_bytes() for p in ("pkg/old/data/cfg.json", "pkg/old/run.sh")}
    res = apply(repo, plan)
    assert res.exit_code == 0, res.output
    for old, content in data.items():
        assert (repo / old.replace("pkg/old", "pkg/new")).read_bytes() == content
    assert git(repo, "status", "--porcelain") == ""

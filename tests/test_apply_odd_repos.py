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


def test_a_submodule_inside_a_moved_package_refuses_the_plan(repo):
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
    for args in ([str(plan), "--dry-run"], ["apply", str(plan)]):
        res = CliRunner().invoke(main, [*args, "--repo", str(repo)], obj=full_changeset)
        assert res.exit_code == 2, res.output
        assert "submodule pkg/old/vendored is inside a directory the plan moves" in res.output
    assert strip_stat(snapshot(repo)) == before


def test_a_submodule_deeper_in_a_moved_package_refuses_the_plan(repo):
    repo, plan = repo  # pkg/old/third_party holds no file of its own: only the gitlink
    sha = git(repo, "rev-parse", "HEAD").strip()
    link = "pkg/old/third_party/vendored"
    git(repo, "update-index", "--add", "--cacheinfo", f"160000,{sha},{link}")
    (repo / link).mkdir(parents=True)
    git(repo, "commit", "-qm", "submodule")
    before = strip_stat(snapshot(repo))
    res = CliRunner().invoke(main, [str(plan), "--dry-run", "--repo", str(repo)])
    assert res.exit_code == 2, res.output
    assert f"plan.yaml:3:5: error: submodule {link} is inside a directory" in res.output
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
        ("*.json filter=lfs\n", "pkg/new/data/cfg.json: has filter=lfs"),
        ("*.sh ident\n", "pkg/new/run.sh: has ident"),
    ],
)
def test_filtered_files_that_would_move_are_listed_and_refused(repo, attributes, shown):
    repo, plan = repo
    (repo / ".gitattributes").write_text(attributes)
    git(repo, "add", ".gitattributes")
    git(repo, "commit", "-qm", "attributes")
    before = strip_stat(snapshot(repo))
    res = apply(repo, plan)
    assert res.exit_code == 3, res.output
    assert shown in res.output
    assert strip_stat(snapshot(repo)) == before

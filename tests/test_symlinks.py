"""Relative symlinks follow a move (they used to dangle silently): a link to a moved
file or directory points at its new place, a moved link still reaches what it reached.
The retargets are in the ChangeSet (`code` step), so the dry run shows them."""

from __future__ import annotations

import os

import pytest
from click.testing import CliRunner
from helpers import git, init_repo, write_tree

from migrate.cli import main
from migrate.rewrite.symlinks import new_target

PLAN = "version: 1\nmoves:\n  - from: pkg.old\n    to: pkg.sub.new\n"
FILES = {
    "pkg/__init__.py": "",
    "pkg/sub/__init__.py": "",
    "pkg/old/__init__.py": "",
    "pkg/old/mod.py": "def f():\n    return 1\n",
    "pkg/old/data/table.csv": "a,b\n",
    "config/shared.json": "{}\n",
}
LINKS = {  # link -> (target before, target after)
    "pkg/old/alias.py": ("mod.py", "mod.py"),  # moves with its target: unchanged
    "pkg/old/shared.json": ("../../config/shared.json", "../../../config/shared.json"),
    "tools/mod_link.py": ("../pkg/old/mod.py", "../pkg/sub/new/mod.py"),
    "docs/table.csv": ("../pkg/old/data/table.csv", "../pkg/sub/new/data/table.csv"),
    "docs/olddir": ("../pkg/old", "../pkg/sub/new"),
    "docs/absolute": ("/etc/hostname", "/etc/hostname"),  # absolute: not ours
    "docs/outside": ("../../elsewhere/x", "../../elsewhere/x"),  # leaves the repo
}
MOVED = {
    "pkg/old/alias.py": "pkg/sub/new/alias.py",
    "pkg/old/shared.json": "pkg/sub/new/shared.json",
}


@pytest.fixture
def repo(tmp_path):
    root = tmp_path / "repo"
    write_tree(root, FILES)
    for link, (target, _) in LINKS.items():
        (root / link).parent.mkdir(parents=True, exist_ok=True)
        os.symlink(target, root / link)
    plan = tmp_path / "plan.yaml"
    plan.write_text(PLAN)
    return init_repo(root), plan


def test_the_dry_run_shows_each_retarget(repo):
    repo, plan = repo
    res = CliRunner().invoke(main, [str(plan), "--dry-run", "--diff", "--repo", str(repo)])
    assert res.exit_code == 0, res.output
    for link, (old, new) in LINKS.items():
        shown = MOVED.get(link, link)
        if old != new:
            assert f"+{new}" in res.output, (link, res.output)
            assert shown in res.output


def test_apply_retargets_links_and_keeps_relocate_pure(repo):
    repo, plan = repo
    base = git(repo, "rev-parse", "HEAD").strip()
    res = CliRunner().invoke(main, ["apply", str(plan), "--repo", str(repo)])
    assert res.exit_code == 0, res.output
    assert git(repo, "status", "--porcelain") == ""
    for link, (_old, new) in LINKS.items():
        where = repo / MOVED.get(link, link)
        assert os.readlink(where) == new, link
        if not new.startswith(("/", "../../elsewhere")):
            assert where.exists(), f"{link} dangles"
    relocate = git(repo, "log", "--reverse", "--format=%H", f"{base}..HEAD").split()[0]
    status = git(repo, "diff", "--name-status", "-M100%", f"{relocate}~1", relocate).split("\n")
    assert all(s.startswith("R100") for s in status if s), status
    res = CliRunner().invoke(
        main, ["verify", f"{base}..HEAD", "--plan", str(plan), "--repo", str(repo)]
    )
    assert res.exit_code == 0, res.output


@pytest.mark.parametrize(
    "link, target, new_link, expected",
    [
        ("a/l", "../b/f", "a/l", "../b/f"),  # nothing moved
        ("a/l", "../b/f", "x/y/l", "../../b/f"),  # the link moved deeper
        ("l", "a/", "l", "a/"),  # a trailing slash is kept
        ("a/l", "/abs", "a/l", None),
        ("a/l", "../../out", "a/l", None),
        ("a/l", "", "a/l", None),
    ],
)
def test_new_target_is_lexical_and_stays_inside(link, target, new_link, expected):
    from migrate.relocate import Relocation

    assert new_target(link, target, new_link, Relocation()) == expected

"""A directory moved whole is carried as ONE entry (its tree) by the materializer and the
commit builder: every step's tree must be the one the file-by-file way writes, for every
ChangeSet, and a directory is carried only when nothing else touches it."""

from __future__ import annotations

import pytest
from helpers import git

from migrate.changes import ChangeSet, Edit, FileMove
from migrate.git.objects import TREE, GitObjects
from migrate.git_steps.apply import build_commits
from migrate.git_steps.trees import carried, step_listings
from migrate.materialize import carried_dirs

FILES = {
    "pkg/__init__.py": "",
    "pkg/data/tables/a.csv": "a\n",
    "pkg/data/tables/sub/b.csv": "b\n",
    "pkg/data/tables/sub/deep/c.csv": "c\n",
    "pkg/data/tables/z.txt": "z\n",
    "pkg/data/other.csv": "o\n",
    "pkg/data-x.txt": "dx\n",
    "top.txt": "t\n",
    "pkg/old/keep.txt": "k\n",
}
TABLES = sorted(p for p in FILES if p.startswith("pkg/data/tables/"))


def moved(old: str, new: str, paths=TABLES) -> list[FileMove]:
    return [FileMove(p, new + p[len(old) :]) for p in paths if p.startswith(old + "/")]


def edit(path: str, text: str, kind: str = "code") -> Edit:
    return Edit(path, 0, 1, text[0], "X", kind, 1, 1, "test")


CASES = {
    "whole": (ChangeSet(moves=moved("pkg/data/tables", "pkg/tables")), {"pkg/data/tables"}),
    "renamed leaf": (ChangeSet(moves=moved("pkg/data/tables", "pkg/t2")), {"pkg/data/tables"}),
    "into a directory that exists": (
        ChangeSet(moves=moved("pkg/data/tables", "pkg/old")),
        {"pkg/data/tables/sub"},
    ),
    "to a new deep place": (
        ChangeSet(moves=moved("pkg/data/tables", "new/deep/er/tables")),
        {"pkg/data/tables"},
    ),
    "an edit inside the target": (
        ChangeSet(
            moves=moved("pkg/data/tables", "pkg/tables"),
            edits=[edit("pkg/tables/a.csv", "a\n")],
        ),
        {"pkg/data/tables/sub"},
    ),
    "a write into the target": (
        ChangeSet(
            moves=moved("pkg/data/tables", "pkg/tables"),
            writes={"pkg/tables/new.csv": ("code", "n\n")},
        ),
        {"pkg/data/tables/sub"},
    ),
    "a removal inside the source": (
        ChangeSet(
            moves=moved("pkg/data/tables", "pkg/tables"),
            removals={"pkg/tables/sub/b.csv": "delete"},
        ),
        {"pkg/data/tables/sub/deep"},
    ),
    "another file moved into the target": (
        ChangeSet(
            moves=[
                *moved("pkg/data/tables", "pkg/tables"),
                FileMove("pkg/data/other.csv", "pkg/tables/other.csv"),
            ]
        ),
        {"pkg/data/tables/sub"},
    ),
    "a file of the directory stays": (
        ChangeSet(
            moves=[m for m in moved("pkg/data/tables", "pkg/tables") if "z.txt" not in m.old]
        ),
        {"pkg/data/tables/sub"},
    ),
    "a subdirectory goes elsewhere": (
        ChangeSet(
            moves=[
                *(m for m in moved("pkg/data/tables", "pkg/tables") if "/sub/" not in m.old),
                *moved("pkg/data/tables/sub", "elsewhere/sub"),
            ]
        ),
        {"pkg/data/tables/sub"},
    ),
    "the whole data directory, and an edit elsewhere": (
        ChangeSet(
            moves=moved("pkg/data", "pkg/assets", sorted(p for p in FILES if "/data/" in p)),
            edits=[edit("top.txt", "t\n", "prose")],
        ),
        {"pkg/data"},
    ),
}


@pytest.fixture
def repo(make_repo):
    return make_repo(FILES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_only_a_directory_nothing_else_touches_is_carried(repo, name):
    cs, expected = CASES[name]
    objs = GitObjects(repo)
    assert set(carried_dirs(cs, objs.ls_tree("HEAD"))) == expected


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_step_tree_is_the_file_by_file_one(repo, name):
    """The commits `build_commits` writes (carried directories grafted as one entry) hold
    the trees written from the file-by-file listings of the same ChangeSet; their
    listings hold no tree entry once read back, and `git fsck` is clean."""
    cs, _ = CASES[name]
    objs = GitObjects(repo)
    base = objs.rev("HEAD")
    listing = objs.ls_tree(base)
    expected = [objs.write_tree(after) for _step, after in step_listings(objs, listing, cs)]
    commits = build_commits(objs, base, cs, "plan.yaml", "ab" * 32)
    got = [git(repo, "rev-parse", f"{c.sha}^{{tree}}").strip() for c in commits[:-1]]
    assert got == expected
    tree = git(repo, "rev-parse", f"{base}^{{tree}}").strip()
    whole, _cs = carried(objs, tree, listing, cs)
    assert any(mode == TREE for mode, _ in whole.values()) == bool(CASES[name][1])
    git(repo, "fsck", "--no-dangling")

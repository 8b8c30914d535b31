"""`migrate apply`: step commits from a ChangeSet, trailers, refusals, idempotence."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import git

from migrate.changes import ChangeSet, Edit, FileMove
from migrate.cli import main
from migrate.git import parse_trailers
from migrate.git_steps.trees import step_trees

PLAN = """\
version: 1
moves:
  - from: pkg.old
    to: pkg.new
"""
LATIN = (
    "# -*- coding: latin-1 -*-\r\n# café\r\nNAME = 'pkg.old.mod'\r\ndef f():\r\n    return 1\r\n"
)
FILES = {
    "pkg/__init__.py": "",
    "pkg/old/__init__.py": "from .mod import f\n",
    "pkg/old/mod.py": LATIN.encode("latin-1"),
    "pkg/old/run.sh": "#!/bin/sh\necho hi\n",
    "pkg/old/data/cfg.json": '{"a": 1}\n',
    "pkg/legacy/__init__.py": "",
    "pkg/user.py": "from pkg.old.mod import f\n\nprint(f())\n",
    "README.md": "Call pkg.old.mod.f for the answer.\n",
    "tests/test_ab.py": "def test_a():\n    pass\n\n\ndef test_b():\n    pass\n",
}


def edit(path: str, text: str, old: str, new: str, kind: str) -> Edit:
    start = text.index(old)
    line = text.count("\n", 0, start) + 1
    return Edit(path, start, start + len(old), old, new, kind, line, 1, "test")


def full_changeset(prep=None) -> ChangeSet:
    """Every step non-empty: the ChangeSet a complete engine would produce for PLAN."""
    moves = [
        FileMove(f"pkg/old/{n}", f"pkg/new/{n}")
        for n in ("__init__.py", "data/cfg.json", "mod.py", "run.sh", "link.py")
    ]
    user = FILES["pkg/user.py"]
    return ChangeSet(
        moves=moves,
        edits=[
            edit("pkg/user.py", user, "pkg.old.mod", "pkg.new.mod", "code"),
            edit("pkg/new/mod.py", LATIN, "pkg.old.mod", "pkg.new.mod", "string"),
            edit("pkg/new/mod.py", LATIN, "café", "thé", "code"),
            edit("README.md", FILES["README.md"], "pkg.old.mod", "pkg.new.mod", "prose"),
        ],
        writes={
            "tests/test_a.py": ("tests", "def test_a():\n    pass\n"),
            "tests/test_b.py": ("tests", "def test_b():\n    pass\n"),
        },
        removals={"tests/test_ab.py": "tests", "pkg/legacy/__init__.py": "delete"},
    )


def make_sample(make_repo) -> Path:
    repo = make_repo(FILES, git_init=False)
    os.chmod(repo / "pkg/old/run.sh", 0o755)
    os.symlink("mod.py", repo / "pkg/old/link.py")
    from helpers import init_repo

    return init_repo(repo)


@pytest.fixture
def repo(make_repo) -> Path:
    return make_sample(make_repo)


@pytest.fixture
def plan(tmp_path) -> Path:
    p = tmp_path / "plan.yaml"
    p.write_text(PLAN)
    return p


def cli(*args: str, engine=None):
    """`migrate ARGS`; `engine` (a function of the prepared plan) instead of the real one."""
    return CliRunner().invoke(main, list(args), catch_exceptions=False, obj=engine)


# -- step_trees: pure ---------------------------------------------------------------


def base_files(repo: Path) -> dict:
    out = {}
    for line in git(repo, "ls-files", "-s").splitlines():
        meta, path = line.split("\t")
        mode = int(meta.split()[0], 8)
        p = repo / path
        out[path] = (mode, os.readlink(p).encode() if p.is_symlink() else p.read_bytes())
    return out


def test_step_trees_one_cumulative_tree_per_step(repo):
    trees = step_trees(base_files(repo), full_changeset())
    assert [s for s, _ in trees] == ["relocate", "code", "string", "prose", "tests", "delete"]
    by = dict(trees)
    assert "pkg/old/mod.py" not in by["relocate"]
    assert by["relocate"]["pkg/new/mod.py"] == (0o100644, LATIN.encode("latin-1"))
    assert by["relocate"]["pkg/new/run.sh"][0] == 0o100755
    assert by["relocate"]["pkg/new/link.py"] == (0o120000, b"mod.py")
    code = by["code"]["pkg/new/mod.py"][1].decode("latin-1")
    assert "thé" in code and "pkg.old.mod" in code and code.count("\r\n") == code.count("\n") == 5
    string = by["string"]["pkg/new/mod.py"][1]
    assert string == LATIN.replace("café", "thé").replace("old", "new").encode("latin-1")
    assert "tests/test_ab.py" in by["prose"] and "tests/test_ab.py" not in by["tests"]
    assert "pkg/legacy/__init__.py" in by["tests"] and "pkg/legacy/__init__.py" not in by["delete"]


def test_step_trees_is_pure_and_works_on_the_touched_paths_only(repo):
    from migrate.git_steps.trees import needed_paths

    full = base_files(repo)
    before = dict(full)
    whole = step_trees(full, full_changeset())
    assert full == before
    need = needed_paths(full_changeset())
    part = step_trees({p: v for p, v in full.items() if p in need}, full_changeset())
    for (s1, t1), (s2, t2) in zip(whole, part, strict=True):
        assert s1 == s2
        assert {p: v for p, v in t1.items() if p in t2 or p not in full} == t2


def test_step_trees_rejects_a_stale_edit(repo):
    from migrate.git_steps.trees import StepError

    cs = full_changeset()
    cs.edits[0] = Edit("pkg/user.py", 0, 4, "nope", "x", "code", 1, 1, "stale")
    with pytest.raises(StepError, match="stale edit"):
        step_trees(base_files(repo), cs)


# -- apply ----------------------------------------------------------------------------


def log_steps(repo: Path, rev_range: str) -> list[str]:
    shas = git(repo, "rev-list", "--reverse", rev_range).split()
    return [parse_trailers(git(repo, "log", "-1", "--format=%B", s)).step for s in shas]


def test_apply_makes_one_commit_per_step_then_the_blame_commit(repo, plan):
    base = git(repo, "rev-parse", "HEAD").strip()
    res = cli("apply", str(plan), "--repo", str(repo), engine=full_changeset)
    assert res.exit_code == 0, res.output
    steps = log_steps(repo, f"{base}..HEAD")
    assert steps == ["relocate", "code", "string", "prose", "tests", "delete", "blame-ignore-revs"]
    relocate = git(repo, "rev-list", "--reverse", f"{base}..HEAD").split()[0]
    status = git(repo, "show", "-M", "--name-status", "--format=", relocate).split("\n")
    entries = [line.split("\t")[0] for line in status if line]
    assert entries == ["R100"] * 5
    msg = git(repo, "log", "-1", "--format=%B", relocate)
    assert "migrate(relocate): relocate 5 files (renames only)" in msg
    assert f"Migrate-Plan: {plan.name} sha256:" in msg and str(plan) not in msg
    assert "Migrate-Step: relocate" in msg
    ignore = (repo / ".git-blame-ignore-revs").read_text().split()
    assert git(repo, "rev-list", "--reverse", f"{base}..HEAD~1").split() == ignore[-6:]
    assert git(repo, "status", "--porcelain") == ""
    assert (repo / "pkg/new/link.py").is_symlink()
    assert os.stat(repo / "pkg/new/run.sh").st_mode & stat.S_IXUSR
    assert (repo / "pkg/new/mod.py").read_bytes().decode("latin-1").count("\r\n") == 5
    assert not (repo / "pkg/old").exists() and not (repo / "pkg/legacy").exists()


def test_apply_with_the_real_engine_records_a_repo_relative_plan(repo):
    (repo / "plans").mkdir()
    (repo / "plans/p.yaml").write_text(PLAN)
    git(repo, "add", "plans/p.yaml")
    git(repo, "commit", "-qm", "add plan")
    base = git(repo, "rev-parse", "HEAD").strip()
    res = cli("apply", str(repo / "plans/p.yaml"), "--repo", str(repo))
    assert res.exit_code == 0, res.output
    steps = log_steps(repo, "HEAD~1..HEAD") + log_steps(repo, f"{base}..HEAD")
    assert steps[0] == "blame-ignore-revs" and steps[1] == "relocate"
    assert "code" in steps  # pkg/user.py imports the moved module
    assert "from pkg.new.mod import f" in (repo / "pkg/user.py").read_text()
    assert "Migrate-Plan: plans/p.yaml sha256:" in git(repo, "log", "-1", "--format=%B")


def test_apply_twice_reports_already_applied(repo, plan):
    assert cli("apply", str(plan), "--repo", str(repo), engine=full_changeset).exit_code == 0
    head = git(repo, "rev-parse", "HEAD")
    res = cli("apply", str(plan), "--repo", str(repo), engine=full_changeset)
    assert res.exit_code == 0 and "already-applied" in res.output
    assert git(repo, "rev-parse", "HEAD") == head


def test_apply_sees_a_hand_made_move_as_applied(repo, plan):
    git(repo, "mv", "pkg/old", "pkg/new")
    git(repo, "commit", "-qm", "moved by hand")
    head = git(repo, "rev-parse", "HEAD")
    res = cli("apply", str(plan), "--repo", str(repo))
    assert res.exit_code == 0 and "already-applied" in res.output
    assert git(repo, "rev-parse", "HEAD") == head


def test_apply_refuses_a_dirty_work_tree(repo, plan):
    (repo / "pkg/user.py").write_text("changed\n")
    (repo / "new.txt").write_text("untracked\n")
    head = git(repo, "rev-parse", "HEAD")
    res = CliRunner().invoke(main, ["apply", str(plan), "--repo", str(repo)])
    assert res.exit_code == 3
    assert "pkg/user.py" in res.output and "new.txt" in res.output
    assert git(repo, "rev-parse", "HEAD") == head


def test_apply_refuses_an_unresolved_merge(repo, plan):
    git(repo, "checkout", "-qb", "other")
    (repo / "pkg/user.py").write_text("other\n")
    git(repo, "commit", "-qam", "other")
    git(repo, "checkout", "-q", "main")
    (repo / "pkg/user.py").write_text("mine\n")
    git(repo, "commit", "-qam", "mine")
    with pytest.raises(Exception):  # noqa: B017 - the merge conflicts
        git(repo, "merge", "-q", "other")
    res = CliRunner().invoke(main, ["apply", str(plan), "--repo", str(repo)])
    assert res.exit_code == 3
    assert "merge is in progress" in res.output and "  pkg/user.py" in res.output


def test_apply_rejects_an_invalid_plan_and_writes_nothing(repo, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("version: 1\nmoves:\n  - from: pkg.nowhere\n    to: pkg.new\n")
    head = git(repo, "rev-parse", "HEAD")
    res = CliRunner().invoke(main, ["apply", str(bad), "--repo", str(repo)])
    assert res.exit_code == 2
    assert "pkg.nowhere does not exist" in res.output and "nothing was written" in res.output
    assert git(repo, "rev-parse", "HEAD") == head and git(repo, "status", "--porcelain") == ""


def test_plan_shorthand_applies(repo, plan):
    res = cli(str(plan), "--repo", str(repo))
    assert res.exit_code == 0, res.output
    assert (repo / "pkg/new/mod.py").exists()


def test_apply_on_a_new_branch(repo, plan):
    res = cli("apply", str(plan), "--repo", str(repo), "--branch", "migration")
    assert res.exit_code == 0, res.output
    assert git(repo, "symbolic-ref", "--short", "HEAD").strip() == "migration"
    assert int(git(repo, "rev-list", "--count", "main..migration")) >= 2
    assert git(repo, "rev-parse", "main") != git(repo, "rev-parse", "migration")
    res = CliRunner().invoke(main, ["apply", str(plan), "--repo", str(repo), "--branch", "main"])
    assert res.exit_code == 3 and "branch main already exists" in res.output

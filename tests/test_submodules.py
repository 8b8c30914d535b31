"""Submodules move with their package: gitlink, `.gitmodules` path (name kept), checkout.

Real submodules (`git submodule add` of a local repository) in real repositories; the
real engine. The submodule moves one directory deeper (`pkg/old` -> `pkg/new/ops`), so
the relative `gitdir:` of its `.git` file and the `core.worktree` of its git dir must
be rewritten, as `git mv` does.
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import git, init_repo, start_paused, write_tree
from test_apply_atomic import snapshot, strip_stat

from migrate.cli import main

PLAN = "version: 1\nmoves:\n  - from: pkg.old\n    to: pkg.new.ops\n"
FILES = {
    "pkg/__init__.py": "",
    "pkg/old/__init__.py": "from .mod import f\n",
    "pkg/old/mod.py": "def f():\n    return 1\n",
    "pkg/user.py": "from pkg.old.mod import f\n",
}
OLD, NEW = "pkg/old/vendored", "pkg/new/ops/vendored"
ALLOW = ("-c", "protocol.file.allow=always")


def submodule_git_config(repo: Path) -> bytes:
    return (repo / ".git/modules" / OLD / "config").read_bytes()


def state(repo: Path) -> dict:
    """Everything a rollback must restore, the submodule's git dir config included."""
    snap = strip_stat(snapshot(repo))
    snap["submodule-config"] = submodule_git_config(repo)
    snap["submodule status"] = git(repo, "submodule", "status")
    snap["git-dir"] = sorted(
        n for n in os.listdir(repo / ".git") if n in ("migrate.lock", "migrate-journal")
    )
    return snap


@pytest.fixture
def world(tmp_path):
    """(superproject with a checked-out submodule at pkg/old/vendored, plan path)."""
    lib = write_tree(tmp_path / "lib", {"lib.py": "X = 1\n", "data/table.csv": "a,b\n"})
    init_repo(lib)
    repo = init_repo(write_tree(tmp_path / "repo", FILES))
    git(repo, *ALLOW, "submodule", "add", "-q", str(lib), OLD)
    git(repo, "commit", "-qm", "submodule")
    plan = tmp_path / "plan.yaml"
    plan.write_text(PLAN)
    return repo, plan


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_the_dry_run_shows_the_submodule_move_and_writes_nothing(world):
    repo, plan = world
    before = state(repo)
    res = run(str(plan), "--dry-run", "--diff", "--repo", str(repo))
    assert res.exit_code == 0, res.output
    assert f"  {OLD} -> {NEW}  (submodule: gitlink, checkout and .gitmodules path)" in res.output
    assert f"rename from {OLD}\nrename to {NEW}\n" in res.output
    # .gitmodules: only the path changes, in the relocate step; the name is kept
    assert f"-\tpath = {OLD}\n+\tpath = {NEW}\n" in res.output
    assert f'[submodule "{OLD}"]' in res.output and f'+[submodule "{NEW}"]' not in res.output
    assert ".gitmodules  [relocate]" in res.output
    assert state(repo) == before


def test_apply_moves_gitlink_gitmodules_and_checkout_and_verify_passes(world):
    repo, plan = world
    sha = git(repo, "rev-parse", f"HEAD:{OLD}").strip()
    base = git(repo, "rev-parse", "HEAD").strip()
    res = run("apply", str(plan), "--repo", str(repo))
    assert res.exit_code == 0, res.output
    assert git(repo, "ls-tree", "HEAD", NEW).split()[:3] == ["160000", "commit", sha]
    assert git(repo, "ls-tree", "HEAD", OLD) == ""
    modules = git(repo, "show", "HEAD:.gitmodules")
    assert f'[submodule "{OLD}"]' in modules and f"path = {NEW}" in modules
    # the relocate commit holds the gitlink rename and the .gitmodules path, nothing else
    relocate = git(repo, "log", "--format=%H", "--grep=migrate(relocate)").split()[0]
    diff = git(repo, "diff-tree", "-r", "-M", "--name-status", f"{relocate}~1", relocate)
    assert sorted(diff.splitlines()) == sorted(
        [
            "M\t.gitmodules",
            f"R100\t{OLD}\t{NEW}",
            "R100\tpkg/old/__init__.py\tpkg/new/ops/__init__.py",
            "R100\tpkg/old/mod.py\tpkg/new/ops/mod.py",
        ]
    )
    assert "and 1 submodule" in git(repo, "log", "-1", "--format=%s", relocate)
    # the checkout moved, still tied to its git dir (which stays under its name)
    assert (repo / NEW / "lib.py").read_text() == "X = 1\n"
    assert not (repo / "pkg/old").exists()
    assert (repo / NEW / ".git").read_text() == f"gitdir: ../../../../.git/modules/{OLD}\n"
    assert f"worktree = ../../../../../{NEW}\n" in submodule_git_config(repo).decode()
    top = git(repo / NEW, "rev-parse", "--show-toplevel").strip()
    assert Path(top) == (repo / NEW).resolve()
    assert git(repo / NEW, "status", "--porcelain") == ""
    assert git(repo, "status", "--porcelain") == ""
    assert git(repo, "submodule", "status") == f" {sha} {NEW} (heads/main)\n"
    res = run("verify", f"{base}..HEAD", "--repo", str(repo), "--no-wheel")
    assert res.exit_code == 0, res.output
    assert "PASS check git-integrity" in res.output
    again = run("apply", str(plan), "--repo", str(repo))
    assert again.exit_code == 0 and "already-applied" in again.output, again.output
    # the kept name is a name, not a stale reference, and `fix` leaves it alone
    stale = run("stale", str(plan), "--repo", str(repo))
    assert stale.exit_code == 0, stale.output
    assert run("fix", str(plan), "--repo", str(repo)).exit_code == 0
    assert git(repo, "status", "--porcelain") == ""


def test_the_json_dry_run_lists_the_submodule_as_a_pure_move(world):
    import json

    repo, plan = world
    res = run(str(plan), "--dry-run", "--format", "json", "--repo", str(repo))
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert {"old": OLD, "new": NEW, "edited": False} in data["moves"]
    assert data["per_step"]["relocate"]["moves"] == data["per_step"]["relocate"]["pure_renames"]
    assert ".gitmodules" in {w["path"] for w in data["writes"] if w["step"] == "relocate"}


GITMODULES = (
    '[submodule "pkg/old/vendored"]\r\n\tpath = pkg/old/vendored\r\n\turl = ../lib\r\n'
    "# a comment: path = pkg/old/x\r\n"
    '[submodule "docs"]\r\n\tpath = "pkg/old/docs theme"\r\n'
    '[submodule "stays"]\r\n\tpath = third_party/stays\r\n'
)


def test_gitmodules_paths_follow_names_stay_and_a_second_run_changes_nothing():
    from migrate.relocate import Relocation
    from migrate.rewrite.submodules import rewritten_gitmodules

    rel = Relocation(path_prefixes={"pkg/old": "pkg/new/ops"})
    once = rewritten_gitmodules(GITMODULES, rel)
    assert once == GITMODULES.replace(
        "path = pkg/old/vendored", "path = pkg/new/ops/vendored"
    ).replace('path = "pkg/old/docs theme"', 'path = "pkg/new/ops/docs theme"')
    assert rewritten_gitmodules(once, rel) == once


def test_an_uninitialized_submodule_moves_its_gitlink(world, tmp_path):
    repo, plan = world
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(repo), str(clone))  # submodule not initialized
    assert (clone / OLD).is_dir() and not any((clone / OLD).iterdir())
    sha = git(clone, "rev-parse", f"HEAD:{OLD}").strip()
    res = run("apply", str(plan), "--repo", str(clone))
    assert res.exit_code == 0, res.output
    assert git(clone, "status", "--porcelain") == ""
    assert git(clone, "submodule", "status") == f"-{sha} {NEW}\n"
    assert (clone / NEW).is_dir() and not (clone / OLD).exists()
    git(clone, *ALLOW, "submodule", "update", "-q", "--init")  # it checks out where it is now
    assert (clone / NEW / "lib.py").read_text() == "X = 1\n"
    assert git(clone, "status", "--porcelain") == ""


@pytest.mark.parametrize("point", ["ref", "checkout"])
def test_a_fault_in_the_switch_puts_the_submodule_back_byte_identical(world, point, monkeypatch):
    repo, plan = world
    before = state(repo)
    monkeypatch.setenv("MIGRATE_FAIL_AT", point)
    res = run("apply", str(plan), "--repo", str(repo))
    assert res.exit_code == 1, res.output
    assert "restored" in res.output
    assert state(repo) == before
    assert git(repo, "status", "--porcelain") == ""


def test_sigkill_after_the_checkout_is_rolled_back_by_recover(world):
    repo, plan = world
    before = state(repo)
    proc = start_paused(
        [sys.executable, "-m", "migrate", "apply", str(plan), "--repo", str(repo)], "checkout:30"
    )
    try:
        assert (repo / NEW / "lib.py").exists()  # moved and re-tied: then killed
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # never leave the run behind
        proc.communicate(timeout=30)
    res = run("recover", "--repo", str(repo))
    assert res.exit_code == 0, res.output
    assert "was rolled back" in res.output
    assert state(repo) == before


def test_a_submodule_with_uncommitted_changes_is_refused(world):
    """Renaming its directory would keep the changes, but the repository is not one we
    could restore exactly: the clean-tree rule refuses it like any dirty file."""
    repo, plan = world
    (repo / OLD / "lib.py").write_text("X = 2  # my work in progress\n")
    before = state(repo)
    res = run("apply", str(plan), "--repo", str(repo))
    assert res.exit_code == 3, res.output
    assert "the work tree is not clean" in res.output and f" M {OLD}" in res.output
    assert state(repo) == before


def test_nested_submodules_are_refused(world, tmp_path):
    repo, plan = world
    inner = init_repo(write_tree(tmp_path / "inner", {"in.txt": "in\n"}))
    sub = repo / OLD
    git(sub, *ALLOW, "submodule", "add", "-q", str(inner), "deps/inner")
    git(sub, "commit", "-qm", "nested")
    git(repo, "commit", "-qam", "bump the submodule")
    before = state(repo)
    for args in ([str(plan), "--dry-run"], ["apply", str(plan)]):  # the dry run says it too
        res = run(*args, "--repo", str(repo))
        assert res.exit_code == 2, res.output
        assert f"plan.yaml:3:5: error: {OLD}: the submodule has submodules of its own" in (
            res.output
        )
    assert state(repo) == before


def test_a_move_into_a_submodule_that_stays_is_refused(world):
    repo, plan = world
    plan.write_text("version: 1\nmoves:\n  - from: pkg.user\n    to: pkg.old.vendored.user\n")
    before = state(repo)
    for args in ([str(plan), "--dry-run"], ["apply", str(plan)]):
        res = run(*args, "--repo", str(repo))
        assert res.exit_code == 2, res.output
        assert f"inside submodule {OLD}, which the plan does not move" in res.output
    assert state(repo) == before


def test_a_submodule_with_its_git_dir_inside_moves_whole(tmp_path, monkeypatch):
    """An old-style submodule keeps its repository in its own `.git` directory: renaming
    the checkout carries it along; a fault in the switch renames it back."""
    repo = init_repo(write_tree(tmp_path / "repo", FILES))
    lib = init_repo(write_tree(repo / OLD, {"lib.py": "X = 1\n"}))  # embedded repository
    sha = git(lib, "rev-parse", "HEAD").strip()
    git(repo, "update-index", "--add", "--cacheinfo", f"160000,{sha},{OLD}")
    (repo / ".gitmodules").write_text(f'[submodule "v"]\n\tpath = {OLD}\n\turl = ../lib\n')
    git(repo, "add", ".gitmodules")
    git(repo, "commit", "-qm", "embedded submodule")
    plan = tmp_path / "plan.yaml"
    plan.write_text(PLAN)
    before = strip_stat(snapshot(repo))
    status = git(repo, "submodule", "status")
    monkeypatch.setenv("MIGRATE_FAIL_AT", "checkout")
    assert run("apply", str(plan), "--repo", str(repo)).exit_code == 1
    assert strip_stat(snapshot(repo)) == before
    assert git(lib, "rev-parse", "HEAD").strip() == sha
    monkeypatch.delenv("MIGRATE_FAIL_AT")
    res = run("apply", str(plan), "--repo", str(repo))
    assert res.exit_code == 0, res.output
    assert git(repo / NEW, "rev-parse", "HEAD").strip() == sha
    assert (repo / NEW / ".git").is_dir()
    assert git(repo, "status", "--porcelain") == ""
    assert git(repo, "submodule", "status") == status.replace(OLD, NEW)


def test_a_path_move_of_the_submodule_itself_moves_it(world):
    repo, plan = world
    plan.write_text(f"version: 1\nmoves:\n  - from: {OLD}\n    to: third_party/vendored\n")
    base = git(repo, "rev-parse", "HEAD").strip()
    sha = git(repo, "rev-parse", f"HEAD:{OLD}").strip()
    res = run("apply", str(plan), "--repo", str(repo))
    assert res.exit_code == 0, res.output
    assert git(repo, "ls-tree", "HEAD", "third_party/vendored").split()[:3] == [
        "160000",
        "commit",
        sha,
    ]
    assert (repo / "third_party/vendored/.git").read_text() == f"gitdir: ../../.git/modules/{OLD}\n"
    assert git(repo, "status", "--porcelain") == ""
    assert git(repo, "submodule", "status") == f" {sha} third_party/vendored (heads/main)\n"
    res = run("verify", f"{base}..HEAD", "--repo", str(repo), "--no-wheel")
    assert res.exit_code == 0, res.output


def test_a_deinitialized_submodule_moves_and_checks_out_again_at_its_new_path(world):
    """`deinit` empties the checkout but keeps the git dir: the gitlink moves, and
    `submodule update` re-ties the kept git dir to the new path."""
    repo, plan = world
    git(repo, "submodule", "deinit", "-q", "-f", OLD)
    sha = git(repo, "rev-parse", f"HEAD:{OLD}").strip()
    res = run("apply", str(plan), "--repo", str(repo))
    assert res.exit_code == 0, res.output
    assert git(repo, "status", "--porcelain") == ""
    git(repo, *ALLOW, "submodule", "update", "-q", "--init")
    assert git(repo, "submodule", "status") == f" {sha} {NEW} (heads/main)\n"
    assert (repo / NEW / "lib.py").read_text() == "X = 1\n"
    assert git(repo / NEW, "status", "--porcelain") == ""


def test_the_report_counts_the_moved_submodule_before_and_after_apply(world):
    """`migrate report` (the dry run's preview and the applied range) counts the submodule
    on its own row: it is neither a file nor a data file."""
    import json

    import jsonschema
    from helpers import REPO_ROOT

    repo, plan = world
    schema = json.loads((REPO_ROOT / "docs/report-schema.json").read_text())
    preview = run(str(plan), "--dry-run", "--format", "md", "--repo", str(repo))
    assert "| submodules moved | 1 |" in preview.output, preview.output
    base = git(repo, "rev-parse", "HEAD").strip()
    assert run("apply", str(plan), "--repo", str(repo)).exit_code == 0
    args = ["report", f"{base}..HEAD", "--repo", str(repo), "--plan", str(plan)]
    res = run(*args, "--no-wheel-check", "--format", "json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    jsonschema.validate(doc, schema)
    summary = doc["summary"]
    assert (summary["submodules_moved"], summary["files_moved"]) == (1, 2)
    assert summary["data_files_moved"] == 0
    md = run(*args, "--no-wheel-check")
    assert "| submodules moved | 1 |" in md.output and "| data files moved | 0 |" in md.output


DELETE_PLAN = (
    "version: 1\nmoves:\n  - from: pkg.old.mod\n    to: pkg.new.mod\ndelete:\n  - pkg.old\n"
)


def test_deleting_a_package_that_holds_a_submodule_is_a_plan_error(world):
    """Deleting the package would leave the submodule behind in it (before: applied, the
    "deleted" package kept its gitlink and checkout). Removing it instead would throw away
    another repository's checkout, which may hold work of its own: refused, in the dry run
    and in apply alike, with what to do."""
    repo, plan = world
    plan.write_text(DELETE_PLAN)
    before = state(repo)
    outputs = []
    for args in ([str(plan), "--dry-run"], ["apply", str(plan)]):
        res = run(*args, "--repo", str(repo))
        assert res.exit_code == 2, res.output
        line = next(x for x in res.output.splitlines() if "submodule" in x)
        outputs.append(line)
    assert outputs[0] == outputs[1]  # the same words
    assert outputs[0].endswith(
        f"plan.yaml:6:5: error: delete pkg.old: submodule {OLD} is inside it and the plan "
        f"does not move it (remove it first with `git rm {OLD}`, or move it out with a "
        "path move)"
    )
    assert state(repo) == before


def test_deleting_a_package_whose_submodule_moves_out_is_applied(world):
    """A path move that takes the submodule out of the deleted package is fine."""
    repo, plan = world
    plan.write_text(
        "version: 1\nmoves:\n  - from: pkg.old.mod\n    to: pkg.new.mod\n"
        f"  - from: {OLD}\n    to: third_party/vendored\ndelete:\n  - pkg.old\n"
    )
    res = run("apply", str(plan), "--repo", str(repo))
    assert res.exit_code == 0, res.output
    assert git(repo, "ls-tree", "HEAD", "third_party/vendored").split()[0] == "160000"
    assert git(repo, "ls-tree", "-r", "HEAD", "pkg/old") == ""
    assert (repo / "third_party/vendored/lib.py").read_text() == "X = 1\n"
    assert git(repo, "status", "--porcelain") == ""

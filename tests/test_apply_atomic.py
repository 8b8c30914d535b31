"""Apply is all or nothing: an exception or a signal at any point restores every byte."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import REPO_ROOT, git, start_paused
from test_apply import PLAN, make_sample

from migrate.cli import main

POINTS = [
    "relocate",
    "code",
    "string",
    "prose",
    "tests",
    "delete",
    "blame-ignore-revs",
    "ref",
    "checkout",
]


def snapshot(repo: Path) -> dict:
    """HEAD, refs, index entries and every work-tree file (bytes and mode) outside .git."""
    files = {}
    for dirpath, dirnames, filenames in os.walk(repo):
        dirnames[:] = [d for d in dirnames if d != ".git"]
        rel = os.path.relpath(dirpath, repo)
        files[rel + "/"] = None
        for name in filenames:
            p = Path(dirpath) / name
            st = p.lstat()
            data = os.readlink(p).encode() if p.is_symlink() else p.read_bytes()
            files[os.path.join(rel, name)] = (st.st_mode, data)
    return {
        "head": git(repo, "rev-parse", "HEAD"),
        "symbolic": git(repo, "symbolic-ref", "-q", "HEAD"),
        "refs": git(repo, "for-each-ref"),
        "index": git(repo, "ls-files", "-s", "--debug"),
        "status": git(repo, "status", "--porcelain", "--ignored"),
        "lock": (repo / ".git/index.lock").exists(),
        "files": files,
    }


def strip_stat(snap: dict) -> dict:
    """`ls-files --debug` shows stat data; compare entries by mode/sha/path and flags only."""
    lines = [ln for ln in snap["index"].splitlines() if not ln.startswith("  ")]
    return {**snap, "index": lines}


@pytest.fixture
def repo(make_repo, tmp_path) -> tuple[Path, Path]:
    repo = make_sample(make_repo)
    (repo / ".gitignore").write_text("__pycache__/\n")
    git(repo, "add", ".gitignore")
    git(repo, "commit", "-qm", "ignore")
    (repo / "pkg/old/__pycache__").mkdir()
    (repo / "pkg/old/__pycache__/mod.cpython.pyc").write_bytes(b"\0ignored")
    plan = tmp_path / "plan.yaml"
    plan.write_text(PLAN)
    return repo, plan


@pytest.mark.parametrize("point", POINTS)
def test_injected_failure_restores_everything(repo, point, monkeypatch):
    from test_apply import full_changeset

    repo, plan = repo
    monkeypatch.setenv("MIGRATE_FAIL_AT", point)
    before = snapshot(repo)
    res = CliRunner().invoke(main, ["apply", str(plan), "--repo", str(repo)], obj=full_changeset)
    assert res.exit_code == 1, res.output
    assert f"injected failure at {point}" in res.output
    assert strip_stat(snapshot(repo)) == strip_stat(before)


def test_injected_failure_on_a_new_branch_removes_it(repo, monkeypatch):
    repo, plan = repo
    monkeypatch.setenv("MIGRATE_FAIL_AT", "checkout")
    before = snapshot(repo)
    res = CliRunner().invoke(main, ["apply", str(plan), "--repo", str(repo), "--branch", "mig"])
    assert res.exit_code == 1
    assert strip_stat(snapshot(repo)) == strip_stat(before)


SCRIPT = """
import sys
sys.path[:0] = [{tests!r}]
import test_apply
from migrate.cli import main
main(["apply", {plan!r}, "--repo", {repo!r}], obj=test_apply.full_changeset)
"""


@pytest.mark.parametrize(
    ("sig", "point"),
    [
        (signal.SIGINT, "code"),
        (signal.SIGTERM, "ref"),
        (signal.SIGINT, "checkout"),
        (signal.SIGTERM, "checkout"),
    ],
)
def test_signal_during_apply_restores_everything(repo, sig, point):
    repo, plan = repo
    before = snapshot(repo)
    script = SCRIPT.format(tests=str(REPO_ROOT / "tests"), plan=str(plan), repo=str(repo))
    proc = start_paused([sys.executable, "-c", script], f"{point}:30")
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 1, err
    assert f"interrupted by {signal.Signals(sig).name}" in err
    assert strip_stat(snapshot(repo)) == strip_stat(before)


def test_the_snapshot_sees_every_part_an_apply_changes(repo):
    repo, plan = repo
    before = strip_stat(snapshot(repo))
    assert CliRunner().invoke(main, ["apply", str(plan), "--repo", str(repo)]).exit_code == 0
    after = strip_stat(snapshot(repo))
    assert {k for k in before if before[k] != after[k]} >= {"head", "index", "files"}

"""The fault matrix: every injection point of apply x every way to stop it.

After each case the repository (every file, ignored and untracked ones included, modes,
index, refs, HEAD, the git dir's lock/journal files) is byte-identical to before, or the
migration is fully applied and clean, and no process of the run is left. The full matrix
is behind `slow`; the default one covers every point once and every stop mode at the
points where the switch happens.

The repository holds a real, checked-out submodule that the ChangeSet moves one directory
deeper, so every case also proves its checkout, `.git` file and git dir config come back.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import REPO_ROOT, git, init_repo, write_tree
from test_apply import PLAN, full_changeset, make_sample
from test_apply_atomic import snapshot, strip_stat

from migrate.cli import main

POINTS = [
    "relocate",
    "code",
    "string",
    "prose",
    "tests",
    "delete",
    "blame-ignore-revs",
    "journal",
    "ref",
    "dir-rename",
    "checkout",
]
MODES = ["exception", "sigint-pid", "sigint-group", "sigterm-group", "sigkill+recover"]
SWITCH = ("journal", "ref", "dir-rename", "checkout")
DEFAULT = {(p, "exception") for p in POINTS} | {(p, m) for p in SWITCH for m in MODES}
CASES = [
    pytest.param(p, m, marks=() if (p, m) in DEFAULT else pytest.mark.slow)
    for p in POINTS
    for m in MODES
]

SCRIPT = """
import sys
sys.path[:0] = [{tests!r}]
import test_fault_matrix
from migrate.cli import main
main(["apply", {plan!r}, "--repo", {repo!r}], obj=test_fault_matrix.matrix_changeset)
"""
SUB_OLD, SUB_NEW = "pkg/old/vendored", "pkg/new/third_party/vendored"


def matrix_changeset(prep=None):
    """Every step non-empty (`full_changeset`), and the submodule moved with its package."""
    cs = full_changeset(prep)
    cs.submodules = {SUB_OLD: SUB_NEW}
    text = (prep.index.root / ".gitmodules").read_text()
    cs.writes[".gitmodules"] = ("relocate", text.replace(f"= {SUB_OLD}\n", f"= {SUB_NEW}\n"))
    return cs


def build(make_repo, tmp_path) -> tuple[Path, Path]:
    repo = make_sample(make_repo)
    (repo / ".gitignore").write_text("*.log\n__pycache__/\n")
    git(repo, "add", ".gitignore")
    git(repo, "commit", "-qm", "ignore")
    lib = init_repo(write_tree(tmp_path / "lib", {"lib.py": "X = 1\n"}))
    git(repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(lib), SUB_OLD)
    git(repo, "commit", "-qm", "submodule")
    (repo / "build.log").write_bytes(b"ignored\n")
    (repo / "pkg/old/__pycache__").mkdir()
    (repo / "pkg/old/__pycache__/mod.pyc").write_bytes(b"\0pyc")
    git(repo, "update-index", "--refresh")
    os.chmod(repo / "README.md", 0o600)
    plan = tmp_path / "plan.yaml"
    plan.write_text(PLAN)
    return repo, plan


def state(repo: Path) -> dict:
    snap = strip_stat(snapshot(repo))
    snap["submodule"] = (
        (repo / ".git/modules" / SUB_OLD / "config").read_bytes(),
        git(repo, "submodule", "status"),
    )
    snap["git-dir"] = sorted(
        n
        for n in os.listdir(repo / ".git")
        if n in ("index.lock", "index.migrate-restore", "migrate.lock", "migrate-journal")
    )
    return snap


@pytest.fixture
def world(make_repo, tmp_path, monkeypatch):
    """(repo, plan, before, after): `after` is a clean apply of an identical repo."""
    monkeypatch.delenv("MIGRATE_FAIL_AT", raising=False)
    monkeypatch.delenv("MIGRATE_SLOW_AT", raising=False)
    twin, plan = build(make_repo, tmp_path)
    repo = tmp_path / "repo"
    shutil.copytree(twin, repo, symlinks=True)
    before = state(repo)
    assert state(twin) == before
    assert (
        CliRunner()
        .invoke(main, ["apply", str(plan), "--repo", str(twin)], obj=matrix_changeset)
        .exit_code
        == 0
    )
    return repo, plan, before, state(twin)


def start(repo: Path, plan: Path, point: str) -> tuple[subprocess.Popen, Path]:
    marker = repo.parent / "at.txt"
    marker.unlink(missing_ok=True)
    script = SCRIPT.format(tests=str(REPO_ROOT / "tests"), plan=str(plan), repo=str(repo))
    env = dict(os.environ, MIGRATE_SLOW_AT=f"{point}:60", MIGRATE_AT_FILE=str(marker))
    err = repo.parent / "stderr.txt"
    proc = subprocess.Popen(
        [sys.executable, "-c", script],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=open(err, "w"),  # noqa: SIM115 (the child owns it)
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while not (marker.exists() and point in marker.read_text()):
        assert proc.poll() is None, err.read_text()
        assert time.monotonic() < deadline
        time.sleep(0.02)
    return proc, err


def wait_stopped(proc: subprocess.Popen, err: Path, why: str) -> None:
    """Wait for the signalled run; generous, since its rollback shares 2 cores with the
    other xdist worker (a 10 s limit once failed CI under load); a hang still fails."""
    try:
        proc.wait(timeout=90)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        pytest.fail(f"the run did not stop within 90 s of {why}:\n{err.read_text()}")


def group_gone(pgid: int) -> bool:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def stop(repo: Path, plan: Path, point: str, mode: str, monkeypatch) -> None:
    if mode == "exception":
        monkeypatch.setenv("MIGRATE_FAIL_AT", point)
        res = CliRunner().invoke(
            main, ["apply", str(plan), "--repo", str(repo)], obj=matrix_changeset
        )
        assert res.exit_code == 1, res.output
        assert "Traceback" not in res.output
        return
    proc, err = start(repo, plan, point)
    sig = {"sigint": signal.SIGINT, "sigterm": signal.SIGTERM, "sigkill+recover": signal.SIGKILL}
    how = sig[mode.split("-")[0]] if mode != "sigkill+recover" else signal.SIGKILL
    if mode.endswith("-pid"):
        os.kill(proc.pid, how)
    else:
        os.killpg(proc.pid, how)
    wait_stopped(proc, err, mode)
    assert group_gone(proc.pid), "a process of the run is left"
    if mode == "sigkill+recover":
        res = CliRunner().invoke(main, ["recover", "--repo", str(repo)])
        assert res.exit_code == 0, res.output
    else:
        assert proc.returncode in (0, 1), err.read_text()
        assert "Traceback" not in err.read_text()


@pytest.mark.parametrize(("point", "mode"), CASES)
def test_fault_matrix(world, point, mode, monkeypatch):
    repo, plan, before, after = world
    stop(repo, plan, point, mode, monkeypatch)
    now = state(repo)
    assert now in (before, after), (point, mode)


@pytest.mark.parametrize(
    "faults",
    [
        "ref:ENOSPC",
        "checkout:EACCES",
        "journal:ENOSPC",
        "checkout,rollback-index:ENOSPC",
        "checkout,rollback-files:EACCES",
        "ref,rollback-refs:ENOSPC",
    ],
)
def test_disk_full_or_permission_denied_during_switch_or_rollback(world, faults, monkeypatch):
    repo, plan, before, _after = world
    monkeypatch.setenv("MIGRATE_FAIL_AT", faults)
    res = CliRunner().invoke(main, ["apply", str(plan), "--repo", str(repo)], obj=matrix_changeset)
    assert res.exit_code == 1, res.output
    assert "Traceback" not in res.output
    if "rollback" in faults:  # listed with how to restore; `recover` finishes it
        assert "could not restore" in res.output
        monkeypatch.delenv("MIGRATE_FAIL_AT")
        assert CliRunner().invoke(main, ["recover", "--repo", str(repo)]).exit_code == 0
    assert state(repo) == before


def test_concurrent_apply_and_concurrent_user_edit(world, monkeypatch):
    repo, plan, before, after = world
    proc, err = start(repo, plan, "checkout")
    second = CliRunner().invoke(
        main, ["apply", str(plan), "--repo", str(repo)], obj=matrix_changeset
    )
    assert second.exit_code == 3 and "another migrate is running" in second.output
    (repo / "build.log").write_text("appended while apply ran\n")  # ignored: never touched
    (repo / "pkg/user.py").write_text("# edited while apply ran\n")  # the switch wrote it
    os.killpg(proc.pid, signal.SIGTERM)
    wait_stopped(proc, err, "sigterm")
    assert group_gone(proc.pid)
    assert "pkg/user.py: changed while apply ran; left as you have it" in err.read_text()
    now = state(repo)
    edited = {
        "./build.log": b"appended while apply ran\n",
        "pkg/user.py": b"# edited while apply ran\n",
    }
    for path, data in edited.items():
        assert now["files"].pop(path)[1] == data
    files = {k: v for k, v in before["files"].items() if k not in edited}
    assert now["files"] == files
    assert now["head"] == before["head"] and now["refs"] == before["refs"]
    assert now["index"] == before["index"] and now["git-dir"] == []

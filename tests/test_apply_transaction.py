"""apply as a transaction: preflight, byte-exact rollback, lock, journal and recovery."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import REPO_ROOT, git, start_paused
from test_apply import PLAN, full_changeset, make_sample
from test_apply_atomic import snapshot, strip_stat

from migrate.cli import main


@pytest.fixture
def repo(make_repo, tmp_path):
    repo = make_sample(make_repo)
    (repo / ".gitignore").write_text("*.log\n/pkg/new/run.sh\n")
    git(repo, "add", ".gitignore")
    git(repo, "commit", "-qm", "ignore")
    (repo / "keep.log").write_text("ignored, never tracked\n")
    plan = tmp_path / "plan.yaml"
    plan.write_text(PLAN)
    return repo, plan


def apply(repo: Path, plan: Path, *extra: str):
    return CliRunner().invoke(
        main, ["apply", str(plan), "--repo", str(repo), *extra], obj=full_changeset
    )


def leftovers(repo: Path) -> list[str]:
    """What a run must never leave in the git dir."""
    names = ["index.lock", "index.migrate-restore", "migrate.lock", "migrate-journal"]
    return [n for n in names if (repo / ".git" / n).exists()]


def test_a_refused_apply_never_deletes_an_ignored_file_at_a_new_path(repo):
    repo, plan = repo
    (repo / "pkg/new").mkdir()
    (repo / "pkg/new/run.sh").write_bytes(b"my own script, ignored\n")
    before = strip_stat(snapshot(repo))
    res = apply(repo, plan)
    assert res.exit_code == 3, res.output
    assert "pkg/new/run.sh: an untracked or ignored file is in the way of a new path" in res.output
    assert (repo / "pkg/new/run.sh").read_bytes() == b"my own script, ignored\n"
    assert strip_stat(snapshot(repo)) == before
    assert leftovers(repo) == []


def test_an_ignored_file_where_a_directory_is_needed_is_refused(repo):
    repo, plan = repo
    (repo / ".gitignore").write_text("*.log\n/pkg/new\n")
    git(repo, "commit", "-qam", "ignore pkg/new")
    (repo / "pkg/new").write_bytes(b"a file, ignored\n")
    before = strip_stat(snapshot(repo))
    res = apply(repo, plan)
    assert res.exit_code == 3, res.output
    assert "pkg/new: an untracked or ignored file where a directory is needed" in res.output
    assert strip_stat(snapshot(repo)) == before


@pytest.mark.parametrize("how", ["autocrlf", "eol-attribute", "eol-attribute-checked-out"])
def test_rollback_restores_bytes_not_a_checkout_through_filters(repo, monkeypatch, how):
    """A checkout through the filters writes what git would write, not what the user had:
    with `core.autocrlf` or an `eol=crlf` attribute added after the files were checked out
    (git status is clean: LF on disk cleans to the same LF blob) it writes CRLF. The
    rollback must put back the recorded bytes. The third case, CRLF on disk as the
    attribute says, is a guard: a checkout would write those same bytes."""
    repo, plan = repo
    if how == "autocrlf":
        git(repo, "config", "core.autocrlf", "true")  # files on disk stay LF
    else:
        (repo / ".gitattributes").write_text("README.md eol=crlf\npkg/user.py eol=crlf\n")
        git(repo, "add", ".gitattributes")
        git(repo, "commit", "-qm", "attributes")  # files on disk stay LF
        if how == "eol-attribute-checked-out":  # CRLF on disk, LF in the blobs
            git(repo, "rm", "-q", "--cached", "-r", ".")
            git(repo, "reset", "-q", "--hard")
            assert b"\r\n" in (repo / "pkg/user.py").read_bytes()
        else:
            assert b"\r\n" not in (repo / "pkg/user.py").read_bytes()
    assert git(repo, "status", "--porcelain") == ""
    before = strip_stat(snapshot(repo))
    monkeypatch.setenv("MIGRATE_FAIL_AT", "checkout")
    res = apply(repo, plan)
    assert res.exit_code == 1, res.output
    assert strip_stat(snapshot(repo)) == before
    assert git(repo, "status", "--porcelain") == ""


def test_rollback_keeps_modes_git_does_not_track(repo, monkeypatch):
    repo, plan = repo
    os.chmod(repo / "pkg/user.py", 0o444)
    os.chmod(repo / "README.md", 0o600)
    os.chmod(repo / "pkg/old/data/cfg.json", 0o640)
    before = strip_stat(snapshot(repo))
    monkeypatch.setenv("MIGRATE_FAIL_AT", "checkout")
    assert apply(repo, plan).exit_code == 1
    assert strip_stat(snapshot(repo)) == before
    assert (repo / "pkg/user.py").stat().st_mode & 0o777 == 0o444


def test_a_failing_rollback_step_lists_what_is_left_and_recover_finishes(repo, monkeypatch):
    repo, plan = repo
    before = strip_stat(snapshot(repo))
    monkeypatch.setenv("MIGRATE_FAIL_AT", "checkout,rollback-files:ENOSPC")
    res = apply(repo, plan)
    assert res.exit_code == 1, res.output
    assert "could not fully restore" not in res.output
    assert "files: could not restore (No space left on device" in res.output
    assert "Traceback" not in res.output
    assert not (repo / ".git/index.migrate-restore").exists()
    monkeypatch.delenv("MIGRATE_FAIL_AT")
    rec = CliRunner().invoke(main, ["recover", "--repo", str(repo)])
    assert rec.exit_code == 0, rec.output
    assert "rolled back" in rec.output
    assert strip_stat(snapshot(repo)) == before
    assert leftovers(repo) == []


def test_every_rollback_step_runs_when_one_fails(repo, monkeypatch):
    repo, plan = repo
    monkeypatch.setenv("MIGRATE_FAIL_AT", "checkout,rollback-refs:EACCES")
    res = apply(repo, plan)
    assert res.exit_code == 1
    assert "refs: could not restore (Permission denied" in res.output
    assert (repo / "pkg/old/mod.py").exists()  # the files step still ran
    monkeypatch.delenv("MIGRATE_FAIL_AT")
    assert CliRunner().invoke(main, ["recover", "--repo", str(repo)]).exit_code == 0
    assert git(repo, "status", "--porcelain") == ""
    assert git(repo, "log", "-1", "--format=%s") == "ignore\n"


SCRIPT = """
import sys
sys.path[:0] = [{tests!r}]
import test_apply
from migrate.cli import main
main(["apply", {plan!r}, "--repo", {repo!r}], obj=test_apply.full_changeset)
"""


def start_apply(repo: Path, plan: Path, slow: str) -> subprocess.Popen:
    script = SCRIPT.format(tests=str(REPO_ROOT / "tests"), plan=str(plan), repo=str(repo))
    return start_paused([sys.executable, "-c", script], slow)


def test_a_user_edit_during_apply_is_left_as_the_user_has_it(repo):
    repo, plan = repo
    before = strip_stat(snapshot(repo))
    proc = start_apply(repo, plan, "checkout:30")
    (repo / "pkg/user.py").write_text("# my edit while apply ran\n")
    os.killpg(proc.pid, signal.SIGTERM)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 1, err
    assert "pkg/user.py: changed while apply ran; left as you have it" in err
    assert (repo / "pkg/user.py").read_text() == "# my edit while apply ran\n"
    after = strip_stat(snapshot(repo))
    assert {k for k in before if before[k] != after[k]} == {"files", "status"}
    changed = {p for p in before["files"] if before["files"][p] != after["files"].get(p)}
    assert changed == {"pkg/user.py"}


@pytest.mark.parametrize("point", ["journal", "ref", "checkout"])
def test_sigkill_is_recovered_by_the_next_invocation(repo, point):
    repo, plan = repo
    before = strip_stat(snapshot(repo))
    proc = start_apply(repo, plan, f"{point}:30")
    os.killpg(proc.pid, signal.SIGKILL)
    proc.communicate(timeout=30)
    assert (repo / ".git/migrate.lock").exists()
    res = CliRunner().invoke(main, ["recover", "--repo", str(repo)])
    assert res.exit_code == 0, res.output
    assert "was rolled back" in res.output
    assert strip_stat(snapshot(repo)) == before
    assert leftovers(repo) == []


def test_apply_recovers_automatically_and_says_so(repo):
    repo, plan = repo
    proc = start_apply(repo, plan, "ref:30")
    os.killpg(proc.pid, signal.SIGKILL)
    proc.communicate(timeout=30)
    res = apply(repo, plan)
    assert res.exit_code == 0, res.output
    assert "recovered first: an interrupted apply" in res.output
    assert git(repo, "status", "--porcelain") == ""
    assert leftovers(repo) == []


def test_two_concurrent_applies_one_wins_the_other_refuses(repo):
    repo, plan = repo
    first = start_apply(repo, plan, "ref:2")
    second = apply(repo, plan)
    assert second.exit_code == 3, second.output
    assert "another migrate is running here (pid" in second.output
    _, err = first.communicate(timeout=60)
    assert first.returncode == 0, err
    assert git(repo, "status", "--porcelain") == ""
    assert git(repo, "log", "-1", "--format=%s").startswith("migrate(blame-ignore-revs)")
    assert leftovers(repo) == []


def test_a_stale_lock_is_taken_over(repo):
    repo, plan = repo
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    lock = {"pid": dead.pid, "host": os.uname().nodename, "started": time.time()}
    (repo / ".git/migrate.lock").write_text(json.dumps(lock))
    res = apply(repo, plan)
    assert res.exit_code == 0, res.output
    assert "removed a stale lock" in res.output
    assert leftovers(repo) == []


def test_the_ref_update_is_compare_and_swap(repo, monkeypatch):
    """Someone moves the branch between our read and our update: we change nothing."""
    repo, plan = repo
    from migrate.git_steps import transaction

    real = transaction.Transaction.switch

    def racing_switch(self, tip):
        git(repo, "commit", "-q", "--allow-empty", "-m", "someone else")
        return real(self, tip)

    monkeypatch.setattr(transaction.Transaction, "switch", racing_switch)
    res = apply(repo, plan)
    assert res.exit_code == 1, res.output
    assert git(repo, "log", "-1", "--format=%s") == "someone else\n"
    assert git(repo, "status", "--porcelain") == ""
    assert leftovers(repo) == []


def test_a_commit_made_while_apply_runs_keeps_its_index(repo, monkeypatch):
    """The user commits a new file between the journal and our ref update: the update
    fails (compare-and-swap) and the rollback must not put the index of before that
    commit back under it. (Before: the index lost notes.txt, `D  notes.txt` and
    `?? notes.txt` in status, and the user's commit looked undone.)"""
    repo, plan = repo
    from migrate.git_steps import transaction

    real = transaction.Transaction.switch

    def racing_switch(self, tip):
        (repo / "notes.txt").write_text("mine\n")
        git(repo, "add", "notes.txt")
        git(repo, "commit", "-q", "-m", "someone else")
        return real(self, tip)

    monkeypatch.setattr(transaction.Transaction, "switch", racing_switch)
    res = apply(repo, plan)
    assert res.exit_code == 1, res.output
    assert git(repo, "log", "-1", "--format=%s") == "someone else\n"
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""
    assert "notes.txt" in git(repo, "ls-files")
    assert "the index: left as it is" in res.output
    assert leftovers(repo) == []


def test_the_plan_path_never_leaks_into_history(repo, tmp_path):
    repo, plan = repo
    assert apply(repo, plan).exit_code == 0
    messages = git(repo, "log", "--format=%B")
    blame = (repo / ".git-blame-ignore-revs").read_text()
    assert str(tmp_path) not in messages and str(tmp_path) not in blame
    assert "Migrate-Plan: plan.yaml sha256:" in messages
    assert blame.startswith("# migrate plan.yaml sha256:")


def test_a_plan_inside_the_repo_is_recorded_repo_relative(make_repo, monkeypatch):
    """A guard, not a defect proof: this already held before the leak was fixed (the leak
    was a plan outside the repository, `test_the_plan_path_never_leaks_into_history`)."""
    from test_apply import make_sample

    repo = make_sample(make_repo)
    (repo / "plans").mkdir()
    (repo / "plans/move.yaml").write_text(PLAN)
    git(repo, "add", "plans")
    git(repo, "commit", "-qm", "plan")
    assert apply(repo, repo / "plans/move.yaml").exit_code == 0
    messages = git(repo, "log", "--format=%B")
    assert "Migrate-Plan: plans/move.yaml sha256:" in messages
    assert str(repo) not in messages


def test_pure_moves_are_renamed_in_place_and_renamed_back(repo, monkeypatch):
    """A pure move keeps its inode and untracked mode bits (as `git mv` does); a rollback
    renames it back, so the original inode is where it was."""
    repo, plan = repo
    os.chmod(repo / "pkg/old/data/cfg.json", 0o600)
    ino = (repo / "pkg/old/run.sh").stat().st_ino
    before = strip_stat(snapshot(repo))
    monkeypatch.setenv("MIGRATE_FAIL_AT", "checkout")
    assert apply(repo, plan).exit_code == 1
    assert strip_stat(snapshot(repo)) == before
    assert (repo / "pkg/old/run.sh").stat().st_ino == ino
    monkeypatch.delenv("MIGRATE_FAIL_AT")
    res = apply(repo, plan)
    assert res.exit_code == 0, res.output
    assert (repo / "pkg/new/run.sh").stat().st_ino == ino
    assert (repo / "pkg/new/data/cfg.json").stat().st_mode & 0o777 == 0o600
    assert git(repo, "status", "--porcelain") == ""


def test_a_moved_file_edited_during_the_switch_is_left_where_the_user_has_it(repo):
    repo, plan = repo
    proc = start_apply(repo, plan, "checkout:30")
    (repo / "pkg/new/data/cfg.json").write_text('{"a": 2}\n')  # renamed there by the switch
    os.killpg(proc.pid, signal.SIGTERM)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 1, err
    assert "pkg/new/data/cfg.json: changed while apply ran; left as you have it" in err
    assert "pkg/old/data/cfg.json: not restored (its content is at pkg/new/data/cfg.json)" in err
    assert (repo / "pkg/new/data/cfg.json").read_text() == '{"a": 2}\n'
    assert (repo / "pkg/old/run.sh").exists()  # the other moves are back
    assert not (repo / "pkg/new/run.sh").exists()


def _buggy_engine(prep):
    raise KeyError("no such move")  # stands for a bug in the engine


@pytest.mark.parametrize("where", ["engine", "switch"])
def test_a_bug_during_apply_exits_4_with_everything_restored(repo, monkeypatch, where):
    """T63: an exception no outside cause explains (a KeyError in the engine, a TypeError
    in the switch) is a bug in migrate: exit 4 and an 'internal error' line saying what
    was restored, not exit 1 ('failed and restored', kept for a full disk, git or a
    signal); no traceback, and the repository byte for byte as it was. With --debug the
    bug's own traceback is shown, after the same restore."""
    from migrate.git_steps.transaction import Transaction

    repo, plan = repo
    before = strip_stat(snapshot(repo))
    engine = full_changeset
    if where == "engine":
        engine = _buggy_engine
    else:

        def broken(self, tip):
            raise TypeError("a bug in the switch")

        monkeypatch.setattr(Transaction, "switch", broken)
    run = CliRunner().invoke(main, ["apply", str(plan), "--repo", str(repo)], obj=engine)
    assert run.exit_code == 4, run.output
    what = "building commits: KeyError" if where == "engine" else "switching to the new commits"
    assert f"internal error while {what}" in run.output and "bug in migrate" in run.output
    assert "Traceback" not in run.output
    assert strip_stat(snapshot(repo)) == before and leftovers(repo) == []
    run = CliRunner().invoke(main, ["apply", str(plan), "--repo", str(repo), "--debug"], obj=engine)
    assert isinstance(run.exception, KeyError if where == "engine" else TypeError)
    assert strip_stat(snapshot(repo)) == before and leftovers(repo) == []

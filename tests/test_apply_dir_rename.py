"""A directory whose files all move purely is renamed as one directory, as `git mv` does;
anything else in it (an untracked or ignored file, an empty directory, a file the plan
edits) keeps the moves one by one, and a rollback puts the directory back."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest
from click.testing import CliRunner
from helpers import git, start_paused
from test_apply_atomic import snapshot, strip_stat
from test_apply_transaction import leftovers

from migrate.cli import main

PLAN = "version: 1\nmoves:\n  - from: pkg/data/tables/\n    to: pkg/tables/\n"


def data_repo(make_repo, tmp_path, extra: dict | None = None):
    files = {
        "pkg/__init__.py": "",
        "pkg/load.py": "from pathlib import Path\n\nTABLES = Path(__file__).parent / 'tables'\n",
        **{f"pkg/data/tables/d{i % 3}/t{i}.csv": f"id,value\n{i},{i * 7}\n" for i in range(9)},
        **(extra or {}),
    }
    repo = make_repo(files)
    plan = tmp_path / "plan.yaml"
    plan.write_text(PLAN)
    return repo, plan


def apply(repo, plan):
    return CliRunner().invoke(main, ["apply", str(plan), "--repo", str(repo)])


def start_apply(repo, plan, slow: str) -> subprocess.Popen:
    """`migrate apply` in its own session, paused at a checkpoint (`MIGRATE_SLOW_AT`)."""
    return start_paused(
        [sys.executable, "-m", "migrate", "apply", str(plan), "--repo", str(repo)], slow
    )


def test_a_purely_moved_directory_is_one_rename(make_repo, tmp_path):
    repo, plan = data_repo(make_repo, tmp_path)
    os.chmod(repo / "pkg/data/tables/d1", 0o750)
    inode = os.stat(repo / "pkg/data/tables").st_ino
    res = apply(repo, plan)
    assert res.exit_code == 0, res.output
    assert os.stat(repo / "pkg/tables").st_ino == inode  # the directory itself moved
    assert os.stat(repo / "pkg/tables/d1").st_mode & 0o777 == 0o750
    assert not (repo / "pkg/data").exists()  # emptied, so removed (as `git mv` leaves it)
    assert git(repo, "status", "--porcelain", "--ignored") == ""
    assert git(repo, "diff", "--name-status", "-M", "HEAD~2", "HEAD~1").count("R100") == 9


def test_a_rollback_puts_the_renamed_directory_back(make_repo, tmp_path, monkeypatch):
    repo, plan = data_repo(make_repo, tmp_path)
    inode = os.stat(repo / "pkg/data/tables").st_ino
    before = strip_stat(snapshot(repo))
    monkeypatch.setenv("MIGRATE_FAIL_AT", "checkout")
    assert apply(repo, plan).exit_code == 1
    assert strip_stat(snapshot(repo)) == before
    assert os.stat(repo / "pkg/data/tables").st_ino == inode
    assert leftovers(repo) == []


def test_an_ignored_file_in_a_moved_directory_stays_where_it_is(make_repo, tmp_path):
    repo, plan = data_repo(make_repo, tmp_path, {".gitignore": "*.log\n"})
    (repo / "pkg/data/tables/d2/notes.log").write_text("mine, never tracked\n")
    (repo / "pkg/data/tables/d0/empty").mkdir()
    res = apply(repo, plan)
    assert res.exit_code == 0, res.output
    assert (repo / "pkg/data/tables/d2/notes.log").read_text() == "mine, never tracked\n"
    assert (repo / "pkg/data/tables/d0/empty").is_dir()
    assert not (repo / "pkg/tables/d2/notes.log").exists()
    assert sorted(os.listdir(repo / "pkg/tables/d2")) == ["t2.csv", "t5.csv", "t8.csv"]
    assert git(repo, "status", "--porcelain") == ""


def test_a_file_changed_in_the_renamed_directory_is_left_and_the_rest_go_back(make_repo, tmp_path):
    repo, plan = data_repo(make_repo, tmp_path)
    proc = start_apply(repo, plan, "checkout:30")
    (repo / "pkg/tables/d1/t4.csv").write_text("my edit\n")
    os.killpg(proc.pid, signal.SIGTERM)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 1, err
    assert "pkg/tables/d1/t4.csv: changed while apply ran; left as you have it" in err
    assert (repo / "pkg/tables/d1/t4.csv").read_text() == "my edit\n"
    assert (repo / "pkg/data/tables/d1/t1.csv").exists()  # the others are back
    assert sorted(os.listdir(repo / "pkg/tables")) == ["d1"]
    assert sorted(os.listdir(repo / "pkg/tables/d1")) == ["t4.csv"]


def test_sigkill_after_the_directory_rename_is_recovered(make_repo, tmp_path):
    repo, plan = data_repo(make_repo, tmp_path)
    before = strip_stat(snapshot(repo))
    proc = start_apply(repo, plan, "checkout:30")
    os.killpg(proc.pid, signal.SIGKILL)
    proc.communicate(timeout=30)
    assert (repo / "pkg/tables").is_dir()  # renamed, not yet finished
    res = CliRunner().invoke(main, ["recover", "--repo", str(repo)])
    assert res.exit_code == 0, res.output
    assert strip_stat(snapshot(repo)) == before
    assert leftovers(repo) == []


def test_a_file_made_in_the_directory_before_its_rename_stays_where_it_was_made(
    make_repo, tmp_path
):
    """The switch renames the directory that `prepare` found holding only moved files; a
    file (or directory) created in it since would go along. It is renamed back, the apply
    says so, and nothing of it reaches a commit. (Before: it moved to pkg/tables.)"""
    repo, plan = data_repo(make_repo, tmp_path)
    inode = os.stat(repo / "pkg/data/tables").st_ino
    os.chmod(repo / "pkg/data/tables/d1", 0o750)
    proc = start_apply(repo, plan, "ref:4")  # after prepare and the ref, before the rename
    (repo / "pkg/data/tables/d1/mine.txt").write_text("made while apply ran\n")
    (repo / "pkg/data/tables/fresh").mkdir()
    (repo / "pkg/data/tables/fresh/notes.txt").write_text("mine too\n")
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert os.stat(repo / "pkg/tables").st_ino == inode  # still one directory rename
    assert (repo / "pkg/data/tables/d1/mine.txt").read_text() == "made while apply ran\n"
    assert (repo / "pkg/data/tables/fresh/notes.txt").read_text() == "mine too\n"
    assert os.stat(repo / "pkg/data/tables/d1").st_mode & 0o777 == 0o750  # as it was
    assert sorted(os.listdir(repo / "pkg/tables")) == ["d0", "d1", "d2"]
    assert sorted(os.listdir(repo / "pkg/tables/d1")) == ["t1.csv", "t4.csv", "t7.csv"]
    for path in ("pkg/data/tables/d1/mine.txt", "pkg/data/tables/fresh"):
        assert f"  {path}: created while apply ran in a directory it moved; left where" in err
    status = git(repo, "status", "--porcelain", "--untracked-files=all")
    assert sorted(status.splitlines()) == [
        "?? pkg/data/tables/d1/mine.txt",
        "?? pkg/data/tables/fresh/notes.txt",
    ]
    assert git(repo, "ls-tree", "-r", "--name-only", "HEAD", "pkg/data") == ""


def test_a_file_made_in_the_new_directory_is_left_and_reported_by_recover(make_repo, tmp_path):
    """Killed after the directory rename with a file someone made in the new directory:
    `recover` puts the rest back and names the file it left (before: left silently)."""
    repo, plan = data_repo(make_repo, tmp_path)
    before = strip_stat(snapshot(repo))
    proc = start_apply(repo, plan, "checkout:30")
    (repo / "pkg/tables/d1/mine.txt").write_text("made while apply ran\n")
    os.killpg(proc.pid, signal.SIGKILL)
    proc.communicate(timeout=30)
    res = CliRunner().invoke(main, ["recover", "--repo", str(repo)])
    assert res.exit_code == 0, res.output
    assert "pkg/tables/d1/mine.txt: made by someone else while apply ran; left where it is" in (
        res.output
    )
    assert (repo / "pkg/tables/d1/mine.txt").read_text() == "made while apply ran\n"
    after = strip_stat(snapshot(repo))
    assert after["files"].pop("pkg/tables/d1/mine.txt")[1] == b"made while apply ran\n"
    assert after["files"].pop("pkg/tables/") is after["files"].pop("pkg/tables/d1/") is None
    assert after["files"] == before["files"]
    assert leftovers(repo) == []


def test_sigkill_between_a_directory_rename_and_its_put_back_is_recovered(make_repo, tmp_path):
    """A file made in the directory after `prepare` looked goes along with its rename; a
    SIGKILL before the put-back, then `recover`: the file is back where it was made and the
    rest is as before, byte for byte. (Before: `recover` left it at pkg/tables/d1, named.)"""
    repo, plan = data_repo(make_repo, tmp_path)
    os.chmod(repo / "pkg/data/tables/d1", 0o750)
    before = strip_stat(snapshot(repo))
    proc = start_apply(repo, plan, "ref:4,dir-rename:60")
    (repo / "pkg/data/tables/d1/mine.txt").write_text("made while apply ran\n")
    (repo / "pkg/data/tables/fresh").mkdir()
    (repo / "pkg/data/tables/fresh/notes.txt").write_text("mine too\n")
    assert proc.stderr.readline().strip() == "migrate: at dir-rename"
    assert (repo / "pkg/tables/d1/mine.txt").exists()  # it went along
    os.killpg(proc.pid, signal.SIGKILL)
    proc.communicate(timeout=30)
    res = CliRunner().invoke(main, ["recover", "--repo", str(repo)])
    assert res.exit_code == 0, res.output
    after = strip_stat(snapshot(repo))
    assert after["files"].pop("pkg/data/tables/d1/mine.txt")[1] == b"made while apply ran\n"
    assert after["files"].pop("pkg/data/tables/fresh/notes.txt")[1] == b"mine too\n"
    assert after["files"].pop("pkg/data/tables/fresh/") is None
    assert after.pop("status") == "?? pkg/data/tables/d1/mine.txt\n?? pkg/data/tables/fresh/\n"
    assert before.pop("status") == ""
    assert after == before  # every other file, mode, the index, refs and HEAD
    assert os.stat(repo / "pkg/data/tables/d1").st_mode & 0o777 == 0o750
    for path in ("pkg/data/tables/d1/mine.txt", "pkg/data/tables/fresh"):
        assert f"{path}: created while apply ran in a directory it moved" in res.output
    assert leftovers(repo) == []


def test_a_file_made_in_the_new_directory_after_its_rename_is_not_moved_by_recover(
    make_repo, tmp_path
):
    """Killed between the rename and the put-back, with one file carried along and one
    made in the new directory after the rename: `recover` puts back only the carried one
    (made before the rename); the other is left where it was made and named."""
    repo, plan = data_repo(make_repo, tmp_path)
    proc = start_apply(repo, plan, "ref:4,dir-rename:60")
    (repo / "pkg/data/tables/d1/mine.txt").write_text("carried\n")
    assert proc.stderr.readline().strip() == "migrate: at dir-rename"
    (repo / "pkg/tables/d2/late.txt").write_text("made in the new place\n")
    os.killpg(proc.pid, signal.SIGKILL)
    proc.communicate(timeout=30)
    res = CliRunner().invoke(main, ["recover", "--repo", str(repo)])
    assert res.exit_code == 0, res.output
    assert (repo / "pkg/data/tables/d1/mine.txt").read_text() == "carried\n"
    assert (repo / "pkg/tables/d2/late.txt").read_text() == "made in the new place\n"
    assert sorted(os.listdir(repo / "pkg/tables")) == ["d2"]
    assert "pkg/tables/d2/late.txt: made by someone else while apply ran" in res.output
    assert sorted(os.listdir(repo / "pkg/data/tables/d2")) == ["t2.csv", "t5.csv", "t8.csv"]
    assert leftovers(repo) == []


def test_the_journal_holds_one_record_for_a_directory_renamed_whole(make_repo, tmp_path):
    """A directory renamed whole is one journal record (old, new, its base tree object):
    none of its files is diffed, backed up or listed one by one, and the rollback reads
    them again from that tree (here: interrupted at the checkout, all put back)."""
    from migrate.git_steps import apply_plan
    from migrate.git_steps.apply import ApplyFailed
    from migrate.git_steps.transaction import Journal, state_dir

    repo, plan = data_repo(make_repo, tmp_path, {"pkg/other.txt": "stays\n"})
    before = strip_stat(snapshot(repo))
    seen = {}

    def hook(point):
        if point == "journal":
            seen["journal"] = Journal.load(state_dir(repo))
        if point == "checkout":
            raise RuntimeError("stop here")

    with pytest.raises(ApplyFailed):
        apply_plan(plan, repo, hook=hook)
    j = seen["journal"]
    tree = git(repo, "rev-parse", "HEAD:pkg/data/tables").strip()
    assert j.dir_renames == [["pkg/data/tables", "pkg/tables", tree]]
    assert j.renames == []
    assert [e[0] for e in j.entries] == [".git-blame-ignore-revs"]  # the only other path
    assert strip_stat(snapshot(repo)) == before
    assert leftovers(repo) == []


def test_a_file_rewritten_with_its_own_bytes_goes_back_with_the_directory(make_repo, tmp_path):
    """The rollback tells a renamed file that is as the switch left it by its content
    through git's filters, not its inode: one rewritten with the same bytes (a new inode)
    goes back with the rest; the directory is renamed back whole."""
    repo, plan = data_repo(make_repo, tmp_path)
    before = strip_stat(snapshot(repo))
    proc = start_apply(repo, plan, "checkout:30")
    path = repo / "pkg/tables/d1/t4.csv"
    data = path.read_bytes()
    path.unlink()
    path.write_bytes(data)
    os.killpg(proc.pid, signal.SIGTERM)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 1, err
    assert "left as you have it" not in err
    assert strip_stat(snapshot(repo)) == before
    assert leftovers(repo) == []


def test_a_data_move_never_imports_libcst(make_repo, tmp_path):
    """A plan with no Python to rewrite loads no libcst (a third of a second of CPU at
    start-up): the passes that parse code import it when they run. (Before:
    `text_files` imported the stub rewriter, and with it libcst, at its own import.)"""
    repo, plan = data_repo(make_repo, tmp_path)
    code = (
        "import sys\nfrom migrate.git_steps import apply_plan\n"
        f"r = apply_plan({str(plan)!r}, {str(repo)!r})\n"
        "print(r.status, 'libcst' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["applied", "False"], out.stderr


def test_the_index_stat_data_is_right_for_every_file_after_the_switch(make_repo, tmp_path):
    """The switch refreshes only the files renamed one by one (a rename gives them a new
    ctime); the files of a directory renamed whole keep their stat data as `git mv` keeps
    it. Either way no entry is stat-dirty afterwards: `git diff-files`, which trusts the
    index's stat data and hashes nothing, lists none."""
    import time

    repo, plan = data_repo(make_repo, tmp_path, {"pkg/a.py": "X = 1\n"})
    plan.write_text(PLAN + "  - from: pkg/a.py\n    to: pkg/sub/a.py\n")
    old = time.time() - 5
    for p in git(repo, "ls-files").split():
        os.utime(repo / p, (old, old))
    time.sleep(1.1)  # the index is newer than every file: none is racily clean
    git(repo, "update-index", "--refresh")
    res = apply(repo, plan)
    assert res.exit_code == 0, res.output
    assert "pkg/sub/a.py" in git(repo, "ls-files")
    assert git(repo, "diff-files", "--name-only") == ""
    assert git(repo, "status", "--porcelain", "--ignored") == ""


def test_the_switch_takes_a_renamed_directory_s_files_from_base_s_listing(make_repo, tmp_path):
    """`tree_renames` with base's listing (apply reads it once for the commits) finds the
    same directories with the same files, in the same order, as with `ls-tree` of each."""
    from migrate.changes import ChangeSet, FileMove
    from migrate.git.objects import GitObjects
    from migrate.git_steps.apply import build_commits
    from migrate.git_steps.transaction import tree_renames

    repo, _plan = data_repo(make_repo, tmp_path, {"pkg/data/tables/é x.csv": "e\n"})
    objs = GitObjects(repo)
    base = objs.rev("HEAD")
    listing = objs.ls_tree(base)
    moves = {p: "pkg/tables/" + p[len("pkg/data/tables/") :] for p in listing if "/tables/" in p}
    cs = ChangeSet(moves=[FileMove(o, n) for o, n in moves.items()])
    tip = build_commits(objs, base, cs, "plan.yaml", "ab" * 32)[-1].sha
    read = tree_renames(repo, base, tip, moves)
    given = tree_renames(repo, base, tip, moves, listing)
    assert [m.old for m in read] == ["pkg/data/tables"] and len(read[0].files) == 10
    assert [m[:4] for m in given] == [m[:4] for m in read]

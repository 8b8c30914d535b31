"""`carry_stat`: renamed paths keep their index stat data (as `git mv`), and the refresh
after it still sees every file that differs from its entry."""

from __future__ import annotations

import os
import re
import time

from helpers import git

from migrate.git.index_stat import carry_stat


def _renamed(make_repo):
    """A repo whose work tree has `d/` renamed to `e/` and whose index is the tip's, as
    `read-tree -m` leaves it (no stat data for the new paths); (repo, old index, mtime)."""
    repo = make_repo({"d/a.txt": "alpha\n", "d/b.txt": "beta\n", "keep.txt": "k\n"})
    old_enough = time.time() - 5  # older than the index that records them (to the second)
    for p in ("d/a.txt", "d/b.txt", "keep.txt"):
        os.utime(repo / p, (old_enough, old_enough))
    time.sleep(1.1)  # their ctime (now) too: git compares times to the second
    git(repo, "update-index", "--refresh")
    index = repo / ".git/index"
    old, mtime = index.read_bytes(), index.stat().st_mtime_ns
    base = git(repo, "rev-parse", "HEAD").strip()
    os.rename(repo / "d", repo / "e")
    git(repo, "add", "-A")
    tip = git(repo, "write-tree").strip()
    index.write_bytes(old)  # the base's index again, then the two-tree merge
    git(repo, "read-tree", "-m", base, tip)
    return repo, old, mtime


def _stat_of(repo, path: str) -> dict[str, str]:
    """The index entry's stat fields, as `ls-files --debug` prints them."""
    return dict(re.findall(r"(\w+): (\S+)", git(repo, "ls-files", "--debug", path)))


def test_renamed_entries_take_the_old_entries_stat_data(make_repo):
    repo, old, mtime = _renamed(make_repo)
    assert _stat_of(repo, "e/a.txt")["ino"] == "0"  # read-tree gave none
    renames = [["d/a.txt", "e/a.txt"], ["d/b.txt", "e/b.txt"]]
    assert carry_stat(str(repo / ".git/index"), old, mtime, renames, 20) == 2
    st = os.lstat(repo / "e/a.txt")
    entry = _stat_of(repo, "e/a.txt")
    assert entry["ino"] == str(st.st_ino)
    assert entry["mtime"] == f"{st.st_mtime_ns // 10**9}:{st.st_mtime_ns % 10**9}"
    assert entry["size"] == str(st.st_size)
    assert git(repo, "diff-files", "--name-only") == ""  # clean without hashing
    git(repo, "fsck", "--no-dangling")  # the checksum was rewritten: git reads the index
    assert "R  d/a.txt -> e/a.txt" in git(repo, "status", "--porcelain")  # staged, as git mv


def test_a_file_changed_after_the_rename_is_still_seen(make_repo):
    repo, old, mtime = _renamed(make_repo)
    st = os.lstat(repo / "e/a.txt")
    (repo / "e/a.txt").write_text("ALPHA, edited\n")  # the old mtime (below), a new size
    os.utime(repo / "e/a.txt", ns=(st.st_atime_ns, st.st_mtime_ns))
    carry_stat(str(repo / ".git/index"), old, mtime, [["d/a.txt", "e/a.txt"]], 20)
    status = git(repo, "status", "--porcelain")
    assert "RM d/a.txt -> e/a.txt" in status  # modified in the work tree: seen
    assert "R  d/b.txt -> e/b.txt" in status


def test_racily_clean_entries_are_not_carried(make_repo):
    repo, old, _mtime = _renamed(make_repo)
    renames = [["d/a.txt", "e/a.txt"]]
    # an index written no later than the entry's mtime: git would compare content
    assert carry_stat(str(repo / ".git/index"), old, 0, renames, 20) == 0
    assert _stat_of(repo, "e/a.txt")["ino"] == "0"


def test_an_index_format_it_does_not_patch_is_left_alone(make_repo):
    repo, old, mtime = _renamed(make_repo)
    git(repo, "update-index", "--index-version", "4")
    before = (repo / ".git/index").read_bytes()
    assert carry_stat(str(repo / ".git/index"), old, mtime, [["d/a.txt", "e/a.txt"]], 20) == 0
    assert (repo / ".git/index").read_bytes() == before

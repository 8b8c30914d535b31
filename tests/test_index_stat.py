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


def _twin_apply(make_repo, tmp_path, monkeypatch, python_way: bool):
    """Apply a plan with a directory renamed whole, a module move its importer follows (an
    edit) and an executable left alone; the index written by `switched_index` or, with
    it declining, by `read-tree -m` and `carry_stat`. (stat of the index before, repo)."""
    from click.testing import CliRunner

    import migrate.git_steps.transaction as tx
    from migrate.cli import main

    files = {
        "pkg/__init__.py": "",
        "pkg/a.py": "def f():\n    return 1\n",
        "pkg/b.py": "from pkg.a import f\n\nprint(f())\n",
        "run.sh": "#!/bin/sh\n",
        **{f"pkg/data/tables/d{i % 3}/t{i}.csv": f"{i}\n" for i in range(9)},
    }
    repo = make_repo(files)
    os.chmod(repo / "run.sh", 0o755)
    git(repo, "add", "run.sh")
    git(repo, "commit", "-qm", "x")
    old_enough = time.time() - 5
    for p in files:
        os.utime(repo / p, (old_enough, old_enough))
    time.sleep(1.1)
    git(repo, "update-index", "--refresh")
    before = {p: _stat_of(repo, p) for p in files}
    plan = tmp_path / f"plan-{python_way}.yaml"
    plan.write_text(
        "version: 1\nmoves:\n  - from: pkg/data/tables/\n    to: pkg/tables/\n"
        "  - from: pkg/a.py\n    to: pkg/sub/a.py\n"
    )
    real, wrote = tx.switched_index, []
    if python_way:
        monkeypatch.setattr(tx, "switched_index", lambda *a: wrote.append(real(*a)) or wrote[-1])
    else:
        monkeypatch.setattr(tx, "switched_index", lambda *a: False)
    res = CliRunner().invoke(main, ["apply", str(plan), "--repo", str(repo)])
    monkeypatch.undo()
    assert res.exit_code == 0, res.output
    assert wrote == ([True] if python_way else [])  # it wrote the index, no fallback
    return before, repo


def test_the_switched_index_is_the_one_read_tree_and_carry_stat_leave(
    make_repo, tmp_path, monkeypatch
):
    """`switched_index` writes the index the switch leaves without reading the trees:
    the same entries (names, modes, blobs) as `read-tree -m` + `carry_stat`, the moved
    directory's entries keep their stat data (no file hashed again), `git status` is
    clean, and `git fsck` finds the index sound."""
    was_ours, ours = _twin_apply(make_repo, tmp_path, monkeypatch, True)
    was_theirs, theirs = _twin_apply(make_repo, tmp_path, monkeypatch, False)

    def entries(repo):  # the blame file names the commits, whose times differ
        return [e for e in git(repo, "ls-files", "-s").splitlines() if "blame" not in e]

    assert entries(ours) == entries(theirs)
    assert "pkg/tables/d1/t4.csv" in git(ours, "ls-files")
    for repo, before in ((ours, was_ours), (theirs, was_theirs)):
        assert git(repo, "status", "--porcelain", "--ignored") == ""
        for i in range(9):
            now = _stat_of(repo, f"pkg/tables/d{i % 3}/t{i}.csv")
            was = before[f"pkg/data/tables/d{i % 3}/t{i}.csv"]
            assert (now["ino"], now["mtime"], now["size"]) == (
                was["ino"],
                was["mtime"],
                was["size"],
            )
    git(ours, "fsck", "--no-dangling")


def test_the_index_is_left_to_read_tree_when_it_is_not_base(make_repo):
    """A path the switch changes staged differently meanwhile, a conflict, an index
    version it does not write (4): `switched_index` declines and writes nothing."""
    from migrate.git.index_stat import switched_index

    repo = make_repo({"a.txt": "a\n", "d/x.txt": "x\n"})
    index = repo / ".git/index"
    data, mtime = index.read_bytes(), index.stat().st_mtime_ns
    sha = git(repo, "rev-parse", "HEAD:a.txt").strip()
    other = git(repo, "rev-parse", "HEAD:d/x.txt").strip()
    assert (
        switched_index(str(index), data, mtime, [("a.txt", 0o100644, other, 0, "")], [], [], 20)
        is False
    )
    assert (
        switched_index(str(index), data, mtime, [("new", 0o100644, sha, 0, "")], [], [], 20)
        is False
    )
    assert (
        switched_index(str(index), data, mtime, [], [], [("d", "e", [("y", 0o100644, other)])], 20)
        is False
    )
    git(repo, "update-index", "--index-version", "4")
    v4 = index.read_bytes()
    assert (
        switched_index(str(index), v4, mtime, [("a.txt", 0o100644, sha, 0, "")], [], [], 20)
        is False
    )
    assert index.read_bytes() == v4
    git(repo, "update-index", "--index-version", "2")
    assert (
        switched_index(
            str(index), index.read_bytes(), mtime, [("a.txt", 0o100644, sha, 0, "")], [], [], 20
        )
        is True
    )
    assert git(repo, "ls-files") == "d/x.txt\n"

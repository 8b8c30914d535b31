"""The one git layer: a range means `A..B` for every command; worktrees never outlive a run."""

from __future__ import annotations

import pickle
import signal

import pytest
from click.testing import CliRunner
from helpers import git

from migrate.cli import main
from migrate.errors import MigrateError
from migrate.git import (
    Trailers,
    parse_trailers,
    removed_in_background,
    resolve_range,
    resolve_revision,
    snapshot,
    trailer_lines,
    worktree,
    worktrees,
)
from migrate.interrupts import Interrupted


@pytest.fixture
def history(make_repo):
    """A repo with four commits on main and one on a side branch off the second."""
    repo = make_repo({"a.py": "x = 0\n"})
    for i in (1, 2, 3):
        (repo / "a.py").write_text(f"x = {i}\n")
        git(repo, "commit", "-qam", f"c{i}")
    git(repo, "branch", "side", "HEAD~2")
    git(repo, "checkout", "-q", "side")
    (repo / "b.py").write_text("y = 1\n")
    git(repo, "add", "b.py")
    git(repo, "commit", "-qm", "side")
    git(repo, "checkout", "-q", "main")
    return repo


# Every command that takes BASE..HEAD, as argv prefixes (the range goes last).
RANGE_COMMANDS = {
    "verify": ["verify", "--no-wheel"],
    "report": ["report", "--no-verify"],
    "parity": ["parity", "--device", "cpu", "--no-run"],
}

BAD_RANGES = {
    "HEAD~1": "expected BASE..HEAD, got 'HEAD~1': a single revision (use HEAD~1..HEAD)",
    "HEAD~1...HEAD": (
        "expected BASE..HEAD, got 'HEAD~1...HEAD': a symmetric range (use HEAD~1..HEAD)"
    ),
    "HEAD..HEAD": "empty range 'HEAD..HEAD': HEAD and HEAD are the same commit",
    "HEAD..HEAD~3": (
        "reversed range 'HEAD..HEAD~3': HEAD~3 is an ancestor of HEAD (use HEAD~3..HEAD)"
    ),
    "nosuchref..HEAD": "unknown revision 'nosuchref': it does not exist here",
    "HEAD~1..nosuchref": "unknown revision 'nosuchref': it does not exist here",
    "side..main": "side is not an ancestor of main in 'side..main'",
    "..HEAD": "expected BASE..HEAD with both ends named, got '..HEAD'",
}


def _worktree_list(repo) -> list[str]:
    out = git(repo, "worktree", "list", "--porcelain")
    return [line for line in out.splitlines() if line.startswith("worktree ")]


@pytest.mark.parametrize("spec", sorted(BAD_RANGES))
@pytest.mark.parametrize("command", sorted(RANGE_COMMANDS))
def test_every_range_command_rejects_a_bad_range_the_same_way(history, command, spec):
    args = [*RANGE_COMMANDS[command], "--repo", str(history)]
    if command == "parity":
        args += ["--save-spec", str(history.parent / "spec.json")]
    res = CliRunner().invoke(main, [*args, spec])
    assert res.exit_code == 2, res.output
    assert res.stderr.splitlines()[0] == f"range: error: {BAD_RANGES[spec]}"
    assert "Traceback" not in res.output
    assert len(_worktree_list(history)) == 1


def test_inventory_diff_from_rejects_a_range_and_a_missing_revision(history):
    for rev, message in [
        ("nosuchref", "unknown revision 'nosuchref': it does not exist here"),
        ("HEAD~1..HEAD", "expected one revision, got 'HEAD~1..HEAD': a range"),
        ("HEAD~1...HEAD", "expected one revision, got 'HEAD~1...HEAD': a range"),
    ]:
        res = CliRunner().invoke(main, ["inventory", "--repo", str(history), "--diff-from", rev])
        assert res.exit_code == 2, res.output
        assert res.stderr.splitlines()[0] == f"--diff-from: error: {message}"


def test_a_good_range_resolves_to_the_commits(history):
    rng = resolve_range(history, "HEAD~3..HEAD")
    assert rng.base == git(history, "rev-parse", "HEAD~3").strip()
    assert rng.head == git(history, "rev-parse", "HEAD").strip()
    assert (rng.base_name, rng.head_name) == ("HEAD~3", "HEAD")
    assert resolve_revision(history, "side") == git(history, "rev-parse", "side").strip()


def test_the_same_messages_from_the_library(history):
    for spec, message in BAD_RANGES.items():
        with pytest.raises(MigrateError) as exc:
            resolve_range(history, spec)
        assert [d.message for d in exc.value.diagnostics] == [message]


def test_worktrees_are_removed_on_interrupt(history):
    with pytest.raises(Interrupted), worktrees(history, {"a": "HEAD~1", "b": "HEAD"}) as made:
        assert (made["a"] / "a.py").read_text() == "x = 2\n"
        signal.raise_signal(signal.SIGTERM)
    assert len(_worktree_list(history)) == 1
    assert not made["a"].exists() and not made["b"].exists()


def test_a_locked_half_made_worktree_is_removed(history, monkeypatch):
    """`worktree add` locks the new worktree; a failure right after must not leave it."""
    from migrate.git import checkouts

    real = checkouts.run_git

    def add_then_fail(repo, *args, **kw):
        out = real(repo, *args, **kw)
        if args[:2] == ("worktree", "add"):
            real(repo, "worktree", "lock", args[-2])
            raise Interrupted(signal.SIGINT)
        return out

    monkeypatch.setattr(checkouts, "run_git", add_then_fail)
    with pytest.raises(Interrupted), worktree(history, "HEAD"):
        pass
    assert len(_worktree_list(history)) == 1


def test_a_snapshot_is_removed_when_its_block_ends_or_in_the_background_until_the_outer_one(
    history,
):
    with snapshot(history, "HEAD~1") as plain:
        assert (plain / "a.py").read_text() == "x = 2\n"
    assert not plain.parent.exists()  # no background block: gone at once
    with removed_in_background():
        with snapshot(history, "HEAD~1") as first:
            pass
        with snapshot(history, "HEAD") as second:
            assert (second / "a.py").read_text() == "x = 3\n"
    assert not first.parent.exists() and not second.parent.exists()
    with pytest.raises(Interrupted), removed_in_background(), snapshot(history, "HEAD") as third:
        signal.raise_signal(signal.SIGTERM)
    assert not third.parent.exists()  # joined on the way out of an interrupted block


def test_verify_leaves_no_snapshot_and_no_thread_behind(history, tmp_path, monkeypatch):
    import tempfile
    import threading

    from migrate.verify.run import verify

    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    result = verify(history, "HEAD~1..HEAD", wheel_check=False, allow_foreign=True)
    assert result.static_checks and list(scratch.iterdir()) == []
    assert [t.name for t in threading.enumerate() if t.name == "migrate-rmtree"] == []


def test_interrupted_pickles():
    exc = pickle.loads(pickle.dumps(Interrupted(signal.SIGTERM)))
    assert isinstance(exc, Interrupted) and exc.signum == signal.SIGTERM
    assert str(exc) == "interrupted by SIGTERM" and exc.exit_code == 143


def test_trailers_round_trip_through_one_pair_of_functions():
    t = Trailers("plans/p.yaml", "ab" * 32, "relocate", "0123456789ab")
    message = "subject\n\nbody\n\n" + "\n".join(trailer_lines(t)) + "\n"
    assert parse_trailers(message) == t
    assert parse_trailers("subject\n\nno trailers here\n") is None


def test_top_level_changes_write_the_same_tree_as_the_index_way(make_repo):
    """`write_tree_from` with only top-level changes rewrites the top tree by `mktree`:
    the same tree object as git's index way, for an added, replaced and removed file, a
    symlink, an executable, a gitlink, and a name that sorts among a directory's."""
    from migrate.git.objects import GitObjects

    repo = make_repo({"a.txt": "a\n", "d/x.txt": "x\n", "d-e.txt": "de\n", "z": "z\n"})
    objs = GitObjects(repo)
    tree = git(repo, "rev-parse", "HEAD^{tree}").strip()
    blob = objs.write_blob(b"new\n")
    link = objs.write_blob(b"d/x.txt")
    sub = git(repo, "rev-parse", "HEAD").strip()
    cases = [
        {".git-blame-ignore-revs": (0o100644, blob)},
        {"a.txt": (0o100755, blob), "z": (0, "")},
        {"d.txt": (0o120000, link), "d0": (0o160000, sub), "missing": (0, "")},
        {"a.txt": (0, ""), "d-e.txt": (0, ""), "z": (0, "")},
    ]
    for changes in cases:
        fast = objs.write_tree_from(tree, changes)
        slow = objs.write_tree_from(
            tree, {**changes, "d/x.txt": (0o100644, objs.write_blob(b"x\n"))}
        )
        assert fast == slow, changes  # the second holds a nested path: the index's way
    assert objs._top_tree_with(tree, {"d": (0, "")}) is None  # a directory: left to the index
    assert objs.write_tree_from(tree, {"d": (0, "")}) == tree


def _index_way(repo, listing) -> str:
    """git's own tree of `listing`: a throwaway index, `update-index`, `write-tree`."""
    import os
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, GIT_INDEX_FILE=os.path.join(tmp, "index"))
        info = b"".join(
            b"%o %s\t%s\0" % (mode, sha.encode(), p.encode("utf-8", "surrogateescape"))
            for p, (mode, sha) in listing.items()
        )
        subprocess.run(
            ["git", "update-index", "-z", "--index-info"], cwd=repo, input=info, env=env, check=True
        )
        out = subprocess.run(
            ["git", "write-tree"], cwd=repo, env=env, check=True, capture_output=True
        )
        return out.stdout.decode().strip()


def test_write_tree_forms_the_same_tree_objects_as_git(make_repo):
    """`write_tree` forms and hashes the trees itself and writes only the missing ones:
    the same object as git's index way, for names that sort around a directory's
    (`d-e`, `d.txt`, `d/`, `d0`), non-ASCII and undecodable names, spaces, executables,
    symlinks, gitlinks, deep and single-entry directories, one file at the top; every
    tree it names is then in the repository (`git fsck` is clean)."""
    from migrate.git.objects import GitObjects
    from migrate.git.reads import ls_tree

    repo = make_repo({"a.txt": "a\n"})
    objs = GitObjects(repo)
    blob, other = objs.write_blob(b"x\n"), objs.write_blob(b"y\n")
    sub = git(repo, "rev-parse", "HEAD").strip()
    listings = [
        {"a.txt": (0o100644, blob)},
        {
            "d-e.txt": (0o100644, blob),
            "d.txt": (0o100755, other),
            "d/x": (0o100644, blob),
            "d/y/z/w": (0o120000, other),
            "d0": (0o160000, sub),
            "d/é t.csv": (0o100644, blob),
            "d/\udcff.bin": (0o100644, other),
            "e/f/g/h/i.txt": (0o100644, blob),
            "A": (0o100644, blob),
            "top": (0o100644, other),
        },
        {f"pkg/data/d{i % 7}/t{i}.csv": (0o100644, blob if i % 2 else other) for i in range(50)},
    ]
    for listing in listings:
        mine = objs.write_tree(listing)
        assert mine == _index_way(repo, listing), sorted(listing)
        assert ls_tree(repo, mine) == listing
    git(repo, "fsck", "--no-dangling")


def test_a_graft_writes_the_tree_of_the_changed_listing(make_repo):
    """`graft` rewrites only the trees along the changed paths: the same tree as the whole
    listing written, for a directory set to an existing tree (one entry), one set and then
    changed inside, a directory removed whole, a file put where a directory was, the last
    file of a directory removed (the directory goes), new deep paths, and names sorting
    around a directory's; a change below a file is refused."""
    from migrate.git.objects import TREE, GitObjects

    repo = make_repo(
        {"d/x.txt": "x\n", "d/s/y.txt": "y\n", "d-e.txt": "de\n", "d0": "0\n", "e/only": "o\n"}
    )
    objs = GitObjects(repo)
    tree = git(repo, "rev-parse", "HEAD^{tree}").strip()
    listing = objs.ls_tree("HEAD")
    d_tree = objs.entry_ids(tree, ["d", "d/s", "d/x.txt", "nope"])
    assert set(d_tree) == {"d", "d/s"}  # trees only
    blob = objs.write_blob(b"new\n")
    under_d = {p: v for p, v in listing.items() if p.startswith("d/")}
    cases = [
        ({"d": (0, ""), "n/d": (TREE, d_tree["d"])}, {f"n/{p}": v for p, v in under_d.items()}),
        (
            {"n": (TREE, d_tree["d"]), "n/s/y.txt": (0o100755, blob), "n/z": (0o100644, blob)},
            {
                "n/x.txt": listing["d/x.txt"],
                "n/s/y.txt": (0o100755, blob),
                "n/z": (0o100644, blob),
            },
        ),
        ({"d": (0, ""), "d.txt": (0o100644, blob)}, {"d.txt": (0o100644, blob)}),
        ({"d": (0o120000, blob)}, {"d": (0o120000, blob)}),
        ({"e/only": (0, "")}, {}),
        ({"a/b/c/d.txt": (0o100644, blob)}, {"a/b/c/d.txt": (0o100644, blob)}),
    ]
    for changes, added in cases:
        removed = {p for p, (mode, _s) in changes.items() if mode in (0, TREE) or p == "d"}
        expected = {
            p: v
            for p, v in listing.items()
            if not any(p == r or p.startswith(r + "/") for r in removed)
        }
        expected.update(added)
        assert objs.graft(tree, changes) == objs.write_tree(expected), changes
    with pytest.raises(ValueError, match="not a directory"):
        objs.graft(tree, {"d0/x": (0o100644, blob)})
    git(repo, "fsck", "--no-dangling")

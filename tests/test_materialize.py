"""The one materializer: its one-path contract, and dry run / check / apply / verify agreeing.

The defect this file pins: a split that keeps an output at its source path (`take:
[rest]`), where that file also gets a code edit, crashed the dry run with `stale edit`
(the dry run applied the code edits on top of the split's write) while apply and verify
passed. Every consumer now reads the same materialized tree.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from helpers import git

from migrate.changes import ChangeSet, ContractError, Edit, FileMove
from migrate.materialize import StepError, iter_steps, materialize
from migrate.pipeline import prepare
from migrate.present.tree import file_changes
from migrate.rewrite.engine import plan_changes
from migrate.rules.load import plan_tree

FILES = {
    "pkg/__init__.py": "",
    "pkg/old/__init__.py": "",
    "pkg/new/__init__.py": "",
    "pkg/old/norm.py": "def rmsnorm(x):\n    return x\n",
    "tests/test_mix.py": (
        "import unittest\n\nfrom pkg.old.norm import rmsnorm\n\n\n"
        "class TestNorm(unittest.TestCase):\n    def test_a(self):\n"
        "        self.assertEqual(rmsnorm(1), 1)\n\n\n"
        "class TestOther(unittest.TestCase):\n    def test_b(self):\n"
        "        self.assertEqual(rmsnorm(2), 2)\n\n\n"
        'if __name__ == "__main__":\n    unittest.main()\n'
    ),
}
PLAN = """version: 1
moves:
  - from: pkg.old.norm
    to: pkg.new.norm
splits:
  - file: tests/test_mix.py
    into:
      - path: tests/test_norm.py
        take: [TestNorm]
      - path: tests/test_mix.py
        take: [rest]
"""


def _migrate(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "migrate.cli", *args], cwd=cwd, capture_output=True, text=True
    )


def _head_tree(repo: Path) -> dict[str, bytes]:
    names = git(repo, "ls-tree", "-r", "--name-only", "-z", "HEAD").split("\0")
    return {
        n: subprocess.run(
            ["git", "show", f"HEAD:{n}"], cwd=repo, capture_output=True, check=True
        ).stdout
        for n in names
        if n and n != ".git-blame-ignore-revs"
    }


def test_split_kept_at_its_source_gives_one_tree_in_dry_run_check_apply_and_verify(
    make_repo, tmp_path
):
    repo = make_repo(FILES)
    plan = tmp_path / "plan.yaml"
    plan.write_text(PLAN)
    base = git(repo, "rev-parse", "HEAD").strip()

    dry = _migrate(str(plan), "--dry-run", "--diff", "--repo", str(repo), cwd=repo)
    assert dry.returncode == 0, dry.stderr
    assert "+from pkg.new.norm import rmsnorm" in dry.stdout

    # The dry run's files (the diff's input), `check --plan`'s tree, then apply's commits.
    prep = prepare(plan, repo)
    cs = plan_changes(prep)
    dry_tree = {p: prep.index.read_bytes(p) for p in prep.index.files}
    for c in file_changes(cs, prep.index):
        if c.old is not None:
            dry_tree.pop(c.old, None)
        if c.new is not None:
            dry_tree[c.new] = c.after.encode()
    checked, source = plan_tree(plan, repo)
    assert source == "engine"
    check_tree = {p: checked.text(p).encode() for p in checked.paths}

    applied = _migrate("apply", str(plan), "--repo", str(repo), cwd=repo)
    assert applied.returncode == 0, applied.stderr
    head = _head_tree(repo)
    assert sorted(dry_tree) == sorted(check_tree) == sorted(head)
    for path in head:
        assert dry_tree[path] == check_tree[path] == head[path], path
    mix = head["tests/test_mix.py"].decode()
    assert "from pkg.new.norm import rmsnorm" in mix and "TestNorm" not in mix
    assert "TestNorm" in head["tests/test_norm.py"].decode()

    verified = _migrate("verify", f"{base}..HEAD", "--no-wheel", "--repo", str(repo), cwd=repo)
    assert verified.returncode == 0, verified.stdout + verified.stderr


# -- the contract, checked when a ChangeSet is built ------------------------------------


def _edit(path: str, start: int, end: int, old: str, new: str, kind: str = "code") -> Edit:
    return Edit(path, start, end, old, new, kind, 1, start + 1, "test")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"moves": [FileMove("a", "b"), FileMove("a", "c")]}, "moved twice"),
        ({"moves": [FileMove("a", "c"), FileMove("b", "c")]}, "target of two moves"),
        ({"edits": [_edit("a", 0, 3, "abc", "x"), _edit("a", 2, 4, "cd", "y")]}, "overlapping"),
        ({"edits": [_edit("a", 0, 1, "a", "b")], "writes": {"a": ("code", "z")}}, "in or after"),
        (
            {"edits": [_edit("a", 0, 1, "a", "b", "prose")], "writes": {"a": ("string", "z")}},
            "in or after",
        ),
        ({"edits": [_edit("a", 0, 1, "a", "b", "prose")], "removals": {"a": "code"}}, "after"),
        ({"writes": {"a": ("tests", "z")}, "removals": {"a": "tests"}}, "written and removed"),
        ({"writes": {"a": ("later", "z")}}, "unknown step"),
    ],
)
def test_a_changeset_that_breaks_the_contract_is_refused_when_built(kwargs, message):
    with pytest.raises(ContractError, match=message):
        ChangeSet(**kwargs)


def test_a_write_after_code_edits_supersedes_them_at_its_step_only():
    base = {"t.py": (0o100644, b"import a\n")}
    cs = ChangeSet(
        edits=[_edit("t.py", 7, 8, "a", "b")],
        writes={"t.py": ("tests", "import b  # split\n")},
    )
    steps = {step: tree.files() for step, tree in iter_steps(cs, base)}
    assert steps["code"]["t.py"] == (0o100644, b"import b\n")
    assert steps["tests"]["t.py"] == (0o100644, b"import b  # split\n")
    assert materialize(cs, base, "code").read_bytes("t.py") == b"import b\n"
    assert materialize(cs, base).changes() == [("t.py", "t.py")]


def test_materialize_keeps_modes_encodings_and_lineage():
    latin = "# -*- coding: latin-1 -*-\nx = 'é'\n".encode("latin-1")
    base = {
        "old/run.sh": (0o100755, b"echo hi\n"),
        "m.py": (0o100644, latin),
        "gone": (0o100644, b""),
    }
    cs = ChangeSet(
        moves=[FileMove("old/run.sh", "new/run.sh")],
        edits=[_edit("new/run.sh", 5, 7, "hi", "yo"), _edit("m.py", 26, 27, "x", "y")],
        writes={"new/made.py": ("code", "z = 1\n")},
        removals={"gone": "delete"},
    )
    tree = materialize(cs, base)
    assert tree.mode("new/run.sh") == 0o100755 and tree.read_bytes("new/run.sh") == b"echo yo\n"
    assert tree.read_bytes("m.py") == latin.replace(b"x =", b"y =")
    assert tree.origin("new/run.sh") == "old/run.sh" and tree.origin("new/made.py") is None
    assert tree.changes() == [
        ("gone", None),
        ("m.py", "m.py"),
        (None, "new/made.py"),
        ("old/run.sh", "new/run.sh"),
    ]
    assert materialize(cs, base, "relocate").paths == ["gone", "m.py", "new/run.sh"]


def test_an_edit_that_does_not_fit_the_base_is_a_step_error():
    cs = ChangeSet(edits=[_edit("a.py", 0, 1, "x", "y")])
    with pytest.raises(StepError, match="stale edit"):
        materialize(cs, {"a.py": (0o100644, b"z\n")})
    with pytest.raises(StepError, match="not in the tree"):
        materialize(cs, {})


def test_a_move_that_does_not_fit_the_base_names_the_first_such_move():
    """A missing source or a target that is a staying file: the error of the first move
    by source path, a missing source before a clash for the same move."""
    from migrate.changes import FileMove

    base = {p: (0o100644, p.encode()) for p in ("a", "b", "c", "keep")}
    cases = [
        ([FileMove("b", "keep"), FileMove("z", "y")], "move b -> keep would overwrite keep"),
        ([FileMove("c", "keep"), FileMove("a0", "y")], "move source a0 is not in the tree"),
        ([FileMove("zz", "keep"), FileMove("a", "n")], "move source zz is not in the tree"),
        ([FileMove("a", "b"), FileMove("b", "a"), FileMove("c", "d")], None),
    ]
    for moves, message in cases:
        cs = ChangeSet(moves=moves)
        if message is None:
            tree = materialize(cs, base)
            assert tree.read_bytes("a") == b"b" and tree.paths == ["a", "b", "d", "keep"]
            continue
        with pytest.raises(StepError) as err:
            materialize(cs, base)
        assert str(err.value) == message


def test_the_engine_is_a_declared_list_of_passes(make_repo, tmp_path):
    """Leaving a pass out removes exactly its contribution: the split's writes here."""
    from migrate.rewrite.engine import PASSES

    assert [p.name for p in PASSES] == [
        "python forms",
        "text files",
        "data paths",
        "packaging",
        "followed op ids",
        "registrations follow",
        "exports follow",
        "dynamic imports",
        "symbols",
        "groups",
        "import layout",
        "new packages",
        "symlinks",
        "submodules",
        "split tests",
        "delete",
    ]
    repo = make_repo(FILES)
    plan = tmp_path / "plan.yaml"
    plan.write_text(PLAN)
    prep = prepare(plan, repo)
    full = plan_changes(prep)
    no_split = plan_changes(prep, passes=tuple(p for p in PASSES if p.name != "split tests"))
    assert set(full.writes) == {"tests/test_mix.py", "tests/test_norm.py"}
    assert no_split.writes == {} and no_split.removals == full.removals == {}
    assert no_split.edits == full.edits and no_split.moves == full.moves

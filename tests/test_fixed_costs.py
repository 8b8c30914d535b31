"""The shortcuts taken off apply's fixed and per-file costs (issue 14) give the same answer
as the full work on every input: each test is an input where a careless shortcut would
answer differently."""

from __future__ import annotations

import os
import subprocess
import sys

from click.testing import CliRunner

from migrate.cli import main
from migrate.oldnames import _old_path_spellings, file_heads
from migrate.relocate import Relocation


def _dry_run(repo, plan_text: str, tmp_path):
    plan = tmp_path / "plan.yaml"
    plan.write_text(plan_text, encoding="utf-8")
    return CliRunner().invoke(main, [str(plan), "--dry-run", "--repo", str(repo)])


def test_file_heads_follow_a_relocation_changed_after_they_were_built():
    """`file_heads` is kept for the last relocation seen, keyed by its contents: changed
    in place (a file, a directory move) it is computed again, never served stale; and the
    spellings built on it equal a climb over every path at once."""
    rel = Relocation(
        files={"pkg/data/a.csv": "pkg/tables/a.csv", "pkg/one.txt": "other/one.txt"},
        path_prefixes={"pkg/data": "pkg/tables"},
    )

    def full(r):
        return r.covering_prefixes(list(r.path_prefixes) + list(r.files))

    assert file_heads(rel) == {"pkg/data/a.csv": "pkg/data", "pkg/one.txt": None}
    rel.files["pkg/data/b.csv"] = "elsewhere/b.csv"  # inside the directory, not with it
    assert file_heads(rel)["pkg/data/b.csv"] is None
    rel.path_prefixes["pkg"] = "lib"
    rel.files["pkg/two.txt"] = "lib/two.txt"
    heads = file_heads(rel)
    assert heads == {p: h for p, h in full(rel).items() if p in rel.files}
    assert heads["pkg/two.txt"] == "pkg"
    # a path move of one file: the file is a path prefix too
    rel.path_prefixes["pkg/one.txt"] = "other/one.txt"
    for roots in ((".",), ("pkg",)):
        want: set[str] = set()
        for old, head in full(rel).items():
            forms = [(old, head)] + [
                (old[len(r) + 1 :], head[len(r) + 1 :] if head else None)
                for r in roots
                if r != "." and old.startswith(r + "/")
            ]
            want |= {f for f, h in forms if h is None or "/" not in h}
        assert _old_path_spellings(rel, roots) == {p for p in want if "/" in p}


def test_a_moved_file_landing_on_a_file_that_stays_is_refused(make_repo, tmp_path):
    """No two moves share a target here, so the collision check's shortcut runs: the one
    target that is an existing, unmoved file must still be found."""
    repo = make_repo(
        {
            "python/pkg/__init__.py": "",
            "python/pkg/old/__init__.py": "",
            "python/pkg/old/norm.py": "X = 1\n",
            "python/pkg/old/data/cfg.json": "{}\n",
            "python/pkg/new/data/cfg.json": "[]\n",
        }
    )
    res = _dry_run(
        repo, "version: 1\nroots: [python]\nmoves:\n  - {from: pkg.old, to: pkg.new}\n", tmp_path
    )
    assert res.exit_code == 2, res.output
    assert (
        "moving python/pkg/old/data/cfg.json would overwrite python/pkg/new/data/cfg.json"
        in res.output
    )


def test_a_target_over_path_max_in_bytes_not_in_characters_is_refused(make_repo, tmp_path):
    """The file-system limits are in bytes: a deep tree of two-byte names whose moved
    paths pass PATH_MAX only in bytes is still refused (the shortcut that skips the
    per-file check measures the longest target in bytes)."""
    path_max = os.pathconf(tmp_path, "PC_PATH_MAX")
    root_len = len(os.fsencode(str(tmp_path / "repo0")))  # make_repo's first repository
    name = "\u00e9" * 100  # 200 bytes, 100 characters
    room = path_max - 100 - root_len - len("/python/d//f.txt")  # the source: 100 bytes short
    levels = [name] * (room // 201)
    levels.append("a" * (room - 201 * len(levels)))
    deep = "/".join(levels)
    repo = make_repo({"python/pkg/__init__.py": "", f"python/d/{deep}/f.txt": "x\n"})
    target = "\u00fc" * 120  # 239 bytes more than `d`
    plan = f"version: 1\nroots: [python]\nmoves:\n  - from: python/d/\n    to: python/{target}/\n"
    moved = f"/python/{target}/{deep}/f.txt"
    assert root_len + len(moved.encode()) >= path_max > len(str(repo)) + len(moved) + 1
    res = _dry_run(repo, plan, tmp_path)
    assert res.exit_code == 2, res.output
    assert "the full path is" in res.output and f"allows {path_max - 1})" in res.output


def test_the_apply_command_on_a_data_move_loads_no_heavy_dependency(make_repo, tmp_path):
    """`migrate apply` (the console entry, click and every command included) on a plan
    with no Python to rewrite loads neither libcst, GitPython nor torch/triton: each is
    tenths of a second of start-up that only other commands or passes need."""
    repo = make_repo({"pkg/__init__.py": "", "pkg/data/tables/a.csv": "id\n1\n"})
    plan = tmp_path / "plan.yaml"
    plan.write_text("version: 1\nmoves:\n  - from: pkg/data/tables/\n    to: pkg/tables/\n")
    heavy = ("libcst", "git", "torch", "triton", "numpy")
    code = (
        "import atexit, sys\n"
        f"atexit.register(lambda: print('LOADED', [m for m in {heavy!r} if m in sys.modules]))\n"
        f"sys.argv = ['migrate', 'apply', {str(plan)!r}, '--repo', {str(repo)!r}]\n"
        "from migrate.__main__ import main\nmain()\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "relocate 1 files" in out.stdout or "relocate 1 file" in out.stdout, out.stdout
    assert out.stdout.splitlines()[-1] == "LOADED []", out.stdout

"""Undecodable text files that spell old names are errors, listed, before anything is
written (they used to be skipped silently, their old references left behind)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from helpers import git
from test_apply_atomic import snapshot, strip_stat

from migrate.cli import main

PLAN = "version: 1\nmoves:\n  - from: pkg.old\n    to: pkg.new\n"
LATIN_PY = "# café\nimport pkg.old.mod\n".encode("latin-1")  # no coding cookie
LATIN_TXT = "Café notes.\nSee pkg.old.mod for the answer.\n".encode("latin-1")
FILES = {
    "pkg/__init__.py": "",
    "pkg/old/__init__.py": "",
    "pkg/old/mod.py": "def f():\n    return 1\n",
    "pkg/user.py": "from pkg.old.mod import f\n",
    "tools/legacy.py": LATIN_PY,
    "docs/notes.txt": LATIN_TXT,
    "docs/other.txt": "Thé only, no old name.\n".encode("latin-1"),
    "data/blob.bin": b"\0\1pkg.old.mod\0",
}


@pytest.fixture
def repo(make_repo, tmp_path):
    repo = make_repo(FILES)
    plan = tmp_path / "plan.yaml"
    plan.write_text(PLAN)
    return repo, plan


@pytest.mark.parametrize("args", [["--dry-run"], ["apply"]], ids=["dry-run", "apply"])
def test_undecodable_files_with_old_names_are_positioned_errors(repo, args):
    repo, plan = repo
    before = strip_stat(snapshot(repo))
    cmd = [str(plan), "--dry-run"] if args == ["--dry-run"] else ["apply", str(plan)]
    res = CliRunner().invoke(main, [*cmd, "--repo", str(repo)])
    assert res.exit_code == 2, res.output
    assert "docs/notes.txt:2:5: error: cannot be decoded as utf-8" in res.output
    assert "tools/legacy.py:2:8: error: cannot be decoded as utf-8" in res.output
    assert "spells the old name pkg.old.mod" in res.output
    assert "docs/other.txt" not in res.output  # undecodable but names nothing old
    assert "data/blob.bin" not in res.output  # binary
    assert "Traceback" not in res.output
    assert strip_stat(snapshot(repo)) == before


def test_once_readable_they_are_rewritten(repo):
    repo, plan = repo
    (repo / "tools/legacy.py").write_bytes(b"# -*- coding: latin-1 -*-\n" + LATIN_PY)
    (repo / "docs/notes.txt").write_bytes(LATIN_TXT.decode("latin-1").encode("utf-8"))
    git(repo, "commit", "-qam", "readable")
    res = CliRunner().invoke(main, ["apply", str(plan), "--repo", str(repo)])
    assert res.exit_code == 0, res.output
    assert (repo / "tools/legacy.py").read_bytes().endswith(b"import pkg.new.mod\n")
    assert b"\xe9" in (repo / "tools/legacy.py").read_bytes()  # still latin-1
    assert "See pkg.new.mod" in (repo / "docs/notes.txt").read_text("utf-8")
    assert (repo / "docs/other.txt").read_bytes() == FILES["docs/other.txt"]

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


def test_the_plan_can_say_how_to_read_them(repo):
    repo, plan = repo
    plan.write_text(PLAN + 'encodings:\n  "docs/*.txt": latin-1\n  tools/legacy.py: cp1252\n')
    res = CliRunner().invoke(main, ["apply", str(plan), "--repo", str(repo)])
    assert res.exit_code == 0, res.output
    assert (repo / "docs/notes.txt").read_bytes() == LATIN_TXT.replace(b"pkg.old", b"pkg.new")
    assert (repo / "tools/legacy.py").read_bytes() == LATIN_PY.replace(b"pkg.old", b"pkg.new")
    assert (repo / "docs/other.txt").read_bytes() == FILES["docs/other.txt"]
    assert git(repo, "status", "--porcelain") == ""
    base = git(repo, "rev-list", "--max-parents=0", "HEAD").strip()
    res = CliRunner().invoke(
        main, ["verify", f"{base}..HEAD", "--plan", str(plan), "--repo", str(repo)]
    )
    assert res.exit_code == 0, res.output


def test_an_unknown_codec_is_a_positioned_plan_error(repo):
    repo, plan = repo
    plan.write_text(PLAN + "encodings:\n  docs/notes.txt: latin-9000\n")
    before = strip_stat(snapshot(repo))
    res = CliRunner().invoke(main, [str(plan), "--dry-run", "--repo", str(repo)])
    assert res.exit_code == 2, res.output
    assert "plan.yaml:6:19: error: unknown codec 'latin-9000' for 'docs/notes.txt'" in res.output
    assert strip_stat(snapshot(repo)) == before


def test_a_file_whose_bytes_are_not_its_texts_is_still_scanned(make_repo, tmp_path):
    """The candidate scan rules a file out by its bytes only when they are its text's
    UTF-8: an EBCDIC file (the plan's codec, cp500) spelling the old name is still
    rewritten; a latin-1 file spelling a non-ASCII old path is still a positioned error,
    and the same path in UTF-8 is rewritten."""
    text = "See pkg.old.mod here.\n"
    repo = make_repo(
        {
            "pkg/__init__.py": "",
            "pkg/old/__init__.py": "",
            "pkg/old/mod.py": "",
            "docs/ebcdic.txt": text.encode("cp500"),
            "docs/plain.txt": "nothing old\n",
        }
    )
    plan = tmp_path / "plan.yaml"
    plan.write_text(PLAN + 'encodings:\n  "docs/ebcdic.txt": cp500\n')
    res = CliRunner().invoke(main, ["apply", str(plan), "--repo", str(repo)])
    assert res.exit_code == 0, res.output
    new = text.replace("old", "new").encode("cp500")
    assert (repo / "docs/ebcdic.txt").read_bytes() == new
    assert (repo / "docs/plain.txt").read_text() == "nothing old\n"

    repo = make_repo(
        {
            "data/olé/t.csv": "1\n",
            "docs/utf8.txt": "Voir data/olé/t.csv.\n",
            "docs/latin.txt": "Voir data/olé/t.csv.\n".encode("latin-1"),
        }
    )
    plan.write_text("version: 1\nmoves:\n  - from: data/olé/\n    to: data/new/\n")
    res = CliRunner().invoke(main, [str(plan), "--dry-run", "--repo", str(repo)])
    assert res.exit_code == 2, res.output
    assert "docs/latin.txt:1:6: error: cannot be decoded as utf-8" in res.output
    (repo / "docs/latin.txt").unlink()
    git(repo, "commit", "-qam", "no latin-1")
    res = CliRunner().invoke(main, ["apply", str(plan), "--repo", str(repo)])
    assert res.exit_code == 0, res.output
    assert (repo / "docs/utf8.txt").read_text() == "Voir data/new/t.csv.\n"

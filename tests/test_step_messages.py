"""Step commit subjects say what the step does (trial24 T43)."""

from __future__ import annotations

from click.testing import CliRunner
from helpers import git

from migrate.changes import ChangeSet, Edit, FileMove
from migrate.cli import main
from migrate.git_steps.message import summary


def test_a_step_that_only_writes_a_package_init_says_so(make_repo, tmp_path):
    """A new `__init__.py` alone in the code step used to read "rewrite 0 code references
    in 0 files": the subject names the file it writes instead."""
    repo = make_repo({"pkg/__init__.py": "", "pkg/sub/__init__.py": "", "pkg/sub/a.py": "X = 1\n"})
    plan = tmp_path / "plan.yaml"
    plan.write_text("version: 1\nmoves:\n  - from: pkg.sub\n    to: pkg.plugins.sub\n")
    res = CliRunner().invoke(main, ["apply", str(plan), "--repo", str(repo)])
    assert res.exit_code == 0, res.output
    subjects = git(repo, "log", "--format=%s", "-3").splitlines()
    assert "migrate(code): write 1 file" in subjects, subjects
    assert not any("rewrite 0 " in s for s in subjects), subjects
    assert (repo / "pkg/plugins/__init__.py").exists()


def test_without_reference_edits_the_subject_names_the_writes_and_removals():
    cs = ChangeSet(moves=[FileMove("a/x.py", "b/x.py")])
    cs.writes["b/__init__.py"] = ("code", "")
    cs.removals["old.txt"] = "code"
    subject, body = summary("code", cs)
    assert subject == "migrate(code): write 1 file, remove 1 file"
    assert not any(line.startswith("Also:") for line in body)  # said once, above
    edit = Edit("b/x.py", 0, 1, "a", "b", "code", 1, 1, "moved")
    cs.edits.append(edit)  # with an edit the subject counts the edits, the rest below
    subject, body = summary("code", cs)
    assert subject == "migrate(code): rewrite 1 code references in 1 file"
    assert "Also: 1 file written, 1 file removed." in body
    subject, body = summary("string", ChangeSet())
    assert subject == "migrate(string): rewrite 0 string references in 0 files"

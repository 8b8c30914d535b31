"""Edits are computed on blob content (the clean side of eol conversion).

With an `eol=crlf` attribute or `core.autocrlf` the work tree holds CRLF and the blobs
LF. Before, the engine computed edit offsets on the CRLF text and applied them to the LF
blobs: apply failed with `stale edit`. Real git repos, the real engine.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from helpers import git

from migrate.cli import main

PLAN = "version: 1\nmoves:\n  - from: pkg.old\n    to: pkg.new\n"
FILES = {
    "pkg/__init__.py": "",
    "pkg/old/__init__.py": "",
    "pkg/old/mod.py": "# the module\n\n\ndef f():\n    return 1\n",
    "pkg/user.py": "# uses it\nimport os\n\nfrom pkg.old.mod import f\n\nprint(f(), os.sep)\n",
    "README.md": "Intro line.\n\nCall `pkg.old.mod.f` for the answer.\nMore text.\n",
}


def _recheckout(repo) -> None:
    git(repo, "rm", "-q", "--cached", "-r", ".")
    git(repo, "reset", "-q", "--hard")


@pytest.fixture(params=["eol-attribute", "autocrlf"])
def crlf_repo(request, make_repo, tmp_path):
    repo = make_repo(FILES)
    if request.param == "eol-attribute":
        (repo / ".gitattributes").write_text("* text eol=crlf\n")
        git(repo, "add", ".gitattributes")
        git(repo, "commit", "-qm", "attributes")
    else:
        git(repo, "config", "core.autocrlf", "true")
    _recheckout(repo)
    assert b"\r\n" in (repo / "pkg/user.py").read_bytes()  # CRLF on disk, LF in the blobs
    assert b"\r\n" not in git(repo, "show", "HEAD:pkg/user.py").encode()
    assert git(repo, "status", "--porcelain") == ""
    plan = tmp_path / "plan.yaml"
    plan.write_text(PLAN)
    return repo, plan


def test_a_crlf_work_tree_migrates_and_ends_clean(crlf_repo):
    repo, plan = crlf_repo
    dry = CliRunner().invoke(main, [str(plan), "--dry-run", "--diff", "--repo", str(repo)])
    assert dry.exit_code == 0, dry.output
    assert "+from pkg.new.mod import f" in dry.output
    res = CliRunner().invoke(main, ["apply", str(plan), "--repo", str(repo)])
    assert res.exit_code == 0, res.output
    assert git(repo, "status", "--porcelain") == ""
    blob = git(repo, "show", "HEAD:pkg/user.py")
    assert blob == FILES["pkg/user.py"].replace("pkg.old", "pkg.new")  # LF, edited
    assert (repo / "pkg/user.py").read_bytes() == blob.replace("\n", "\r\n").encode()
    assert "`pkg.new.mod.f`" in git(repo, "show", "HEAD:README.md")
    assert (repo / "pkg/new/mod.py").read_bytes().count(b"\r\n") == 5
    assert not (repo / "pkg/old").exists()
    again = CliRunner().invoke(main, ["apply", str(plan), "--repo", str(repo)])
    assert again.exit_code == 0, again.output  # idempotent: already applied
    assert git(repo, "status", "--porcelain") == ""


def test_verify_passes_on_the_crlf_result(crlf_repo):
    repo, plan = crlf_repo
    base = git(repo, "rev-parse", "HEAD").strip()
    assert CliRunner().invoke(main, ["apply", str(plan), "--repo", str(repo)]).exit_code == 0
    res = CliRunner().invoke(
        main, ["verify", f"{base}..HEAD", "--plan", str(plan), "--repo", str(repo)]
    )
    assert res.exit_code == 0, res.output

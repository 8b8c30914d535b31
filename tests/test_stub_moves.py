"""A module's `.pyi` stub moves with the module: a type checker must not see a stub for a
module that is gone, nor miss the one of the module's new name."""

from __future__ import annotations

from click.testing import CliRunner
from helpers import git

from migrate.cli import main

STUB = b"def f() -> int: ...\n"
FILES = {
    "pkg/__init__.py": "",
    "pkg/mod.py": "def f():\n    return 1\n",
    "pkg/mod.pyi": STUB,
    "pkg/use.py": "from pkg.mod import f\n\nVALUE = f()\n",
}


def _plan(tmp_path, text: str):
    plan = tmp_path / "plan.yaml"
    plan.write_text("version: 1\nmoves:\n" + text)
    return plan


def _run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_the_stub_of_a_moved_module_is_renamed_with_it_and_verify_passes(make_repo, tmp_path):
    repo = make_repo(FILES)
    base = git(repo, "rev-parse", "HEAD").strip()
    plan = _plan(tmp_path, "  - from: pkg.mod\n    to: pkg.newmod\n")
    dry = _run(str(plan), "--dry-run", "--repo", str(repo))
    assert dry.exit_code == 0, dry.output
    assert "pkg/mod.pyi -> pkg/newmod.pyi" in dry.output
    res = _run("apply", str(plan), "--repo", str(repo))
    assert res.exit_code == 0, res.output
    assert not (repo / "pkg/mod.pyi").exists()
    assert (repo / "pkg/newmod.pyi").read_bytes() == STUB
    renames = git(
        repo, "log", "-M", "--diff-filter=R", "--name-status", "--format=", f"{base}..HEAD"
    )
    assert "R100\tpkg/mod.pyi\tpkg/newmod.pyi" in renames
    ver = _run("verify", f"{base}..HEAD", "--repo", str(repo), "--no-wheel")
    assert ver.exit_code == 0, ver.output


def test_a_path_move_that_names_the_stub_wins(make_repo, tmp_path):
    repo = make_repo(FILES)
    plan = _plan(
        tmp_path,
        "  - from: pkg.mod\n    to: pkg.newmod\n"
        "  - from: pkg/mod.pyi\n    to: stubs/pkg/newmod.pyi\n",
    )
    res = _run("apply", str(plan), "--repo", str(repo))
    assert res.exit_code == 0, res.output
    assert (repo / "stubs/pkg/newmod.pyi").read_bytes() == STUB
    assert not (repo / "pkg/newmod.pyi").exists()

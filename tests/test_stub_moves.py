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


def test_stub_imports_are_respelled_as_the_module_imports_are(make_repo, tmp_path):
    """more-itertools' shape: `__init__.pyi` does `from .more import *`. Stub imports
    (relative, star, per-name, `import pkg.mod`) follow the move as the `.py` ones do,
    a moved stub's own relative imports included; a second run changes nothing."""
    from rewrite_helpers import rewrite_and_run

    init = "from .more import *\nfrom . import more\n"
    files = {
        "pkg/__init__.py": init,
        "pkg/__init__.pyi": init,
        "pkg/_core/__init__.py": "",
        "pkg/more.py": "from .base import T\n\n__all__ = ['f']\n\n\ndef f():\n    return T\n",
        "pkg/more.pyi": "from .base import T\n\ndef f() -> T: ...\n",
        "pkg/base.py": "T = 1\n",
        "pkg/other.pyi": (
            "from pkg.more import *\nfrom .more import f as g\nimport pkg.more\n\n"
            "def h() -> pkg.more.T: ...\n"
        ),
        "check.py": "import pkg\n\n\ndef check():\n    assert pkg.f() == pkg.more.f() == 1\n",
    }
    _, _, out = rewrite_and_run(
        make_repo, tmp_path, files, [("pkg.more", "pkg._core.more")], "check"
    )
    new_init = "from ._core.more import *\nfrom ._core import more\n"
    assert (out / "pkg/__init__.pyi").read_text() == new_init
    # spelled as the module's own import is (one more dot than before: absolute)
    assert (out / "pkg/_core/more.py").read_text().startswith("from pkg.base import T\n")
    assert (
        out / "pkg/_core/more.pyi"
    ).read_text() == "from pkg.base import T\n\ndef f() -> T: ...\n"
    assert (out / "pkg/other.pyi").read_text() == (
        "from pkg._core.more import *\nfrom ._core.more import f as g\nimport pkg._core.more\n\n"
        "def h() -> pkg._core.more.T: ...\n"
    )

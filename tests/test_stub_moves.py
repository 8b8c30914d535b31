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


def test_a_symbol_move_moves_its_stub_declaration(make_repo, tmp_path):
    """more-itertools' shape: the source module has a stub. Every declaration of the moved
    name (both overloads) leaves it, with its `__all__` entry, for the new module's new
    stub, with the imports it reads; ruff F821 finds nothing in either stub."""
    from rewrite_helpers import rewrite_and_run, undefined_names

    stub = (
        "from typing import overload\n\nfrom .base import T\n\n"
        '__all__ = ["f", "g"]\n\n'
        "@overload\ndef f(x: int) -> int: ...\n@overload\ndef f(x: str) -> str: ...\n"
        "def g() -> T: ...\n"
    )
    files = {
        "pkg/__init__.py": "",
        "pkg/base.py": "T = int\n",
        "pkg/mod.py": (
            '__all__ = ["f", "g"]\n\n\ndef f(x):\n    return x\n\n\ndef g():\n    return 1\n'
        ),
        "pkg/mod.pyi": stub,
        "check.py": "from pkg.new import f\n\n\ndef check():\n    assert f(2) == 2\n",
    }
    _, _, out = rewrite_and_run(make_repo, tmp_path, files, [("pkg.mod:f", "pkg.new")], "check")
    assert (out / "pkg/mod.pyi").read_text() == (
        'from typing import overload\n\nfrom .base import T\n\n__all__ = ["g"]\n\n'
        "def g() -> T: ...\n"
    )
    assert (out / "pkg/new.pyi").read_text() == (
        "from typing import overload\n\n\n"
        "@overload\ndef f(x: int) -> int: ...\n@overload\ndef f(x: str) -> str: ...\n"
    )
    assert undefined_names(out) == []


def test_a_new_module_gets_no_stub_when_code_from_a_module_without_one_moves_in_too(
    make_repo, tmp_path
):
    """`pkg.one` has a stub, `pkg.two` has none; both move a function into the new
    `pkg.both`. A stub holding `a` alone would hide `b` from the type checker (a stub is
    all it reads of the module: `from pkg.both import b` an error), so the new module gets
    none and its code types it, as for a target that exists without a stub. The stub
    declaration still leaves `pkg/one.pyi`. Before: `pkg/both.pyi` declared only `a`."""
    from rewrite_helpers import rewrite_and_run

    files = {
        "pkg/__init__.py": "",
        "pkg/one.py": "def a():\n    return 1\n\n\ndef a2():\n    return 1\n",
        "pkg/one.pyi": "def a() -> int: ...\ndef a2() -> int: ...\n",
        "pkg/two.py": "def b():\n    return 2\n\n\ndef b2():\n    return 2\n",
        "check.py": "from pkg.both import a, b\n\n\ndef check():\n    assert a() + b() == 3\n",
    }
    moves = [("pkg.one:a", "pkg.both"), ("pkg.two:b", "pkg.both")]
    _, _, out = rewrite_and_run(make_repo, tmp_path, files, moves, "check")
    assert (out / "pkg/both.py").read_text() == (
        "def a():\n    return 1\n\n\ndef b():\n    return 2\n"
    )
    assert not (out / "pkg/both.pyi").exists()
    assert (out / "pkg/one.pyi").read_text() == "def a2() -> int: ...\n"


def test_a_stub_declaration_under_a_condition_is_named_for_review(make_repo):
    """typeshed's shape: the stub declares the moved name inside `if sys.version_info`.
    Only top-level declarations move; this one stayed in the source stub without a word,
    so a type checker still sees `pkg.core.a`, which no longer exists. Now a warning at
    the declaration names it and where it should go."""
    from rewrite_helpers import changes

    stub = (
        "import sys\n\nif sys.version_info >= (3, 8):\n    def a() -> int: ...\n"
        "else:\n    def a() -> str: ...\n\ndef c() -> int: ...\n"
    )
    files = {
        "pkg/__init__.py": "",
        "pkg/core.py": "def a():\n    return 1\n\n\ndef c():\n    return 3\n",
        "pkg/core.pyi": stub,
        "use.py": "from pkg.core import a\n",
    }
    _, cs = changes(make_repo, files, [("pkg.core:a", "pkg.one")])
    notes = [n for n in cs.notes if n.pos.file == "pkg/core.pyi"]
    assert [(n.pos.line, n.severity) for n in notes] == [(4, "warning"), (6, "warning")]
    assert "a is declared inside a block" in notes[0].message, notes[0].message
    assert "pkg.one" in notes[0].message


def test_code_from_a_module_without_a_stub_moving_into_a_stubbed_module_is_named(make_repo):
    """review23 R8's remainder: `pkg.two` has no stub and moves `b` into `pkg.one`, which
    has one. The stub is all a type checker reads of pkg.one, so `b` is hidden from it
    (`from pkg.one import b` an error there): nothing can write its declaration, so a
    warning at the target's stub names it; the stub is left as it is."""
    from rewrite_helpers import changes, new_text

    files = {
        "pkg/__init__.py": "",
        "pkg/one.py": "def a():\n    return 1\n",
        "pkg/one.pyi": "def a() -> int: ...\n",
        "pkg/two.py": "def b():\n    return 2\n\n\ndef b2():\n    return 2\n",
        "use.py": "from pkg.two import b\n",
    }
    prep, cs = changes(make_repo, files, [("pkg.two:b", "pkg.one")])
    said = [str(n) for n in cs.notes if n.pos.file == "pkg/one.pyi"]
    assert len(said) == 1 and "warning" in said[0] and "declare b, which" in said[0], said
    assert new_text(prep, cs, "pkg/one.pyi") == "def a() -> int: ...\n"

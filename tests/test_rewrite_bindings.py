"""References by binding: every form that binds the module losing a symbol, every use
through it, scopes, spelling. Each case is applied to a real tmp repo, its rewritten code
is EXECUTED (`check()` asserts the behaviour), and a second run changes nothing.

The cases ARE the goldens: golden/rewrite/binding-<form>/ holds the plan and the tree
before (the checked module is the one defining `check()`); tests/test_rewrite_golden.py
compares the output with after/ and edits.txt, this file executes it. A module that also
defines `check_fallback()` is run a second time with the old and new modules made
unimportable, so that its `except ImportError` branch runs too.
"""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest
import rewrite_helpers
from helpers import GOLDEN, git, migrate_cli
from rewrite_helpers import changes, dedent, plan_yaml, rewrite_and_run, run_check

FORMS = sorted(
    p.name[len("binding-") :]
    for p in (GOLDEN / "rewrite").iterdir()
    if p.name.startswith("binding-") and (p / "before").is_dir()
)


def golden_case(form: str) -> tuple[dict[str, str], str, list[tuple[str, str]]]:
    """(files before, path of the checked module, moves) of golden binding-<form>."""
    case = rewrite_helpers.golden_case(f"binding-{form}")
    return case.files, case.checked, case.moves


def module_of(path: str) -> str:
    return path[:-3].replace("/", ".")


def run_fallback(root, module: str, blocked: list[str]) -> None:
    """`module.check_fallback()` with `blocked` modules unimportable (ImportError)."""
    block = "".join(f"sys.modules[{m!r}] = None; " for m in blocked)
    res = subprocess.run(
        [sys.executable, "-c", f"import sys; {block}import {module} as m; m.check_fallback()"],
        cwd=root,
        capture_output=True,
        text=True,
    )
    assert res.returncode == 0, res.stderr


@pytest.mark.parametrize("form", FORMS)
def test_binding_form_is_rewritten_and_runs(make_repo, tmp_path, form):
    files, path, moves = golden_case(form)
    module = module_of(path)
    # The fixture runs before the plan too: the rewrite must keep it working.
    before = GOLDEN / "rewrite" / f"binding-{form}" / "before"
    scratch = tmp_path / "before"
    shutil.copytree(before, scratch)
    run_check(scratch, module)
    fallback = "\ndef check_fallback():" in files[path]
    old_mods = sorted({src.split(":")[0] for src, _ in moves})
    new_mods = sorted({dst for _, dst in moves})
    if fallback:
        run_fallback(scratch, module, old_mods)
    _, cs, out = rewrite_and_run(make_repo, tmp_path, files, moves, module)
    if fallback:
        run_fallback(out, module, old_mods + new_mods)
    text = (out / path).read_text()
    if form.startswith("shadowed"):
        assert "def param(mod):\n    return mod.func()" in text
        assert "    mod = Fake()\n    return mod.func()" in text
        assert "    global mod\n    mod = Fake()\n    return mod.func()" in text
    elif form == "later-import-rebinds":
        assert "SECOND = mod.func()" in text and "FIRST = newmod.func()" in text
    elif form == "drop-and-respell":  # the drop composed with the split (Defect A)
        assert "    from pkg.dates import time\n" in text and "number" not in text
    elif form not in ("reexport-init", "star-reexport"):  # users stay as they are
        assert "newmod" in text


def rewritten(make_repo, tmp_path, form: str, **replace: str) -> tuple[object, str]:
    """(ChangeSet, rewritten text of the checked module) of golden binding-<form>, its
    files optionally replaced."""
    files, path, moves = golden_case(form)
    files.update(replace)
    where = tmp_path / form
    where.mkdir()
    _, cs, out = rewrite_and_run(make_repo, where, files, moves, module_of(path))
    return cs, (out / path).read_text()


def test_style_is_kept_for_a_from_import_user(make_repo, tmp_path):
    _, text = rewritten(make_repo, tmp_path, "from-import")
    assert text == dedent(
        """
        from pkg import mod, newmod


        def check():
            assert newmod.func() == "func" and mod.other() == "other"
        """
    )


def test_relative_binding_gets_a_relative_import(make_repo, tmp_path):
    _, text = rewritten(make_repo, tmp_path, "relative-dotdot")
    assert text.startswith("from .. import newmod\n")


def test_an_old_binding_left_without_uses_is_removed(make_repo, tmp_path):
    _, text = rewritten(make_repo, tmp_path, "from-import-as")
    assert text.startswith("from pkg import newmod\n\n")
    _, text = rewritten(make_repo, tmp_path, "unused-old-import")
    # the new name goes into the parenthesized import, every comment on its name (O8)
    assert text.startswith(
        "from pkg import (  # the modules this file uses\n"
        "    main,  # noqa: F401\n"
        "    newmod,\n"
        "    other_mod,\n"
        ")\n"
    )


def test_an_old_binding_another_file_imports_stays(make_repo, tmp_path):
    """`from pkg.use import m` elsewhere reads the binding: it is not removed."""
    other = "from pkg.use import m\n\nassert m.other() == 'other'\n"
    _, text = rewritten(make_repo, tmp_path, "from-import-as", **{"pkg/reader.py": other})
    # ruff/isort (combine-as-imports off) keep an aliased name in its own statement
    assert text.startswith("from pkg import mod as m\nfrom pkg import newmod\n")


def test_try_import_fallback_binds_the_new_name(make_repo, tmp_path):
    _, text = rewritten(make_repo, tmp_path, "try-except")
    assert "    from pkg import other_mod as mod\n    newmod = mod\n" in text
    assert "        optional = None\n        newmod = None\n" in text


def test_collision_picks_an_alias_and_says_so(make_repo, tmp_path):
    cs, text = rewritten(make_repo, tmp_path, "collision-alias")
    assert "from pkg import newmod as pkg_newmod\n" in text and "pkg_newmod.func()" in text
    assert any("as `pkg_newmod`" in n.message and n.pos.file == "pkg/use.py" for n in cs.notes)


def test_root_rebound_is_never_spelled_through_the_root(make_repo, tmp_path):
    _, text = rewritten(make_repo, tmp_path, "root-rebound")
    assert "pkg.newmod" not in text and "newmod.func()" in text


def test_file_is_a_candidate_by_binding_not_by_spelling(make_repo):
    """No text of the file spells `pkg.mod`: the binding makes it a candidate."""
    files, path, moves = golden_case("relative-dot")
    assert "pkg.mod" not in files[path]
    prep, cs = changes(make_repo, files, moves)
    assert any(e.path == path and e.new == "newmod" for e in cs.edits)


def test_no_safe_spelling_is_an_error_note(make_repo):
    """`import pkg.mod` -> `import lib.mod` cannot be written when the file defines `lib`
    itself: an error-severity note (apply refuses error notes), never a silent edit."""
    files = {
        "pkg/__init__.py": "",
        "pkg/mod.py": "X = 1\n",
        "lib/__init__.py": "",
        "app/use.py": "import pkg.mod\n\nlib = None\nprint(pkg.mod.X)\n",
    }
    prep, cs = changes(make_repo, files, [("pkg.mod", "lib.mod")])
    (note,) = [n for n in cs.notes if n.pos.file == "app/use.py"]
    assert note.severity == "error" and "defines `lib` itself" in note.message
    assert not [e for e in cs.edits if e.path == "app/use.py"]


def test_apply_refuses_when_no_safe_spelling_exists(make_repo, tmp_path):
    """The same plan through the CLI: the dry run reports the error, apply exits 2 and
    writes nothing (HEAD, index and work tree unchanged)."""
    files = {
        "pkg/__init__.py": "",
        "pkg/mod.py": "X = 1\n",
        "lib/__init__.py": "",
        "app/use.py": "import pkg.mod\n\nlib = None\nprint(pkg.mod.X)\n",
    }
    repo = make_repo(files)
    plan = tmp_path / "plan.yaml"
    plan.write_text(plan_yaml([("pkg.mod", "lib.mod")]))
    head = git(repo, "rev-parse", "HEAD")
    dry = migrate_cli(repo, str(plan), "--dry-run")
    assert "defines `lib` itself" in dry.stdout + dry.stderr
    res = migrate_cli(repo, "apply", str(plan))
    assert res.returncode == 2, res.stdout + res.stderr
    assert "defines `lib` itself" in res.stdout + res.stderr
    assert git(repo, "rev-parse", "HEAD") == head and git(repo, "status", "--porcelain") == ""


def test_reexport_through_the_package_init_keeps_working(make_repo, tmp_path):
    """`from pkg import func` / `pkg.func` where pkg/__init__.py re-exports the moved
    symbol: the re-export follows the symbol, so every user keeps working unchanged."""
    files, path, moves = golden_case("reexport-init")
    _, cs, out = rewrite_and_run(make_repo, tmp_path, files, moves, module_of(path))
    assert (out / "pkg/__init__.py").read_text() == (
        "from .mod import other\nfrom .newmod import func\n"
    )
    assert (out / path).read_text() == files[path]


def test_star_reexports_keep_every_name_the_star_gave(make_repo, tmp_path):
    """`from .recipes import *` / `from pkg.recipes import *` re-exported what recipes'
    `__all__` listed: each moved name is imported from its new module right after the
    star import, or at its sorted place when no star import there gives that name (O2),
    in the importer's style (relative or absolute), and nowhere it is not
    needed: not in `pkg/__init__` for `grow` (it star-imports `pkg.extra`, grow's new
    module), not in `top/__init__` (the chain's middle, `top/mid.py`, binds them), and
    `hidden` (not in `__all__`) nowhere. The users are untouched and work (executed)."""
    files, path, moves = golden_case("star-reexport")
    _, cs, out = rewrite_and_run(make_repo, tmp_path, files, moves, module_of(path))
    init = (out / "pkg/__init__.py").read_text()
    # a name the module neither reads nor lists in `__all__` is an explicit re-export (T49)
    assert init.startswith(
        "from .recipes import *\nfrom .partitioning import partitionby as partitionby\n\n"
    )
    assert "grow" not in init
    for mid in ("pkg/api/__init__.py", "top/mid.py"):
        text = (out / mid).read_text()
        alias = "" if mid == "pkg/api/__init__.py" else " as partitionby"  # listed in __all__?
        assert (
            f"from pkg.extra import grow as grow\nfrom pkg.partitioning import partitionby{alias}\n"
            "from pkg.recipes import *\n"
        ) in text
    assert (out / "top/__init__.py").read_text() == files["top/__init__.py"]
    assert (out / path).read_text() == files[path]
    assert not any("hidden" in e.new for e in cs.edits if "import" in e.new)
    assert (out / "pkg/recipes.py").read_text().startswith('__all__ = ("countby",)\n')


T49 = {
    "pkg/__init__.py": 'from .util import *\n\n__all__ = ["f", "Listed"]\n',
    "pkg/util.py": (
        "def f():\n    return 1\n\n\nclass Memo:\n    pass\n\n\nclass Listed:\n    pass\n"
    ),
    "use.py": (
        "import pkg\nfrom pkg import *\n\n\n"
        "def check():\n    assert pkg.Memo.__name__ == 'Memo' and Listed.__name__ == 'Listed'\n"
        "    assert 'Memo' not in globals()\n"
    ),
}


def test_a_star_reexport_the_export_list_does_not_name_is_an_explicit_reexport(make_repo, tmp_path):
    """trial24 T49 (pyparsing): `from .util import *` gave the package `Memo`, which its
    `__all__` does not list. The import that keeps it is `Memo as Memo`, which ruff's
    F401 reads as a re-export (as the registration case writes it); a name `__all__`
    lists stays a plain import. Executed: `pkg.Memo` works, `from pkg import *` still
    gives only what `__all__` lists."""
    moves = [("pkg.util:Memo", "pkg.caching"), ("pkg.util:Listed", "pkg.caching")]
    _, cs, out = rewrite_and_run(make_repo, tmp_path, T49, moves, "use")
    init = (out / "pkg/__init__.py").read_text()
    assert "from .caching import Listed\nfrom .caching import Memo as Memo\n" in init, init
    assert rewrite_helpers.unused_imports(out / "pkg") == []


STAR_SHADOWED = {
    "pkg/__init__.py": "def partitionby(seq):\n    return 'own'\n\n\nfrom .recipes import *\n",
    "pkg/recipes.py": "def partitionby(seq):\n    return list(seq)\n",
}


def test_star_reexport_without_a_safe_spelling_is_refused(make_repo, tmp_path):
    """The package binds `partitionby` itself, then the star import rebinds it to
    recipes'. No import placed by the one layout keeps that order safely: an error in the
    dry run (exit 1, as every error note), and apply exits 2 with nothing written."""
    prep, cs = changes(make_repo, STAR_SHADOWED, [("pkg.recipes:partitionby", "pkg.part")])
    (note,) = [n for n in cs.notes if n.pos.file == "pkg/__init__.py"]
    assert note.severity == "error" and "cannot keep partitionby re-exported" in note.message
    assert (note.pos.line, note.pos.col) == (5, 1)
    moves = [("pkg.recipes:partitionby", "pkg.part")]
    assert_refused(make_repo(STAR_SHADOWED), tmp_path, moves, "cannot keep partitionby re-exported")


def assert_refused(repo, tmp_path, moves, said: str) -> None:
    """The dry run exits 1 and apply 2, both saying `said`; HEAD and status unchanged."""
    plan = tmp_path / "plan.yaml"
    plan.write_text(plan_yaml(moves))
    head = git(repo, "rev-parse", "HEAD")
    for args, code in (([str(plan), "--dry-run"], 1), (["apply", str(plan)], 2)):
        res = migrate_cli(repo, *args)
        assert res.returncode == code, res.stdout + res.stderr
        assert said in res.stdout + res.stderr
    assert git(repo, "rev-parse", "HEAD") == head and git(repo, "status", "--porcelain") == ""


def test_an_implicit_submodule_binding_follows_the_move(make_repo, tmp_path):
    """Importing `pkg.mod` in `pkg/__init__.py` binds `mod` there (toolz's
    `del exceptions`): renamed with a move inside the package; a `del` of a submodule
    that leaves the package is dropped, since nothing binds it any more (executed)."""
    files, path, moves = golden_case("implicit-submodule")
    _, cs, out = rewrite_and_run(make_repo, tmp_path, files, moves, module_of(path))
    text = (out / "pkg/__init__.py").read_text()
    assert "F = newmod.func\n" in text and text.endswith("\ndel newmod\n")
    assert "gone" not in text.split("helper, other")[1]


def test_a_read_of_an_implicit_submodule_that_leaves_is_an_error(make_repo):
    """`exc.merge` read through the binding that importing `pkg.exc` made, when pkg.exc
    moves out of the package: nothing binds `exc` there any more; no safe spelling."""
    files = {
        "pkg/__init__.py": "from .exc import merge\n\nX = exc.merge\n",
        "pkg/exc.py": "def merge():\n    return 1\n",
        "lib/__init__.py": "",
    }
    prep, cs = changes(make_repo, files, [("pkg.exc", "lib.exc")])
    (note,) = [n for n in cs.notes if n.pos.file == "pkg/__init__.py"]
    assert note.severity == "error" and (note.pos.line, note.pos.col) == (3, 5)
    assert "cannot spell lib.exc" in note.message


def test_an_import_in_a_class_body_binds_the_submodule_too(make_repo, tmp_path):
    """A class body runs at import time: importing `pkg.sub` there sets `pkg.sub`, so
    `sub` is bound in the package (`index/imports.bound_submodule`, the rule verify's
    import-time names use too); the read follows the move inside the package
    (executed). Read through `index/imports.imports_of`, which walks class bodies."""
    files = {
        "pkg/__init__.py": (
            "class _Loaded:\n    from pkg.sub import VALUE\n\n\n"
            "def check():\n    assert sub.VALUE == 1 == _Loaded.VALUE\n"
        ),
        "pkg/sub.py": "VALUE = 1\n",
    }
    _, cs, out = rewrite_and_run(make_repo, tmp_path, files, [("pkg.sub", "pkg.newsub")], "pkg")
    assert "assert newsub.VALUE == 1" in (out / "pkg/__init__.py").read_text()


PARENT = {  # tenacity's shape: `from . import asyncio as tasyncio; tasyncio.retry.X`
    "pkg/__init__.py": "",
    "pkg/sub/__init__.py": "from .cond import Base\n",
    "pkg/sub/cond.py": "class Base:\n    pass\n",
    "pkg/use.py": (
        "from pkg import sub\nfrom pkg import sub as s\n\n\n"
        "def check():\n"
        "    assert sub.cond.Base is s.cond.Base\n"
        "    assert sub.cond.Base.__name__ == 'Base'\n"
    ),
}


@pytest.mark.parametrize(
    ("moves", "spelled"),
    [
        ([("pkg.sub.cond", "pkg.sub.conditions")], "sub.conditions.Base is s.conditions.Base"),
        (
            [("pkg.sub", "pkg.contrib.sub"), ("pkg.sub.cond", "pkg.contrib.sub.conditions")],
            "sub.conditions.Base is s.conditions.Base",
        ),
        ([("pkg.sub.cond:Base", "pkg.sub.other")], "other.Base is other.Base"),
    ],
    ids=["module-renamed", "package-and-module-moved", "symbol-moved-in-the-package"],
)
def test_a_package_binding_reaches_its_moved_submodule_by_the_new_name(
    make_repo, tmp_path, moves, spelled
):
    """`from pkg import sub` (or `as s`) then `sub.cond.Base`: the binding is the
    PARENT of the moved module. The chain's tail follows the move through the same
    binding (it was left as it was: AttributeError at run time; executed here)."""
    _, _, out = rewrite_and_run(make_repo, tmp_path, PARENT, moves, "pkg.use")
    assert spelled in (out / "pkg/use.py").read_text()


def test_a_forward_reference_through_a_package_binding_follows_the_move(make_repo, tmp_path):
    """tenacity's `retry: "t.Union[RetryBaseT, tasyncio.retry.RetryBaseT]"`: a string
    annotation is code that type checkers and `typing.get_type_hints` evaluate; its chain
    through the package binding follows the moved submodule (executed: the hints resolve)."""
    files = dict(PARENT)
    files["pkg/use.py"] = (
        "import typing as t\n\nfrom . import sub as s\n\n\n"
        'def f(x: "s.cond.Base", y: "t.Optional[s.cond.Base]") -> "s.cond.Base":\n'
        "    return x\n\n\n"
        "def check():\n"
        "    hints = t.get_type_hints(f)\n"
        "    assert hints['x'] is hints['return'] is s.conditions.Base\n"
    )
    moves = [("pkg.sub", "pkg.contrib.sub"), ("pkg.sub.cond", "pkg.contrib.sub.conditions")]
    _, _, out = rewrite_and_run(make_repo, tmp_path, files, moves, "pkg.use")
    text = (out / "pkg/use.py").read_text()
    assert 'x: "s.conditions.Base", y: "t.Optional[s.conditions.Base]"' in text
    assert '-> "s.conditions.Base":' in text


def test_two_bindings_of_the_package_import_the_moved_submodule_once(make_repo, tmp_path):
    """`import pkg.sub as ps` and `from pkg import sub`, both reading `cond`, which moves
    out of the package: the chains are spelled `lib.cond...` and `import lib.cond` is
    added once (it was added before each binding); a function-local binding gets its own."""
    files = {
        "pkg/__init__.py": "",
        "lib/__init__.py": "",
        "pkg/sub/__init__.py": "from . import cond\n",
        "pkg/sub/cond.py": "class Base:\n    pass\n\n\ndef make():\n    return Base()\n",
        "pkg/use.py": (
            "import pkg.sub as ps\nfrom pkg import sub\n\n\n"
            "def local():\n    from pkg import sub as s2\n\n    return s2.cond.Base\n\n\n"
            "def check():\n"
            "    assert isinstance(sub.cond.make(), ps.cond.Base)\n"
            "    assert local() is ps.cond.Base\n"
        ),
    }
    _, _, out = rewrite_and_run(
        make_repo, tmp_path, files, [("pkg.sub.cond", "lib.cond")], "pkg.use"
    )
    text = (out / "pkg/use.py").read_text()
    assert text.count("import lib.cond\n") == 2, text  # module level once, and in local()
    assert "    import lib.cond\n    from pkg import sub as s2\n" in text


def test_a_reload_of_a_module_that_loses_symbols_is_warned_about(make_repo):
    """packaging 24.2: a test patches `struct.calcsize`, reloads `tags` and reads
    `tags._32_BIT_INTERPRETER`; moved, the name is computed once in the new module and the
    reload no longer recomputes it (the test failed, silently). Each reload of such a
    module (`importlib.reload(m)`, `reload(m)`, dotted) is a warning naming what moved."""
    files = {
        "pkg/__init__.py": "",
        "pkg/tags.py": "import struct\n\nBITS = struct.calcsize('P') * 8\n\n\ndef f():\n    pass\n",
        "pkg/test_t.py": (
            "import importlib\nfrom importlib import reload\n\nimport pkg.tags\n"
            "from pkg import tags\n\n\n"
            "def test():\n    importlib.reload(tags)\n    reload(pkg.tags)\n    return tags.BITS\n"
        ),
    }
    prep, cs = changes(make_repo, files, [("pkg.tags:BITS", "pkg.bits")])
    notes = [n for n in cs.notes if n.pos.file == "pkg/test_t.py"]
    assert [(n.pos.line, n.pos.col, n.severity) for n in notes] == [
        (9, 5, "warning"),
        (10, 5, "warning"),
    ]
    assert "reloading pkg.tags no longer re-runs" in notes[0].message
    assert "BITS (now in pkg.bits)" in notes[0].message


SHADOWED = {
    "pkg/__init__.py": "",
    "pkg/sub/__init__.py": "from . import cond\n",
    "pkg/sub/cond.py": "class X:\n    pass\n",
    "pkg/use.py": (
        "import pkg.sub.cond\nfrom pkg import sub\n\n\n"
        "class Fake:\n    class cond:\n        X = 'fake'\n\n\n"
        "def real():\n    return sub.cond.X\n\n\n"
        "def shadowed(sub, pkg=None):\n    return sub.cond.X\n\n\n"
        "def rooted(pkg):\n    return pkg.sub.cond.X\n\n\n"
        "def check():\n"
        "    assert real().__name__ == 'X'\n"
        "    assert shadowed(Fake) == 'fake'\n"
        "    assert rooted(type('P', (), {'sub': type('S', (), {'cond': Fake.cond})})) == 'fake'\n"
    ),
}


@pytest.mark.parametrize(
    ("moves", "real"),
    [
        ([("pkg.sub.cond", "pkg.sub.conditions")], "return sub.conditions.X"),
        ([("pkg.sub.cond", "lib.cond")], "return lib.cond.X"),
    ],
    ids=["renamed-in-the-package", "moved-out-of-the-package"],
)
def test_a_chain_whose_head_is_a_parameter_shadowing_the_binding_is_left_alone(
    make_repo, tmp_path, moves, real
):
    """review23 R1: a chain is a use of the import only where its head is bound to it at
    the chain's scope (`index/bindings`), not wherever the name is spelled: a parameter
    `sub` (or `pkg`) holds something else, and its chain keeps its text (executed)."""
    _, _, out = rewrite_and_run(make_repo, tmp_path, SHADOWED, moves, "pkg.use")
    text = (out / "pkg/use.py").read_text()
    assert f"def real():\n    {real}\n" in text
    assert "def shadowed(sub, pkg=None):\n    return sub.cond.X\n" in text
    assert "def rooted(pkg):\n    return pkg.sub.cond.X\n" in text


def test_a_reload_through_a_plain_dotted_import_is_warned_about(make_repo):
    """`import pkg.tags` binds `pkg`, so `importlib.reload(pkg)` reloads the package that
    loses a symbol: warned about like a reload through `import pkg`."""
    files = {
        "pkg/__init__.py": "import struct\n\nBITS = struct.calcsize('P') * 8\n",
        "pkg/tags.py": "",
        "pkg/test_t.py": (
            "import importlib\n\nimport pkg.tags\n\n\n"
            "def test():\n    importlib.reload(pkg)\n    return pkg.tags\n"
        ),
    }
    _, cs = changes(make_repo, files, [("pkg:BITS", "pkg.bits")])
    notes = [n for n in cs.notes if n.pos.file == "pkg/test_t.py"]
    assert [(n.pos.line, n.pos.col, n.severity) for n in notes] == [(7, 5, "warning")]
    assert "reloading pkg no longer re-runs" in notes[0].message


R1_USE = """
from pkg import sub


class Fake:
    class cond:
        X = "fake"


def real():
    return sub.cond.X


def shadowed(sub):
    return sub.cond.X


def check():
    assert real().__name__ == "X"
    assert shadowed(Fake) == "fake"
"""
R1_LOCALS = """
def f():
    import pkg.sub as s

    return s.cond.X


def g():
    from pkg import sub as s

    return s.cond.X


class K:
    from pkg import sub

    y = sub.cond.X


def check():
    assert f() is g() is K.y
"""


@pytest.mark.parametrize("target", ["pkg.sub.conditions", "lib.cond"])
@pytest.mark.parametrize("use", [R1_USE, R1_LOCALS], ids=["parameter", "function-locals"])
def test_a_chain_head_is_resolved_by_its_binding_at_that_place(make_repo, tmp_path, target, use):
    """b12's R1: a parameter named like the package binding is not the package, and of
    two function-local bindings of one name each chain reads its own (the import a
    respelled chain needs goes beside the statement that binds its head there)."""
    files = {
        "pkg/__init__.py": "",
        "pkg/sub/__init__.py": "from . import cond\n",
        "pkg/sub/cond.py": "class X:\n    pass\n",
        "lib/__init__.py": "",
        "use.py": use,
    }
    rewrite_and_run(make_repo, tmp_path, files, [("pkg.sub.cond", target)], "use")


def test_a_star_import_of_a_deleted_package_imports_what_it_gave_from_its_new_place(
    make_repo, tmp_path
):
    """Found by bench/fuzz_bindings.py (package retire): `from pkg.core import *` of a
    package the plan deletes was left as it was with no note (ModuleNotFoundError, apply
    0), and `from pkg.core import func`, which its `__init__` gave by `from .mod import
    *`, was refused ("no move says where it went"). Executed, run twice."""
    _, cs, out, _ = rewrite_helpers.run_golden_case(
        make_repo, tmp_path, "retire-star-of-deleted-package"
    )
    assert not [n for n in cs.notes if n.severity == "error"]
    text = (out / "app/use.py").read_text()
    assert text.startswith(
        "from pkg.engine.mod import *\nfrom pkg.engine.mod import func as f2\n"
        "from pkg.engine.impl import Thing, run as go\nfrom pkg.engine.impl import run as run_it\n"
    ), text


def test_a_star_import_of_a_deleted_package_that_defines_names_is_an_error(make_repo):
    """The deleted `__init__` defines `own` itself: no module gives it after the plan, so
    `from pkg.core import *` has no spelling: an error note, not a silent stale import."""
    files = {
        "pkg/__init__.py": "",
        "pkg/core/__init__.py": "from .mod import *\n\n\ndef own():\n    return 1\n",
        "pkg/core/mod.py": "def func():\n    return 1\n",
        "use.py": "from pkg.core import *\n\nR = func(), own()\n",
    }
    _, cs = changes(make_repo, files, [("pkg.core.mod", "pkg.engine.mod")], "delete: [pkg.core]\n")
    (note,) = [n for n in cs.notes if n.pos.file == "use.py"]
    assert note.severity == "error" and "`pkg.core` no longer exists" in note.message


T52 = {
    "pkg/__init__.py": "",
    "pkg/mod.py": "VALUE = 3\n\n\ndef f():\n    return 1\n",
    "pkg/user.py": "from pkg import mod\n\n\ndef g():\n    return mod.f()\n",
    "pkg/other.py": "from pkg import mod as m\n\n\ndef h():\n    return m.f()\n",
    "main.py": (
        "from unittest import mock\n\nimport pkg.other\nfrom pkg import user\n\n\n"
        "def check():\n"
        "    assert user.g() == 1 and user.mod.f() == 1 and pkg.other.m.f() == 1\n"
        '    with mock.patch.object(user.mod, "f", return_value=5):\n'
        "        assert user.mod.f() == 5\n"
    ),
    "keeps.py": "from pkg import user\n\n\ndef check():\n    assert user.mod.VALUE == 3\n",
}


def test_a_chain_through_another_modules_binding_of_the_module_follows_the_symbol(
    make_repo, tmp_path
):
    """trial25 T52 (arrow): `user.mod.f()`, where pkg.user did `from pkg import mod`, reads
    pkg.mod's `f` through user's binding. After `pkg.mod:f -> pkg.new` it was left as is,
    and user's import, now unused there, was dropped: AttributeError, apply 0. The chain
    (an alias `as m` too, a patch target too) is respelled to the new module; a binding
    another file still reads through (`user.mod.VALUE`) stays. Executed, run twice."""
    _, cs, out = rewrite_and_run(make_repo, tmp_path, T52, [("pkg.mod:f", "pkg.new")], "main")
    main = (out / "main.py").read_text()
    assert "user.mod" not in main and "other.m." not in main, main
    run_check(out, "keeps")
    assert (out / "pkg/user.py").read_text().startswith("from pkg import mod, new\n")
    assert not [n for n in cs.notes if n.severity == "error"]


RETIRED = {
    "pkg/__init__.py": "",
    "pkg/core/__init__.py": "",
    "pkg/core/inner/__init__.py": "",
    "pkg/core/mod.py": "def func():\n    return 1\n",
    "pkg/core/inner/deep.py": "def g():\n    return 2\n",
    "use.py": (
        "from pkg import core\nimport pkg.core.mod\nimport pkg.core.inner.deep\n\n\n"
        "def check():\n    assert (core.mod.func(), core.inner.deep.g()) == (1, 2)\n"
    ),
}
RETIRE = [("pkg.core.mod", "pkg.engine.mod"), ("pkg.core.inner.deep", "pkg.engine.inner.deep")]


def test_a_binding_of_a_retired_package_whose_submodules_moved_together_is_rebound(
    make_repo, tmp_path
):
    """Found by bench/fuzz_bindings.py (package retire): `from pkg import core` + reads of
    `core.mod` / `core.inner.deep`, every submodule moved from pkg.core to pkg.engine
    under the same name and pkg.core deleted, was refused ("`pkg.core` no longer exists
    ... no move says where it went"). The binding now names the package they went to
    under the same local: `from pkg import engine as core`. Executed, run twice."""
    _, cs, out = rewrite_and_run(
        make_repo, tmp_path, RETIRED, RETIRE, "use", "delete: [pkg.core]\n"
    )
    assert not [n for n in cs.notes if n.severity == "error"], cs.notes
    assert (out / "use.py").read_text().startswith("from pkg import engine as core\n")


def test_a_binding_of_a_retired_package_read_for_its_own_names_is_still_refused(make_repo):
    """Control: `core.helper` is the deleted `__init__`'s own name, which went nowhere."""
    files = dict(RETIRED)
    files["pkg/core/__init__.py"] = "def helper():\n    return 0\n"
    files["use.py"] += "    assert core.helper() == 0\n"
    _, cs = changes(make_repo, files, RETIRE, "delete: [pkg.core]\n")
    assert any(
        n.pos.file == "use.py" and "`pkg.core` no longer exists" in n.message for n in cs.notes
    )


RETIRED_USES = {
    # `import pkg.core as c`: the alias names the retired package itself
    "import-as": (
        "import pkg.core as c\nimport pkg.core.mod\nimport pkg.core.inner.deep\n\n\n"
        "def check():\n    assert (c.mod.func(), c.inner.deep.g()) == (1, 2)\n"
    ),
    # the try/except ImportError fallback and a function rebind the local (a read of
    # another scope's `core` keeps its text)
    "rebound": (
        "try:\n    from pkg import core\n    import pkg.core.mod\n    import pkg.core.inner.deep\n"
        "except ImportError:\n    core = None\n\n\n"
        "class Fake:\n    class mod:\n        func = staticmethod(lambda: 3)\n\n\n"
        "def other():\n    core = Fake\n    return core.mod.func()\n\n\n"
        "def check():\n    assert (core.mod.func(), core.inner.deep.g(), other()) == (1, 2, 3)\n"
    ),
    # read only in a string annotation, under TYPE_CHECKING
    "string-annotation": (
        "import ast\nimport inspect\nimport sys\nimport typing\n"
        "from typing import TYPE_CHECKING\n\n"
        "if TYPE_CHECKING:\n    from pkg import core\n    import pkg.core.mod\n\n\n"
        'def g(a: "core.mod.Klass") -> int:\n    return 1\n\n\n'
        "def check():\n"
        "    tree = ast.parse(inspect.getsource(sys.modules[__name__]))\n"
        "    block = next(n for n in tree.body if isinstance(n, ast.If))\n"
        "    ns = dict(globals())\n"
        '    exec(compile(ast.Module(block.body, []), "use", "exec"), ns)\n'
        "    assert typing.get_type_hints(g, ns)['a'].kind == 'k'\n"
    ),
}


@pytest.mark.parametrize("form", sorted(RETIRED_USES))
def test_a_retired_package_binding_in_more_forms_is_rebound(make_repo, tmp_path, form):
    """f12 F1 (bench/fuzz_bindings.py, package retire and symbol+package-retire, seeds
    1003/1005/1008/1009/1013/1028): the binding of a retired package whose submodules
    all moved together was refused ("`pkg.core` no longer exists ... no move says where
    it went") when it was `import pkg.core as c`, when the local was also rebound (an
    `except ImportError: core = None` fallback, another scope's `core = ...`), or when
    its only read was a string annotation. Each is rebound to the package the
    submodules went to under the same local. Executed, run twice."""
    files = dict(RETIRED, **{"use.py": RETIRED_USES[form]})
    files["pkg/core/mod.py"] += 'class Klass:\n    kind = "k"\n'
    _, cs, out = rewrite_and_run(make_repo, tmp_path, files, RETIRE, "use", "delete: [pkg.core]\n")
    assert not [n for n in cs.notes if n.severity == "error"], cs.notes
    text = (out / "use.py").read_text()
    assert "pkg.core" not in text and "pkg.engine" in text, text


def test_a_retired_package_binding_whose_module_also_loses_a_symbol_is_rebound(make_repo, tmp_path):
    """f12 F1b (bench/fuzz_bindings.py, symbol+package-retire seed 1008): `from pkg import
    core` read as `core.mod.func` / `core.mod.Klass`, pkg.core retired into pkg.engine and
    pkg.core.mod:func moved to pkg.fresh.util in the same plan, was refused: the chain
    `core.mod.func` does not land in the package's fallback. A symbol leaving its module is
    the uses pass's to respell (`util.func()`), so the binding is rebound for the rest
    (`from pkg import engine as core`). Executed, run twice."""
    files = dict(RETIRED)
    files["pkg/core/mod.py"] += 'class Klass:\n    kind = "k"\n'
    files["use.py"] = files["use.py"].replace(
        "assert (core.mod.func(), core.inner.deep.g()) == (1, 2)",
        "assert (core.mod.func(), core.mod.Klass.kind, core.inner.deep.g()) == (1, 'k', 2)",
    )
    moves = [*RETIRE, ("pkg.core.mod:func", "pkg.fresh.util")]
    _, cs, out = rewrite_and_run(make_repo, tmp_path, files, moves, "use", "delete: [pkg.core]\n")
    assert not [n for n in cs.notes if n.severity == "error"], cs.notes
    text = (out / "use.py").read_text()
    assert "from pkg import engine as core\n" in text and "util.func()" in text, text


def test_a_retired_package_binding_read_for_its_own_name_in_a_string_is_refused(make_repo):
    """Control for F1: a string annotation reading the deleted `__init__`'s own name."""
    files = dict(RETIRED, **{"use.py": RETIRED_USES["string-annotation"]})
    files["pkg/core/__init__.py"] = 'class Klass:\n    kind = "k"\n'
    files["use.py"] = files["use.py"].replace('"core.mod.Klass"', '"core.Klass"')
    _, cs = changes(make_repo, files, RETIRE, "delete: [pkg.core]\n")
    assert any(
        n.pos.file == "use.py" and "`pkg.core` no longer exists" in n.message for n in cs.notes
    )


FORWARD = {
    "pkg/__init__.py": "",
    "pkg/core/__init__.py": "from . import mod\n",
    "pkg/core/mod.py": 'class Klass:\n    kind = "k"\n',
    "use.py": (
        "import typing\nfrom typing import TYPE_CHECKING\n\nfrom pkg import core\n\n"
        "if TYPE_CHECKING:\n    from pkg import core as c2\n\n\n"
        'def g(a: "core.mod.Klass", b: "c2.mod.Klass") -> int:\n    return 1\n\n\n'
        "def check():\n"
        "    from pkg import core as c2\n\n"
        "    hints = typing.get_type_hints(g, {**globals(), 'c2': c2})\n"
        "    assert hints['a'].kind == hints['b'].kind == 'k'\n"
    ),
}


def test_a_forward_reference_through_a_package_binding_to_a_submodule_moved_out(
    make_repo, tmp_path
):
    """Found by bench/fuzz_bindings.py: `"core.mod.Klass"` (a string annotation) through
    `from pkg import core`, with pkg.core.mod moved out of pkg.core, was left as is while
    the same chain outside a string was respelled: get_type_hints raised AttributeError
    (verify FAILed it, apply 0). It is respelled like the unquoted chain, module level
    and under TYPE_CHECKING. Executed (the hints resolve), run twice."""
    _, cs, out = rewrite_and_run(
        make_repo, tmp_path, FORWARD, [("pkg.core.mod", "pkg.fresh.mod")], "use"
    )
    text = (out / "use.py").read_text()
    assert '"pkg.fresh.mod.Klass", b: "pkg.fresh.mod.Klass"' in text, text


# Trial25 T53c: pkg.state's import runs `init()`, which registers its handler; `init` and
# `reset` move to pkg.newmod. A caller whose every use of its binding moved used to lose
# the binding, and with it the import of pkg.state: the registration never ran.
EFFECT = {
    "pkg/__init__.py": "",
    "pkg/registry.py": "HANDLERS = {}\n",
    "pkg/state.py": dedent(
        """
        from pkg import registry


        def init():
            registry.HANDLERS["on_reset"] = reset


        def reset():
            return "reset"


        init()
        """
    ),
}
EFFECT_MOVES = [("pkg.state:init", "pkg.newmod"), ("pkg.state:reset", "pkg.newmod")]
CHECK = '    assert {use}.reset() == "reset"\n    assert HANDLERS["on_reset"]() == "reset"\n'
EFFECT_FORMS = {
    "from": ("from pkg import state\n", "state"),
    "from-as": ("from pkg import state as st\n", "st"),
    "import-as": ("import pkg.state as st\n", "st"),
    "relative": ("from . import state\n", "state"),
    "two-names": ("from pkg import registry, state\n", "state"),
    "local": ("", "state"),
    "try-except": (
        "try:\n    from pkg import state\nexcept ImportError:\n    state = None\n",
        "state",
    ),
}


def effect_user(form: str) -> str:
    top, use = EFFECT_FORMS[form]
    body = CHECK.format(use=use)
    if form == "local":
        body = "    from pkg import state\n\n" + body
    return f"{top}from pkg.registry import HANDLERS\n\n\ndef check():\n{body}"


@pytest.mark.parametrize("form", sorted(EFFECT_FORMS))
def test_a_binding_whose_import_runs_code_is_kept(make_repo, tmp_path, form):
    """Every binding form whose uses all moved: the import of pkg.state stays (its
    `init()` registers the handler; executed), marked for ruff's F401 (whose `--fix`
    would remove it again), and the dry run says why; a second run changes nothing."""
    files = {**EFFECT, "pkg/use.py": effect_user(form)}
    _, cs, out = rewrite_and_run(make_repo, tmp_path, files, EFFECT_MOVES, "pkg.use")
    text = (out / "pkg/use.py").read_text()
    assert "newmod.reset()" in text and "# noqa: F401" in text
    assert rewrite_helpers.unused_imports(out) == []
    (note,) = [n for n in cs.notes if n.pos.file == "pkg/use.py"]
    assert note.severity == "warning" and "runs `init()`" in note.message


def test_the_kept_binding_keeps_its_statement_and_layout(make_repo, tmp_path):
    """Exactly what is written: the new module merges into the kept statement as isort
    would, the marker at its end; in a parenthesized list the marker goes on the kept
    name's line, after its comment (o12's merge into a commented parenthesized list keeps
    it there); an existing `# noqa: E501` gets F401 added, and the new module merges into
    that commented one-line statement too, as ruff's isort writes it (o12, O7)."""
    files = {**EFFECT, "pkg/use.py": effect_user("from")}
    _, _, out = rewrite_and_run(make_repo, tmp_path / "a", files, EFFECT_MOVES, "pkg.use")
    assert (
        (out / "pkg/use.py")
        .read_text()
        .startswith(
            "from pkg import newmod, state  # noqa: F401\nfrom pkg.registry import HANDLERS\n"
        )
    )
    top = "from pkg import (\n    registry,\n    state,  # the state\n)\n"
    files["pkg/use.py"] = effect_user("two-names").replace("from pkg import registry, state\n", top)
    _, _, out = rewrite_and_run(make_repo, tmp_path / "b", files, EFFECT_MOVES, "pkg.use")
    assert "    state,  # the state  # noqa: F401\n" in (out / "pkg/use.py").read_text()
    files["pkg/use.py"] = effect_user("from").replace("state\n", "state  # noqa: E501\n", 1)
    _, _, out = rewrite_and_run(make_repo, tmp_path / "c", files, EFFECT_MOVES, "pkg.use")
    assert (
        (out / "pkg/use.py")
        .read_text()
        .startswith(
            "from pkg import newmod, state  # noqa: E501, F401\nfrom pkg.registry import HANDLERS\n"
        )
    )


def test_a_binding_of_a_module_that_only_defines_is_still_dropped(make_repo, tmp_path):
    """The control: a source whose import only defines names (defs, a constant, an
    import, a `__main__` block) loses nothing when no caller imports it: the binding
    goes as before, no note, no marker."""
    quiet = EFFECT["pkg/state.py"].replace(
        "\ninit()\n", '\nLIMIT = 3\n\nif __name__ == "__main__":\n    init()\n'
    )
    files = {**EFFECT, "pkg/state.py": quiet, "pkg/use.py": effect_user("from")}
    files["pkg/use.py"] = files["pkg/use.py"].replace(
        '    assert HANDLERS["on_reset"]() == "reset"\n', ""
    )
    _, cs, out = rewrite_and_run(make_repo, tmp_path, files, EFFECT_MOVES, "pkg.use")
    assert (out / "pkg/use.py").read_text().startswith("from pkg import newmod\n")
    assert not [n for n in cs.notes if n.pos.file == "pkg/use.py"]


def test_a_binding_is_dropped_when_another_import_still_runs_the_module(make_repo, tmp_path):
    """Something else the file imports runs pkg.state anyway (a module importing a name
    of it that stays): the binding goes as before. A module importing only names that
    move out of pkg.state is no such path (its import is respelled to pkg.newmod)."""
    state = EFFECT["pkg/state.py"] + "\n\ndef kept():\n    return 1\n"
    files = {**EFFECT, "pkg/state.py": state}
    files["pkg/loader.py"] = "from pkg.state import kept\n"
    files["pkg/use.py"] = "import pkg.loader  # noqa: F401\n" + effect_user("from")
    _, cs, out = rewrite_and_run(make_repo, tmp_path / "a", files, EFFECT_MOVES, "pkg.use")
    assert "import newmod\n" in (out / "pkg/use.py").read_text()
    assert "state" not in (out / "pkg/use.py").read_text().split("def check")[0]
    files["pkg/loader.py"] = "from pkg.state import reset\n"  # respelled: no path left
    _, cs, out = rewrite_and_run(make_repo, tmp_path / "b", files, EFFECT_MOVES, "pkg.use")
    assert "import newmod, state  # noqa: F401\n" in (out / "pkg/use.py").read_text()


def test_apply_keeps_a_caller_importing_a_module_whose_import_runs_code(make_repo, tmp_path):
    """Trial25 T53c through the CLI, as the user ran it: `main.py` did `from pkg import
    state` and `state.reset()`; apply rewrote it to `from pkg import newmod` only, so
    pkg.state's own `init()` never ran (NameError, apply exit 0, verify FAIL since
    5918575). Now the result runs as BASE did and verify passes."""
    state = "import sys\n\n\ndef init():\n    global orig\n    orig = sys.stdout\n\n\n"
    state += "def reset():\n    return orig is sys.stdout\n\n\ninit()\n"
    repo = make_repo(
        {
            "pkg/__init__.py": "",
            "pkg/state.py": state,
            "main.py": "from pkg import state\n\nprint(state.reset())\n",
        }
    )
    plan = tmp_path / "plan.yaml"
    plan.write_text(plan_yaml(EFFECT_MOVES))
    base = git(repo, "rev-parse", "HEAD").strip()
    before = subprocess.run([sys.executable, "main.py"], cwd=repo, capture_output=True, text=True)
    assert before.stdout == "True\n", before.stderr
    dry = migrate_cli(repo, str(plan), "--dry-run")
    assert "keeps `state` imported" in dry.stdout, dry.stdout + dry.stderr
    res = migrate_cli(repo, "apply", str(plan))
    assert res.returncode == 0, res.stdout + res.stderr
    after = subprocess.run([sys.executable, "main.py"], cwd=repo, capture_output=True, text=True)
    assert (after.returncode, after.stdout) == (0, "True\n"), after.stderr
    checked = migrate_cli(repo, "verify", f"{base}..HEAD", "--no-wheel")
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_a_plain_dotted_import_of_the_module_runs_it_for_the_binding(make_repo, tmp_path):
    """`import pkg.state` binds `pkg` and is never dropped: with it beside `from pkg import
    state`, the binding whose uses moved goes as before (pkg.state still runs)."""
    user = "import pkg.state\n" + effect_user("from").replace(
        '    assert HANDLERS["on_reset"]() == "reset"\n',
        '    assert HANDLERS["on_reset"]() == "reset" and pkg.state.__name__\n',
    )
    files = {**EFFECT, "pkg/use.py": user}
    _, cs, out = rewrite_and_run(make_repo, tmp_path, files, EFFECT_MOVES, "pkg.use")
    text = (out / "pkg/use.py").read_text()
    assert text.startswith("import pkg.state\nfrom pkg import newmod\n"), text
    assert not [n for n in cs.notes if n.pos.file == "pkg/use.py"]


def test_a_type_checking_binding_of_a_module_that_runs_code_still_goes(make_repo, tmp_path):
    """An import under `if TYPE_CHECKING:` never runs: dropping it loses nothing, so a
    binding there whose uses (annotations) all moved goes as before, with no note."""
    user = (
        "from __future__ import annotations\n\nfrom typing import TYPE_CHECKING\n\n"
        "from pkg.registry import HANDLERS\n\nif TYPE_CHECKING:\n    from pkg import state\n\n\n"
        "def check(x: state.reset = None):\n"
        '    assert HANDLERS == {} and check.__annotations__["x"] == "newmod.reset"\n'
    )
    files = {**EFFECT, "pkg/use.py": user}
    _, cs, out = rewrite_and_run(make_repo, tmp_path, files, EFFECT_MOVES, "pkg.use")
    text = (out / "pkg/use.py").read_text()
    assert "    from pkg import newmod\n" in text and "state" not in text, text
    assert not [n for n in cs.notes if n.pos.file == "pkg/use.py"]


IMPORT_MODULE = rewrite_helpers.golden_case("spelling-runtime-import-module-refused").files


def test_a_module_bound_by_import_module_that_loses_a_symbol_is_refused(make_repo, tmp_path):
    """f12 F2 (bench/fuzz_bindings.py, symbol+side-move seed 1016, a false PASS before):
    `_m = importlib.import_module("pkg.mod")` then `_m.Klass`, pkg.mod:Klass moved to
    pkg.newmod. `_m.Klass` left as written raised AttributeError (apply 0). A static
    import would change when pkg.newmod is imported (the file chose run time): an error
    at the read, naming the binding's line; the dry run exits 1, apply 2, nothing
    written. `_m.func` (not moved) is no use of a moved name; an `_m` also bound
    otherwise is not read as the module."""
    moves = [("pkg.mod:Klass", "pkg.newmod")]
    _, cs = changes(make_repo, IMPORT_MODULE, moves)
    (note,) = [n for n in cs.notes if n.severity == "error"]
    assert (note.pos.file, note.pos.line, note.pos.col) == ("use.py", 7, 13), note
    assert "read through `_m`, a module bound at run time (importlib.import_module, line 3)" in (
        note.message
    )
    assert_refused(make_repo(IMPORT_MODULE), tmp_path, moves, "a module bound at run time")
    rebound = dict(IMPORT_MODULE, **{"use.py": IMPORT_MODULE["use.py"] + "\n\n_m = None\n"})
    _, cs = changes(make_repo, rebound, moves)
    assert not [n for n in cs.notes if "run time" in n.message]


# A decorator registers as the module is imported: pkg.kernels' `scale` stays and is
# `@register`ed; `helper` moves. A caller whose only use of pkg.kernels was `helper` used
# to lose its binding, and with it the import that filled the registry.
DECORATED = {
    "pkg/__init__.py": "",
    "pkg/registry.py": dedent(
        """
        OPS = {}


        def register(name):
            def add(fn):
                OPS[name] = fn
                return fn

            return add
        """
    ),
    "pkg/kernels.py": dedent(
        """
        import functools

        from pkg.registry import register


        @register("scale")
        def scale(x):
            return 2 * x


        def helper(x):
            return x + 1
        """
    ),
    "pkg/use.py": dedent(
        """
        from pkg import kernels
        from pkg.registry import OPS


        def check():
            assert kernels.helper(1) == 2
            assert sorted(OPS) == ["scale"] and OPS["scale"](2) == 4
        """
    ),
}


def test_a_binding_of_a_module_whose_definition_registers_is_kept(make_repo, tmp_path):
    """The registry holds the same entries before and after (executed both ways): the
    binding stays, marked for F401, with the dry-run warning naming the decorator. The
    control: the staying def wrapped only by `functools.lru_cache` (a pure decorator)
    registers nothing, and the binding goes as before, no note."""
    moves = [("pkg.kernels:helper", "pkg.newmod")]
    run_check(make_repo(DECORATED), "pkg.use")  # BASE: the registry is filled
    _, cs, out = rewrite_and_run(make_repo, tmp_path / "a", DECORATED, moves, "pkg.use")
    text = (out / "pkg/use.py").read_text()
    assert text.startswith("from pkg import kernels, newmod  # noqa: F401\n"), text
    (note,) = [n for n in cs.notes if n.pos.file == "pkg/use.py"]
    assert note.severity == "warning" and "runs `@register('scale')`" in note.message

    pure = DECORATED["pkg/kernels.py"].replace('@register("scale")', "@functools.lru_cache")
    use = DECORATED["pkg/use.py"].replace('["scale"] and OPS["scale"](2) == 4', "[]")
    files = {**DECORATED, "pkg/kernels.py": pure, "pkg/use.py": use}
    run_check(make_repo(files), "pkg.use")
    _, cs, out = rewrite_and_run(make_repo, tmp_path / "b", files, moves, "pkg.use")
    assert (out / "pkg/use.py").read_text().startswith("from pkg import newmod\n")
    assert not [n for n in cs.notes if n.pos.file == "pkg/use.py"]


def test_a_kept_patch_of_a_module_that_moves_too_follows_the_module(make_repo, tmp_path):
    """f12 F5 (bench/fuzz_bindings.py, symbol+module-move seed 2009, apply 0, verify FAIL):
    `mock.patch.object(core.mod, "func")` + `core.mod.func()` with pkg.core.mod:func moved
    to pkg.other.util AND pkg.core.mod moved to pkg.fresh.mod in one plan. The patch is
    kept on the old module (it still binds func, imported back for other()), but the old
    module moved: `core.mod` was left (AttributeError: module 'pkg.core' has no attribute
    'mod') while `core.mod.other()` was respelled. The kept patch and reads follow the
    module's move. Executed, run twice."""
    files = {
        "pkg/__init__.py": "",
        "pkg/core/__init__.py": "",
        "pkg/core/mod.py": "def func():\n    return 1\n\n\ndef other():\n    return func()\n",
        "use.py": (
            "from unittest import mock\n\nfrom pkg import core\nimport pkg.core.mod\n\n\n"
            "def check():\n"
            '    with mock.patch.object(core.mod, "func", return_value=5):\n'
            "        assert (core.mod.func(), core.mod.other()) == (5, 5)\n"
        ),
    }
    files["use2.py"] = (
        "from unittest import mock\n\nimport pkg.core.mod as m\n\n\n"
        "def check():\n"
        '    with mock.patch.object(m, "func", return_value=5):\n'
        "        assert (m.func(), m.other()) == (5, 5)\n"
    )
    moves = [("pkg.core.mod", "pkg.fresh.mod"), ("pkg.core.mod:func", "pkg.other.util")]
    _, cs, out = rewrite_and_run(make_repo, tmp_path, files, moves, "use")
    assert "core.mod" not in (out / "use.py").read_text().replace("pkg.core.mod", "")
    run_check(out, "use2")  # the alias of the module itself follows with its import, alone
    assert (out / "use2.py").read_text().count("import ") == 2, (out / "use2.py").read_text()


def test_a_star_import_with_an_except_fallback_gets_the_moved_name(make_repo, tmp_path):
    """f12 F6 (bench/fuzz_bindings.py symbol-move seed 2011, a false PASS): `try: from
    pkg.mod import *` / `except ImportError: Klass = None`, then `Klass` read; with
    pkg.mod:Klass moved to pkg.newmod the file was left as it was (a module-level star
    import without the fallback gets `from pkg.newmod import Klass as Klass`): NameError.
    The handler's binding is `contained`: it does not hide the star's name."""
    files = {
        "pkg/__init__.py": "",
        "pkg/mod.py": 'class Klass:\n    kind = "k"\n\n\ndef func():\n    return 1\n',
        "use.py": (
            "try:\n    from pkg.mod import *\nexcept ImportError:\n    Klass = func = None\n\n\n"
            "def check():\n    assert (Klass.kind, func()) == ('k', 1)\n"
        ),
    }
    rewrite_and_run(make_repo, tmp_path, files, [("pkg.mod:Klass", "pkg.newmod")], "use")

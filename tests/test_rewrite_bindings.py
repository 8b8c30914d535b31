"""References by binding: every form that binds the module losing a symbol, every use
through it, scopes, spelling. Each case is applied to a real tmp repo, its rewritten code
is EXECUTED (`check()` asserts the behaviour), and a second run changes nothing."""

from __future__ import annotations

import pytest
from rewrite_helpers import changes, dedent, rewrite_and_run, run_check

MOD = """
def func():
    return "func"


def deco(f):
    f.decorated = True
    return f


class Cls:
    kind = "cls"


def other():
    return "other"
"""
MOVES = [
    ("pkg.mod:func", "pkg.newmod"),
    ("pkg.mod:deco", "pkg.newmod"),
    ("pkg.mod:Cls", "pkg.newmod"),
]
BASE = {"pkg/__init__.py": "", "pkg/mod.py": MOD, "pkg/sub/__init__.py": ""}

CASES = {
    "from_import": (
        "pkg/use.py",
        """
        from pkg import mod


        def check():
            assert mod.func() == "func" and mod.other() == "other"
        """,
    ),
    "from_import_as": (
        "pkg/use.py",
        """
        from pkg import mod as m


        def check():
            assert m.func() == "func"
        """,
    ),
    "relative_dot": (
        "pkg/use.py",
        """
        from . import mod


        def check():
            assert mod.func() == "func"
        """,
    ),
    "relative_dotdot": (
        "pkg/sub/use.py",
        """
        from .. import mod


        def check():
            assert mod.func() == "func"
        """,
    ),
    "import_dotted": (
        "pkg/use.py",
        """
        import pkg.mod


        def check():
            assert pkg.mod.func() == "func" and pkg.mod.other() == "other"
        """,
    ),
    "import_dotted_as": (
        "pkg/use.py",
        """
        import pkg.mod as m


        def check():
            assert m.func() == "func"
        """,
    ),
    "star_import": (
        "pkg/use.py",
        """
        from pkg.mod import *


        def check():
            assert func() == "func" and other() == "other"
        """,
    ),
    "function_local": (
        "pkg/use.py",
        """
        def check():
            from pkg import mod

            assert mod.func() == "func"
        """,
    ),
    "class_level": (
        "pkg/use.py",
        """
        class Holder:
            from pkg import mod

            value = mod.func()


        def check():
            assert Holder.value == "func"
        """,
    ),
    "type_checking": (
        "pkg/use.py",
        """
        from __future__ import annotations

        import inspect
        import sys
        from typing import TYPE_CHECKING

        if TYPE_CHECKING:
            from pkg import mod


        def f(x: mod.Cls) -> mod.Cls:
            return x


        def check():
            # Run the (rewritten) TYPE_CHECKING block, then resolve the annotations.
            src = inspect.getsource(sys.modules[__name__])
            block = []
            for line in src.split("if TYPE_CHECKING:")[1].splitlines()[1:]:
                if not line.startswith("    "):
                    break
                block.append(line.strip())
            ns = {}
            exec(chr(10).join(block), ns)
            assert eval(f.__annotations__["x"], ns).kind == "cls"
            assert eval(f.__annotations__["return"], ns) is eval(f.__annotations__["x"], ns)
        """,
    ),
    "try_except": (
        "pkg/use.py",
        """
        try:
            from pkg import mod
        except ImportError:
            mod = None


        def check():
            assert mod.func() == "func"
        """,
    ),
    "uses_everywhere": (
        "pkg/use.py",
        """
        from pkg import mod

        F = mod.func


        @mod.deco
        def decorated(x: mod.Cls = mod.Cls()) -> mod.Cls:
            return x


        def default(f=mod.func):
            return f()


        def check():
            assert F() == "func" and default() == "func"
            assert decorated.decorated and decorated().kind == "cls"
            assert [mod.func() for _ in range(1)] == ["func"]
            assert (lambda: mod.func())() == "func"
        """,
    ),
    "patch_forms": (
        "pkg/use.py",
        """
        from unittest import mock

        from _pytest.monkeypatch import MonkeyPatch

        from pkg import mod


        class mocker:  # the pytest-mock fixture's shape
            patch = mock.patch


        def call():
            return mod.func()


        def check():
            with mock.patch.object(mod, "func", return_value="a"):
                assert call() == "a"
            with mocker.patch.object(mod, "func", return_value="b"):
                assert call() == "b"
            mp = MonkeyPatch()
            mp.setattr(mod, "func", lambda: "c")
            assert call() == "c"
            mp.undo()
            assert getattr(mod, "func")() == "func" and hasattr(mod, "func")
            setattr(mod, "func", getattr(mod, "func"))
            assert vars(mod)["func"]() == "func"
        """,
    ),
    "shadowed_by_parameter_assignment_global": (
        "pkg/use.py",
        """
        from pkg import mod


        class Fake:
            @staticmethod
            def func():
                return "fake"


        def param(mod):
            return mod.func()


        def assigned():
            mod = Fake()
            return mod.func()


        def rebinds_global():
            global mod
            mod = Fake()
            return mod.func()


        def check():
            assert mod.func() == "func"
            assert param(Fake()) == "fake" and assigned() == "fake"
            assert rebinds_global() == "fake"
        """,
    ),
    "later_import_rebinds": (
        "pkg/use.py",
        """
        from pkg import mod

        FIRST = mod.func()

        from pkg import other_mod as mod  # noqa: E402

        SECOND = mod.func()


        def check():
            assert FIRST == "func" and SECOND == "other_mod"
        """,
    ),
    "root_rebound": (
        "pkg/use.py",
        """
        from pkg import mod
        from pkg.main import pkg


        def check():
            assert pkg == "not a package" and mod.func() == "func"
        """,
    ),
    "collision_alias": (
        "pkg/use.py",
        """
        from pkg import mod

        newmod = "taken"


        def check():
            assert newmod == "taken" and mod.func() == "func"
        """,
    ),
}

EXTRA = {
    "pkg/other_mod.py": 'def func():\n    return "other_mod"\n',
    "pkg/main.py": 'pkg = "not a package"\n',
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_binding_form_is_rewritten_and_runs(make_repo, tmp_path, case):
    path, code = CASES[case]
    files = dict(BASE, **EXTRA, **{path: code})
    module = path[:-3].replace("/", ".")
    # The fixture runs before the plan too: the rewrite must keep it working.
    before = tmp_path / "before"
    before.mkdir()
    from helpers import write_tree

    write_tree(before, {k: dedent(v) for k, v in files.items()})
    run_check(before, module)
    _, cs, out = rewrite_and_run(make_repo, tmp_path, files, MOVES, module)
    text = (out / path).read_text()
    if case.startswith("shadowed"):
        assert "def param(mod):\n    return mod.func()" in text
        assert "    mod = Fake()\n    return mod.func()" in text
        assert "    global mod\n    mod = Fake()\n    return mod.func()" in text
    elif case == "later_import_rebinds":
        assert "SECOND = mod.func()" in text and "FIRST = newmod.func()" in text
    else:
        assert "newmod" in text


def test_style_is_kept_for_a_from_import_user(make_repo, tmp_path):
    path, code = CASES["from_import"]
    _, _, out = rewrite_and_run(make_repo, tmp_path, dict(BASE, **{path: code}), MOVES, "pkg.use")
    assert (out / path).read_text() == dedent(
        """
        from pkg import mod, newmod


        def check():
            assert newmod.func() == "func" and mod.other() == "other"
        """
    )


def test_relative_binding_gets_a_relative_import(make_repo, tmp_path):
    path, code = CASES["relative_dotdot"]
    files = dict(BASE, **{path: code})
    _, _, out = rewrite_and_run(make_repo, tmp_path, files, MOVES, "pkg.sub.use")
    assert "from .. import mod, newmod\n" in (out / path).read_text()


def test_collision_picks_an_alias_and_says_so(make_repo, tmp_path):
    path, code = CASES["collision_alias"]
    files = dict(BASE, **{path: code})
    _, cs, out = rewrite_and_run(make_repo, tmp_path, files, MOVES, "pkg.use")
    text = (out / path).read_text()
    assert "from pkg import mod, newmod as pkg_newmod\n" in text and "pkg_newmod.func()" in text
    assert any("as `pkg_newmod`" in n.message and n.pos.file == path for n in cs.notes)


def test_root_rebound_is_never_spelled_through_the_root(make_repo, tmp_path):
    path, code = CASES["root_rebound"]
    files = dict(BASE, **EXTRA, **{path: code})
    _, _, out = rewrite_and_run(make_repo, tmp_path, files, MOVES, "pkg.use")
    text = (out / path).read_text()
    assert "pkg.newmod" not in text and "newmod.func()" in text


def test_file_is_a_candidate_by_binding_not_by_spelling(make_repo):
    """No text of the file spells `pkg.mod`: the binding makes it a candidate."""
    path, code = CASES["relative_dot"]
    prep, cs = changes(make_repo, dict(BASE, **{path: code}), MOVES)
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


def test_reexport_through_the_package_init_keeps_working(make_repo, tmp_path):
    """`from pkg import func` / `pkg.func` where pkg/__init__.py re-exports the moved
    symbol: the re-export follows the symbol, so every user keeps working unchanged."""
    files = dict(
        BASE,
        **{
            "pkg/__init__.py": "from .mod import func, other\n",
            "app/__init__.py": "",
            "app/use.py": (
                "import pkg\nfrom pkg import func\n\n\n"
                "def check():\n    assert func() == 'func' and pkg.func() == 'func'\n"
            ),
        },
    )
    _, cs, out = rewrite_and_run(make_repo, tmp_path, files, MOVES, "app.use")
    assert (out / "pkg/__init__.py").read_text() == (
        "from .newmod import func\nfrom .mod import other\n"
    )
    assert (out / "app/use.py").read_text() == dedent(files["app/use.py"])

"""Symbol moves that leave both modules importable: future and TYPE_CHECKING imports,
function-local relative imports, shared private helpers, `__all__`, imports left unused,
adjacent moves, names the target already binds. Each result is executed, run twice."""

from __future__ import annotations

import pytest
from rewrite_helpers import dedent, rewrite_and_run

PKG = {"pkg/__init__.py": "", "pkg/util.py": "def helper():\n    return 'helped'\n"}


def test_new_module_gets_future_and_type_checking_imports(make_repo, tmp_path):
    files = dict(
        PKG,
        **{
            "pkg/mod.py": """
            \"\"\"Doc.\"\"\"
            from __future__ import annotations

            from typing import TYPE_CHECKING

            if TYPE_CHECKING:
                from collections import OrderedDict


            def make(x: OrderedDict) -> OrderedDict:
                return x


            def other():
                return 1
            """,
            "pkg/check.py": """
            from pkg import mod


            def check():
                assert mod.make(3) == 3
                assert mod.make.__annotations__["x"] == "OrderedDict"
            """,
        },
    )
    _, cs, out = rewrite_and_run(
        make_repo, tmp_path, files, [("pkg.mod:make", "pkg.newmod")], "pkg.check"
    )
    assert (out / "pkg/newmod.py").read_text() == dedent(
        """
        from __future__ import annotations

        from typing import TYPE_CHECKING

        if TYPE_CHECKING:
            from collections import OrderedDict


        def make(x: OrderedDict) -> OrderedDict:
            return x
        """
    )


LOCAL_RELATIVE = {
    "pkg/__init__.py": "",
    "pkg/old/__init__.py": "",
    "pkg/old/util.py": "def helper():\n    return 'helped'\n",
    "pkg/old/norm.py": """
        def norm():
            from .util import helper

            return helper()
        """,
    "pkg/new/__init__.py": "",
    "pkg/check.py": """
        from pkg.new.fused import norm


        def check():
            assert norm() == "helped"
        """,
}
LOCAL_MOVES = [("pkg.old.util", "pkg.new.util"), ("pkg.old.norm:norm", "pkg.new.fused")]


@pytest.mark.parametrize("delete", [False, True], ids=["source_kept", "source_deleted"])
def test_function_local_relative_import_is_respelled_for_the_new_module(
    make_repo, tmp_path, delete
):
    """Also when the source package is deleted: pkg/old/norm.py keeps nothing of its own
    once `norm` moves, so the delete loses nothing and removes it."""
    extra = "delete: [pkg.old]\n" if delete else ""
    _, cs, out = rewrite_and_run(
        make_repo, tmp_path, LOCAL_RELATIVE, LOCAL_MOVES, "pkg.check", extra
    )
    # resolved in pkg.old (pkg.old.util), relocated (pkg.new.util), spelled from pkg.new
    assert "    from .util import helper\n" in (out / "pkg/new/fused.py").read_text()
    assert (out / "pkg/old").exists() is not delete
    if delete:
        assert cs.removals == {"pkg/old/__init__.py": "delete", "pkg/old/norm.py": "delete"}


def test_definitions_moving_together_share_a_private_helper(make_repo, tmp_path):
    files = dict(
        PKG,
        **{
            "pkg/keys.py": """
            __all__ = ("hashkey", "typedkey", "other")


            class _Hashed(tuple):
                pass


            _mark = (_Hashed,)


            def hashkey(*args):
                return _Hashed(args + _mark)


            def typedkey(*args):
                return hashkey(*args) + tuple(type(a) for a in args)


            def other():
                return "other"
            """,
            "pkg/check.py": """
            from pkg import keys
            from pkg.keys import *


            def check():
                assert keys.hashkey(1)[0] == 1 and keys.typedkey(1)[-1] is int
                assert other() == "other" and hashkey(2)[0] == 2
                import pkg.keys

                assert sorted(pkg.keys.__all__) == ["other"]
            """,
        },
    )
    moves = [("pkg.keys:hashkey", "pkg.keyfuncs"), ("pkg.keys:typedkey", "pkg.keyfuncs")]
    _, cs, out = rewrite_and_run(make_repo, tmp_path, files, moves, "pkg.check")
    keys = (out / "pkg/keys.py").read_text()
    assert "_Hashed" not in keys and "import" not in keys  # nothing to import back
    assert keys.startswith('__all__ = ("other",)\n')


def test_adjacent_moves_at_the_end_of_a_file_to_two_targets(make_repo, tmp_path):
    files = dict(
        PKG,
        **{
            "pkg/mod.py": """
            def keep():
                return 0


            def first():
                return 1


            def second():
                return 2
            """,
            "pkg/check.py": """
            import pkg.mod


            def check():
                assert pkg.mod.first() == 1 and pkg.mod.second() == 2 and pkg.mod.keep() == 0
            """,
        },
    )
    moves = [("pkg.mod:first", "pkg.a"), ("pkg.mod:second", "pkg.b")]
    _, _, out = rewrite_and_run(make_repo, tmp_path, files, moves, "pkg.check")
    assert (out / "pkg/mod.py").read_text() == "def keep():\n    return 0\n"


def test_a_name_the_target_already_binds_is_not_imported_again(make_repo, tmp_path):
    files = dict(
        PKG,
        **{
            "pkg/mod.py": """
            import math

            from pkg.util import helper


            def calc():
                return math.floor(1.5), helper()
            """,
            "pkg/target.py": """
            import math
            from pkg.util import helper as helper

            X = math.pi
            """,
            "pkg/check.py": """
            from pkg import mod


            def check():
                assert mod.calc() == (1, "helped")
            """,
        },
    )
    _, _, out = rewrite_and_run(
        make_repo, tmp_path, files, [("pkg.mod:calc", "pkg.target")], "pkg.check"
    )
    target = (out / "pkg/target.py").read_text()
    assert target.count("import math") == 1 and target.count("import helper") == 1
    assert (out / "pkg/mod.py").read_text() == ""

"""Symbol moves that leave both modules importable: future and TYPE_CHECKING imports,
function-local relative imports (also when the source package is deleted), shared private
helpers, `__all__`, imports left unused, adjacent moves, names the target already binds.

The cases are the goldens golden/rewrite/symbol-*/ (tests/test_rewrite_golden.py compares
their output byte for byte); here each result is executed and run a second time.
"""

from __future__ import annotations

import pytest
from rewrite_helpers import (
    changes,
    dedent,
    rewrite_and_run,
    run_golden_case,
    undefined_names,
    unsorted_imports,
    unused_imports,
)


def test_new_module_gets_future_and_type_checking_imports(make_repo, tmp_path):
    """The source keeps no import only the moved code used: the `TYPE_CHECKING` block
    whose one import leaves goes whole, and with it `from typing import TYPE_CHECKING`
    (it was left behind, ruff F401)."""
    _, _, out, _ = run_golden_case(make_repo, tmp_path, "symbol-future-and-type-checking")
    assert unused_imports(out) == []
    assert (out / "pkg/mod.py").read_text() == dedent(
        '''
        """Doc."""
        from __future__ import annotations


        def other():
            return 1
        '''
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


@pytest.mark.parametrize("delete", [False, True], ids=["source_kept", "source_deleted"])
def test_function_local_relative_import_is_respelled_for_the_new_module(
    make_repo, tmp_path, delete
):
    """Also when the source package is deleted: pkg/old/norm.py keeps nothing of its own
    once `norm` moves, so the delete loses nothing and removes it."""
    name = "symbol-local-relative-import" + ("-source-deleted" if delete else "")
    _, cs, out, _ = run_golden_case(make_repo, tmp_path, name)
    # resolved in pkg.old (pkg.old.util), relocated (pkg.new.util), spelled from pkg.new
    assert "    from .util import helper\n" in (out / "pkg/new/fused.py").read_text()
    assert (out / "pkg/old").exists() is not delete
    if delete:
        assert cs.removals == {"pkg/old/__init__.py": "delete", "pkg/old/norm.py": "delete"}


def test_definitions_moving_together_share_a_private_helper(make_repo, tmp_path):
    _, _, out, _ = run_golden_case(make_repo, tmp_path, "symbol-shared-private-helper")
    keys = (out / "pkg/keys.py").read_text()
    assert "_Hashed" not in keys and "import" not in keys  # nothing to import back
    assert keys.startswith('__all__ = ("other",)\n')
    assert "class _Hashed" in (out / "pkg/keyfuncs.py").read_text()


def test_adjacent_moves_at_the_end_of_a_file_to_two_targets(make_repo, tmp_path):
    _, _, out, _ = run_golden_case(make_repo, tmp_path, "symbol-adjacent-moves-at-end-of-file")
    assert (out / "pkg/mod.py").read_text() == "def keep():\n    return 0\n"


def test_a_name_the_target_already_binds_is_not_imported_again(make_repo, tmp_path):
    _, _, out, _ = run_golden_case(make_repo, tmp_path, "symbol-target-already-binds")
    target = (out / "pkg/target.py").read_text()
    assert target.count("import math") == 1 and target.count("import helper") == 1
    assert (out / "pkg/mod.py").read_text() == ""


def test_all_keeps_its_line_layout_when_names_leave(make_repo, tmp_path):
    """Names leaving a wrapped `__all__` take their comma along, not the line break
    after them (toolz's itertoolz: dropping the last name of a line joined two lines
    into one of 118 characters); a name alone on its line takes the line. Two moves
    out of one module to two targets make one edit (two overlapped and one was lost)."""
    files = {
        "pkg/__init__.py": "",
        "pkg/mod.py": (
            "__all__ = ('a', 'b',\n"
            "           'c',\n"
            "           'd', 'e')\n\n\n"
            + "".join(f"def {n}():\n    return {n!r}\n\n\n" for n in "abcde")
        ),
        "check.py": (
            "from pkg.mod import *\n\n\ndef check():\n"
            "    assert (a(), b(), c(), d(), e()) == tuple('abcde')\n"
        ),
    }
    moves = [("pkg.mod:b", "pkg.one"), ("pkg.mod:c", "pkg.two")]
    _, _, out = rewrite_and_run(make_repo, tmp_path, files, moves, "check")
    assert (out / "pkg/mod.py").read_text().startswith("__all__ = ('a',\n           'd', 'e')\n")


def test_every_module_level_name_the_moved_code_needs_is_carried(make_repo, tmp_path):
    """humanize's `Num = int | float` under `if TYPE_CHECKING:` (Defect B): the moved def
    reads it only in annotations that `from __future__ import annotations` leaves
    unevaluated, so the new module imported fine and verify passed while a type checker
    (and ruff F821) found `Num` bound nowhere. Every module-level name the moved code
    reads comes along, however the module binds it: a TYPE_CHECKING assignment (and a
    string annotation naming one), an `if`/`else` or `try` binding, a tuple target, a
    name a star import gives."""
    files = {
        "pkg/__init__.py": "",
        "pkg/consts.py": "SCALE = 3\n",
        "pkg/mod.py": """
            from __future__ import annotations

            import sys
            from typing import TYPE_CHECKING

            from pkg.consts import *

            if TYPE_CHECKING:
                from collections.abc import Sequence

                Num = int | float
                Pair = tuple[Num, Num]

            try:
                import json as codec
            except ImportError:
                codec = None

            if sys.version_info >= (3, 8):
                LIMIT = 10
            else:
                LIMIT = 20

            LOW, HIGH = 1, 2


            def f(x: Num, pair: "Pair", seq: Sequence[Num]) -> Num:
                return x + LIMIT + LOW + HIGH + SCALE + len(codec.dumps(pair)) + len(seq)


            def keep(x: Num) -> Num:
                return x
            """,
        "check.py": """
            from pkg.mod import keep
            from pkg.new import f


            def check():
                assert f(1, (1, 1), [1]) == 1 + 10 + 1 + 2 + 3 + 6 + 1
                assert keep(2) == 2
            """,
    }
    before = make_repo({k: dedent(v) for k, v in files.items()}, git_init=False)
    assert undefined_names(before) == []
    _, _, out = rewrite_and_run(make_repo, tmp_path, files, [("pkg.mod:f", "pkg.new")], "check")
    assert undefined_names(out) == []
    new = (out / "pkg/new.py").read_text()
    assert "    from pkg.mod import Num, Pair\n" in new  # under TYPE_CHECKING, as at home
    # SCALE, which the star gave, from its own module (trial24 T44)
    assert "from pkg.consts import SCALE\nfrom pkg.mod import HIGH, LIMIT, LOW\n" in new
    # the `try:` of imports binding codec comes whole (T61), not `from pkg.mod import codec`
    assert "\ntry:\n    import json as codec\nexcept ImportError:\n    codec = None\n" in new


def test_a_type_checking_alias_of_a_lazy_annotation_comes_along(make_repo, tmp_path):
    """The issue's reproduction as humanize has it: the result imports and runs either
    way (the annotation is never evaluated); only a type-level oracle sees `Num` lost."""
    files = {
        "pkg/__init__.py": "",
        "pkg/mod.py": """
            from __future__ import annotations

            from typing import TYPE_CHECKING

            if TYPE_CHECKING:
                Num = int | float


            def f(x: Num) -> str:
                return str(x)


            def g(x: Num) -> Num:
                return x
            """,
        "check.py": """
            from pkg.new import f


            def check():
                assert f(1) == "1"
            """,
    }
    _, _, out = rewrite_and_run(make_repo, tmp_path, files, [("pkg.mod:f", "pkg.new")], "check")
    assert undefined_names(out) == []
    head = "from __future__ import annotations\n\nfrom typing import TYPE_CHECKING\n\n"
    new = (out / "pkg/new.py").read_text()
    assert new.startswith(head + "if TYPE_CHECKING:\n    from pkg.mod import Num\n")


def test_a_type_checking_import_only_the_moved_code_used_leaves_its_block(make_repo, tmp_path):
    """`OrderedDict` is read only by the moved def's string annotation: it leaves the
    block, which keeps `Decimal` (the staying def's string annotation reads it), and
    `TYPE_CHECKING` stays imported. A plain import only a string annotation of the moved
    code reads goes too; one a staying string annotation reads stays."""
    files = {
        "pkg/__init__.py": "",
        "pkg/mod.py": """
            import fractions
            import typing
            from typing import TYPE_CHECKING

            if TYPE_CHECKING:
                from collections import OrderedDict
                from decimal import Decimal


            def make(x: "OrderedDict", y: "fractions.Fraction") -> "typing.Any":
                return x


            def keep(x: "Decimal") -> "typing.Any":
                return x
            """,
        "check.py": """
            from pkg.mod import keep
            from pkg.new import make


            def check():
                assert make(1, 2) == 1 and keep(2) == 2
            """,
    }
    moves = [("pkg.mod:make", "pkg.new")]
    _, _, out = rewrite_and_run(make_repo, tmp_path, files, moves, "check")
    assert unused_imports(out) == [] and undefined_names(out) == []
    assert (out / "pkg/mod.py").read_text() == dedent(
        """
        import typing
        from typing import TYPE_CHECKING

        if TYPE_CHECKING:
            from decimal import Decimal


        def keep(x: "Decimal") -> "typing.Any":
            return x
        """
    )


def test_an_import_another_module_reads_from_the_source_stays(make_repo, tmp_path):
    """b12's R4: `join` was imported in pkg.src for `f` only, but use.py imports it from
    pkg.src and reads `s.join`: removing it broke `import use` (apply exit 0)."""
    files = {
        "pkg/__init__.py": "",
        "pkg/src.py": """
            import json
            from os.path import join


            def f(a):
                return join(a, "x") + json.dumps(1)


            def g():
                return 1
            """,
        "use.py": """
            import pkg.src as s
            from pkg.src import g, join


            def check():
                assert (join("a", "b"), g(), s.join("c", "d")) == ("a/b", 1, "c/d")
            """,
    }
    _, _, out = rewrite_and_run(make_repo, tmp_path, files, [("pkg.src:f", "pkg.dst")], "use")
    src = (out / "pkg/src.py").read_text()
    assert src.startswith("from os.path import join\n") and "json" not in src


SRC_WITH_JOIN = """
from os.path import join, splitext


def f(a):
    return join(a, "x")


def g():
    return splitext("a.b")[1]
"""


@pytest.mark.parametrize(
    "use",
    [
        "from pkg.src import join\n\n\ndef check():\n    assert join('a', 'b') == 'a/b'\n",
        "import pkg.src as s\n\n\ndef check():\n    assert s.join('c', 'd') == 'c/d'\n",
        "from pkg import src\n\n\ndef check():\n    assert getattr(src, 'join')('e', 'f')\n",
        "def check():\n    from pkg.src import join\n\n    assert join('g', 'h') == 'g/h'\n",
        "from pkg.src import *\n\n\ndef check():\n    assert join('i', 'j') == 'i/j'\n",
    ],
    ids=["from-import", "alias-attribute", "getattr", "function-local", "star"],
)
def test_an_import_other_modules_read_from_the_source_stays_in_every_form(make_repo, tmp_path, use):
    """review23 R4: `join` is used only by the moved `f`, but another module reads it
    from pkg.src: the source keeps it (it lost it: ImportError at `import use`, apply
    exit 0). The import the other module does not read (`splitext` is used by `g`,
    which stays) is kept anyway; executed, run twice."""
    files = {"pkg/__init__.py": "", "pkg/src.py": SRC_WITH_JOIN, "use.py": use}
    _, _, out = rewrite_and_run(make_repo, tmp_path, files, [("pkg.src:f", "pkg.dst")], "use")
    assert "from os.path import join, splitext\n" in (out / "pkg/src.py").read_text()


def test_an_import_only_the_moved_code_used_still_leaves(make_repo, tmp_path):
    """Nothing else reads `join` from pkg.src (use.py reads `g` only): it goes."""
    files = {
        "pkg/__init__.py": "",
        "pkg/src.py": SRC_WITH_JOIN,
        "use.py": "from pkg.src import g\n\n\ndef check():\n    assert g() == '.b'\n",
    }
    _, _, out = rewrite_and_run(make_repo, tmp_path, files, [("pkg.src:f", "pkg.dst")], "use")
    assert "from os.path import splitext\n" in (out / "pkg/src.py").read_text()


def test_a_star_import_of_own_code_gives_only_its_names(make_repo, tmp_path):
    """review23 R7: the source star-imports two of the repository's own modules, and the
    moved code reads `_` that gettext.install puts into builtins: the new module imports
    the names a star gives (`base`, `twice`, `__all__` honoured; from their modules since
    trial24 T44), not `_`
    (`from pkg.src import _` raised ImportError; apply exited 0)."""
    _, cs, out, _ = run_golden_case(make_repo, tmp_path, "symbol-star-import-gives-only-its-names")
    dst = (out / "pkg/dst.py").read_text()
    assert dst.startswith("from pkg.common import base\nfrom pkg.more import twice\n"), dst
    said = [d.message for d in cs.notes if "left unimported" in d.message]
    assert len(said) == 1 and "reads _, which pkg.src binds by no statement" in said[0]


def test_a_star_import_the_tree_cannot_read_still_gives_what_the_moved_code_reads(
    make_repo, tmp_path
):
    """The control: a star of a module that is not the repository's (here reached through
    an own module's star) may give any name, so the moved code's `join` is imported."""
    files = {
        "pkg/__init__.py": "",
        "pkg/common.py": "from os.path import *\n",
        "pkg/src.py": "from pkg.common import *\n\n\ndef path():\n    return join('a', 'b')\n",
        "check.py": "from pkg.src import path\n\n\ndef check():\n    assert path() == 'a/b'\n",
    }
    _, _, out = rewrite_and_run(make_repo, tmp_path, files, [("pkg.src:path", "pkg.dst")], "check")
    assert (out / "pkg/dst.py").read_text().startswith("from pkg.src import join\n")


def test_a_binding_of_a_retired_package_follows_its_moved_definitions(make_repo, tmp_path):
    """trial23 T38 (markdown.extensions): every binding form of a deleted package whose
    `__init__` definitions move out follows them per attribute and leaves, instead of
    the error "no move says where it went"; and `make`, moved to another module than
    the `Extension` it reads, imports it from its new module, not from the deleted
    package."""
    _, cs, out, _ = run_golden_case(make_repo, tmp_path, "symbol-binding-of-retired-package")
    assert not [n for n in cs.notes if n.severity == "error"]
    assert not (out / "pkg/ext").exists()
    assert (
        (out / "pkg/factory.py")
        .read_text()
        .startswith("from pkg.extension_base import Extension\n")
    )


def test_a_binding_of_a_retired_package_with_an_attribute_no_move_covers_is_refused(make_repo):
    """The control: `ext.VERSION` stays in the deleted package, so the binding has
    nowhere to go: the error stays, at the import."""
    files = {
        "pkg/__init__.py": "",
        "pkg/ext/__init__.py": "VERSION = 1\n\n\nclass Extension:\n    pass\n",
        "use.py": "from pkg import ext\n\nprint(ext.Extension, ext.VERSION)\n",
    }
    moves = [("pkg.ext:Extension", "pkg.base")]
    _, cs = changes(make_repo, files, moves, "delete: [pkg.ext]\n")
    errors = [str(n) for n in cs.notes if n.severity == "error"]
    gone = "`pkg.ext` no longer exists after the plan and no move says where it went"
    assert errors == [f"use.py:1:17: error: {gone}"]


def test_a_type_checking_guard_is_spelled_through_the_carried_typing_binding(make_repo, tmp_path):
    """trial23 T32 (jinja2's evalctx.py): the source spells `if t.TYPE_CHECKING:` and the
    moved code carries `import typing as t`, so the new module's guard reads it through
    `t`; it had a second import, `from typing import TYPE_CHECKING`."""
    _, _, out, _ = run_golden_case(make_repo, tmp_path, "symbol-type-checking-through-typing-alias")
    assert (
        (out / "pkg/newmod.py")
        .read_text()
        .startswith(
            "import typing as t\n\nif t.TYPE_CHECKING:\n    from collections import OrderedDict\n"
        )
    )
    assert unused_imports(out) == []


def test_names_a_star_gives_are_imported_from_where_they_come_from(make_repo, tmp_path):
    """trial24 T44 (pyparsing's helpers.py, `from .core import *`): `Enum`, `t`, `P` and
    `base` reach the moved code through the source's star import of pkg.core; the new
    module imports them from their origin (the standard library's from it, core's own
    from core), not from the source's star re-export."""
    case = "symbol-star-given-names-from-their-origin"
    _, _, out, _ = run_golden_case(make_repo, tmp_path, case)
    infix = (out / "pkg/infix.py").read_text()
    assert infix.startswith(
        "import typing as t\nfrom enum import Enum\n\nfrom .core import P, base\n"
    ), infix
    assert "helpers" not in infix


def test_references_inside_code_moved_out_of_a_deleted_package_are_respelled(make_repo, tmp_path):
    """markdown 3.7 (t12's markdown-retire plan, a12's run): `Extension` leaves the
    package `markdown.extensions`, which the plan deletes; the rewrite passes skipped the
    deleted file, so its docstring cross-references (`markdown.extensions.Extension.
    setConfig`) came along unchanged and verify's old-names FAILed. The references
    inside the moved code are respelled as in a source that stays."""
    case = "symbol-prose-in-code-moved-out-of-a-deleted-package"
    _, cs, out, _ = run_golden_case(make_repo, tmp_path, case)
    base = (out / "pkg/base.py").read_text()
    assert "[pkg.base.Extension.config]" in base and "pkg.ext" not in base
    assert not (out / "pkg/ext").exists()


def test_a_dotted_import_a_star_gives_is_carried_whole(make_repo, tmp_path):
    """T44's origin of a name the giver binds by `import xml.etree.ElementTree` is that
    whole statement: `import xml` alone leaves `xml.etree` unloaded in a process that
    imports only the new module (AttributeError)."""
    files = {
        "pkg/__init__.py": "",
        "pkg/core.py": "import xml.etree.ElementTree\n",
        "pkg/helpers.py": (
            "from pkg.core import *\n\n\ndef tag(s):\n"
            "    return xml.etree.ElementTree.fromstring(s).tag\n\n\ndef other():\n    return 1\n"
        ),
        "check.py": (
            "from pkg.helpers import tag\n\n\ndef check():\n    assert tag('<a/>') == 'a'\n"
        ),
    }
    _, _, out = rewrite_and_run(
        make_repo, tmp_path, files, [("pkg.helpers:tag", "pkg.xmltag")], "check"
    )
    assert (out / "pkg/xmltag.py").read_text().startswith("import xml.etree.ElementTree\n")


TRY_FALLBACK = "symbol-try-import-fallback-carried"


def test_a_decorator_bound_by_a_try_import_fallback_is_carried_not_a_cycle(make_repo, tmp_path):
    """T61 (wcwidth's `lru_cache`): `width` is decorated by a name the source binds in a
    top-level `try: from functools import lru_cache` / `except ImportError:` fallback.
    That name was read as the source's own, so the target would import it from the
    source, which imports `width` back: refused as a cycle. The whole `try:` is carried
    (after the target's sorted imports, a blank line apart), and leaves the source,
    where nothing else reads it; executed, run twice, ruff clean (I, F401, F821). Into a
    new module it is the module's only import statement."""
    _, cs, out, case = run_golden_case(make_repo, tmp_path, TRY_FALLBACK)
    assert not [n for n in cs.notes if n.severity == "error"]
    widths = (out / "pkg/widths.py").read_text()
    assert widths.startswith("import os\n\ntry:\n    from functools import lru_cache\nexcept")
    assert "lru_cache" not in (out / "pkg/wc.py").read_text()
    assert undefined_names(out) == [] and unused_imports(out) == [] and unsorted_imports(out) == []
    files = {k: v for k, v in case.files.items() if k != "pkg/widths.py"}
    files["use.py"] = (
        files["use.py"].replace("from pkg.widths import sep\n", "").replace(" and sep()", "")
    )
    _, _, out = rewrite_and_run(
        make_repo, tmp_path / "new", files, case.moves, "use", roots=case.roots
    )
    assert (out / "pkg/widths.py").read_text().startswith("try:\n    from functools import")

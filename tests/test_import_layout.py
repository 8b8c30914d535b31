"""Import layout: a split keeps the statement's layout and every comment in it; an added
import goes where isort/ruff would put it in a sorted block (and respects `isort: skip`
/ `isort: off`); nothing is hoisted out of a function. Results are executed."""

from __future__ import annotations

import pytest
from rewrite_helpers import dedent, rewrite_and_run

MOD = "".join(f"def {n}():\n    return {n!r}\n\n\n" for n in "abc") + "class D:\n    pass\n"
BASE = {"pkg/__init__.py": "", "pkg/mod.py": MOD, "zeta.py": "Q = 1\n"}
SPLIT = [("pkg.mod:b", "pkg.new"), ("pkg.mod:D", "pkg.new")]
CHECK = "\n\ndef check():\n    assert a() == 'a' and b() == 'b' and c() == 'c' and D\n"

SPLITS = {
    "one_per_line_with_comments": (
        """
        from pkg.mod import (
            a,  # noqa: F401
            b,  # type: ignore
            c,
            D  # the last one
        )
        """,
        """
        from pkg.mod import (
            a,  # noqa: F401
            c
        )
        from pkg.new import (
            b,  # type: ignore
            D  # the last one
        )
        """,
    ),
    "several_per_line_trailing_comma": (
        """
        from pkg.mod import (  # noqa
            a, b,
            c, D,
        )
        """,
        """
        from pkg.mod import (  # noqa
            a, c,
        )
        from pkg.new import (  # noqa
            b,
            D,
        )
        """,
    ),
    "one_line_pragma_repeated": (
        "from pkg.mod import a, b, c, D  # noqa: F401\n",
        "from pkg.mod import a, c  # noqa: F401\nfrom pkg.new import b, D  # noqa: F401\n",
    ),
}


@pytest.mark.parametrize("case", sorted(SPLITS))
def test_split_keeps_layout_and_comments(make_repo, tmp_path, case):
    before, after = SPLITS[case]
    files = dict(BASE, **{"app.py": dedent(before) + CHECK})
    _, _, out = rewrite_and_run(make_repo, tmp_path, files, SPLIT, "app")
    assert (out / "app.py").read_text() == dedent(after) + CHECK


def test_function_local_split_keeps_its_indentation(make_repo, tmp_path):
    code = """
    def check():
        from pkg.mod import (
            a,  # x
            b,
        )

        assert a() == "a" and b() == "b"
    """
    _, _, out = rewrite_and_run(make_repo, tmp_path, dict(BASE, **{"app.py": code}), SPLIT, "app")
    assert (out / "app.py").read_text() == dedent(
        """
        def check():
            from pkg.mod import (
                a,  # x
            )
            from pkg.new import (
                b,
            )

            assert a() == "a" and b() == "b"
        """
    )


PLACE = [("pkg.mod:a", "pkg.new")]
PLACES = {
    # sorted block: merged into the one-line `from pkg import ...`, as isort combines
    "merged_in_sorted_block": (
        "import os\nfrom pkg import mod\nfrom zeta import Q\n",
        "import os\nfrom pkg import mod, new\nfrom zeta import Q\n",
    ),
    # sorted block of plain imports: at its sorted place, not right after the binding
    "sorted_position": (
        "import os\nimport pkg.mod as mod\nimport zeta\n",
        "import os\nimport pkg.mod as mod\nimport pkg.new as new\nimport zeta\n",
    ),
    "unsorted_block_keeps_after_binding": (
        "import zeta\nfrom pkg import mod\nimport os\n",
        "import zeta\nfrom pkg import mod\nfrom pkg import new\nimport os\n",
    ),
    "isort_skip": (
        "import os\nfrom pkg import mod  # isort: skip\nfrom zeta import Q\n",
        "import os\nfrom pkg import mod  # isort: skip\nfrom pkg import new\nfrom zeta import Q\n",
    ),
    "isort_off": (
        "# isort: off\nimport os\nfrom pkg import mod\nfrom zeta import Q\n",
        "# isort: off\nimport os\nfrom pkg import mod\nfrom pkg import new\nfrom zeta import Q\n",
    ),
    "function_local_not_hoisted": (
        "import os\n\n\ndef f():\n    from pkg import mod\n\n    return mod.a()\n",
        "import os\n\n\ndef f():\n    from pkg import mod, new\n\n    return new.a()\n",
    ),
}


@pytest.mark.parametrize("case", sorted(PLACES))
def test_added_import_goes_where_isort_would(make_repo, tmp_path, case):
    before, after = PLACES[case]
    use = "\n\ndef check():\n    assert mod.a() == 'a' and os and zeta.Q\n"
    if case == "function_local_not_hoisted":
        use = "\n\ndef check():\n    assert f() == 'a'\n"
    elif "zeta import Q" in before:
        use = "\n\ndef check():\n    assert mod.a() == 'a' and os and Q\n"
    files = dict(BASE, **{"app.py": before + use})
    _, _, out = rewrite_and_run(make_repo, tmp_path, files, PLACE, "app")
    assert (out / "app.py").read_text() == after + use.replace("mod.a()", "new.a()")


def test_one_finaliser_applies_every_scheduled_import_change():
    """Forms schedule on the file's scratch area; one finaliser places, merges and
    removes, so the result is what isort would leave."""
    import ast

    from migrate.changes import apply_edits
    from migrate.rewrite.import_scratch import ImportScratch

    text = dedent(
        """
        import os

        import json
        from pkg import a, c
        from zeta import Q


        def f():
            return a, c, Q, os, json
        """
    )
    tree = ast.parse(text)
    scratch = ImportScratch("m.py", text)
    span = (text.index("from pkg"), text.index("\nfrom zeta"))
    scratch.add("from pkg import b", span, "", "after", "placed")
    scratch.add("import abc", span, "", "after", "placed")
    scratch.add_before("import pkg.x", text.index("def f"), "", "chain needs it")
    scratch.add_before("import pkg.x", text.index("def f"), "", "chain needs it")  # once
    scratch.remove(tree.body[0], list(tree.body[0].names), "unused")
    out = apply_edits(text, scratch.finalise(tree))
    assert out == dedent(
        """
        import abc
        import json
        from pkg import a, b, c
        from zeta import Q


        import pkg.x
        def f():
            return a, c, Q, os, json
        """
    )

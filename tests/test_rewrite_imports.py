"""Absolute imports and attribute chains: before/after, and what must not change."""

import pytest
from rewrite_helpers import assert_rewrite, changes, new_text

BASE = {
    "pkg/__init__.py": "",
    "pkg/old/__init__.py": "",
    "pkg/old/norm.py": "def rmsnorm(x):\n    return x\n\n\nclass C:\n    pass\n",
    "pkg/old/util.py": "def helper(x):\n    return x\n",
    "pkg/new/__init__.py": "",
}
MOVE = [("pkg.old.norm", "pkg.new.layernorm")]


def case(make_repo, before, after, moves=MOVE, path="app/use.py", extra_files=None):
    files = dict(BASE, **(extra_files or {}))
    files[path] = before
    return assert_rewrite(make_repo, files, moves, path, after)


def test_from_module_import_symbol(make_repo):
    case(
        make_repo,
        "from pkg.old.norm import rmsnorm, C as CC\n",
        "from pkg.new.layernorm import rmsnorm, C as CC\n",
    )


def test_from_parent_import_moved_submodule_keeps_local_name(make_repo):
    case(
        make_repo,
        "from pkg.old import norm\nnorm.rmsnorm(1)\n",
        "from pkg.new import layernorm as norm\nnorm.rmsnorm(1)\n",
    )


def test_from_parent_import_same_leaf_needs_no_alias(make_repo):
    case(
        make_repo,
        "from pkg.old import norm\n",
        "from pkg.new import norm\n",
        moves=[("pkg.old.norm", "pkg.new.norm")],
    )


def test_from_parent_split_when_names_go_to_two_places(make_repo):
    case(
        make_repo,
        "if True:\n    from pkg.old import norm, util  # keep\n",
        "if True:\n    from pkg.new import layernorm as norm\n"
        "    from pkg.old import util  # keep\n",
    )


def test_import_dotted_rewrites_every_chain(make_repo):
    case(
        make_repo,
        """
        import pkg.old.norm


        @pkg.old.norm.deco
        def f(x: pkg.old.norm.C) -> "pkg.old.norm.C":
            if isinstance(x, pkg.old.norm.C):
                return pkg.old.norm.rmsnorm(x).real
        """,
        """
        import pkg.new.layernorm


        @pkg.new.layernorm.deco
        def f(x: pkg.new.layernorm.C) -> "pkg.new.layernorm.C":
            if isinstance(x, pkg.new.layernorm.C):
                return pkg.new.layernorm.rmsnorm(x).real
        """,
    )


def test_import_as_alias_keeps_uses(make_repo):
    case(
        make_repo,
        "import pkg.old.norm as nm\nnm.rmsnorm(1)\n",
        "import pkg.new.layernorm as nm\nnm.rmsnorm(1)\n",
    )


def test_imports_in_functions_type_checking_and_try_edit_in_place(make_repo):
    case(
        make_repo,
        """
        from typing import TYPE_CHECKING

        if TYPE_CHECKING:
            from pkg.old.norm import C

        try:
            import pkg.old.norm as nm
        except ImportError:
            nm = None


        def f():
            from pkg.old.norm import rmsnorm  # local

            return rmsnorm
        """,
        """
        from typing import TYPE_CHECKING

        if TYPE_CHECKING:
            from pkg.new.layernorm import C

        try:
            import pkg.new.layernorm as nm
        except ImportError:
            nm = None


        def f():
            from pkg.new.layernorm import rmsnorm  # local

            return rmsnorm
        """,
    )


def test_star_import(make_repo):
    case(make_repo, "from pkg.old.norm import *\n", "from pkg.new.layernorm import *\n")


def test_package_move_relocates_submodules(make_repo):
    case(
        make_repo,
        "import pkg.old.util\nfrom pkg.old.norm import C\npkg.old.util.helper(1)\n",
        "import pkg.ops.util\nfrom pkg.ops.norm import C\npkg.ops.util.helper(1)\n",
        moves=[("pkg.old", "pkg.ops")],
    )


def test_unrelated_names_untouched(make_repo):
    src = """
    import pkg.old.util
    from pkg.old import util
    can_use_pkg_old_norm_kernel = 1
    x = pkg.old.util.helper(pkg.old.normal)
    """
    case(make_repo, src, src)


def test_parenthesized_multiline_keeps_formatting(make_repo):
    case(
        make_repo,
        "from pkg.old.norm import (  # why\n    rmsnorm,\n    C,  # the class\n)\n",
        "from pkg.new.layernorm import (  # why\n    rmsnorm,\n    C,  # the class\n)\n",
    )


def test_import_root_change_keeps_old_root_when_still_used(make_repo):
    files = dict(BASE)
    files["other/__init__.py"] = ""
    files["app/use.py"] = "import pkg.old.norm\npkg.old.norm.rmsnorm(pkg.old.util)\n"
    prep, cs = changes(make_repo, files, [("pkg.old.norm", "other.norm")])
    assert new_text(prep, cs, "app/use.py") == (
        "import pkg.old, other.norm\nother.norm.rmsnorm(pkg.old.util)\n"
    )


def test_import_root_change_collision_is_refused_not_shadowed(make_repo):
    files = dict(BASE)
    files["other/__init__.py"] = ""
    files["app/use.py"] = "import pkg.old.norm\nother = 3\npkg.old.norm.rmsnorm(other)\n"
    prep, cs = changes(make_repo, files, [("pkg.old.norm", "other.norm")])
    assert new_text(prep, cs, "app/use.py") == files["app/use.py"]
    assert any("defines `other`" in n.message for n in cs.notes)


def test_import_of_deleted_package_becomes_the_modules_its_chains_need(make_repo):
    files = dict(BASE)
    files["app/use.py"] = (
        "import os, pkg.old\n\n\ndef f():\n"
        "    return pkg.old.norm.rmsnorm(1), pkg.old.util.helper(2)\n"
    )
    prep, cs = changes(
        make_repo,
        files,
        [("pkg.old.norm", "pkg.new.norm"), ("pkg.old.util", "pkg.new.util")],
        "delete: [pkg.old]\n",
    )
    assert new_text(prep, cs, "app/use.py") == (
        "import os, pkg.new.norm, pkg.new.util\n\n\ndef f():\n"
        "    return pkg.new.norm.rmsnorm(1), pkg.new.util.helper(2)\n"
    )
    assert not [n for n in cs.notes if n.pos.file == "app/use.py"]


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("from pkg.old import norm\nnorm.C\n", "import normlib as norm\nnorm.C\n"),
        ("from pkg.old import norm as n\nn.C\n", "import normlib as n\nn.C\n"),
        (
            "from pkg.old import norm, util\nnorm.C, util.helper\n",
            "import normlib as norm\nfrom pkg.old import util\nnorm.C, util.helper\n",
        ),
        ("from pkg.old.norm import C\n", "from normlib import C\n"),
        ("import pkg.old.norm\npkg.old.norm.C\n", "import normlib\nnormlib.C\n"),
    ],
)
def test_a_module_moved_to_the_top_level_is_imported_by_import(make_repo, before, after):
    """`from pkg.old import norm` with pkg.old.norm -> normlib (a top-level module): the
    binding becomes `import normlib as norm`; it crashed the dry run (exit 4, libcst:
    "Must have a module specified") writing `from  import normlib` (trial23 T30)."""
    case(make_repo, before, after, moves=[("pkg.old.norm", "normlib")])


SHADOW = {
    "pkg/__init__.py": "from .old.norm import C as norm\n",
    "pkg/old/__init__.py": "from .norm import C as norm\n",
}


@pytest.mark.parametrize(
    "before",
    [
        "from pkg.old import norm as ppt\nppt.attr\n",
        "import pkg.old\npkg.old.norm.attr\n",
        "import pkg\npkg.old.norm.attr\n",
        "from pkg import old\nold.norm.attr\n",
    ],
)
def test_a_name_the_package_rebinds_over_its_moved_submodule_is_left(make_repo, before):
    """`pkg/old/__init__.py` imports `C as norm`: once it ran, `pkg.old.norm` is the class,
    not the submodule (pyparsing's `from .testing import pyparsing_test as testing`), so
    `from pkg.old import norm` and `pkg.old.norm.X` keep naming what the package binds;
    respelled to the moved module they named the module (AttributeError; trial24 T45).
    Only the package's own import follows the module."""
    prep, cs = case(make_repo, before, before, extra_files=SHADOW)
    assert new_text(prep, cs, "pkg/old/__init__.py") == "from pkg.new.layernorm import C as norm\n"


def test_the_moved_module_itself_is_still_followed_under_a_rebinding_package(make_repo):
    case(
        make_repo,
        "from pkg.old.norm import C\nimport pkg.old.norm as m\nm.C\n",
        "from pkg.new.layernorm import C\nimport pkg.new.layernorm as m\nm.C\n",
        extra_files=SHADOW,
    )

"""Relative imports: resolved with the old package, spelled from the new one (docs/rewrite.md)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rewrite_helpers import changes, new_text

from migrate.rewrite.relative import relative_spelling, resolve, spell

BASE = {
    "pkg/__init__.py": "",
    "pkg/old/__init__.py": "",
    "pkg/old/norm.py": "from .util import helper\nfrom . import util as u\n",
    "pkg/old/util.py": "def helper(x):\n    return x\n",
    "pkg/old/sub/__init__.py": "",
    "pkg/old/sub/deep.py": "from ..util import helper\nfrom ...other import thing\n",
    "pkg/other.py": "thing = 1\n",
    "pkg/new/__init__.py": "",
}


@pytest.mark.parametrize(
    "package, level, module, expected",
    [
        ("a.b", 1, "c", "a.b.c"),
        ("a.b", 2, "c", "a.c"),
        ("a.b", 2, None, "a"),
        ("a", 3, "c", None),
    ],
)
def test_resolve(package, level, module, expected):
    assert resolve(package, level, module) == expected


@pytest.mark.parametrize(
    "target, package, level, expected",
    [
        ("a.b.c", "a.b", 1, ".c"),  # same package: stays relative
        ("a.b", "a.b", 1, "."),
        ("a.c", "a.b", 2, "..c"),
        ("a.c", "a.b", 1, "a.c"),  # would need more dots than before: absolute
        ("x.y", "a.b", 1, "x.y"),  # no common package
        ("a.b.c", "a.b", 0, "a.b.c"),  # absolute stays absolute
    ],
)
def test_spell(target, package, level, expected):
    assert spell(target, package, level) == expected


def test_relative_spelling_none_without_common_root():
    assert relative_spelling("x.y", "a.b") is None


def test_moved_file_relative_import_to_unmoved_sibling_becomes_absolute(make_repo):
    prep, cs = changes(make_repo, dict(BASE), [("pkg.old.norm", "pkg.new.layernorm")])
    assert new_text(prep, cs, "pkg/new/layernorm.py") == (
        "from pkg.old.util import helper\nfrom pkg.old import util as u\n"
    )


def test_files_moving_together_keep_relative_imports(make_repo):
    prep, cs = changes(make_repo, dict(BASE), [("pkg.old", "pkg.ops")])
    assert cs.edits_for("pkg/ops/norm.py") == []
    assert cs.edits_for("pkg/ops/sub/deep.py") == []


def test_siblings_moved_to_same_new_package_stay_relative(make_repo):
    prep, cs = changes(
        make_repo,
        dict(BASE),
        [("pkg.old.norm", "pkg.new.norm"), ("pkg.old.util", "pkg.new.util")],
    )
    assert new_text(prep, cs, "pkg/new/norm.py") == BASE["pkg/old/norm.py"]


def test_unmoved_file_relative_import_of_moved_module(make_repo):
    files = dict(BASE)
    files["pkg/old/user.py"] = "from .norm import x\nfrom . import norm, util\n"
    prep, cs = changes(make_repo, files, [("pkg.old.norm", "pkg.new.layernorm")])
    assert new_text(prep, cs, "pkg/old/user.py") == (
        "from pkg.new.layernorm import x\n"
        "from pkg.new import layernorm as norm\n"
        "from . import util\n"
    )


def test_init_reexport_from_dot_import_alias(make_repo):
    files = dict(BASE)
    files["pkg/old/__init__.py"] = (
        'from . import norm as n\nfrom .norm import x\n\n__all__ = ["n", "x"]\n'
    )
    prep, cs = changes(make_repo, files, [("pkg.old.norm", "pkg.old.sub.norm")])
    assert new_text(prep, cs, "pkg/old/__init__.py") == (
        'from .sub import norm as n\nfrom .sub.norm import x\n\n__all__ = ["n", "x"]\n'
    )


def test_deeper_relative_import_in_moved_package(make_repo):
    # `...other` climbed to `pkg`; the package now sits one level deeper, so the
    # same target needs four dots: more than before, hence absolute.
    prep, cs = changes(make_repo, dict(BASE), [("pkg.old", "pkg.kernels.ops")])
    assert new_text(prep, cs, "pkg/kernels/ops/sub/deep.py") == (
        "from ..util import helper\nfrom pkg.other import thing\n"
    )


_part = st.sampled_from(["a", "b", "c", "ops", "jit"])
_dotted = st.lists(_part, min_size=1, max_size=4).map(".".join)


@settings(deadline=None)  # a pure function; wall time under a loaded CI says nothing
@given(target=_dotted, package=_dotted, level=st.integers(min_value=0, max_value=4))
def test_spelling_always_resolves_back_to_the_target(target, package, level):
    spelled = spell(target, package, level)
    if not spelled.startswith("."):
        assert spelled == target
        return
    dots = len(spelled) - len(spelled.lstrip("."))
    assert 1 <= dots <= level  # never climbs further than the original import did
    assert resolve(package, dots, spelled[dots:] or None) == target

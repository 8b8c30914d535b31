"""The project's own isort/ruff settings: found walking up from a file as ruff and isort
find them, and obeyed by the one import order (`import_order.ImportOrder`)."""

from __future__ import annotations

import ast

from migrate.rewrite.import_order import FIRST_PARTY, LOCAL, STDLIB, THIRD_PARTY, ImportOrder
from migrate.rewrite.isort_config import DEFAULT_LINE, ImportStyle, StyleFinder


class _Files:
    """The two tree queries the finder reads."""

    def __init__(self, files: dict[str, str]):
        self.files = files

    def exists(self, path: str) -> bool:
        return path in self.files

    def text(self, path: str) -> str | None:
        return self.files.get(path)


RUFF = """[tool.ruff]
line-length = 120
src = ["src"]

[tool.ruff.lint.isort]
force-single-line = true
force-sort-within-sections = true
order-by-type = false
case-sensitive = true
combine-as-imports = true
known-first-party = ["extra"]
known-third-party = ["pkg.vendored"]
known-local-folder = ["pkg"]
lines-after-imports = 2
"""


def test_the_nearest_configuration_decides_and_ruff_wins_over_isort():
    tree = _Files(
        {
            "pyproject.toml": RUFF,
            "setup.cfg": "[isort]\nforce_single_line = false\n",
            "sub/ruff.toml": "line-length = 90\n[lint.isort]\nknown-first-party = ['x']\n",
            "other/.isort.cfg": "[settings]\n",
            "other/setup.cfg": "[tool:isort]\nprofile = black\nknown_first_party = a, b\n",
            "bad/pyproject.toml": "[tool.ruff\n",
        }
    )
    finder = StyleFinder(tree)
    top = finder.style_of("src/pkg/mod.py")  # no configuration below: the root's
    assert top.source == "pyproject.toml" and top.force_single_line and top.combine_as
    assert top.force_sort_within_sections and not top.order_by_type and top.case_sensitive
    assert top.known_first_party == {"extra"} and top.known_local_folder == {"pkg"}
    assert top.lines_after_imports == 2 and top.line_length == 120 and top.src == ("src",)
    sub = finder.style_of("sub/deep/m.py")  # the nearer ruff.toml, and only it
    assert sub.source == "sub/ruff.toml" and sub.known_first_party == {"x"}
    assert sub.line_length == 90 and not sub.force_single_line and sub.src == ("sub", "sub/src")
    other = finder.style_of("other/m.py")  # isort's setup.cfg; .isort.cfg has no [isort]
    assert other.source == "other/setup.cfg" and other.known_first_party == {"a", "b"}
    assert other.line_length == 88  # profile black
    assert finder.style_of("bad/m.py").source == "pyproject.toml"  # unparsable: not a config
    assert StyleFinder(_Files({})).style_of("m.py") == ImportStyle()
    assert ImportStyle().line_length == DEFAULT_LINE


def _node(stmt: str):
    return ast.parse(stmt).body[0]


def test_the_order_follows_the_settings():
    style = StyleFinder(_Files({"pyproject.toml": RUFF})).style_of("m.py")
    order = ImportOrder(frozenset({"own"}), style)
    sections = {
        "import extra.mod": FIRST_PARTY,
        "from pkg.vendored import x": THIRD_PARTY,  # the longest known prefix wins
        "from pkg.core import x": LOCAL,
        "import own": FIRST_PARTY,
        "import os": STDLIB,
        "import requests": THIRD_PARTY,
    }
    assert {s: order.section(_node(s)) for s in sections} == sections
    # force-sort-within-sections: `import` and `from` lines sorted together by module
    stmts = ["from inspect import signature", "import os", "from typing import Any"]
    assert sorted(stmts, key=lambda s: order.full_key(_node(s))) == stmts
    default = ImportOrder(frozenset({"own"}))
    assert sorted(stmts, key=lambda s: default.full_key(_node(s)))[0] == "import os"
    # order-by-type off, case-sensitive: plain code-point order
    names = ["alpha", "Beta", "GAMMA"]
    assert sorted(names, key=order.name_key) == ["Beta", "GAMMA", "alpha"]
    assert sorted(names, key=default.name_key) == ["GAMMA", "Beta", "alpha"]
    untyped = ImportOrder(style=ImportStyle(order_by_type=False))
    assert sorted(names, key=untyped.name_key) == names
    # natural order: mod2 before mod10
    assert default.key(_node("import mod2")) < default.key(_node("import mod10"))
    # merging: never under force-single-line; an alias only with combine-as-imports
    assert not order.mergeable(_node("from a import b"))
    assert not default.mergeable(_node("from a import b as c"))
    assert default.mergeable(_node("from a import b, c"))
    combine = ImportOrder(style=ImportStyle(combine_as=True))
    assert combine.mergeable(_node("from a import b as c"))

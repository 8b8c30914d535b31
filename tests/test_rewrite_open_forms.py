"""Binding forms that do not work yet (d12's D1; docs/rewrite-forms.md "Open"): each is a
strict xfail over the executed result, so the fix that makes it pass is noticed (and must
then move the case into a golden). It leaves a wrong tree silently today: the chain is
left as written, no note, the rewritten code raises AttributeError, and verify passes."""

from __future__ import annotations

import pytest
from rewrite_helpers import rewrite_and_run

MOD = 'def func():\n    return "func"\n\n\ndef other():\n    return "other"\n'
MOVES = [("pkg.mod:func", "pkg.newmod")]


@pytest.mark.xfail(
    strict=True,
    raises=AssertionError,
    reason="D1: a class-level import read through the instance (`self.mod.func()`) is not "
    "a use of the binding: left as written after a symbol move, AttributeError",
)
def test_a_class_level_binding_read_through_self_follows_the_symbol(make_repo, tmp_path):
    files = {
        "pkg/__init__.py": "",
        "pkg/mod.py": MOD,
        "pkg/use.py": (
            "class Holder:\n    from pkg import mod\n\n"
            "    def run(self):\n        return self.mod.func()\n\n\n"
            "def check():\n    assert Holder().run() == 'func'\n"
        ),
    }
    rewrite_and_run(make_repo, tmp_path, files, MOVES, "pkg.use")

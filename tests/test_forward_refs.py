"""Forward references (string annotations) through a binding of a module that loses a
symbol: `"mod.Cls"` with `from pkg import mod` is a use of `pkg.mod.Cls` like `mod.Cls`
in code (`index/forward_refs.py`, read by `bindings.find_uses`). Each result is executed
(`typing.get_type_hints` evaluates the strings) and rewritten a second time.
"""

from __future__ import annotations

import pytest
from rewrite_helpers import dedent, rewrite_and_run

MOD = """
class Cls:
    pass


def keep():
    return 0
"""
FILES = {"pkg/__init__.py": "", "pkg/mod.py": MOD, "app/__init__.py": ""}
MOVE = [("pkg.mod:Cls", "pkg.newmod")]


def test_a_forward_reference_through_a_from_import_of_the_module(make_repo, tmp_path):
    files = dict(FILES)
    files["app/use.py"] = dedent(
        """
        import typing

        from pkg import mod


        def make(x: "mod.Cls", n: "int") -> "list[mod.Cls]":
            return [x] * n


        def check():
            import pkg.newmod

            hints = typing.get_type_hints(make)
            assert hints["x"] is pkg.newmod.Cls, hints
            assert hints["return"] == list[pkg.newmod.Cls]
            assert mod.keep() == 0
        """
    )
    prep, cs, out = rewrite_and_run(make_repo, tmp_path, files, MOVE, "app.use")
    text = (out / "app/use.py").read_text()
    assert "from pkg import mod, newmod\n" in text or "from pkg import newmod\n" in text
    assert 'def make(x: "newmod.Cls", n: "int") -> "list[newmod.Cls]":' in text


def test_a_forward_reference_under_type_checking_and_its_binding_left_unused(make_repo, tmp_path):
    """The binding import used only by the forward references goes (ruff F401 would
    flag it): the strings' names are reads of it, every one respelled."""
    files = dict(FILES)
    files["app/use.py"] = dedent(
        """
        from __future__ import annotations

        import typing
        from typing import TYPE_CHECKING

        if TYPE_CHECKING:
            from pkg import mod

        VALUE: "mod.Cls | None" = None


        def make(x: "mod.Cls") -> None:
            return None


        def check():
            import pkg.newmod

            ns = {"newmod": pkg.newmod}
            assert typing.get_type_hints(make, localns=ns)["x"] is pkg.newmod.Cls
        """
    )
    prep, cs, out = rewrite_and_run(make_repo, tmp_path, files, MOVE, "app.use")
    text = (out / "app/use.py").read_text()
    assert "if TYPE_CHECKING:\n    from pkg import newmod\n\n" in text, text
    assert "import mod" not in text
    assert 'VALUE: "newmod.Cls | None" = None' in text
    assert 'def make(x: "newmod.Cls") -> None:' in text


def test_a_forward_reference_through_a_plain_import(make_repo, tmp_path):
    files = dict(FILES)
    files["app/use.py"] = dedent(
        """
        import typing

        import pkg.mod


        def make(x: "pkg.mod.Cls") -> "int":
            return pkg.mod.keep()


        def check():
            assert typing.get_type_hints(make)["x"] is pkg.newmod.Cls
            assert make(None) == 0
        """
    )
    prep, cs, out = rewrite_and_run(make_repo, tmp_path, files, MOVE, "app.use")
    text = (out / "app/use.py").read_text()
    assert 'def make(x: "pkg.newmod.Cls") -> "int":' in text
    assert "import pkg.newmod\n" in text
    (edit,) = [e for e in cs.edits if e.path == "app/use.py" and e.new == "pkg.newmod"]
    assert edit.kind == "code"  # by binding, not the strings pass


def test_a_string_that_is_not_its_own_value_is_left_alone(make_repo, tmp_path):
    """An escape makes offsets in the value differ from the file's: not rewritten, and
    nothing breaks (the module keeps a binding of Cls through its own back import)."""
    files = dict(
        FILES, **{"pkg/mod.py": "import os\n" + MOD + "\n\ndef new():\n    return Cls()\n"}
    )
    files["app/use.py"] = dedent(
        """
        from pkg import mod


        def make(x: "mod.C\\x6cs") -> None:
            return None


        def check():
            assert isinstance(mod.new(), mod.Cls)
        """
    )
    prep, cs, out = rewrite_and_run(make_repo, tmp_path, files, MOVE, "app.use")
    assert 'def make(x: "mod.C\\x6cs") -> None:' in (out / "app/use.py").read_text()


LITERALS = """
import typing
from typing import Annotated, Literal
from typing import Literal as L

from pkg import {binding}


def f(
    mode: Literal["{ref}", "other"], y: Annotated[int, "{ref}"], z: L["{ref}"]
) -> "{ref}":
    return mode


def check():
    hints = typing.get_type_hints(f, include_extras=True)
    assert typing.get_args(hints["mode"]) == ("{ref}", "other")
    assert hints["y"].__metadata__ == ("{ref}",)
    assert typing.get_args(hints["z"]) == ("{ref}",)
    assert hints["return"].__name__ == "Cls"
"""


def test_literal_values_and_annotated_metadata_are_values_not_references(make_repo, tmp_path):
    """b12's R5: only the forward references of an annotation are respelled, by one rule
    (forward_refs.annotation_strings), for a symbol move (module_uses)..."""
    files = dict(FILES, **{"app/use.py": LITERALS.format(binding="mod", ref="mod.Cls")})
    prep, cs, out = rewrite_and_run(make_repo, tmp_path, files, MOVE, "app.use")
    text = (out / "app/use.py").read_text()
    assert (
        'mode: Literal["mod.Cls", "other"], y: Annotated[int, "mod.Cls"], z: L["mod.Cls"]' in text
    )
    assert ') -> "newmod.Cls":' in text


def test_literal_values_stay_when_a_submodule_of_a_bound_package_moves(make_repo, tmp_path):
    """... and for a chain through a binding of a package whose submodule moves
    (attributes.rewrite_chains)."""
    files = {
        "pkg/__init__.py": "",
        "pkg/sub/__init__.py": "from . import cond\n",
        "pkg/sub/cond.py": "class Cls:\n    pass\n",
        "app/__init__.py": "",
        "app/use.py": LITERALS.format(binding="sub", ref="sub.cond.Cls"),
    }
    moves = [("pkg.sub.cond", "pkg.sub.conditions")]
    prep, cs, out = rewrite_and_run(make_repo, tmp_path, files, moves, "app.use")
    text = (out / "app/use.py").read_text()
    assert 'Literal["sub.cond.Cls", "other"], y: Annotated[int, "sub.cond.Cls"]' in text
    assert ') -> "sub.conditions.Cls":' in text


PREFIXED = '''
import typing

from pkg import {binding}


def a(x: r"{ref}", y: u"{ref} | None") -> """{ref}""":
    return x


def check():
    hints = typing.get_type_hints(a)
    assert hints["x"].__name__ == "Cls" and hints["return"] is hints["x"]
    assert typing.get_args(hints["y"])[0] is hints["x"]
'''


@pytest.mark.parametrize("shape", ["symbol", "package"])
def test_prefixed_and_triple_quoted_forward_references_are_respelled(make_repo, tmp_path, shape):
    """b12's R3: `r"..."`, `u"..."` and a one-line `\"\"\"...\"\"\"` spell their value at a
    fixed offset (forward_refs.value_offset): read like `"..."` (they were left, with a
    warning), for a symbol move and for a package whose submodule moves."""
    if shape == "symbol":
        files = dict(FILES, **{"app/use.py": PREFIXED.format(binding="mod", ref="mod.Cls")})
        moves, new = MOVE, "newmod.Cls"
    else:
        files = {
            "pkg/__init__.py": "",
            "pkg/sub/__init__.py": "from . import cond\n",
            "pkg/sub/cond.py": "class Cls:\n    pass\n",
            "app/__init__.py": "",
            "app/use.py": PREFIXED.format(binding="sub", ref="sub.cond.Cls"),
        }
        moves, new = [("pkg.sub.cond", "pkg.sub.conditions")], "sub.conditions.Cls"
    prep, cs, out = rewrite_and_run(make_repo, tmp_path, files, moves, "app.use")
    text = (out / "app/use.py").read_text()
    assert f'def a(x: r"{new}", y: u"{new} | None") -> """{new}""":' in text


def test_names_in_an_annotations_values_are_read(make_repo, tmp_path):
    """An `Annotated[...]`'s metadata and a `Literal[...]`'s values are values: their
    strings are not forward references, but their NAMES are read (`A[int, Check]`,
    `Literal[Color.RED]`), so a moved function's new module imports them. One rule for
    both readers (`forward_refs.annotation_parts`, used by `bindings._Reads` too). (Before:
    `_Reads` had its own copy that skipped the values whole: pkg/new.py raised NameError
    'Check' at import; verify's import-time-names caught it, apply wrote it.)"""
    from rewrite_helpers import run_golden_case

    _, _, out, _ = run_golden_case(make_repo, tmp_path, "symbol-annotation-values-read")
    new = (out / "pkg/new.py").read_text()
    assert "from pkg.checks import Check, Color\n" in new
    # trial24 C2: the header as ruff writes it (an aliased name apart: combine-as-imports off)
    assert new.startswith("from typing import Annotated as A\nfrom typing import Literal\n\n")

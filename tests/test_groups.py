"""groups.add edits _GROUPS, the group imports, the README sentence and writes the package."""

from __future__ import annotations

from prep_helpers import BASE_TREE, prepared

from migrate.changes import apply_edits
from migrate.rewrite.groups import _readme_edit, group_changes, groups_tuple

OPS_INIT = "python/sglang/kernels/ops/__init__.py"
README = "python/sglang/kernels/README.md"

SAMPLE_INIT = '''\
"""Callable SGLang kernel APIs, one package per logical group."""

_GROUPS = (
    "activation",
    "attention",
    "layernorm",
)

from sglang.kernels.ops import activation, attention, layernorm  # noqa: E402,F401

__all__ = list(_GROUPS)
'''
SAMPLE_README = (
    "# sglang.kernels\n\n"
    "Operator groups (all populated): `activation`, `attention`, `layernorm`.\n\n"
    "## Layout\n"
)
TREE = {
    **BASE_TREE,
    OPS_INIT: SAMPLE_INIT,
    README: SAMPLE_README,
    "python/sglang/kernels/ops/activation/__init__.py": "",
}
ADD_PLAN = """\
version: 1
roots: [python, .]
moves:
  - from: sglang.jit_kernel.norm
    to: sglang.kernels.ops.layernorm.norm
groups:
  add: [{groups}]
"""


def run(make_repo, tmp_path, groups="elementwise", files=None, plan=None):
    prep = prepared(
        make_repo, tmp_path, files or {}, base=TREE, plan=plan or ADD_PLAN.format(groups=groups)
    )
    edits, writes, notes = group_changes(prep.index, prep.relocation, prep.plan)
    out = {}
    for path in {e.path for e in edits}:
        out[path] = apply_edits(prep.index.text(path), [e for e in edits if e.path == path])
    return out, writes, notes, edits


def test_adds_group_everywhere_in_style(make_repo, tmp_path):
    out, writes, notes, edits = run(make_repo, tmp_path)
    assert notes == []
    assert out[OPS_INIT] == SAMPLE_INIT.replace(
        '    "attention",\n', '    "attention",\n    "elementwise",\n'
    ).replace("activation, attention, layernorm", "activation, attention, elementwise, layernorm")
    assert out[README] == SAMPLE_README.replace("`attention`, ", "`attention`, `elementwise`, ")
    assert writes == {
        "python/sglang/kernels/ops/elementwise/__init__.py": (
            "code",
            '"""Elementwise operators: lazy `KernelSpec` registrations only.\n\n'
            "Importing this group must stay metadata-only: no GPU implementation, no compile.\n"
            '"""\n',
        )
    }
    assert {(e.path, e.kind) for e in edits} == {(OPS_INIT, "code"), (README, "code")}


def test_unsorted_tuple_appends_and_loop_imports_need_no_edit(make_repo, tmp_path):
    init = (
        "from importlib import import_module\n\n"
        '_GROUPS = (\n    "layernorm",\n    "activation",\n)\n\n'
        'for _group in _GROUPS:\n    import_module(f"{__name__}.{_group}")\n'
    )
    out, _, notes, edits = run(make_repo, tmp_path, "zeta, alpha", files={OPS_INIT: init})
    assert out[OPS_INIT] == init.replace(
        '    "activation",\n)', '    "activation",\n    "zeta",\n    "alpha",\n)'
    )
    assert len([e for e in edits if e.path == OPS_INIT]) == 1


def test_one_import_per_group_gets_a_new_line(make_repo, tmp_path):
    init = (
        '_GROUPS = ("activation", "layernorm")\n\n'
        "from . import activation  # noqa: F401\n"
        "from . import layernorm  # noqa: F401\n"
    )
    out, _, _, _ = run(make_repo, tmp_path, files={OPS_INIT: init})
    assert out[OPS_INIT] == (
        '_GROUPS = ("activation", "elementwise", "layernorm")\n\n'
        "from . import activation  # noqa: F401\n"
        "from . import elementwise  # noqa: F401\n"
        "from . import layernorm  # noqa: F401\n"
    )


def test_existing_group_package_is_not_rewritten(make_repo, tmp_path):
    plan = """\
    version: 1
    roots: [python, .]
    moves:
      - from: sglang.jit_kernel
        to: sglang.kernels.ops.elementwise
    groups:
      add: [elementwise]
    """
    _, writes, notes, _ = run(make_repo, tmp_path, plan=plan)
    assert writes == {}
    assert notes == []


def test_implicit_group_is_an_error_at_the_move(make_repo, tmp_path):
    plan = """\
    version: 1
    roots: [python, .]
    moves:
      - from: sglang.jit_kernel.norm
        to: sglang.kernels.ops.normalization.norm
    """
    out, writes, notes, _ = run(make_repo, tmp_path, plan=plan)
    assert (out, writes) == ({}, {})
    (note,) = notes
    assert note.severity == "error"
    assert "'normalization'" in note.message
    assert (note.pos.line, note.pos.col) == (5, 9)


def test_adding_an_existing_group_warns(make_repo, tmp_path):
    _, writes, notes, _ = run(make_repo, tmp_path, "attention")
    assert writes == {}
    assert [n.severity for n in notes] == ["warning"]


def test_readme_and_form_and_wrapped_lines():
    text = "Operator groups (all populated): `a`, `b`,\n`d` and `f`.\n"
    e = _readme_edit(text, "README.md", ["c", "g"])
    assert (
        apply_edits(text, [e])
        == "Operator groups (all populated): `a`, `b`,\n`c`, `d`, `f` and `g`.\n"
    )


def test_groups_tuple_reads_the_literal():
    assert groups_tuple(SAMPLE_INIT)[1] == ["activation", "attention", "layernorm"]
    assert groups_tuple("_GROUPS = tuple(sorted(X))\n") is None


def test_long_group_import_is_wrapped_with_its_comment(make_repo, tmp_path):
    names = ["activation", "attention", "communication", "layernorm", "moe", "quantization"]
    init = (
        "_GROUPS = (" + ", ".join(f'"{n}"' for n in names) + ")\n\n"
        f"from sglang.kernels.ops import {', '.join(names)}  # noqa: E402,F401\n"
    )
    out, _, _, _ = run(make_repo, tmp_path, "sampling", files={OPS_INIT: init})
    body = "".join(f"    {n},\n" for n in [*names, "sampling"])
    assert out[OPS_INIT].split("\n\n", 1)[1] == (
        f"from sglang.kernels.ops import (  # noqa: E402,F401\n{body})\n"
    )


def test_parenthesized_group_import_keeps_its_comment(make_repo, tmp_path):
    init = (
        '_GROUPS = ("activation", "layernorm")\n\n'
        "from sglang.kernels.ops import (  # noqa: F401\n    activation,\n    layernorm,\n)\n"
    )
    out, _, _, _ = run(make_repo, tmp_path, files={OPS_INIT: init})
    assert out[OPS_INIT].endswith(
        "from sglang.kernels.ops import (  # noqa: F401\n"
        "    activation,\n    elementwise,\n    layernorm,\n)\n"
    )


def test_a_removed_group_leaves_a_statement_it_shares_with_another_group():
    """One statement a group, but one statement names two: removing one of them rewrites
    that statement (before, it kept importing the removed group, an ImportError once its
    package is gone); the new group gets its own statement, its neighbours' pragma too."""
    from migrate.rewrite.groups import _import_edits

    text = (
        '_GROUPS = ("activation", "layernorm", "moe")\n\n'
        "from . import activation  # noqa: F401\n"
        "from . import layernorm, moe  # noqa: F401\n"
    )
    groups = ["activation", "layernorm", "moe"]
    edits = _import_edits(text, OPS_INIT, groups, ["elementwise"], frozenset({"layernorm"}))
    assert apply_edits(text, edits) == (
        '_GROUPS = ("activation", "layernorm", "moe")\n\n'
        "from . import activation  # noqa: F401\n"
        "from . import elementwise  # noqa: F401\n"
        "from . import moe  # noqa: F401\n"
    )
    # a statement of removed groups only goes with its line
    edits = _import_edits(text, OPS_INIT, groups, [], frozenset({"layernorm", "moe"}))
    assert apply_edits(text, edits) == (
        '_GROUPS = ("activation", "layernorm", "moe")\n\nfrom . import activation  # noqa: F401\n'
    )


def test_check_and_groups_read_the_readme_sentence_with_one_pattern():
    """One pattern (`layout.names.README_SENTENCE`) for `check`'s group-list rule and for
    `groups.add`: a sentence the rule does not read is not rewritten either (before,
    groups.py had its own, laxer copy), and a separator after the list stays."""
    from migrate.layout.names import README_SENTENCE

    planned = "Operator groups (planned): `a`, `b`.\n"
    assert README_SENTENCE.search(planned) is None and _readme_edit(planned, "R.md", ["c"]) is None
    text = "Operator groups (all populated): `a`, `b`, and more to come.\n"
    assert README_SENTENCE.search(text).group(1) == "`a`, `b`"
    e = _readme_edit(text, "R.md", ["c"])
    assert (
        apply_edits(text, [e])
        == "Operator groups (all populated): `a`, `b`, `c`, and more to come.\n"
    )


def test_new_groups_are_imported_when_every_group_statement_goes():
    """Renaming the only group (or replacing every group): the last group statement stays,
    respelled, for the first new group (before, every statement was removed and the new
    groups were never imported)."""
    from migrate.rewrite.groups import _import_edits

    text = '_GROUPS = ("a",)\n\nfrom . import a  # noqa: F401\n'
    edits = _import_edits(text, OPS_INIT, ["a"], ["b"], frozenset({"a"}))
    assert apply_edits(text, edits) == '_GROUPS = ("a",)\n\nfrom . import b  # noqa: F401\n'
    text = '_GROUPS = ("a", "c")\n\nfrom . import a  # noqa: F401\nfrom . import c  # noqa: F401\n'
    edits = _import_edits(text, OPS_INIT, ["a", "c"], ["d", "b"], frozenset({"a", "c"}))
    assert apply_edits(text, edits).endswith(
        "\n\nfrom . import b  # noqa: F401\nfrom . import d  # noqa: F401\n"
    )
    # a name that is no group keeps its alias (before: `helpers as h` became `helpers`)
    text = '_GROUPS = ("a", "c")\n\nfrom . import a, c, helpers as h\n'
    edits = _import_edits(text, OPS_INIT, ["a", "c"], ["b"], frozenset({"c"}))
    assert apply_edits(text, edits).endswith("from . import helpers as h, a, b\n")

"""Computed op ids whose hole is a pure string method over a literal table row
(`f"attention.{_fn.lstrip('_')}"`): evaluated per row, never refused for its spelling."""

from __future__ import annotations

import libcst as cst
import pytest
from prep_helpers import prepared
from regroup_exec import IMPORTS, OPS, REGISTRY, apply_twice, run_tree

from migrate.rewrite.engine import plan_changes
from migrate.rewrite.fstring_holes import hole_of

ATTENTION = (
    IMPORTS
    + """
for _mod, _fn in [
    ("paged", "_build_page_table"),
    ("paged", "paged_decode"),
    ("rms_hip", "rms_normalize_triton"),
]:
    register_kernel(
        KernelSpec(
            op=f"attention.{_fn.lstrip('_')}",
            backend=KernelBackend.TRITON,
            target=f"sglang.kernels.ops.attention.{_mod}:{_fn}",
        )
    )
del _mod, _fn
"""
)
TREE = {
    **REGISTRY,
    f"{OPS}/__init__.py": '_GROUPS = ("attention", "layernorm")\n',
    f"{OPS}/attention/__init__.py": ATTENTION,
    f"{OPS}/attention/paged.py": (
        "def _build_page_table():\n    return 1\n\n\ndef paged_decode():\n    return 2\n"
    ),
    f"{OPS}/attention/rms_hip.py": "def rms_normalize_triton():\n    return 3\n",
    f"{OPS}/layernorm/__init__.py": IMPORTS,
}
MOVE_ROW = """\
version: 1
roots: [python, .]
moves:
  - from: sglang.kernels.ops.attention.rms_hip
    to: sglang.kernels.ops.layernorm.rms_hip
"""
RENAME_ALL = """\
version: 1
roots: [python, .]
op_ids:
  - {from: attention.build_page_table, to: attention.v2_build_page_table}
  - {from: attention.paged_decode, to: attention.v2_paged_decode}
  - {from: attention.rms_normalize_triton, to: attention.v2_rms_normalize_triton}
"""


def _hole(src: str):
    node = cst.parse_expression(src)
    assert isinstance(node, cst.FormattedString)
    return hole_of(node)


@pytest.mark.parametrize(
    ("src", "row", "value"),
    [
        ("f'a.{x}'", "_f", "_f"),
        ("f'a.{x.lstrip(\"_\")}'", "__f", "f"),
        ('f\'a.{x.removeprefix("k_").replace("-", "_")}\'', "k_a-b", "a_b"),
        ("f'a.{x.strip().lower()}'", " AB ", "ab"),
    ],
)
def test_a_pure_string_method_hole_is_evaluated_per_row(src, row, value):
    hole = _hole(src)
    assert hole is not None and hole.var == "x" and hole.apply(row) == value


@pytest.mark.parametrize(
    "src",
    ["f'a.{x.split(\"_\")[0]}'", "f'a.{helper(x)}'", "f'a.{x.lstrip(y)}'", "f'a.{x!r}'",
     "f'a.{x.lstrip(chars=\"_\")}'", "f'a.{x.format(y)}'"],
)  # fmt: skip
def test_anything_else_is_not_evaluable(src):
    assert _hole(src) is None


def _errors(cs):
    return [n.message for n in cs.notes if n.severity == "error"]


def test_a_row_moving_away_leaves_the_rest_of_the_table_unrefused(make_repo, tmp_path):
    """The real 0.5.20 shape: one module of the table changes group; the f-string's other
    rows keep their op ids, so the site needs nothing and nothing is refused."""
    prep = prepared(make_repo, tmp_path, {}, plan=MOVE_ROW, base=TREE)
    cs = plan_changes(prep)
    assert _errors(cs) == []
    assert prep.derived_op_ids == {
        "attention.rms_normalize_triton": "layernorm.rms_normalize_triton"
    }


def test_moved_row_executes_in_its_new_group_and_a_second_run_changes_nothing(make_repo, tmp_path):
    repo = apply_twice(make_repo, tmp_path, TREE, MOVE_ROW)
    assert run_tree(repo)["ops"] == {
        "attention.build_page_table": "sglang.kernels.ops.attention.paged:_build_page_table",
        "attention.paged_decode": "sglang.kernels.ops.attention.paged:paged_decode",
        "layernorm.rms_normalize_triton": (
            "sglang.kernels.ops.layernorm.rms_hip:rms_normalize_triton"
        ),
    }


def test_every_row_renamed_alike_edits_the_literal_head_around_the_method_hole(make_repo, tmp_path):
    repo = apply_twice(make_repo, tmp_path, TREE, RENAME_ALL)
    text = (repo / OPS / "attention/__init__.py").read_text()
    assert "op=f\"attention.v2_{_fn.lstrip('_')}\"," in text
    assert set(run_tree(repo)["ops"]) == {
        "attention.v2_build_page_table",
        "attention.v2_paged_decode",
        "attention.v2_rms_normalize_triton",
    }


def test_a_rename_of_one_row_through_a_method_hole_is_refused(make_repo, tmp_path):
    """Rewriting the row would change the function the target names too: reported."""
    plan = RENAME_ALL.split("  - {from: attention.paged_decode")[0]
    prep = prepared(make_repo, tmp_path, {}, plan=plan, base=TREE)
    (msg,) = _errors(plan_changes(prep))
    assert "attention.build_page_table" in msg and "rename them by hand" in msg

"""Text forms: table-driven registry rows under an unmoved ancestor prefix, slash paths
under a deleted package naming a subpath that does not exist, spellings without the root
package (docs and Python comments/strings), computed op ids. Results are executed where
they are code, and a second run changes nothing.

The cases are the goldens golden/rewrite/text-*/ (tests/test_rewrite_golden.py compares
their output, edits and notes byte for byte); here they are executed and their notes read.
"""

from __future__ import annotations

import pytest
from rewrite_helpers import changes, golden_case, new_text, run_golden_case


def golden_changes(make_repo, name: str):
    """(prep, cs) of golden `name` (a second run is checked too)."""
    case = golden_case(name)
    return changes(make_repo, case.files, case.moves, case.extra, case.roots)


@pytest.mark.parametrize("loop", ["comprehension", "for-statement"])
def test_table_row_under_an_unmoved_ancestor_prefix_is_rewritten(make_repo, tmp_path, loop):
    _, _, out, _ = run_golden_case(make_repo, tmp_path, f"text-ancestor-table-{loop}")
    text = (out / "pkg/registry.py").read_text()
    assert '("norms.rms_norm", "rms_normalize_hip"),\n    ("flash", "flash"),' in text
    assert 'f"pkg.ops.attention.{_mod}:{_fn}"' in text  # the prefix stays


def test_table_row_moving_out_of_the_prefix_is_reported(make_repo):
    prep, cs = golden_changes(make_repo, "text-ancestor-table-row-leaves-prefix")
    (note,) = [n for n in cs.notes if n.pos.file == "pkg/registry.py"]
    assert "outside pkg.ops.attention" in note.message and note.severity == "error"
    assert new_text(prep, cs, "pkg/registry.py") == prep.index.text("pkg/registry.py")


def test_nonexistent_subpath_of_a_deleted_package_goes_where_its_contents_went(make_repo):
    prep, cs = golden_changes(make_repo, "text-deleted-package-subpath")
    assert new_text(prep, cs, "README.md") == (
        "Configs: `python/pkg/ops/lora/configs/` and `pkg.ops.lora`.\n"
    )
    assert new_text(prep, cs, "python/pkg/user.py").startswith(
        "# Tuned configs: python/pkg/ops/lora/configs/ (also pkg/ops/lora/x).\n"
    )
    subpaths = [e for e in cs.edits if "configs" in e.old or e.old.endswith("/x")]
    assert len(subpaths) == 3
    assert all(e.applicability == "review" and e.kind == "prose" for e in subpaths)


def test_spellings_without_the_root_package_are_reported_for_review(make_repo):
    """Docs: `lora/triton_ops/sgmv.py` and `lora.triton_ops.bgmv` (root `python/pkg`
    omitted) get review notes; the full path is rewritten, not reported."""
    prep, cs = golden_changes(make_repo, "text-rootless-spellings")
    notes = [n for n in cs.notes if n.pos.file == "docs/kernels.md"]
    assert [(n.pos.col, n.severity) for n in notes] == [(5, "warning"), (33, "warning")]
    assert "python/pkg/ops/lora/sgmv.py" in notes[0].message
    assert "pkg.ops.lora.bgmv" in notes[1].message and "review" in notes[1].message
    assert [e.new for e in cs.edits if e.path == "docs/kernels.md"] == [
        "python/pkg/ops/lora/sgmv.py"
    ]


def test_rootless_spellings_in_python_comments_and_strings_are_reported(make_repo):
    """A Python comment or string spelling an old name without its root package gets a
    review note (no edit); the same spelling in code, or a full spelling, does not."""
    prep, cs = golden_changes(make_repo, "text-rootless-spellings")
    notes = [n for n in cs.notes if n.pos.file == "python/pkg/notes.py"]
    assert [(n.pos.line, n.pos.col, n.severity) for n in notes] == [
        (1, 19, "warning"),
        (2, 12, "warning"),
    ]
    assert "python/pkg/ops/lora/sgmv.py" in notes[0].message and "review" in notes[0].message
    assert "pkg.ops.lora.bgmv" in notes[1].message
    edited = [(e.line, e.old, e.new) for e in cs.edits if e.path == "python/pkg/notes.py"]
    assert edited == [(3, "pkg.lora.triton_ops.bgmv", "pkg.ops.lora.bgmv")]


@pytest.mark.parametrize(
    "case, needle",
    [("rows-renamed", '["flash_v2", "decode"]'), ("same-rename-for-every-row", 'f"attn.{n}"')],
)
def test_computed_op_id_over_a_literal_table_is_renamed(make_repo, tmp_path, case, needle):
    _, _, out, _ = run_golden_case(make_repo, tmp_path, f"text-computed-op-id-{case}")
    assert needle in (out / "pkg/ids.py").read_text()


def test_computed_op_id_without_a_literal_table_is_reported(make_repo):
    prep, cs = golden_changes(make_repo, "text-computed-op-id-not-literal")
    (note,) = [n for n in cs.notes if n.pos.file == "pkg/ids.py"]
    assert note.severity == "error" and "not a literal table" in note.message

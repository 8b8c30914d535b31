"""Text forms: table-driven registry rows under an unmoved ancestor prefix, slash paths
under a deleted package naming a subpath that does not exist. Results are executed where
they are code, and a second run changes nothing."""

from __future__ import annotations

import pytest
from rewrite_helpers import changes, new_text, rewrite_and_run

OPS = {
    "pkg/__init__.py": "",
    "pkg/ops/__init__.py": "",
    "pkg/ops/attention/__init__.py": "",
    "pkg/ops/attention/dsv4/__init__.py": "",
    "pkg/ops/attention/dsv4/rms_normalize_hip.py": "def rms_normalize_hip(x):\n    return x\n",
    "pkg/ops/attention/flash.py": "def flash(x):\n    return 2 * x\n",
}
LOOPS = {
    "for_statement": (
        "    out = []\n    for _mod, _fn in _TABLE:\n"
        '        out.append(f"pkg.ops.attention.{_mod}:{_fn}")\n    return out\n'
    ),
    "comprehension": '    return [f"pkg.ops.attention.{_mod}:{_fn}" for _mod, _fn in _TABLE]\n',
}
REGISTRY = """
import importlib

_TABLE = [
    ("dsv4.rms_normalize_hip", "rms_normalize_hip"),
    ("flash", "flash"),
]


def targets():
{loop}

def check():
    for t in targets():
        mod, fn = t.split(":")
        assert callable(getattr(importlib.import_module(mod), fn))
"""


@pytest.mark.parametrize("loop", sorted(LOOPS))
def test_table_row_under_an_unmoved_ancestor_prefix_is_rewritten(make_repo, tmp_path, loop):
    files = dict(OPS, **{"pkg/registry.py": REGISTRY.replace("{loop}", LOOPS[loop])})
    moves = [("pkg.ops.attention.dsv4.rms_normalize_hip", "pkg.ops.attention.norms.rms_norm")]
    _, cs, out = rewrite_and_run(make_repo, tmp_path, files, moves, "pkg.registry")
    text = (out / "pkg/registry.py").read_text()
    assert '("norms.rms_norm", "rms_normalize_hip"),\n    ("flash", "flash"),' in text
    assert 'f"pkg.ops.attention.{_mod}:{_fn}"' in text  # the prefix stays


def test_table_row_moving_out_of_the_prefix_is_reported(make_repo):
    files = dict(OPS, **{"pkg/registry.py": REGISTRY.replace("{loop}", LOOPS["for_statement"])})
    moves = [("pkg.ops.attention.dsv4.rms_normalize_hip", "pkg.ops.layernorm.rms")]
    prep, cs = changes(make_repo, files, moves)
    (note,) = [n for n in cs.notes if n.pos.file == "pkg/registry.py"]
    assert "outside pkg.ops.attention" in note.message and note.severity == "error"
    assert new_text(prep, cs, "pkg/registry.py") == prep.index.text("pkg/registry.py")


LORA = {
    "python/pkg/__init__.py": "",
    "python/pkg/lora/__init__.py": "",
    "python/pkg/lora/triton_ops/__init__.py": "",
    "python/pkg/lora/triton_ops/sgmv.py": "def a():\n    return 1\n",
    "python/pkg/lora/triton_ops/bgmv.py": "def b():\n    return 1\n",
    "python/pkg/ops/__init__.py": "",
    "python/pkg/ops/lora/__init__.py": "",
    "python/pkg/user.py": (
        "# Tuned configs: python/pkg/lora/triton_ops/configs/ (also pkg/lora/triton_ops/x).\n"
        "X = 1\n"
    ),
    "README.md": "Configs: `python/pkg/lora/triton_ops/configs/` and `pkg.lora.triton_ops`.\n",
}
LORA_MOVES = [
    ("pkg.lora.triton_ops.sgmv", "pkg.ops.lora.sgmv"),
    ("pkg.lora.triton_ops.bgmv", "pkg.ops.lora.bgmv"),
]


def test_nonexistent_subpath_of_a_deleted_package_goes_where_its_contents_went(make_repo):
    extra = "delete: [pkg.lora.triton_ops]\n"
    prep, cs = changes(make_repo, LORA, LORA_MOVES, extra, roots=["python"])
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
    files = dict(
        LORA,
        **{
            "docs/kernels.md": (
                "See lora/triton_ops/sgmv.py and lora.triton_ops.bgmv; "
                "python/pkg/lora/triton_ops/sgmv.py is rewritten, not reported.\n"
            )
        },
    )
    prep, cs = changes(make_repo, files, LORA_MOVES, roots=["python"])
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
    code = (
        "# Kernels live in lora/triton_ops/sgmv.py for now.\n"
        'DOC = "see lora.triton_ops.bgmv"\n'
        'FULL = "pkg.lora.triton_ops.bgmv"\n'
        "lora = None\n"
        "X = lora and lora.triton_ops.bgmv\n"
    )
    files = dict(LORA, **{"python/pkg/notes.py": code})
    prep, cs = changes(make_repo, files, LORA_MOVES, roots=["python"])
    notes = [n for n in cs.notes if n.pos.file == "python/pkg/notes.py"]
    assert [(n.pos.line, n.pos.col, n.severity) for n in notes] == [
        (1, 19, "warning"),
        (2, 12, "warning"),
    ]
    assert "python/pkg/ops/lora/sgmv.py" in notes[0].message and "review" in notes[0].message
    assert "pkg.ops.lora.bgmv" in notes[1].message
    edited = [(e.line, e.old, e.new) for e in cs.edits if e.path == "python/pkg/notes.py"]
    assert edited == [(3, "pkg.lora.triton_ops.bgmv", "pkg.ops.lora.bgmv")]


OP_IDS = {
    "same_rename_for_every_row": (
        "op_ids:\n  - from: attention.flash\n    to: attn.flash\n"
        "  - from: attention.decode\n    to: attn.decode\n",
        ["attn.flash", "attn.decode"],
        'f"attn.{n}"',
    ),
    "rows_renamed": (
        "op_ids:\n  - from: attention.flash\n    to: attention.flash_v2\n",
        ["attention.flash_v2", "attention.decode"],
        '["flash_v2", "decode"]',
    ),
}
OP_CODE = (
    '_NAMES = ["flash", "decode"]\n\n\ndef ids():\n    return [f"attention.{n}" for n in _NAMES]\n'
)


@pytest.mark.parametrize("case", sorted(OP_IDS))
def test_computed_op_id_over_a_literal_table_is_renamed(make_repo, tmp_path, case):
    extra, expected, needle = OP_IDS[case]
    check = f"\n\ndef check():\n    assert ids() == {expected!r}\n"
    files = {"pkg/__init__.py": "", "pkg/ids.py": OP_CODE + check}
    prep, cs = changes(make_repo, files, [], extra)
    text = new_text(prep, cs, "pkg/ids.py")
    assert needle in text
    out = tmp_path / "out"
    import shutil

    from rewrite_helpers import apply_changeset

    shutil.copytree(prep.index.root, out, ignore=shutil.ignore_patterns(".git"))
    apply_changeset(out, prep, cs)
    import subprocess
    import sys

    res = subprocess.run(
        [sys.executable, "-c", "import pkg.ids as m; m.check()"], cwd=out, capture_output=True
    )
    assert res.returncode == 0, res.stderr


def test_computed_op_id_without_a_literal_table_is_reported(make_repo):
    extra = OP_IDS["same_rename_for_every_row"][0]
    code = 'def ids(names):\n    return [f"attention.{n}" for n in names]\n'
    prep, cs = changes(make_repo, {"pkg/__init__.py": "", "pkg/ids.py": code}, [], extra)
    (note,) = [n for n in cs.notes if n.pos.file == "pkg/ids.py"]
    assert note.severity == "error" and "not a literal table" in note.message

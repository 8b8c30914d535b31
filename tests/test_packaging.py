"""Explicit packaging lists and package-data follow the moves; lost data files are warned."""

from __future__ import annotations

import textwrap

import pytest
from prep_helpers import prepared

from migrate.changes import apply_edits
from migrate.rewrite import strlist
from migrate.rewrite.globs import glob_match, repo_glob_match
from migrate.rewrite.packaging import cfg_facts, owned_regions, packaging_changes, toml_facts
from migrate.rewrite.text_files import text_file_edits

PYPROJECT = """\
[project]
name = "sglang"

[tool.setuptools]
packages = [
    "sglang",
    "sglang.jit_kernel",  # legacy
    "sglang.kernels",
    "sglang.kernels.ops",
    "sglang.kernels.ops.attention",
    "sglang.kernels.ops.layernorm",
]

[tool.setuptools.package-data]
"sglang.jit_kernel" = ["csrc/*.cuh"]
"""


def apply(prep, path, edits):
    return apply_edits(prep.index.text(path), [e for e in edits if e.path == path])


def test_pyproject_list_and_package_data_key_follow_a_package_move(make_repo, tmp_path):
    prep = prepared(make_repo, tmp_path, {"python/pyproject.toml": PYPROJECT})
    edits, notes = packaging_changes(prep.index, prep.relocation, prep.plan)
    assert notes == []
    assert {e.kind for e in edits} == {"code"}
    out = apply(prep, "python/pyproject.toml", edits)
    assert out == PYPROJECT.replace('    "sglang.jit_kernel",  # legacy\n', "").replace(
        '    "sglang.kernels.ops.attention",\n',
        '    "sglang.kernels.ops.attention",\n    "sglang.kernels.ops.attention.jit",\n',
    ).replace('"sglang.jit_kernel" = ', '"sglang.kernels.ops.attention.jit" = ')


def test_nothing_to_do_without_explicit_lists(make_repo, tmp_path):
    prep = prepared(
        make_repo,
        tmp_path,
        {
            "python/pyproject.toml": '[tool.setuptools.packages.find]\ninclude = ["sglang*"]\n',
        },
    )
    assert packaging_changes(prep.index, prep.relocation, prep.plan) == ([], [])


def test_unsorted_single_line_list_appends(make_repo, tmp_path):
    toml = (
        '[tool.setuptools]\npackages = ["sglang", "sglang.kernels.ops", "sglang.kernels", '
        '"sglang.jit_kernel", "sglang.kernels.ops.layernorm", "sglang.kernels.ops.attention"]\n'
    )
    prep = prepared(make_repo, tmp_path, {"python/pyproject.toml": toml})
    edits, _ = packaging_changes(prep.index, prep.relocation, prep.plan)
    assert apply(prep, "python/pyproject.toml", edits) == (
        '[tool.setuptools]\npackages = ["sglang", "sglang.kernels.ops", "sglang.kernels", '
        '"sglang.kernels.ops.layernorm", "sglang.kernels.ops.attention", '
        '"sglang.kernels.ops.attention.jit"]\n'
    )


def test_new_group_package_and_missing_parents_are_added(make_repo, tmp_path):
    plan = """\
    version: 1
    roots: [python, .]
    moves:
      - from: sglang.jit_kernel.norm
        to: sglang.kernels.ops.norm2.impl.norm
    groups:
      add: [norm2]
    """
    toml = '[tool.setuptools]\npackages = ["sglang", "sglang.jit_kernel", "sglang.kernels.ops"]\n'
    prep = prepared(make_repo, tmp_path, {"python/pyproject.toml": toml}, plan=plan)
    edits, _ = packaging_changes(prep.index, prep.relocation, prep.plan)
    assert apply(prep, "python/pyproject.toml", edits) == (
        '[tool.setuptools]\npackages = ["sglang", "sglang.jit_kernel", "sglang.kernels.ops", '
        '"sglang.kernels.ops.norm2", "sglang.kernels.ops.norm2.impl"]\n'
    )


def test_setup_cfg_multiline_packages_and_package_data(make_repo, tmp_path):
    cfg = textwrap.dedent("""\
        [metadata]
        name = sglang

        [options]
        packages =
            sglang
            sglang.jit_kernel
            sglang.kernels
            sglang.kernels.ops
            sglang.kernels.ops.attention
            sglang.kernels.ops.layernorm

        [options.package_data]
        sglang.jit_kernel = csrc/*.cuh
        """)
    prep = prepared(make_repo, tmp_path, {"python/setup.cfg": cfg})
    facts = cfg_facts(cfg)
    assert facts.lists[0].values[:2] == ("sglang", "sglang.jit_kernel")
    edits, notes = packaging_changes(prep.index, prep.relocation, prep.plan)
    assert notes == []
    assert apply(prep, "python/setup.cfg", edits) == cfg.replace(
        "    sglang.jit_kernel\n", ""
    ).replace(
        "    sglang.kernels.ops.attention\n",
        "    sglang.kernels.ops.attention\n    sglang.kernels.ops.attention.jit\n",
    ).replace("sglang.jit_kernel = csrc", "sglang.kernels.ops.attention.jit = csrc")


def test_setup_py_packages_and_package_data(make_repo, tmp_path):
    setup = textwrap.dedent("""\
        from setuptools import setup

        setup(
            name="sglang",
            packages=["sglang.jit_kernel", "sglang.kernels.ops.attention"],
            package_data={"sglang.jit_kernel": ["csrc/*.cuh"]},
        )
        """)
    prep = prepared(make_repo, tmp_path, {"python/setup.py": setup})
    edits, _ = packaging_changes(prep.index, prep.relocation, prep.plan)
    assert apply(prep, "python/setup.py", edits) == setup.replace(
        '["sglang.jit_kernel", "sglang.kernels.ops.attention"]',
        '["sglang.kernels.ops.attention", "sglang.kernels.ops.attention.jit", '
        '"sglang.kernels.ops.layernorm"]',
    ).replace('{"sglang.jit_kernel":', '{"sglang.kernels.ops.attention.jit":')


def test_glob_that_no_longer_matches_is_warned(make_repo, tmp_path):
    """`csrc/*.cuh` matched csrc/norm.cuh; moved to csrc/norm/norm.cuh it needs `**`."""
    plan = """\
    version: 1
    roots: [python, .]
    moves:
      - from: python/sglang/jit_kernel/csrc/norm.cuh
        to: python/sglang/jit_kernel/csrc/norm/norm.cuh
    """
    toml = '[tool.setuptools.package-data]\n"sglang.jit_kernel" = ["csrc/*.cuh"]\n'
    prep = prepared(make_repo, tmp_path, {"python/pyproject.toml": toml}, plan=plan)
    edits, notes = packaging_changes(prep.index, prep.relocation, prep.plan)
    assert edits == []
    (note,) = notes
    assert note.severity == "warning"
    assert "python/sglang/jit_kernel/csrc/norm/norm.cuh" in note.message
    assert (note.pos.file, note.pos.line) == ("python/pyproject.toml", 2)


def test_recursive_glob_keeps_matching(make_repo, tmp_path):
    plan = """\
    version: 1
    roots: [python, .]
    moves:
      - from: python/sglang/jit_kernel/csrc/norm.cuh
        to: python/sglang/jit_kernel/csrc/norm/norm.cuh
    """
    toml = '[tool.setuptools.package-data]\n"sglang.jit_kernel" = ["csrc/**/*.cuh"]\n'
    prep = prepared(make_repo, tmp_path, {"python/pyproject.toml": toml}, plan=plan)
    assert packaging_changes(prep.index, prep.relocation, prep.plan) == ([], [])


def test_moved_module_outside_listed_packages_pulls_in_its_parents(make_repo, tmp_path):
    """`sglang` is listed, `sglang.kernels*` is not: the wheel needs the whole chain."""
    toml = '[tool.setuptools]\npackages = ["sglang", "sglang.jit_kernel"]\n'
    prep = prepared(make_repo, tmp_path, {"python/pyproject.toml": toml})
    edits, _ = packaging_changes(prep.index, prep.relocation, prep.plan)
    assert apply(prep, "python/pyproject.toml", edits) == (
        '[tool.setuptools]\npackages = ["sglang", "sglang.kernels", "sglang.kernels.ops", '
        '"sglang.kernels.ops.attention", "sglang.kernels.ops.attention.jit", '
        '"sglang.kernels.ops.layernorm"]\n'
    )


def test_text_files_leave_packaging_spans_to_packaging(make_repo, tmp_path):
    toml = PYPROJECT + '\n[project.scripts]\nnorm = "sglang.jit_kernel.norm:main"\n'
    prep = prepared(make_repo, tmp_path, {"python/pyproject.toml": toml})
    text_edits = text_file_edits(prep.index, prep.relocation, prep.plan, "python/pyproject.toml")
    assert [e.old for e in text_edits] == ["sglang.jit_kernel.norm:main"]
    regions = owned_regions("python/pyproject.toml", toml)
    assert len(regions) == 2
    pack_edits, _ = packaging_changes(prep.index, prep.relocation, prep.plan)
    everything = apply_edits(toml, text_edits + pack_edits)
    assert "sglang.jit_kernel" not in everything


def test_toml_facts_ignore_other_tables():
    toml = '[tool.other]\npackages = ["x"]\n[tool.setuptools]\npackages = ["a", "b"]\n'
    assert [p.values for p in toml_facts(toml).lists] == [("a", "b")]


def test_legacy_key_follows_data_files_that_moved_beside_their_module(make_repo, tmp_path):
    """The key's package is emptied; its configs moved into ops/gemm: the key goes there."""
    plan = """\
    version: 1
    roots: [python, .]
    moves:
      - from: sglang.jit_kernel.gemm.scaled_mm
        to: sglang.kernels.ops.gemm.scaled_mm
      - from: python/sglang/jit_kernel/gemm/configs/
        to: python/sglang/kernels/ops/gemm/configs/
    """
    toml = '[tool.setuptools.package-data]\n"sglang.jit_kernel.gemm" = ["configs/*.json"]\n'
    prep = prepared(
        make_repo,
        tmp_path,
        {
            "python/pyproject.toml": toml,
            "python/sglang/jit_kernel/gemm/scaled_mm.py": "def scaled_mm():\n    pass\n",
            "python/sglang/jit_kernel/gemm/configs/N=64.json": "{}\n",
            "python/sglang/kernels/ops/gemm/__init__.py": "",
        },
        plan=plan,
    )
    edits, notes = packaging_changes(prep.index, prep.relocation, prep.plan)
    assert notes == []
    assert apply(prep, "python/pyproject.toml", edits) == toml.replace(
        "sglang.jit_kernel.gemm", "sglang.kernels.ops.gemm"
    )


def test_key_whose_files_scatter_is_warned(make_repo, tmp_path):
    plan = """\
    version: 1
    roots: [python, .]
    moves:
      - from: sglang.jit_kernel.gemm.scaled_mm
        to: sglang.kernels.ops.gemm.scaled_mm
      - from: python/sglang/jit_kernel/gemm/configs/a.json
        to: python/sglang/kernels/ops/gemm/configs/a.json
      - from: python/sglang/jit_kernel/gemm/configs/b.json
        to: python/sglang/kernels/ops/layernorm/configs/b.json
    """
    toml = '[tool.setuptools.package-data]\n"sglang.jit_kernel.gemm" = ["configs/*.json"]\n'
    prep = prepared(
        make_repo,
        tmp_path,
        {
            "python/pyproject.toml": toml,
            "python/sglang/jit_kernel/gemm/scaled_mm.py": "def scaled_mm():\n    pass\n",
            "python/sglang/jit_kernel/gemm/configs/a.json": "{}\n",
            "python/sglang/jit_kernel/gemm/configs/b.json": "{}\n",
            "python/sglang/kernels/ops/gemm/__init__.py": "",
        },
        plan=plan,
    )
    edits, notes = packaging_changes(prep.index, prep.relocation, prep.plan)
    assert edits == []
    assert any("replace the key by hand" in n.message for n in notes)
    assert sum("no longer matches" in n.message for n in notes) == 2


@pytest.mark.parametrize(
    ("pattern", "path", "hit"),
    [
        ("csrc/*.cuh", "csrc/norm.cuh", True),
        ("csrc/*.cuh", "csrc/norm/norm.cuh", False),  # `*` stays in one segment
        ("csrc/**/*.cuh", "csrc/norm.cuh", True),  # `**/` matches zero segments
        ("csrc/**/*.cuh", "csrc/a/b/norm.cuh", True),
        ("**", "a/b", True),
        ("configs/N=?.json", "configs/N=4.json", True),
        ("[ab].txt", "a.txt", True),
        ("[!ab].txt", "a.txt", False),
    ],
)
def test_setuptools_globs(pattern, path, hit):
    assert glob_match(pattern, path) is hit


@pytest.mark.parametrize(
    ("pattern", "path", "hit"),
    [
        ("CHANGELOG.md", "CHANGELOG.md", True),
        ("CHANGELOG.md", "docs/CHANGELOG.md", True),  # no `/`: any depth
        ("/CHANGELOG.md", "docs/CHANGELOG.md", False),  # leading `/`: anchored
        ("docs/history/", "docs/history/2025/a.md", True),
        ("docs/*.md", "docs/a/b.md", False),
        ("docs/**/*.md", "docs/a/b.md", True),
    ],
)
def test_keep_prose_globs(pattern, path, hit):
    assert repo_glob_match(pattern, path) is hit


def test_list_render_keeps_crlf_comments_and_style():
    text = '[tool.setuptools]\r\npackages = [\r\n  "b",  # keep me\r\n  "a"\r\n]\r\n'
    lit = strlist.parse_list(text, text.index("[", 5))
    assert lit.values() == ["b", "a"]
    new = strlist.render(text, lit, strlist.updated(lit.values(), {"a"}, ["c"]))
    assert new == '[\r\n  "b",  # keep me\r\n  "c"\r\n]'


def test_keep_prose_directory_name_matches_at_any_depth():
    assert repo_glob_match("history/", "docs/history/a.md")
    assert repo_glob_match("history/", "history/a.md")
    assert not repo_glob_match("history/", "docs/historyx/a.md")

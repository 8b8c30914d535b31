"""Text-file references: what must change, what must not, and the file's bytes elsewhere."""

from __future__ import annotations

import pytest
from prep_helpers import BASE_PLAN, prepared

from migrate.changes import apply_edits
from migrate.rewrite.text_files import edit_kind, is_kept, text_file_changes, text_file_edits


def rewrite(prep, path: str) -> str:
    text = prep.index.text(path)
    return apply_edits(text, text_file_edits(prep.index, prep.relocation, prep.plan, path))


@pytest.fixture
def docs(make_repo, tmp_path):
    return prepared(
        make_repo,
        tmp_path,
        {
            "docs/kernels.md": (
                "Call `sglang.jit_kernel.norm.rmsnorm` "
                "(target `sglang.jit_kernel.rope:apply_rope`).\n"
                "Sources: python/sglang/jit_kernel/csrc/, sglang/jit_kernel/norm.py.\n"
                "Tests: test/registered/kernels/test_rope.py::test_rope.\n"
                "Untouched: can_use_hicache_jit_kernel, sglang.jit_kernel_v2, "
                "mysglang.jit_kernel,\n"
                "python/sglang/jit_kernel_v2/x.py, sglang.jit_kernels.\n"
            ),
        },
    )


def test_markdown_dotted_names_paths_and_targets(docs):
    assert rewrite(docs, "docs/kernels.md") == (
        "Call `sglang.kernels.ops.layernorm.norm.rmsnorm` "
        "(target `sglang.kernels.ops.attention.jit.rope:apply_rope`).\n"
        "Sources: python/sglang/kernels/ops/attention/jit/csrc/, "
        "sglang/kernels/ops/layernorm/norm.py.\n"
        "Tests: test/registered/kernels/ops/attention/test_rope.py::test_rope.\n"
        "Untouched: can_use_hicache_jit_kernel, sglang.jit_kernel_v2, "
        "mysglang.jit_kernel,\n"
        "python/sglang/jit_kernel_v2/x.py, sglang.jit_kernels.\n"
    )


def test_docs_are_prose_with_positions(docs):
    edits = text_file_edits(docs.index, docs.relocation, docs.plan, "docs/kernels.md")
    assert {e.kind for e in edits} == {"prose"}
    assert {e.applicability for e in edits} == {"safe"}
    first = edits[0]
    assert (first.line, first.col, first.old) == (1, 7, "sglang.jit_kernel.norm.rmsnorm")


def test_ci_yaml_is_code(make_repo, tmp_path):
    wf = (
        "jobs:\n  kernels:\n    steps:\n"
        "      - run: python3 -m pytest test/registered/kernels/test_rope.py -q\n"
        "      - run: python3 -m sglang.jit_kernel.norm --bench\n"
        "      - run: ls python/sglang/jit_kernel/csrc/*.cuh\n"
    )
    prep = prepared(make_repo, tmp_path, {".github/workflows/kernels.yml": wf})
    path = ".github/workflows/kernels.yml"
    edits = text_file_edits(prep.index, prep.relocation, prep.plan, path)
    assert {e.kind for e in edits} == {"code"}
    assert rewrite(prep, path) == (
        "jobs:\n  kernels:\n    steps:\n"
        "      - run: python3 -m pytest test/registered/kernels/ops/attention/test_rope.py -q\n"
        "      - run: python3 -m sglang.kernels.ops.layernorm.norm --bench\n"
        "      - run: ls python/sglang/kernels/ops/attention/jit/csrc/*.cuh\n"
    )


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("README.md", "prose"),
        ("docs/a.rst", "prose"),
        ("notes.txt", "prose"),
        ("CHANGELOG", "prose"),
        ("requirements-dev.txt", "code"),
        ("CMakeLists.txt", "code"),
        (".github/workflows/ci.yml", "code"),
        ("pyproject.toml", "code"),
        ("setup.cfg", "code"),
        ("tox.ini", "code"),
        ("scripts/run.sh", "code"),
    ],
)
def test_edit_kind(path, kind):
    assert edit_kind(path) == kind


def test_crlf_and_non_ascii_bytes_kept(make_repo, tmp_path):
    raw = "Noyau: sglang.jit_kernel.norm — déplacé.\r\nNothing else\r\n"
    prep = prepared(make_repo, tmp_path, {"docs/fr.md": raw.encode("utf-8")})
    out = rewrite(prep, "docs/fr.md")
    assert out == raw.replace("sglang.jit_kernel.norm", "sglang.kernels.ops.layernorm.norm")
    assert out.count("\r\n") == 2


def test_keep_prose_globs_leave_files_alone(make_repo, tmp_path):
    plan = BASE_PLAN + "keep_prose: [CHANGELOG.md, 'docs/history/**']\n"
    prep = prepared(
        make_repo,
        tmp_path,
        {
            "CHANGELOG.md": "- added sglang.jit_kernel.norm\n",
            "docs/history/2025.md": "sglang.jit_kernel.norm\n",
            "docs/now.md": "sglang.jit_kernel.norm\n",
        },
        plan=plan,
    )
    assert is_kept(prep.plan, "CHANGELOG.md") and is_kept(prep.plan, "docs/history/2025.md")
    for kept in ("CHANGELOG.md", "docs/history/2025.md"):
        assert text_file_edits(prep.index, prep.relocation, prep.plan, kept) == []
    assert len(text_file_edits(prep.index, prep.relocation, prep.plan, "docs/now.md")) == 1


def test_files_that_move_carry_their_new_path(make_repo, tmp_path):
    prep = prepared(
        make_repo,
        tmp_path,
        {
            "python/sglang/jit_kernel/README.md": "See sglang.jit_kernel.rope.\n",
        },
    )
    (edit,) = text_file_edits(
        prep.index, prep.relocation, prep.plan, "python/sglang/jit_kernel/README.md"
    )
    assert edit.path == "python/sglang/kernels/ops/attention/jit/README.md"
    assert edit.new == "sglang.kernels.ops.attention.jit.rope"


def test_python_and_binary_files_are_not_handled(make_repo, tmp_path):
    prep = prepared(
        make_repo,
        tmp_path,
        {
            "tools/x.py": "import sglang.jit_kernel.norm\n",
            "docs/img.png": b"\x89PNG\0\0sglang.jit_kernel.norm",
        },
    )
    for path in ("tools/x.py", "docs/img.png"):
        assert text_file_edits(prep.index, prep.relocation, prep.plan, path) == []


def test_deleted_package_mentions_go_to_its_successor_for_review(make_repo, tmp_path):
    plan = """\
    version: 1
    roots: [python, .]
    moves:
      - from: sglang.jit_kernel.norm
        to: sglang.kernels.ops.layernorm.norm
      - from: sglang.jit_kernel.rope
        to: sglang.kernels.ops.attention.rope
      - from: python/sglang/jit_kernel/csrc
        to: python/sglang/kernels/ops/layernorm/csrc
    delete: [sglang.jit_kernel]
    """
    prep = prepared(
        make_repo,
        tmp_path,
        {
            "docs/a.md": (
                "The sglang.jit_kernel package; python/sglang/jit_kernel/old.txt\n"
                "Configs: python/sglang/jit_kernel/configs/ (no such directory)\n"
            ),
        },
        plan=plan,
    )
    edits, notes = text_file_changes(prep.index, prep.relocation, prep.plan, "docs/a.md")
    # The package named as a whole goes where everything it held went, for review, and so
    # does a path below it that names nothing that exists (issue 12: the same treatment
    # as the dotted form; a valid plan cannot delete a file no move covers).
    assert [(e.old, e.new, e.applicability, e.line, e.col) for e in edits] == [
        ("sglang.jit_kernel", "sglang.kernels.ops", "review", 1, 5),
        ("python/sglang/jit_kernel/old.txt", "python/sglang/kernels/ops/old.txt", "review", 1, 32),
        (
            "python/sglang/jit_kernel/configs",
            "python/sglang/kernels/ops/configs",
            "review",
            2,
            10,
        ),
    ]
    assert notes == []


def test_deleted_directory_path_filter_follows_its_contents(make_repo, tmp_path):
    plan = """\
    version: 1
    roots: [python, .]
    moves:
      - from: sglang.jit_kernel.norm
        to: sglang.kernels.ops.layernorm.norm
      - from: sglang.jit_kernel.rope
        to: sglang.kernels.ops.attention.rope
      - from: python/sglang/jit_kernel/csrc
        to: python/sglang/kernels/ops/layernorm/csrc
    delete: [sglang.jit_kernel]
    """
    yml = 'on:\n  pull_request:\n    paths:\n      - "python/sglang/jit_kernel/**"\n'
    prep = prepared(make_repo, tmp_path, {".github/workflows/ci.yml": yml}, plan=plan)
    edits, notes = text_file_changes(
        prep.index, prep.relocation, prep.plan, ".github/workflows/ci.yml"
    )
    assert notes == []
    assert [(e.old, e.new, e.kind, e.applicability) for e in edits] == [
        ("python/sglang/jit_kernel", "python/sglang/kernels/ops", "code", "review")
    ]


def test_split_sources_are_warned_not_rewritten(make_repo, tmp_path):
    plan = (
        BASE_PLAN
        + """\
splits:
  - file: test/registered/kernels/test_norm.py
    into:
      - path: test/registered/kernels/ops/layernorm/test_rms.py
        take: [test_rms*]
      - path: test/registered/kernels/ops/layernorm/test_norm.py
        take: [rest]
"""
    )
    prep = prepared(
        make_repo,
        tmp_path,
        {
            "test/registered/kernels/test_norm.py": "def test_rms():\n    pass\n",
            "ci.yml": "run: pytest test/registered/kernels/test_norm.py\n",
        },
        plan=plan,
    )
    edits, notes = text_file_changes(prep.index, prep.relocation, prep.plan, "ci.yml")
    assert edits == []
    assert "split into" in notes[0].message


def test_root_relative_path_leaving_its_root_needs_review(make_repo, tmp_path):
    plan = """\
    version: 1
    roots: [python, .]
    moves:
      - from: python/sglang/jit_kernel/csrc
        to: csrc/norm
    """
    prep = prepared(
        make_repo, tmp_path, {"docs/a.md": "see sglang/jit_kernel/csrc/norm.cuh\n"}, plan=plan
    )
    (edit,) = text_file_edits(prep.index, prep.relocation, prep.plan, "docs/a.md")
    assert edit.new == "csrc/norm/norm.cuh"
    assert edit.applicability == "review"


def test_idempotent(docs):
    """Rewriting the rewritten text changes nothing more (OpenRewrite's run-twice check)."""
    once = rewrite(docs, "docs/kernels.md")
    docs.index._text["docs/kernels.md"] = once
    assert text_file_edits(docs.index, docs.relocation, docs.plan, "docs/kernels.md") == []


NESTED_PLAN = """\
version: 1
roots: [python, .]
moves:
  - from: sglang.jit_kernel
    to: sglang.kernels.ops.attention.jit
  - from: sglang.jit_kernel.norm
    to: sglang.kernels.ops.layernorm.rms
  - from: "sglang.jit_kernel.rope:apply_rope"
    to: sglang.kernels.ops.attention.rotary
"""


def test_from_import_of_moved_submodules_in_docs(make_repo, tmp_path):
    doc = (
        "```python\n"
        "from sglang.jit_kernel import norm\n"
        "from sglang.jit_kernel import norm as n, rope\n"
        ">>> from sglang.jit_kernel.rope import apply_rope, other  # doctest\n"
        "```\n"
        "Say from sglang.jit_kernel import norm, rope in a sentence.\n"
        "from sglang.jit_kernel import everything you need\n"
    )
    prep = prepared(make_repo, tmp_path, {"docs/a.md": doc}, plan=NESTED_PLAN)
    edits, notes = text_file_changes(prep.index, prep.relocation, prep.plan, "docs/a.md")
    assert apply_edits(doc, edits) == (
        "```python\n"
        "from sglang.kernels.ops.layernorm import rms as norm\n"
        "from sglang.kernels.ops.layernorm import rms as n\n"
        "from sglang.kernels.ops.attention.jit import rope\n"
        ">>> from sglang.kernels.ops.attention.rotary import apply_rope\n"
        ">>> from sglang.kernels.ops.attention.jit.rope import other  # doctest\n"
        "```\n"
        "Say from sglang.jit_kernel import norm, rope in a sentence.\n"
        "from sglang.kernels.ops.attention.jit import everything you need\n"
    )
    (note,) = notes
    assert "split this import by hand" in note.message and note.pos.line == 6


def test_pyi_stubs_are_rewritten_as_code(make_repo, tmp_path):
    prep = prepared(
        make_repo,
        tmp_path,
        {
            "python/sglang/stubs.pyi": "from sglang.jit_kernel.norm import rmsnorm as rmsnorm\n",
        },
    )
    (edit,) = text_file_edits(prep.index, prep.relocation, prep.plan, "python/sglang/stubs.pyi")
    assert (edit.kind, edit.new) == ("code", "sglang.kernels.ops.layernorm.norm")


def test_top_level_names_alone_are_words(make_repo, tmp_path):
    plan = """\
    version: 1
    roots: [.]
    moves:
      - from: bench
        to: tools.bench
      - from: tools_old/run_all.sh
        to: scripts/run_all.sh
    """
    doc = "Run the bench: python -m bench.main, see bench/README, then tools_old/run_all.sh.\n"
    prep = prepared(
        make_repo,
        tmp_path,
        {
            "bench/__init__.py": "",
            "bench/main.py": "",
            "bench/README": "x\n",
            "tools_old/run_all.sh": "true\n",
            "docs/a.md": doc,
        },
        plan=plan,
        base=None,
    )
    assert rewrite(prep, "docs/a.md") == (
        "Run the bench: python -m tools.bench.main, see tools/bench/README, "
        "then scripts/run_all.sh.\n"
    )


def test_nested_path_move_overrides_package_move(make_repo, tmp_path):
    plan = """\
    version: 1
    roots: [python, .]
    moves:
      - from: sglang.jit_kernel
        to: sglang.kernels.ops.attention.jit
      - from: python/sglang/jit_kernel/csrc/
        to: python/sglang/kernels/jit/csrc/
    """
    prep = prepared(
        make_repo, tmp_path, {"docs/a.md": "python/sglang/jit_kernel/csrc/norm.cuh\n"}, plan=plan
    )
    assert rewrite(prep, "docs/a.md") == "python/sglang/kernels/jit/csrc/norm.cuh\n"

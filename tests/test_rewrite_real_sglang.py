"""The engine on the real SGLang 0.5.15 wheel with the real plan (downloaded once, cached).

Every Python file that named `sglang.jit_kernel` is rewritten (nothing skipped, no
directory forgotten), what is left is reported with its place, the result parses, and
the text scan keeps libcst off the untouched files.
"""

from __future__ import annotations

import ast
import shutil

import pytest
from helpers import PLANS, init_repo
from rewrite_helpers import apply_changeset

from migrate.oldnames import OldNames
from migrate.pipeline import prepare
from migrate.rewrite import scan
from migrate.rewrite.engine import plan_changes

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def real(tmp_path_factory):
    import realtrees

    try:
        tree = realtrees.sglang_tree("0.5.15")
    except realtrees.Unavailable as exc:  # no registry access
        pytest.skip(str(exc))
    repo = tmp_path_factory.mktemp("real") / "sglang"
    shutil.copytree(tree, repo, ignore=shutil.ignore_patterns(".complete"))
    init_repo(repo)
    prep = prepare(PLANS / "sglang-0.5.15-jit-to-ops.yaml", repo)
    cs = plan_changes(prep, skip_unparsable=True)
    out = tmp_path_factory.mktemp("real_out") / "sglang"
    shutil.copytree(repo, out, ignore=shutil.ignore_patterns(".git"))
    apply_changeset(out, prep, cs)
    return prep, cs, out


def test_scan_keeps_libcst_off_most_files(real):
    prep, _, _ = real
    found = scan.candidates(prep.index, prep.relocation, prep.plan)
    python = [p for p in prep.index.python_files()]
    assert len([p for p in found if p.endswith(".py")]) < len(python) / 4


def test_no_stale_python_reference_left_unreported(real):
    prep, cs, out = real
    regex = scan.old_name_regex(prep.relocation, prep.plan)
    flagged = {(n.pos.file, n.pos.line) for n in cs.notes}
    parents = OldNames(prep.relocation, prep.plan).parents
    left = []
    for path in sorted(out.rglob("*.py")):
        rel = path.relative_to(out).as_posix()
        text = path.read_text(encoding="utf-8-sig")
        for m in regex.finditer(text):
            if m.group(0).startswith("from ") or m.group(0) in parents:
                continue  # `from sglang import x`, `f"sglang.{x}"`: about unmoved names
            line = text.count("\n", 0, m.start()) + 1
            if (rel, line) not in flagged:
                left.append(f"{rel}:{line}: {m.group(0)}")
    assert left == []


def test_every_rewritten_file_parses(real):
    _, cs, out = real
    for path in sorted({e.path for e in cs.edits if e.path.endswith(".py")}):
        ast.parse((out / path).read_text(encoding="utf-8-sig"), filename=path)

"""One name authority, one `OldNames` scanner: the report, verify, `stale` and `fix` agree.

The defect pinned here: the report's leftover scan had its own regex and found nothing for
an old path spelled root-relative (`sglang/jit_kernel/csrc/a.cuh`) or an old op id, both of
which verify's old-names check flagged.
"""

from __future__ import annotations

from pathlib import Path

from migrate.commands.fix import write_edits
from migrate.index import build_index
from migrate.oldnames import OldNames
from migrate.plan import load_plan
from migrate.relocate import plan_relocation
from migrate.report.leftovers import scan_leftovers
from migrate.rewrite.fix_mode import fix_changes
from migrate.verify.names import scan_text
from migrate.verify.stale import stale_references

PLAN = """\
version: 1
roots: [python]
moves:
  - from: sglang.jit_kernel.norm
    to: sglang.kernels.ops.layernorm.norm
  - from: python/sglang/jit_kernel/csrc
    to: python/sglang/kernels/csrc
op_ids:
  - from: jit.rmsnorm
    to: layernorm.rmsnorm
delete: [sglang.jit_kernel]
"""

HEAD = {
    "python/sglang/__init__.py": "",
    "python/sglang/kernels/ops/layernorm/norm.py": (
        "from sglang.jit_kernel.norm import rmsnorm\n"
        "SOURCES = ['sglang/jit_kernel/csrc/a.cuh']\n"
        "OP = 'jit.rmsnorm'\n"
        "NOT_OP = 'jit.rmsnorm_extra'\n"
        "KEEP = 'sglang.kernels.ops.layernorm.norm'\n"
    ),
    "docs/kernels.md": (
        "Sources live in `python/sglang/jit_kernel/csrc/a.cuh` and `sglang/jit_kernel/csrc/`.\n"
        "The op is registered as `jit.rmsnorm`; the helper is sglang.jit_kernel.utils.\n"
    ),
}


def _plan(tmp_path: Path):
    path = tmp_path / "plan.yaml"
    path.write_text(PLAN)
    plan, errors = load_plan(path)
    assert not errors
    return plan


def test_report_leftovers_find_what_verify_flags_path_and_op_id_spellings(tmp_path):
    plan = _plan(tmp_path)
    rel = plan_relocation(plan)
    assert rel.op_id("jit.rmsnorm") == "layernorm.rmsnorm"
    assert rel.spelled_path("sglang/jit_kernel/csrc/a.cuh", plan.roots) == (
        "sglang/kernels/csrc/a.cuh",
        True,
    )
    names = OldNames(rel, plan)
    leftovers = scan_leftovers(HEAD, HEAD.get, rel, plan)
    verify = [f for p, t in sorted(HEAD.items()) for f in scan_text(p, t, names, "old-names")]
    found = {(x.file, x.line, x.name) for x in leftovers}
    assert found == {(f.file, f.line, f.message.removeprefix("old name ")) for f in verify}
    code = "python/sglang/kernels/ops/layernorm/norm.py"
    assert found == {
        (code, 1, "sglang.jit_kernel.norm"),
        (code, 2, "sglang/jit_kernel/csrc/a.cuh"),
        (code, 3, "jit.rmsnorm"),
        ("docs/kernels.md", 1, "python/sglang/jit_kernel/csrc/a.cuh"),
        ("docs/kernels.md", 1, "sglang/jit_kernel/csrc"),
        ("docs/kernels.md", 2, "sglang.jit_kernel.utils"),
    }
    # The op id in prose is not a quoted literal: only the code spelling is an op id.
    fixes = {(f.file, f.line): f.fix for f in verify}
    assert fixes[(code, 2)] == "now sglang/kernels/csrc/a.cuh"
    assert fixes[(code, 3)] == "now layernorm.rmsnorm"
    assert "fix by hand" in fixes[("docs/kernels.md", 2)]


def test_stale_and_fix_agree(make_repo, tmp_path):
    plan = _plan(tmp_path)
    repo = make_repo(HEAD)
    findings = stale_references(repo, [plan])
    assert findings
    cs = fix_changes(plan, build_index(repo, plan.roots))
    edited = {(e.path, e.line) for e in cs.edits}
    fixable = {(f.file, f.line) for f in findings if "fix by hand" not in f.fix}
    assert fixable <= edited, fixable - edited
    write_edits(repo, build_index(repo, plan.roots), cs)
    left = stale_references(repo, [plan])
    assert left and all("fix by hand" in f.fix for f in left), [str(f) for f in left]


def test_a_path_hit_is_extended_by_the_rewriters_rule(make_repo, tmp_path):
    """One rule reads the whole name a hit starts (`oldnames.path_at`): an old path with
    a character outside `[\\w.-/]` (`gemm+bias.cu`, `my kernel.cu`) was cut at that
    character by the scanner, so verify, `stale` and the report missed it while the
    rewriter (which extended from the hit's end) moved it."""
    path = tmp_path / "plan.yaml"
    path.write_text(
        "version: 1\nmoves:\n"
        "  - {from: csrc/gemm+bias.cu, to: ops/gemm+bias.cu}\n"
        "  - {from: csrc/my kernel.cu, to: ops/my kernel.cu}\n"
    )
    plan, errors = load_plan(path)
    assert not errors
    text = "see csrc/gemm+bias.cu and csrc/my kernel.cu.\n"
    hits = OldNames(plan_relocation(plan), plan).find(text)
    assert [(h.old, h.new) for h in hits] == [
        ("csrc/gemm+bias.cu", "ops/gemm+bias.cu"),
        ("csrc/my kernel.cu", "ops/my kernel.cu"),
    ]
    code = 'SOURCES = ["csrc/gemm+bias.cu", "csrc/my kernel.cu"]  # csrc/gemm+bias.cu\n'
    repo = make_repo({"README.md": text, "build.py": code})
    flagged = {(f.file, f.message) for f in stale_references(repo, [plan])}
    assert flagged == {
        (file, f"old name csrc/{name}")
        for file in ("README.md", "build.py")
        for name in ("gemm+bias.cu", "my kernel.cu")
    }
    cs = fix_changes(plan, build_index(repo, plan.roots))
    assert sorted((e.path, e.old, e.new) for e in cs.edits) == [
        (file, f"csrc/{name}", f"ops/{name}")
        for file, name in [
            ("README.md", "gemm+bias.cu"),
            ("README.md", "my kernel.cu"),
            ("build.py", "gemm+bias.cu"),
            ("build.py", "gemm+bias.cu"),
            ("build.py", "my kernel.cu"),
        ]
    ]


def test_path_spellings_follow_a_relocation_changed_after_they_were_built():
    """The spellings are kept for the last relocation seen, keyed by its contents: a
    relocation changed since (or an equal copy) gets its own answer, never a stale one."""
    from migrate.oldnames import _old_path_spellings, old_path_spellings
    from migrate.relocate import Relocation

    rel = Relocation(
        files={"pkg/data/a.csv": "pkg/tables/a.csv", "pkg/one.txt": "other/one.txt"},
        path_prefixes={"pkg/data": "pkg/tables"},
    )
    first = old_path_spellings(rel, (".",))
    assert first == {"pkg/data", "pkg/one.txt"} == _old_path_spellings(rel, (".",))
    first.add("mutated by the caller")
    assert old_path_spellings(rel, (".",)) == {"pkg/data", "pkg/one.txt"}
    rel.files["pkg/two.txt"] = "other/two.txt"  # changed in place, same object
    assert old_path_spellings(rel, (".",)) == {"pkg/data", "pkg/one.txt", "pkg/two.txt"}
    rel.path_prefixes["pkg"] = "lib"
    assert old_path_spellings(rel, (".",)) == _old_path_spellings(rel, (".",))
    assert old_path_spellings(rel, ("pkg",)) == _old_path_spellings(rel, ("pkg",))


REBOUND_PLAN = "version: 1\nmoves:\n  - from: pkg.old\n    to: pkg.new\n"
REBOUND_USER = """\
import pkg.new.mod
from pkg.new.mod import f

DOC = "pkg.old.mod.f is now pkg.new.mod.f"  # a string keeps the text reading


def by_parameter(pkg):
    return pkg.old.mod.f()


def by_with():
    with open(__file__) as pkg:
        return pkg.old.mod


LEFT = pkg.old.mod.f()
"""


def test_every_consumer_reads_code_chains_by_the_one_binding_model(make_repo, tmp_path):
    """verify's old-names, `migrate stale`, the report's leftovers and `migrate fix` agree
    on a file whose chains are rebound (trial25 A3): the string and the chain through
    `import pkg.new.mod` are old names, the parameter's and the `with` target's are not;
    fix edits exactly the old names it can respell and nothing else."""
    plan_path = tmp_path / "plan.yaml"
    plan_path.write_text(REBOUND_PLAN)
    plan, errors = load_plan(plan_path)
    assert not errors
    files = {
        "pkg/__init__.py": "",
        "pkg/new/__init__.py": "",
        "pkg/new/mod.py": "def f():\n    return 1\n",
        "pkg/user.py": REBOUND_USER,
    }
    repo = make_repo(files)
    index = build_index(repo, plan.roots)
    rel = plan_relocation(plan)
    names = OldNames(rel, plan)
    path, text = "pkg/user.py", REBOUND_USER
    lines = text.splitlines()
    want = [(path, lines.index(x) + 1) for x in lines if x.startswith(("DOC =", "LEFT ="))]
    assert [(f.file, f.line) for f in stale_references(repo, [plan])] == want
    assert [(f.file, f.line) for f in scan_text(path, text, names, "old-names", index)] == want
    leftovers = scan_leftovers([path], index.text, rel, plan, tree=index)
    assert [(x.file, x.line) for x in leftovers] == want
    # without the tree (a text alone) every spelling is kept: the text reading
    assert len(scan_text(path, text, names, "old-names")) == 4
    cs = fix_changes(plan, index)
    assert {(e.path, e.line) for e in cs.edits} == set(want), cs.edits

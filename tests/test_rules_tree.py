"""Tree views: a checkout and the tree a ChangeSet would produce read the same way."""

from __future__ import annotations

from migrate.changes import ChangeSet, Edit, FileMove
from migrate.index import build_index
from migrate.materialize import materialize, text_tree
from migrate.rules import run_rules
from migrate.verify.codetree import CodeTree

FILES = {
    "python/sglang/__init__.py": "",
    "python/sglang/jit_kernel/__init__.py": "",
    "python/sglang/jit_kernel/norm.py": "import triton\n\ndef rmsnorm(x):\n    return x\n",
    "python/sglang/kernels/ops/__init__.py": '_GROUPS = ("layernorm",)\n',
    "python/sglang/kernels/ops/layernorm/__init__.py": (
        "from sglang.kernels.spec import KernelBackend, KernelSpec\n"
        'KernelSpec(op="layernorm.rmsnorm", backend=KernelBackend.TRITON, '
        'target="sglang.jit_kernel.norm:rmsnorm")\n'
    ),
}


def test_tree_module_names_follow_roots():
    t = text_tree(FILES, FILES.__getitem__, ("python", "."))
    assert t.modules["sglang.jit_kernel.norm"] == "python/sglang/jit_kernel/norm.py"
    assert t.package_dir("sglang.kernels.ops") == "python/sglang/kernels/ops"
    assert t.is_module("sglang.kernels")  # namespace package
    assert t.ast("python/sglang/jit_kernel/norm.py") is not None


def _protocol(tree) -> dict:
    """Every answer of the tree protocol (`index.tree.CodeTree`) about FILES' tree."""
    names = ["sglang", "sglang.kernels", "sglang.kernels.ops", "sglang.jit_kernel.norm", "nope"]
    return {
        "paths": tree.paths,
        "roots": tree.roots,
        "modules": tree.modules,
        "exists": [tree.exists(p) for p in [*FILES, "python/sglang", "nope.py"]],
        "module_of": [tree.module_of(p) for p in FILES],
        "is_module": [tree.is_module(n) for n in names],
        "package_dir": [tree.package_dir(n) for n in names],
        "files_under": tree.files_under("python/sglang/kernels"),
        "text": [tree.text(p) for p in FILES],
        "facts": [bool(tree.facts(p)) for p in FILES],
    }


def test_one_tree_protocol_index_materialized_and_verify_trees_agree(make_repo):
    """The checkout's index, a materialized tree (over the index and over texts) and
    verify's tree answer every protocol question alike: one model, several sources."""
    index = build_index(make_repo(FILES), ("python", "."))
    want = _protocol(index)
    assert want["is_module"] == [True, True, True, True, False]
    assert want["package_dir"][2] == "python/sglang/kernels/ops"
    assert _protocol(materialize(ChangeSet(), index)) == want
    assert _protocol(text_tree(FILES, FILES.__getitem__, ("python", "."))) == want
    assert _protocol(CodeTree(index)) == want
    assert run_rules(text_tree(FILES, FILES.__getitem__, ("python", "."))) == run_rules(index)


def test_virtual_tree_applies_moves_edits_writes_and_removals(make_repo):
    repo = make_repo(FILES)
    index = build_index(repo, ("python",))
    init = "python/sglang/kernels/ops/layernorm/__init__.py"
    text = FILES[init]
    old = "sglang.jit_kernel.norm:rmsnorm"
    start = text.index(old)
    cs = ChangeSet(
        moves=[
            FileMove(
                "python/sglang/jit_kernel/norm.py", "python/sglang/kernels/ops/layernorm/norm.py"
            )
        ],
        edits=[
            Edit(
                init,
                start,
                start + len(old),
                old,
                "sglang.kernels.ops.layernorm.norm:rmsnorm",
                "string",
                3,
                1,
                "registry target",
            )
        ],
        writes={
            "python/sglang/kernels/README.md": (
                "code",
                "Operator groups (all populated): `layernorm`.\n",
            )
        },
        removals={"python/sglang/jit_kernel/__init__.py": "delete"},
    )
    t = materialize(cs, index)
    assert "python/sglang/jit_kernel/norm.py" not in t.paths
    assert "python/sglang/jit_kernel/__init__.py" not in t.paths
    assert (
        t.modules["sglang.kernels.ops.layernorm.norm"]
        == "python/sglang/kernels/ops/layernorm/norm.py"
    )
    assert "sglang.kernels.ops.layernorm.norm:rmsnorm" in t.text(init)
    assert t.text("python/sglang/kernels/README.md").startswith("Operator groups")
    # Before: the target resolves into the legacy package (which KO601 reports).
    before = run_rules(index)
    assert {f.check for f in before} >= {"KO601"}
    # After: nothing left of the legacy layout, and the rewritten target resolves.
    after = run_rules(t)
    assert not [f for f in after if f.check in ("KO601", "KO204")], after


def test_virtual_tree_without_the_edit_reports_the_stale_target(make_repo):
    repo = make_repo(FILES)
    index = build_index(repo, ("python",))
    cs = ChangeSet(
        moves=[
            FileMove(
                "python/sglang/jit_kernel/norm.py", "python/sglang/kernels/ops/layernorm/norm.py"
            )
        ]
    )
    stale = [f for f in run_rules(materialize(cs, index)) if f.check == "KO204"]
    assert len(stale) == 1 and "sglang.jit_kernel.norm does not exist" in stale[0].message


def test_plan_findings_for_the_dry_run_and_report(make_repo, tmp_path):
    from migrate.pipeline import prepare
    from migrate.rules.load import fallback_changeset, plan_findings

    repo = make_repo(FILES)
    plan = tmp_path / "plan.yaml"
    plan.write_text(
        "version: 1\nroots: [python]\nmoves:\n"
        "  - from: sglang.jit_kernel.norm\n    to: sglang.kernels.ops.norm\n"
    )
    prep = prepare(plan, repo)
    findings = plan_findings(prep, fallback_changeset(prep))
    assert any(f.check == "KO101" and f.pos.file.endswith("ops/norm.py") for f in findings)

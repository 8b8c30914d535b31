"""groups.remove / groups.rename: plan language, validation and the edits of a retirement."""

from __future__ import annotations

import pytest
from prep_helpers import prepared
from test_groups import OPS_INIT, README, SAMPLE_INIT, SAMPLE_README, TREE

from migrate.changes import apply_edits
from migrate.errors import MigrateError
from migrate.plan import parse_plan
from migrate.rewrite.engine import plan_changes
from migrate.rewrite.groups import _readme_edit

RENAME_TREE = {
    **TREE,
    "python/sglang/kernels/ops/layernorm/__init__.py": "",
    "python/sglang/kernels/ops/layernorm/norm.py": "def rmsnorm(x):\n    return x\n",
    "test/registered/kernels/ops/layernorm/__init__.py": "",
    "test/registered/kernels/ops/layernorm/test_norm.py": (
        "from sglang.kernels.ops.layernorm.norm import rmsnorm\n\n\n"
        "def test_norm():\n    assert rmsnorm(1) == 1\n"
    ),
}
RENAME = """\
version: 1
roots: [python, .]
moves:
  - from: sglang.kernels.ops.layernorm
    to: sglang.kernels.ops.normalization
groups:
  remove: [layernorm]
  add: [normalization]
"""


def test_rename_is_sugar_for_move_remove_add():
    plan, errors = parse_plan(
        "version: 1\ngroups:\n  rename: [{from: layernorm, to: normalization}]\n", "p.yaml"
    )
    assert errors == []
    (mv,) = plan.moves
    assert (mv.src, mv.dst) == ("sglang.kernels.ops.layernorm", "sglang.kernels.ops.normalization")
    assert plan.groups_remove == ("layernorm",)
    assert plan.groups_add == ("normalization",)
    assert (plan.groups_remove[0].pos.line, plan.groups_remove[0].pos.col) == (3, 19)


def test_removing_a_group_with_files_left_is_a_positioned_error(make_repo, tmp_path):
    plan = "version: 1\nroots: [python, .]\ngroups:\n  remove: [layernorm]\n"
    with pytest.raises(MigrateError) as exc:
        prepared(make_repo, tmp_path, {}, plan=plan, base=RENAME_TREE)
    (d,) = exc.value.diagnostics
    assert (d.pos.line, d.pos.col) == (4, 12)
    assert "python/sglang/kernels/ops/layernorm/norm.py" in d.message
    assert "neither moved nor deleted" in d.message


def test_removing_an_unknown_group_is_an_error(make_repo, tmp_path):
    plan = "version: 1\nroots: [python, .]\ngroups:\n  remove: [layernrom]\n"
    with pytest.raises(MigrateError) as exc:
        prepared(make_repo, tmp_path, {}, plan=plan, base=RENAME_TREE)
    assert "did you mean layernorm" in exc.value.diagnostics[0].message


def _after(prep, cs, path):
    return apply_edits(prep.index.text(path), cs.edits_for(path))


def test_rename_updates_groups_imports_readme_and_removes_empty_dirs(make_repo, tmp_path):
    prep = prepared(make_repo, tmp_path, {}, plan=RENAME, base=RENAME_TREE)
    cs = plan_changes(prep)
    assert [n for n in cs.notes if n.severity == "error"] == []
    init = _after(prep, cs, OPS_INIT)
    assert init == SAMPLE_INIT.replace('    "layernorm",\n', '    "normalization",\n').replace(
        "attention, layernorm", "attention, normalization"
    )
    assert _after(prep, cs, README) == SAMPLE_README.replace("`layernorm`", "`normalization`")


def test_readme_drop_keeps_and_last_and_regenerates_drift():
    text = "Operator groups (all populated): `a`, `b` and `c`.\n"
    e = _readme_edit(text, "R.md", [], frozenset({"c"}), ["a", "b"])
    assert apply_edits(text, [e]) == "Operator groups (all populated): `a` and `b`.\n"
    assert e.applicability == "safe"
    e = _readme_edit(text, "R.md", [], frozenset({"b"}), ["a", "c", "d"])
    assert apply_edits(text, [e]) == "Operator groups (all populated): `a`, `c` and `d`.\n"
    assert e.applicability == "review"


RULES_TREE = {
    **TREE,
    "python/sglang/kernels/ops/layernorm/__init__.py": (
        "from sglang.kernels.registry import register_kernel\n"
        "from sglang.kernels.spec import KernelBackend, KernelSpec\n\n"
        'register_kernel(\n    KernelSpec(\n        op="layernorm.rmsnorm",\n'
        "        backend=KernelBackend.TRITON,\n"
        '        target="sglang.kernels.ops.layernorm.norm:rmsnorm",\n    )\n)\n'
    ),
    "python/sglang/kernels/ops/layernorm/norm.py": "def rmsnorm(x):\n    return x\n",
}
BAD_OP_ID = """\
version: 1
roots: [python, .]
op_ids:
  - {from: layernorm.rmsnorm, to: attention.rmsnorm}
"""


def test_dry_run_shows_and_apply_refuses_rule_errors_the_plan_introduces(make_repo, tmp_path):
    from click.testing import CliRunner
    from helpers import git

    from migrate.cli import main

    repo = make_repo(RULES_TREE)
    plan = tmp_path / "bad.yaml"
    plan.write_text(BAD_OP_ID)
    head = git(repo, "rev-parse", "HEAD")
    res = CliRunner().invoke(main, [str(plan), "--dry-run", "--repo", str(repo)])
    assert res.exit_code == 1, res.output
    assert "KO202" in res.output and "introduced by the plan" in res.output
    res = CliRunner().invoke(main, ["apply", str(plan), "--repo", str(repo)])
    assert res.exit_code == 2, res.output
    assert "KO202" in res.output
    assert git(repo, "rev-parse", "HEAD") == head and git(repo, "status", "--porcelain") == ""
    res = CliRunner().invoke(main, ["apply", str(plan), "--repo", str(repo), "--allow-rule-errors"])
    assert res.exit_code == 0, res.output
    assert git(repo, "rev-parse", "HEAD") != head


def test_existing_rule_errors_are_not_blamed_on_the_plan(make_repo, tmp_path):
    from click.testing import CliRunner

    from migrate.cli import main

    tree = dict(RULES_TREE)
    init = "python/sglang/kernels/ops/layernorm/__init__.py"
    tree[init] = tree[init].replace('op="layernorm.rmsnorm"', 'op="attention.rmsnorm"')
    repo = make_repo(tree)
    plan = tmp_path / "ok.yaml"
    plan.write_text(RENAME_OPS_ONLY)
    res = CliRunner().invoke(main, [str(plan), "--dry-run", "--repo", str(repo)])
    assert "introduced by the plan" not in res.output, res.output
    base = CliRunner().invoke(main, ["check", "--repo", str(repo)])
    assert base.exit_code == 1 and "KO202" in base.output  # the error is there, in BASE


RENAME_OPS_ONLY = """\
version: 1
roots: [python, .]
op_ids:
  - {from: unrelated.op, to: unrelated.op2}
"""


def test_regenerated_sentence_keeps_its_wrapping():
    text = "Operator groups (all populated): `activation`, `attention`,\n`gemm`, `moe`.\n"
    after = ["activation", "attention", "gemm", "mm"]
    e = _readme_edit(text, "R.md", [], frozenset({"moe"}), after)
    assert e.applicability == "review"
    assert apply_edits(text, [e]) == (
        "Operator groups (all populated): `activation`, `attention`,\n`gemm`, `mm`.\n"
    )

"""`migrate check`: exit status, text and JSON output, `--plan` on the post-plan tree."""

from __future__ import annotations

import json

from click.testing import CliRunner

from migrate.cli import main

CLEAN = {
    "python/sglang/__init__.py": "",
    "python/sglang/kernels/__init__.py": "",
    "python/sglang/kernels/ops/__init__.py": '_GROUPS = ("layernorm",)\n',
    "python/sglang/kernels/ops/layernorm/__init__.py": "",
    "python/sglang/kernels/README.md": "Operator groups (all populated): `layernorm`.\n",
}
LEGACY = {
    **CLEAN,
    "python/sglang/jit_kernel/__init__.py": "",
    "python/sglang/jit_kernel/norm.py": "def rmsnorm(x, weight):\n    return x\n",
}


def run(*args):
    return CliRunner().invoke(main, ["check", *args])


def test_clean_tree_exits_zero(make_repo):
    res = run("--repo", str(make_repo(CLEAN)))
    assert res.exit_code == 0, res.output
    assert "0 error(s), 0 warning(s)" in res.output


def test_errors_exit_one_with_position_rule_evidence_and_fix(make_repo):
    res = run("--repo", str(make_repo(LEGACY)))
    assert res.exit_code == 1
    assert "python/sglang/jit_kernel/norm.py: KO601 [error]" in res.output
    assert "sglang.kernels.ops.layernorm.norm" in res.output
    assert "evidence: layernorm" in res.output and "fix:" in res.output


def test_json_output(make_repo):
    res = run("--repo", str(make_repo(LEGACY)), "--json")
    doc = json.loads(res.output)
    assert doc["errors"] >= 1 and doc["tree"] == "checkout"
    f = doc["findings"][0]
    assert {
        "file",
        "line",
        "col",
        "check",
        "name",
        "severity",
        "message",
        "evidence",
        "fix",
    } <= set(f)


def test_plan_checks_the_tree_the_plan_would_produce(make_repo, tmp_path):
    repo = make_repo(LEGACY)
    plan = tmp_path / "plan.yaml"
    plan.write_text(
        "version: 1\nroots: [python]\nmoves:\n"
        "  - from: sglang.jit_kernel.norm\n    to: sglang.kernels.ops.layernorm.norm\n"
        "delete: [sglang.jit_kernel]\n"
    )
    res = run("--repo", str(repo), "--plan", str(plan))
    assert res.exit_code == 0, res.output
    assert "checked the tree" in res.output
    assert (repo / "python/sglang/jit_kernel/norm.py").exists()  # nothing written


def test_plan_that_misplaces_a_module_fails(make_repo, tmp_path):
    repo = make_repo(LEGACY)
    plan = tmp_path / "plan.yaml"
    plan.write_text(
        "version: 1\nroots: [python]\nmoves:\n"
        "  - from: sglang.jit_kernel.norm\n    to: sglang.kernels.ops.norm\n"
        "delete: [sglang.jit_kernel]\n"
    )
    res = run("--repo", str(repo), "--plan", str(plan))
    assert res.exit_code == 1
    assert "python/sglang/kernels/ops/norm.py: KO101" in res.output


def test_invalid_plan_exits_two(make_repo, tmp_path):
    plan = tmp_path / "plan.yaml"
    plan.write_text("version: 1\nmoves:\n  - from: sglang.nope\n    to: sglang.kernels.x\n")
    res = run("--repo", str(make_repo(LEGACY)), "--plan", str(plan))
    assert res.exit_code == 2


def test_select_limits_rules(make_repo):
    res = run("--repo", str(make_repo(LEGACY)), "--select", "KO101")
    assert res.exit_code == 0


def test_relative_repo_path_outside_git(make_repo, monkeypatch):
    repo = make_repo(LEGACY, git_init=False)
    monkeypatch.chdir(repo.parent)
    res = run("--repo", repo.name)
    assert res.exit_code == 1 and "KO601" in res.output

"""A plan that founds `sglang.kernels.ops` and retires a re-exporting bundle package.

The real SGLang 0.5.15 -> ops migration needs both: the tree has no ops package yet
(the plan's `groups.add` declares its `_GROUPS`), and a model bundle is split by
computation, so its package, whose `__init__` only re-exported the pieces, is deleted
although it lies inside a moved package. Without them the result fails KO102 (no
`_GROUPS`) and KO504 (a forwarding shim), and apply refuses.
"""

from __future__ import annotations

import subprocess
import sys

from click.testing import CliRunner
from helpers import git

from migrate.cli import main

TREE = {
    "python/sglang/__init__.py": "",
    "python/sglang/jit_kernel/__init__.py": '"""Legacy JIT kernels."""\n',
    "python/sglang/jit_kernel/loader.py": "def load(name):\n    return name\n",
    "python/sglang/jit_kernel/norm.py": "def rmsnorm(x):\n    return x + 1\n",
    "python/sglang/jit_kernel/bundle/__init__.py": (
        '"""Bundle: re-exports its pieces."""\n\n'
        "from sglang.jit_kernel.bundle.rms import gemma_rmsnorm\n"
        "from sglang.jit_kernel.bundle.swiglu import swiglu\n\n"
        '__all__ = ["gemma_rmsnorm", "swiglu"]\n'
    ),
    "python/sglang/jit_kernel/bundle/rms.py": "def gemma_rmsnorm(x):\n    return x * 2\n",
    "python/sglang/jit_kernel/bundle/swiglu.py": "def swiglu(x):\n    return x * 3\n",
    "python/sglang/srt/__init__.py": "",
    "python/sglang/srt/model.py": (
        "from sglang.jit_kernel.bundle import gemma_rmsnorm, swiglu\n"
        "from sglang.jit_kernel.norm import rmsnorm\n\n\n"
        "def forward(x):\n    return swiglu(gemma_rmsnorm(rmsnorm(x)))\n"
    ),
}
PLAN = """\
version: 1
roots: [python, .]
moves:
  - from: sglang.jit_kernel
    to: sglang.kernels.jit
  - from: sglang.jit_kernel.norm
    to: sglang.kernels.ops.layernorm.norm
  - from: sglang.jit_kernel.bundle.rms
    to: sglang.kernels.ops.layernorm.bundle_rms
  - from: sglang.jit_kernel.bundle.swiglu
    to: sglang.kernels.ops.moe.bundle_swiglu
delete: [sglang.jit_kernel.bundle]
groups:
  add: [{groups}]
"""
OPS = "python/sglang/kernels/ops"


def _cli(*args):
    return CliRunner().invoke(main, list(args))


def _run_python(repo, code: str) -> str:
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=repo,
        env={"PYTHONPATH": str(repo / "python"), "PYTHONDONTWRITEBYTECODE": "1"},
        capture_output=True,
        text=True,
        check=True,
    )
    return out.stdout.strip()


def test_a_plan_founds_the_ops_package_and_retires_the_bundle(make_repo, tmp_path):
    repo = make_repo(TREE)
    plan = tmp_path / "plan.yaml"
    plan.write_text(PLAN.format(groups="layernorm, moe"))
    dry = _cli(str(plan), "--dry-run", "--repo", str(repo))
    assert dry.exit_code == 0, dry.output
    assert "KO102" not in dry.output and "KO504" not in dry.output
    assert f"{OPS}/__init__.py" in dry.output
    assert "python/sglang/jit_kernel/bundle/__init__.py  [delete]" in dry.output

    res = _cli("apply", str(plan), "--repo", str(repo))
    assert res.exit_code == 0, res.output
    assert git(repo, "status", "--porcelain") == ""
    files = set(git(repo, "ls-files").split())
    assert f"{OPS}/__init__.py" in files
    assert f"{OPS}/layernorm/__init__.py" in files and f"{OPS}/moe/__init__.py" in files
    assert not any("bundle/" in f for f in files), files  # no package left, moved or not
    model = (repo / "python/sglang/srt/model.py").read_text()
    assert "from sglang.kernels.ops.layernorm.bundle_rms import gemma_rmsnorm" in model
    assert "from sglang.kernels.ops.moe.bundle_swiglu import swiglu" in model

    # the result runs: the founded namespace imports every group, the callers work
    code = (
        "import sglang.kernels.ops as ops, sglang.srt.model as m; "
        "print(ops._GROUPS, ops.__all__, m.forward(1))"
    )
    assert _run_python(repo, code) == "('layernorm', 'moe') ['layernorm', 'moe'] 12"

    check = _cli("check", "--repo", str(repo))
    assert "KO102" not in check.output and "KO504" not in check.output, check.output
    base = git(repo, "rev-list", "--max-parents=0", "HEAD").strip()
    verify = _cli("verify", f"{base}..HEAD", "--repo", str(repo), "--no-wheel")
    assert verify.exit_code == 0, verify.output

    # a second run has nothing left to do
    again = _cli("fix", str(plan), "--repo", str(repo))
    assert again.exit_code == 0, again.output
    assert "0 edit(s) written to 0 file(s)" in again.output
    assert git(repo, "status", "--porcelain") == ""


def test_founding_still_refuses_a_group_nobody_declared(make_repo, tmp_path):
    repo = make_repo(TREE)
    head = git(repo, "rev-parse", "HEAD")
    plan = tmp_path / "plan.yaml"
    plan.write_text(PLAN.format(groups="layernorm"))
    res = _cli("apply", str(plan), "--repo", str(repo))
    assert res.exit_code == 2, res.output
    assert "creates operator group 'moe'" in res.output
    assert f"{plan}:11:" in res.output  # the move into moe, by its target
    assert git(repo, "rev-parse", "HEAD") == head and git(repo, "status", "--porcelain") == ""


def test_a_nested_delete_wins_over_its_parents_move_only_for_what_it_holds(make_repo, tmp_path):
    from prep_helpers import prepared

    prep = prepared(make_repo, tmp_path, {}, plan=PLAN.format(groups="layernorm, moe"), base=TREE)
    rel = prep.relocation
    assert "python/sglang/jit_kernel/bundle/__init__.py" not in rel.files
    assert rel.files["python/sglang/jit_kernel/loader.py"] == "python/sglang/kernels/jit/loader.py"
    assert rel.module("sglang.jit_kernel.bundle") is None
    assert rel.module("sglang.jit_kernel.bundle.rms") == "sglang.kernels.ops.layernorm.bundle_rms"
    assert rel.module("sglang.jit_kernel.loader") == "sglang.kernels.jit.loader"
    assert rel.path("python/sglang/jit_kernel/bundle/") is None
    assert rel.path("python/sglang/jit_kernel/") == "python/sglang/kernels/jit"

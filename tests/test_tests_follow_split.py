"""A test file whose kernels go to two groups is split after them, with the split
machinery (CI registrations kept, budgets apportioned), on a real git repo; the outputs
collect and pass under real pytest and a second engine run changes nothing."""

from __future__ import annotations

import subprocess
import sys

from click.testing import CliRunner
from helpers import git
from regroup_exec import OPS, REGISTRY, apply_twice

from migrate.cli import main
from migrate.pipeline import prepare
from migrate.tests_split.inventory import inventory_of_texts

TESTS = "test/registered/kernels/ops"
SOURCE = f"{TESTS}/quantization/test_quant.py"
TEST = '''"""Quantization kernels."""

import sys

import pytest

from sglang.kernels.ops.quantization import pack as pack_mod
from sglang.kernels.ops.quantization.awq import awq_dequant
from sglang.kernels.ops.quantization.fp8 import fp8_quant
from sglang.test.ci.ci_register import register_amd_ci, register_cuda_ci

# ci-cost-override: measured on H200
register_cuda_ci(est_time=40, stage="base-b-kernel-unit", runner_config="1-gpu-large")
register_amd_ci(est_time=20, suite="amd-kernel")


def _ref(x):
    return x * 2


@pytest.mark.parametrize("x", [1, 2, 3])
def test_fp8(x):
    assert fp8_quant(x) == _ref(x)


class TestAwq:
    def test_dequant(self):
        assert awq_dequant(1) == 2


def test_pack():
    assert pack_mod.pack(3) == 3


def test_no_kernel():
    assert _ref(1) == 2


if __name__ == "__main__":
    sys.exit(pytest.main([__file__]))
'''
TREE = {
    **REGISTRY,
    f"{OPS}/__init__.py": '_GROUPS = ("gemm", "moe", "quantization")\n',
    f"{OPS}/gemm/__init__.py": "",
    f"{OPS}/moe/__init__.py": "",
    f"{OPS}/quantization/__init__.py": "",
    f"{OPS}/quantization/fp8.py": "def fp8_quant(x):\n    return x * 2\n",
    f"{OPS}/quantization/awq.py": "def awq_dequant(x):\n    return x + 1\n",
    f"{OPS}/quantization/pack.py": "def pack(x):\n    return x\n",
    "python/sglang/test/__init__.py": "",
    "python/sglang/test/ci/__init__.py": "",
    "python/sglang/test/ci/ci_register.py": (
        "def register_cuda_ci(*args, **kwargs):\n    pass\n\n\n"
        "def register_amd_ci(*args, **kwargs):\n    pass\n"
    ),
    SOURCE: TEST,
}
PLAN = """\
version: 1
roots: [python, .]
moves:
  - from: sglang.kernels.ops.quantization.fp8
    to: sglang.kernels.ops.gemm.fp8
  - from: sglang.kernels.ops.quantization.awq
    to: sglang.kernels.ops.moe.awq
"""
GEMM, MOE = f"{TESTS}/gemm/test_quant.py", f"{TESTS}/moe/test_quant.py"


def _budgets(texts: dict[str, str]) -> dict[str, dict[str, int]]:
    """{path: {effective suite: est_time}} as CI reads them."""
    inv = inventory_of_texts(texts)
    return {
        path: {r.effective_suite: r.est_time for r in fi.registrations}
        for path, fi in inv.files.items()
    }


def test_each_test_follows_its_kernels_budgets_apportioned_and_outputs_pass(make_repo, tmp_path):
    repo = apply_twice(make_repo, tmp_path, TREE, PLAN)
    texts = {p: (repo / p).read_text() for p in (GEMM, MOE, SOURCE)}
    assert "def test_fp8" in texts[GEMM] and "class TestAwq" not in texts[GEMM]
    assert "from sglang.kernels.ops.gemm.fp8 import fp8_quant" in texts[GEMM]
    assert "awq" not in texts[GEMM] and "pack_mod" not in texts[GEMM]
    assert "class TestAwq" in texts[MOE] and "def test_fp8" not in texts[MOE]
    assert "def test_pack" in texts[SOURCE] and "def test_no_kernel" in texts[SOURCE]
    assert "fp8" not in texts[SOURCE] and "awq" not in texts[SOURCE]
    for text in texts.values():  # every output keeps its registrations and their comment
        assert "# ci-cost-override: measured on H200\nregister_cuda_ci(" in text
        assert 'if __name__ == "__main__":' in text
    budgets = _budgets(texts)
    for suite, total in (("base-b-kernel-unit-test-1-gpu-large", 40), ("amd-kernel", 20)):
        shares = {p: b[suite] for p, b in budgets.items()}
        assert sum(shares.values()) == total  # apportioned, never duplicated
        assert shares[GEMM] == total // 2  # 3 of the 6 cases
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--import-mode=importlib"]
        + [GEMM, MOE, SOURCE],
        cwd=repo,
        env={"PYTHONPATH": str(repo / "python"), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0 and "6 passed" in proc.stdout, proc.stdout + proc.stderr
    base = git(repo, "rev-list", "--max-parents=0", "HEAD").strip()
    res = CliRunner().invoke(main, ["verify", f"{base}..HEAD", "--repo", str(repo), "--no-wheel"])
    assert "verify: PASS" in res.output and "tests-kept" in res.output, res.output


def test_the_dry_run_lists_the_split(make_repo, tmp_path):
    repo = make_repo(TREE)
    plan = tmp_path / "plan.yaml"
    plan.write_text(PLAN)
    res = CliRunner().invoke(main, [str(plan), "--dry-run", "--repo", str(repo)])
    assert res.exit_code == 0, res.output
    assert "tests split after their kernels' groups (1):" in res.output
    assert f"{SOURCE} -> {GEMM}, {MOE}, {SOURCE}" in res.output
    assert git(repo, "status", "--porcelain") == ""


def test_a_test_using_kernels_of_two_groups_is_reported_not_split(make_repo, tmp_path):
    mixed = TEST.replace(
        "        assert awq_dequant(1) == 2\n", "        assert awq_dequant(fp8_quant(1)) == 3\n"
    )
    repo = make_repo({**TREE, SOURCE: mixed})
    plan = tmp_path / "plan.yaml"
    plan.write_text(PLAN)
    prep = prepare(plan, repo)
    assert prep.derived_splits == {} and prep.plan.splits == ()
    (note,) = [n for n in prep.followed.notes if n.pos.file == SOURCE]
    assert note.severity == "warning"
    assert "its test TestAwq uses kernels going to groups gemm, moe" in note.message

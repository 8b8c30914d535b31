"""The kernel test layout (`migrate.layout.tests`) and the rules that hold plans to it."""

from __future__ import annotations

from migrate.layout.tests import (
    group_test_dir,
    group_test_dirs,
    is_benchmark_name,
    is_test_file,
    kernel_test_path,
)
from migrate.rules import run_rules
from migrate.rules.load import plan_tree

TREE = {
    "python/sglang/__init__.py": "",
    "python/sglang/kernels/__init__.py": "",
    "python/sglang/kernels/ops/__init__.py": '_GROUPS = ("layernorm", "attention")\n',
    "python/sglang/kernels/ops/layernorm/__init__.py": "",
    "python/sglang/kernels/ops/attention/__init__.py": "",
    "python/sglang/jit_kernel/__init__.py": "",
    "python/sglang/jit_kernel/norm.py": "def rmsnorm(x):\n    return x\n",
    "test/registered/kernels/test_norm.py": (
        "from sglang.jit_kernel.norm import rmsnorm\n"
        "from sglang.test.ci.ci_register import register_cuda_ci\n\n"
        'register_cuda_ci(est_time=10, suite="unit")\n\n\ndef test_a():\n    pass\n\n\n'
        "def test_b():\n    pass\n"
    ),
    "test/registered/kernels/bench_norm.py": (
        "import sglang.jit_kernel.norm\n"
        "from sglang.test.ci.ci_register import register_cuda_ci\n\n"
        'register_cuda_ci(est_time=30, suite="bench")\n\n\ndef test_bench():\n    pass\n'
    ),
    "test/registered/unit/test_scheduler.py": "def test_s():\n    pass\n",
}

PLAN = """\
version: 1
roots: [python]
moves:
  - from: test/registered/kernels/bench_norm.py
    to: test/registered/kernels/ops/layernorm/bench_norm.py
  - from: test/registered/unit/test_scheduler.py
    to: test/registered/unit/sched/test_scheduler.py
splits:
  - file: test/registered/kernels/test_norm.py
    into:
      - path: test/registered/kernels/ops/layernorm/test_a.py
        take: [test_a]
      - path: test/registered/kernels/ops/norms/test_b.py
        take: [rest]
"""


def test_misplaced_kernel_tests_are_findings_on_the_plans_tree(make_repo, tmp_path):
    """A plan that files tests in the wrong place gets the layout rules' findings on the
    tree it would produce (what `check --plan` and the dry run show)."""
    repo = make_repo(TREE)
    plan = tmp_path / "plan.yaml"
    plan.write_text(PLAN)
    tree, source = plan_tree(plan, repo)
    assert source == "engine"
    found = {(f.check, f.pos.file, f.severity) for f in run_rules(tree, {"KO502", "KO103"})}
    assert found == {
        ("KO502", "test/registered/kernels/ops/layernorm/bench_norm.py", "warning"),
        ("KO103", "test/registered/kernels/ops/norms/", "error"),
    }


def test_kernel_test_paths():
    t = kernel_test_path("repo/test/registered/kernels/ops/gemm/sub/test_x.py")
    assert (t.root, t.kind, t.group, t.base) == ("repo/", "ops", "gemm", "test_x.py")
    flat = kernel_test_path("test/registered/kernels/test_x.py")
    assert (flat.root, flat.in_group_dir, flat.kind, flat.group) == ("", False, None, None)
    assert kernel_test_path("test/registered/kernels/ops/gemm").in_group_dir is False
    assert kernel_test_path("xtest/registered/kernels/ops/gemm/test_x.py") is None
    assert kernel_test_path("test/registered/kernels/") is None
    assert kernel_test_path("test/registered/kernels/ops/moe/conftest.py").is_package_file
    assert group_test_dir("benchmark", "moe", "r/") == "r/test/registered/kernels/benchmark/moe"
    assert group_test_dirs(
        [
            "test/registered/kernels/ops/moe/test_a.py",
            "test/registered/kernels/ops/moe/test_b.py",
            "test/registered/kernels/ops/test_flat.py",
            "test/registered/kernels/benchmark/__pycache__/x.pyc",
        ]
    ) == {("ops", "moe"): "test/registered/kernels/ops/moe"}


def test_test_and_benchmark_names():
    assert is_test_file("a/test_x.py") and is_test_file("x_test.py")
    assert not is_test_file("a/test_x.txt") and not is_test_file("helpers.py")
    assert is_benchmark_name("bench_x.py") and is_benchmark_name("x_benchmark.py")
    assert not is_benchmark_name("test_bench.py")

"""Moved and split-out kernel tests must land where the layout rules put them."""

from __future__ import annotations

from conftest import PLANS

from migrate.index import build_index
from migrate.plan.load import parse_plan
from migrate.tests_split.placement import check_destination, placement_warnings

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


def test_misplaced_kernel_tests_warn_with_plan_positions(make_repo):
    repo = make_repo(TREE)
    plan, errors = parse_plan(PLAN, "plan.yaml")
    assert not errors
    warnings = [str(d) for d in placement_warnings(plan, build_index(repo, plan.roots))]
    assert warnings == [
        "plan.yaml:4:5: warning: test/registered/kernels/ops/layernorm/bench_norm.py: a "
        "benchmark belongs in test/registered/kernels/benchmark/<group>/",
        "plan.yaml:13:9: warning: test/registered/kernels/ops/norms/test_b.py: 'norms' is not "
        "an ops group (attention, layernorm)",
    ]


def test_destination_rules():
    groups = {"gemm", "moe"}
    assert (
        check_destination("test/registered/kernels/ops/gemm/test_x.py", True, False, groups) is None
    )
    assert (
        check_destination("test/registered/kernels/benchmark/moe/b.py", True, True, groups) is None
    )
    assert check_destination("test/registered/unit/kernels/test_ns.py", True, False, groups) is None
    assert check_destination("test/manual/kernels/smoke.py", False, False, groups) is None
    assert "no registered test may live under python/" in check_destination(
        "python/sglang/kernels/ops/gemm/test_x.py", True, False, groups
    )
    assert "group directory" in check_destination(
        "test/registered/kernels/ops/test_x.py", True, False, groups
    )
    assert "belongs in test/registered/kernels/ops/<group>/" in check_destination(
        "test/manual/kernels/test_x.py", True, False, groups
    )


def test_the_sample_plan_places_every_kernel_test(sample_copy):
    from migrate.pipeline import prepare

    prep = prepare(PLANS / "sample-jit-to-ops.yaml", sample_copy)
    assert placement_warnings(prep.plan, prep.index) == []

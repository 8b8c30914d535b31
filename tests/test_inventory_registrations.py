"""CI registrations are read exactly as SGLang's CI reads them: top level, bare names, literals."""

from __future__ import annotations

from migrate.tests_split.registrations import parse_registrations

SOURCE = """\
from sglang.test.ci import ci_register
from sglang.test.ci.ci_register import register_amd_ci, register_cpu_ci, register_cuda_ci

# ci-cost-override: H100 numbers
# backend-specific: CUDA only


register_cuda_ci(est_time=30, stage="base-b-kernel-unit", runner_config="1-gpu-large")
register_cuda_ci(600, None, True, stage="nightly-kernel", runner_config="1-gpu")
x = 1
register_amd_ci(
    est_time=20,
    suite="stage-a-test-1-amd",
    disabled="hangs on MI300 #123 until 2026-12-31",
    in_process_group=True,
)
register_cpu_ci(est_time=5, suite="base-a-test-cpu")  # legacy suite=
ci_register.register_cuda_ci(est_time=99, suite="attribute-call-does-not-count")
if True:
    register_cuda_ci(est_time=99, suite="nested-does-not-count")


def f():
    register_cuda_ci(est_time=99, suite="in-function-does-not-count")


register_npu_ci(est_time=ESTIMATE, sute="typo")
"""


def test_only_top_level_bare_name_calls_count():
    regs = parse_registrations(SOURCE)
    assert [(r.backend, r.effective_suite) for r in regs] == [
        ("cuda", "base-b-kernel-unit-test-1-gpu-large"),
        ("cuda", "nightly-kernel-test-1-gpu"),
        ("amd", "stage-a-test-1-amd"),
        ("cpu", "base-a-test-cpu"),
        ("npu", None),
    ]


def test_fields_positional_and_keyword():
    cuda, nightly, amd, cpu, _ = parse_registrations(SOURCE)
    assert (cuda.est_time, cuda.stage, cuda.runner_config, cuda.nightly) == (
        30,
        "base-b-kernel-unit",
        "1-gpu-large",
        False,
    )
    assert (nightly.est_time, nightly.nightly, nightly.suite) == (600, True, None)
    assert amd.disabled == "hangs on MI300 #123 until 2026-12-31"
    assert amd.in_process_group is True
    assert (amd.line, amd.end_line) == (11, 16)
    assert cpu.budget_key == ("cpu", "base-a-test-cpu", False)


def test_comments_within_three_lines_above_travel_with_the_call():
    cuda, nightly, amd, cpu, _ = parse_registrations(SOURCE)
    # two blank lines between: the comment 3 lines up is in the window, 4 up is not
    assert cuda.comments == ("# backend-specific: CUDA only",)
    assert nightly.comments == ()
    assert amd.comments == ()


def test_problems_are_reported_not_raised():
    npu = parse_registrations(SOURCE)[-1]
    assert npu.est_time is None
    assert set(npu.problems) == {
        "unknown argument 'sute'",
        "est_time is not a literal",
        "no suite: give suite= or both stage= and runner_config=",
    }
    assert npu.to_json()["effective_suite"] is None

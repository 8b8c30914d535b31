"""Module-level skips, markers and registration problems the inventory must show."""

import sys

import pytest

from sglang.test.ci.ci_register import register_cpu_ci, register_npu_ci

pytestmark = [pytest.mark.skipif(sys.platform == "win32", reason="no Triton"), pytest.mark.slow]
triton = pytest.importorskip("triton")
if sys.version_info < (3, 10):
    pytest.skip("needs 3.10", allow_module_level=True)

ESTIMATE = 30
register_cpu_ci(est_time=12, suite="base-a-test-cpu")
register_npu_ci(est_time=ESTIMATE, stage="per-commit", runner_config="1-npu-a2")


@pytest.mark.parametrize("x,y", [(1, "a"), (2, "b")], ids=lambda v: f"v{v}")
def test_pairs(x, y):
    pass


class TestNoInit:
    def test_one(self):
        pass

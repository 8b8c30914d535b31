"""Every way a split plan can lose or duplicate tests, in one file."""

import unittest

from sglang.test.ci.ci_register import register_cuda_ci

# est_time 1 cannot give each of two outputs a second of budget
register_cuda_ci(est_time=1, stage="base-b-kernel-unit", runner_config="1-gpu-small")


class TestBase(unittest.TestCase):
    def test_shared_behaviour(self):
        self.assertTrue(True)


class TestDerived(TestBase):
    """Inherits test_shared_behaviour: taking it without TestBase runs that twice."""

    def test_more(self):
        self.assertEqual(1, 1)


def test_orphan():
    """No take pattern matches this one and no output takes `rest`."""


def test_claimed_twice():
    pass


if __name__ == "__main__":
    unittest.main()

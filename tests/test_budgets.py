"""est_time apportioning: exact sums, largest remainder, no free output, measured weights."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from migrate.errors import Pos
from migrate.plan.model import Split, SplitOutput
from migrate.tests_split.budgets import apportion, durations_for_file, load_junit_durations
from migrate.tests_split.split import split_file


def test_seven_seconds_over_five_three_one_cases():
    # exact shares 3.89 / 2.33 / 0.78: floors 3/2/0, the two largest remainders get +1
    assert apportion(7, [5, 3, 1]) == [4, 2, 1]


@pytest.mark.parametrize(
    ("total", "weights", "expected"),
    [
        (10, [1, 1, 1], [4, 3, 3]),  # tie: the earlier output gets the extra second
        (100, [5, 3, 1], [56, 33, 11]),
        (3, [10, 1, 1], [1, 1, 1]),  # the 0-second outputs take 1 s from the largest share
        (2, [5, 3, 1], [1, 1, 0]),  # too little to go round: split_file reports an error
        (5, [0, 0], [3, 2]),  # no weight at all: share evenly
        (0, [1, 2], [0, 0]),
    ],
)
def test_apportion_cases(total, weights, expected):
    assert apportion(total, weights) == expected


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 5000), st.lists(st.integers(0, 50), min_size=1, max_size=8))
def test_apportion_conserves_and_never_starves(total, weights):
    shares = apportion(total, weights)
    assert sum(shares) == total and all(s >= 0 for s in shares)
    if total >= len(weights):
        assert all(s >= 1 for s, w in zip(shares, weights, strict=True) if w > 0)


JUNIT = """<?xml version="1.0" encoding="utf-8"?>
<testsuites><testsuite name="pytest" tests="4">
<testcase classname="test.legacy.test_mix.TestA" name="test_one" time="9.0"/>
<testcase classname="test.legacy.test_mix" name="test_b[1]" time="0.5"/>
<testcase classname="test.legacy.test_mix" name="test_b[2]" time="0.5"/>
<testcase classname="other.test_zzz" name="test_b[1]" time="99"/>
</testsuite></testsuites>
"""

SOURCE = """\
import unittest
import pytest
from sglang.test.ci.ci_register import register_cuda_ci

register_cuda_ci(est_time=100, stage="base-b-kernel-unit", runner_config="1-gpu-small")


class TestA(unittest.TestCase):
    def test_one(self):
        pass


@pytest.mark.parametrize("n", [1, 2])
def test_b(n):
    pass
"""

SPLIT = Split(
    "test/legacy/test_mix.py",
    (
        SplitOutput("a/test_a.py", ("TestA",), Pos("plan.yaml", 3, 9)),
        SplitOutput("b/test_b.py", ("rest",), Pos("plan.yaml", 5, 9)),
    ),
    Pos("plan.yaml", 2, 3),
)


def test_junit_durations_are_matched_to_cases_of_the_file(tmp_path):
    xml = tmp_path / "junit.xml"
    xml.write_text(JUNIT)
    durations = durations_for_file(load_junit_durations(xml), "test/legacy/test_mix.py")
    assert durations == {"TestA::test_one": 9.0, "test_b[1]": 0.5, "test_b[2]": 0.5}


def test_measured_durations_drive_the_shares_and_unit_limit_warns():
    durations = durations_for_file(load_junit_durations(JUNIT), "test/legacy/test_mix.py")
    res = split_file(SOURCE, SPLIT.file, SPLIT, durations)
    assert [s for _, s in res.budgets["a/test_a.py"]] == [90]
    assert [s for _, s in res.budgets["b/test_b.py"]] == [10]
    assert "est_time=90," in res.outputs["a/test_a.py"]
    assert [str(n) for n in res.notes] == [
        "test/legacy/test_mix.py:5:1: warning: a/test_a.py: unit test budget 90 s for "
        "base-b-kernel-unit-test-1-gpu-small is over 60 s"
    ]


def test_split_file_takes_a_junit_file_directly(tmp_path):
    xml = tmp_path / "junit.xml"
    xml.write_text(JUNIT)
    for measured in (xml, load_junit_durations(xml)):
        res = split_file(SOURCE, SPLIT.file, SPLIT, measured)
        assert [s for _, s in res.budgets["a/test_a.py"]] == [90]


def test_counts_are_used_when_a_case_has_no_measurement():
    res = split_file(SOURCE, SPLIT.file, SPLIT, {"TestA::test_one": 9.0})
    assert [s for _, s in res.budgets["a/test_a.py"]] == [33]  # 1 of 3 cases: 33.3 s
    assert any("no measured duration" in n.message and n.severity == "warning" for n in res.notes)


def test_positional_est_time_is_rewritten_in_place():
    src = SOURCE.replace('est_time=100, stage="base-b-kernel-unit"', '9, stage="nightly"')
    res = split_file(src, SPLIT.file, SPLIT)
    assert 'register_cuda_ci(3, stage="nightly"' in res.outputs["a/test_a.py"]
    assert 'register_cuda_ci(6, stage="nightly"' in res.outputs["b/test_b.py"]
    assert res.ok


def test_fractional_est_time_is_rounded_with_a_warning():
    res = split_file(SOURCE.replace("est_time=100", "est_time=7.6"), SPLIT.file, SPLIT)
    assert [s for out in res.budgets.values() for _, s in out] == [3, 5]
    assert [n.severity for n in res.notes] == ["warning"]

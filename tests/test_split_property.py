"""Property: random test files split at random never lose or duplicate a case, conserve
est_time per suite exactly, and give outputs with no undefined and no unused names."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from migrate.errors import Pos
from migrate.plan.model import Split, SplitOutput
from migrate.tests_split.cases import parse_cases
from migrate.tests_split.registrations import parse_registrations
from migrate.tests_split.split import split_file

BACKENDS = ("cuda", "amd", "cpu", "npu")
SUITES = ("base-a-test-cpu", "nightly-kernel-1-gpu", "stage-a-test-1")


@st.composite
def random_test_files(draw):
    n_helpers = draw(st.integers(0, 3))
    n_units = draw(st.integers(1, 7))
    n_outputs = draw(st.integers(1, min(4, n_units)))
    regs = draw(
        st.lists(
            st.tuples(
                st.sampled_from(BACKENDS),
                st.sampled_from(SUITES),
                st.booleans(),
                st.integers(n_outputs, 400),
            ),
            min_size=1,
            max_size=3,
        )
    )
    lines = [
        '"""Generated."""',
        "",
        "import os",
        "import unittest",
        "",
        "import pytest",
        "",
        "from sglang.test.ci.ci_register import "
        + ", ".join(sorted({f"register_{b}_ci" for b, *_ in regs})),
        "",
    ]
    for b, suite, nightly, est in regs:
        lines.append(f"# note for {b}")
        lines.append(f'register_{b}_ci(est_time={est}, suite="{suite}", nightly={nightly})')
    lines.append("CONST = 3")
    for h in range(n_helpers):
        uses_const = draw(st.booleans())
        lines += ["", "", f"def helper_{h}():", f"    return {'CONST' if uses_const else h}"]
    lines += ["", "", "@pytest.fixture", "def fx():", "    return os.sep"]
    units = []
    for u in range(n_units):
        helpers = (
            draw(st.lists(st.integers(0, max(n_helpers - 1, 0)), max_size=2)) if (n_helpers) else []
        )
        body = "".join(f"helper_{h}() + " for h in helpers) + "0"
        kind = draw(st.sampled_from(["func", "param", "unittest", "pyclass"]))
        lines += ["", ""]
        if kind == "func":
            name = f"test_f{u}"
            lines += [f"def {name}(fx):", f"    assert {body} >= 0"]
        elif kind == "param":
            name = f"test_p{u}"
            values = draw(st.lists(st.integers(0, 3), max_size=4))
            lines += [
                f"@pytest.mark.parametrize('n', {values!r})",
                f"def {name}(n):",
                f"    assert {body} >= 0",
            ]
        else:
            name = f"Test{u}"
            base = "unittest.TestCase" if kind == "unittest" else ""
            lines.append(f"class {name}({base}):" if base else f"class {name}:")
            for k in range(draw(st.integers(1, 3))):
                lines += [f"    def test_m{k}(self):", f"        assert {body} >= 0", ""]
        units.append(name)
    lines += ["", "", 'if __name__ == "__main__":', "    unittest.main()", ""]
    # every output gets at least one test; the rest go anywhere
    extra = draw(
        st.lists(
            st.integers(0, n_outputs - 1),
            min_size=n_units - n_outputs,
            max_size=n_units - n_outputs,
        )
    )
    where = draw(st.permutations(list(range(n_outputs)) + extra))
    use_rest = draw(st.booleans())
    outputs = []
    for o in range(n_outputs):
        take = tuple(u for u, w in zip(units, where, strict=True) if w == o)
        if use_rest and o == n_outputs - 1:
            take = ("rest",)
        outputs.append(
            SplitOutput(
                f"out{o}/test_out{o}.py", take or ("no_such_test",), Pos("plan.yaml", o + 1, 1)
            )
        )
    return "\n".join(lines), Split("test_src.py", tuple(outputs), Pos("plan.yaml", 1, 1))


def _ruff_findings(outputs: dict[str, str]) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        for path, text in outputs.items():
            (Path(tmp) / path).parent.mkdir(parents=True, exist_ok=True)
            (Path(tmp) / path).write_text(text)
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "ruff",
                "check",
                "--no-cache",
                "--isolated",
                "--select",
                "F401,F811,F821,F841",
                "--output-format",
                "concise",
                ".",
            ],
            cwd=tmp,
            capture_output=True,
            text=True,
        )
        return proc.stdout if proc.returncode else ""


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_test_files())
def test_random_splits_lose_nothing_and_conserve_budgets(case):
    source, split = case
    res = split_file(source, split.file, split)
    src_cases = Counter(c.name for c in parse_cases(source))
    out_cases = Counter(c.name for t in res.outputs.values() for c in parse_cases(t))
    assert res.ok, [str(n) for n in res.notes]
    assert out_cases == src_cases  # every case exactly once
    budget = Counter()
    for r in parse_registrations(source):
        budget[r.budget_key] += r.est_time
    after = Counter()
    comments = Counter()
    for text in res.outputs.values():
        for r in parse_registrations(text):
            after[r.budget_key] += r.est_time
            assert r.est_time >= 1
            comments[r.comments] += 1
    assert after == budget
    assert sum(comments.values()) == len(parse_registrations(source)) * len(res.outputs)
    assert _ruff_findings(res.outputs) == ""  # no undefined names, no unused imports

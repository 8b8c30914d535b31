"""Golden splits: golden/split/<case>/{source.py, plan.yaml} -> expected/ outputs + notes.

Regenerate with `MIGRATE_UPDATE_GOLDENS=1 pytest tests/test_split_golden.py`, then
review the diff of golden/ like any other change.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import GOLDEN, assert_golden_dir, write_tree

from migrate.plan.load import parse_plan
from migrate.tests_split.cases import parse_cases
from migrate.tests_split.split import SplitResult, split_file

SPLIT_GOLDEN = GOLDEN / "split"
CASES = sorted(p.name for p in SPLIT_GOLDEN.iterdir() if (p / "plan.yaml").exists())

# A stand-in for sglang's CI module: registrations are runtime no-ops.
CI_STUB = {
    "sglang/__init__.py": "",
    "sglang/test/__init__.py": "",
    "sglang/test/ci/__init__.py": "",
    "sglang/test/ci/ci_register.py": "".join(
        f"def register_{b}_ci(*args, **kwargs):\n    pass\n\n\n" for b in ("cuda", "amd", "cpu")
    ),
}


def run_split(case: str) -> tuple[str, SplitResult]:
    d = SPLIT_GOLDEN / case
    plan, errors = parse_plan((d / "plan.yaml").read_text(), "plan.yaml")
    assert not errors
    sp = plan.splits[0]
    return sp.file, split_file((d / "source.py").read_text(), sp.file, sp)


def summary(res: SplitResult) -> str:
    """Everything but the output texts, in a stable reviewable form."""
    lines = ["# notes"] + [str(n) for n in res.notes]
    lines.append("# cases")
    for out, cases in res.cases.items():
        lines.append(f"{out}: {', '.join(cases)}")
    lines.append("# budgets (registration line: est_time share)")
    for out, shares in res.budgets.items():
        lines.append(f"{out}: " + ", ".join(f"{r.backend}@{r.line}={s}" for r, s in shares))
    lines.append("# helpers copied into several outputs")
    lines += [f"{name}: {', '.join(outs)}" for name, outs in sorted(res.shared.items())]
    return "\n".join(lines) + "\n"


def pytest_env(root: Path, **extra: str) -> dict:
    # Plugin autoload (hypothesis' plugin alone) costs seconds per run; none is needed.
    return dict(
        os.environ,
        PYTHONPATH=str(root),
        PYTHONDONTWRITEBYTECODE="1",
        PYTEST_DISABLE_PLUGIN_AUTOLOAD="1",
        **extra,
    )


def run_pytest(root: Path, args: list[str], **env: str) -> tuple[int, list[str], str]:
    """(exit status, node ids that passed in order, output) of a verbose pytest run."""
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-v",
            "-p",
            "no:cacheprovider",
            f"--rootdir={root}",
            "-c",
            os.devnull,
            *args,
        ],
        cwd=root,
        env=pytest_env(root, **env),
        capture_output=True,
        text=True,
        timeout=120,
    )
    passed = [line.split(" PASSED")[0] for line in proc.stdout.splitlines() if " PASSED" in line]
    return proc.returncode, passed, proc.stdout + proc.stderr


@pytest.mark.parametrize("case", CASES)
def test_split_matches_golden(case):
    _, res = run_split(case)
    expected = SPLIT_GOLDEN / case / "expected"
    assert_golden_dir(expected, {**res.outputs, "SUMMARY.txt": summary(res)})


def test_split_is_idempotent_on_its_outputs():
    """Splitting an output again with `take: [rest]` reproduces it (nothing more to drop)."""
    from migrate.errors import Pos
    from migrate.plan.model import Split, SplitOutput

    _, res = run_split("mixed_groups")
    for path, text in res.outputs.items():
        again = split_file(
            text, path, Split(path, (SplitOutput(path, ("rest",), Pos("p")),), Pos("p"))
        )
        assert again.outputs[path] == text


def test_mixed_groups_outputs_collect_and_pass_under_real_pytest(tmp_path):
    """Each output imports, collects exactly the statically predicted node ids, and passes."""
    _, res = run_split("mixed_groups")
    write_tree(tmp_path, {**CI_STUB, **res.outputs})
    status, passed, out = run_pytest(tmp_path, list(res.outputs))
    assert status == 0, out
    predicted = [c.node_id(p) for p, t in res.outputs.items() for c in parse_cases(t)]
    assert passed == predicted
    assert [n.split("::", 1)[1] for n in passed] == [c for cs in res.cases.values() for c in cs]
    # Each output's `__main__` entry point runs its own tests.
    main = subprocess.run(
        [sys.executable, next(iter(res.outputs))],
        cwd=tmp_path,
        env=pytest_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert main.returncode == 0 and "5 passed" in main.stdout, main.stdout + main.stderr

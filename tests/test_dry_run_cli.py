"""The README's main job on the embedded sample, end to end through the CLI: the dry run of
the sample plan, the broken plan, measured durations, and the sample's own tests in place."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from helpers import PLANS, SAMPLE


def _migrate(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "migrate.cli", *args], capture_output=True, text=True, cwd=cwd
    )


def _snapshot(root: Path) -> dict[str, tuple[int, bytes]]:
    return {
        p.relative_to(root).as_posix(): (p.lstat().st_mode, p.read_bytes())
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def test_sample_dry_run_lists_every_relocation_and_writes_nothing(sample_copy):
    before = _snapshot(sample_copy)
    res = _migrate(str(PLANS / "sample-jit-to-ops.yaml"), "--dry-run", "--repo", str(sample_copy))
    assert res.returncode == 0, res.stdout + res.stderr
    moves = re.findall(r"^  (\S+) -> (\S+)", res.stdout, flags=re.M)
    legacy = {
        p.relative_to(sample_copy).as_posix()
        for p in (sample_copy / "python/sglang/jit_kernel").rglob("*")
        if p.is_file() and p.name != "__init__.py"
    }
    assert legacy <= {old for old, _ in moves}  # every legacy file but the package inits moves
    assert all(new.startswith(("python/sglang/kernels/", "test/registered/")) for _, new in moves)
    assert _snapshot(sample_copy) == before


def test_broken_plan_reports_all_five_mistakes_and_changes_nothing(sample_repo):
    sample_copy = sample_repo
    before = _snapshot(sample_copy)
    plan = PLANS / "broken-five-mistakes.yaml"
    res = _migrate(str(plan), "--dry-run", "--repo", str(sample_copy))
    assert res.returncode == 2
    errors = [ln for ln in res.stderr.splitlines() if ": error: " in ln]
    assert len(errors) == 5, res.stderr
    positions = sorted(tuple(map(int, ln.split(":")[1:3])) for ln in errors)
    assert positions == [(7, 11), (13, 9), (16, 9), (19, 9), (21, 1)]
    assert any("did you mean sglang.jit_kernel.norm?" in ln for ln in errors)
    # Without --dry-run the same plan is refused the same way, and still nothing changes.
    res = _migrate(str(plan), "--repo", str(sample_copy))
    assert res.returncode == 2
    assert _snapshot(sample_copy) == before


def _junit_of_split_source(sample: Path, tmp_path: Path) -> Path:
    """Real pytest durations of the file the plan splits, with the RoPE cases made slow."""
    xml = tmp_path / "durations.xml"
    env = dict(os.environ, PYTHONPATH="python", TRITON_INTERPRET="1", OMP_NUM_THREADS="1")
    subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         "test/registered/kernels/test_norm_rope.py", f"--junitxml={xml}"],
        cwd=sample, env=env, check=True, capture_output=True,
    )  # fmt: skip
    tree = ET.parse(xml)
    cases = list(tree.iter("testcase"))
    assert len(cases) >= 8
    for tc in cases:
        owner = tc.get("classname", "").rsplit(".", 1)[-1]  # class or module, not the path
        slow = "rot" in owner.lower() or "rope" in tc.get("name", "").lower()
        tc.set("time", "30.0" if slow else "0.5")
    tree.write(xml)
    return xml


def _shares(diff: str) -> dict[str, list[int]]:
    """est_time of every registration in each new file of a dry-run diff."""
    out: dict[str, list[int]] = {}
    for block in diff.split("diff --git ")[1:]:
        path = block.split()[1][2:]
        added = "\n".join(ln[1:] for ln in block.splitlines() if ln.startswith("+"))
        out[path] = [int(x) for x in re.findall(r"register_\w+\(\s*est_time=(\d+)", added)]
    return out


def test_measured_durations_reshare_split_budgets(sample_copy, tmp_path):
    plan = str(PLANS / "sample-jit-to-ops.yaml")
    norm = "test/registered/kernels/ops/layernorm/test_fused_add_rmsnorm.py"
    rope = "test/registered/kernels/ops/attention/test_rope.py"
    by_cases = _migrate(plan, "--dry-run", "--diff", "--repo", str(sample_copy))
    assert by_cases.returncode == 0, by_cases.stderr
    xml = _junit_of_split_source(sample_copy, tmp_path)
    by_time = _migrate(
        plan, "--dry-run", "--diff", "--durations", str(xml), "--repo", str(sample_copy)
    )
    assert by_time.returncode == 0, by_time.stderr
    cases, timed = _shares(by_cases.stdout), _shares(by_time.stdout)
    # Each registration's total is conserved either way...
    assert [a + b for a, b in zip(cases[norm], cases[rope], strict=True)] == [
        a + b for a, b in zip(timed[norm], timed[rope], strict=True)
    ]
    # ...but measured time sends almost all of it to the slow RoPE tests.
    assert all(t > c for t, c in zip(timed[rope], cases[rope], strict=True))
    assert all(t >= 1 for t in timed[norm])


def test_sample_tests_pass_in_place():
    env = dict(os.environ, PYTHONPATH="python", TRITON_INTERPRET="1", OMP_NUM_THREADS="1")
    res = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test"],
        cwd=SAMPLE, env=env, capture_output=True, text=True,
    )  # fmt: skip
    assert res.returncode == 0, res.stdout[-3000:]
    summary = res.stdout.strip().splitlines()[-1]
    passed = int(re.search(r"(\d+) passed", summary).group(1))
    assert passed >= 79 and "failed" not in summary and "error" not in summary


def test_a_reader_that_stops_early_is_no_internal_error(sample_copy):
    """`migrate PLAN --dry-run --diff | head -1`: the closed pipe was reported as
    "internal error: BrokenPipeError ... This is a bug in migrate" with exit 4. A reader
    that has seen enough is no error of ours: quiet, the group's exit for a broken pipe."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "migrate.cli", str(PLANS / "sample-jit-to-ops.yaml")]
        + ["--dry-run", "--diff", "--repo", str(sample_copy)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout.readline().startswith(b"plan ")
    proc.stdout.close()  # the reader goes away before the diff is written
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=300) == 1 and "internal error" not in err, err
    assert "Traceback" not in err

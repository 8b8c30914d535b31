"""One gate: apply refuses (exit 2, nothing written) exactly what the dry run reports as an
error, in the same words; plan validation refuses moves that git's tree cannot hold."""

from __future__ import annotations

import os

import pytest
from click.testing import CliRunner
from helpers import git
from test_apply_atomic import snapshot, strip_stat

from migrate.cli import main

MOVE_NORM = """\
version: 1
roots: [python]
moves:
  - from: sglang.jit_kernel.norm
    to: {dst}
"""

UNASSIGNED = (
    MOVE_NORM.format(dst="sglang.kernels.ops.layernorm.norm")
    + """\
splits:
  - file: test/registered/kernels/test_rmsnorm.py
    into:
      - path: test/registered/kernels/ops/layernorm/test_rmsnorm.py
        take: [TestRMSNorm]
"""
)
UNDECLARED_GROUP = MOVE_NORM.format(dst="sglang.kernels.ops.nosuchgroup.norm")
INTO_OWN_SUBTREE = """\
version: 1
roots: [python]
moves:
  - from: docs/
    to: docs/archive/
"""
THROUGH_A_FILE = MOVE_NORM.format(dst="sglang.kernels.ops.layernorm.tables.norm")


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def error_lines(text: str) -> list[str]:
    return sorted(line.strip() for line in text.splitlines() if ": error: " in line)


@pytest.fixture
def sample(sample_repo, tmp_path):
    (sample_repo / ".gitignore").write_text("*.pyc\n")
    git(sample_repo, "add", ".gitignore")
    git(sample_repo, "commit", "-qm", "ignore pyc")
    (sample_repo / "python/sglang/jit_kernel/stale.pyc").write_bytes(b"\0ignored")
    return sample_repo


def plan_file(tmp_path, text: str):
    p = tmp_path / "plan.yaml"
    p.write_text(text)
    return p


@pytest.mark.parametrize(
    "text, dry_exit",
    [(UNASSIGNED, 1), (UNDECLARED_GROUP, 1), (INTO_OWN_SUBTREE, 2)],
    ids=["split-leaves-tests-unassigned", "undeclared-group", "dir-into-own-subtree"],
)
def test_apply_refuses_what_the_dry_run_reports_as_an_error(sample, tmp_path, text, dry_exit):
    plan = plan_file(tmp_path, text)
    dry = run(str(plan), "--dry-run", "--repo", str(sample))
    assert dry.exit_code == dry_exit, dry.output
    errors = error_lines(dry.output)
    assert errors
    before = strip_stat(snapshot(sample))
    res = run("apply", str(plan), "--repo", str(sample))
    assert res.exit_code == 2, res.output
    assert error_lines(res.output) == errors
    assert "nothing was written" in res.output
    assert strip_stat(snapshot(sample)) == before


def test_a_tracked_file_where_a_move_needs_a_directory_is_refused(sample, tmp_path):
    tables = sample / "python/sglang/kernels/ops/layernorm/tables"
    tables.write_text("row 1\n")
    git(sample, "add", "-A")
    git(sample, "commit", "-qm", "tables")
    plan = plan_file(tmp_path, THROUGH_A_FILE)
    before = strip_stat(snapshot(sample))
    for args in ([str(plan), "--dry-run"], ["apply", str(plan)]):
        res = run(*args, "--repo", str(sample))
        assert res.exit_code == 2, res.output
        assert "needs python/sglang/kernels/ops/layernorm/tables to be a directory" in res.output
    assert strip_stat(snapshot(sample)) == before


def test_a_tracked_symlink_where_a_move_needs_a_directory_is_refused(sample, tmp_path):
    os.symlink("../attention", sample / "python/sglang/kernels/ops/layernorm/tables")
    git(sample, "add", "-A")
    git(sample, "commit", "-qm", "link")
    plan = plan_file(tmp_path, THROUGH_A_FILE)
    res = run("apply", str(plan), "--repo", str(sample))
    assert res.exit_code == 2, res.output
    assert "tables to be a directory, but it is a symlink" in res.output

"""kernels_sample/ after the sample plan, then a second plan renaming layernorm to
normalization: groups, README, directories, op ids, rules, the sample's tests and verify."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from click.testing import CliRunner
from helpers import PLANS, git
from test_verify_sample import PLAN, fresh_sample

from migrate.cli import main
from migrate.rules.context import Context
from migrate.rules.load import repo_tree

RENAME = PLANS / "sample-rename-layernorm.yaml"
OPS = "python/sglang/kernels/ops"


def _apply(repo, *plans) -> None:
    res = CliRunner().invoke(main, ["apply", *map(str, plans), "--repo", str(repo)])
    assert res.exit_code == 0, res.output


@pytest.fixture(scope="module")
def renamed(tmp_path_factory):
    repo = fresh_sample(tmp_path_factory.mktemp("regroup") / "kernels_sample")
    _apply(repo, PLAN)
    base = git(repo, "rev-parse", "HEAD").strip()
    _apply(repo, RENAME)
    return repo, base


def test_groups_readme_and_directories_agree(renamed):
    repo, _ = renamed
    ctx = Context(repo_tree(repo)[1])
    groups = list(ctx.declared_groups.names)
    assert "normalization" in groups and "layernorm" not in groups
    assert sorted(ctx.readme_groups.names) == sorted(groups)
    dirs = {p.name for p in (repo / OPS).iterdir() if (p / "__init__.py").exists()}
    assert dirs == set(groups)
    for kind in ("ops", "benchmark"):
        tests = {p.name for p in (repo / "test/registered/kernels" / kind).iterdir() if p.is_dir()}
        assert tests <= set(groups), kind
    init = (repo / OPS / "__init__.py").read_text()
    assert "    normalization,\n" in init and "layernorm" not in init


def test_no_old_op_id_and_every_op_id_names_an_existing_group(renamed):
    repo, _ = renamed
    files = git(repo, "ls-files").split()
    old = re.compile(r"""["'`]layernorm\.\w+["'`]""")
    left = [f for f in files if old.search((repo / f).read_text(errors="replace"))]
    assert left == []
    ctx = Context(repo_tree(repo)[1])
    ops = [reg.op for _, reg in ctx.registrations]
    assert len(ops) >= 10 and None not in ops
    assert {op.split(".")[0] for op in ops} <= set(ctx.declared_groups.names)
    assert {"normalization.rmsnorm", "normalization.gemma_rmsnorm"} <= set(ops)


def test_tests_followed_their_kernels(renamed):
    repo, base = renamed
    moved = git(repo, "diff", "--name-status", "-M", base, "HEAD", "--", "test").split("\n")
    assert any(
        "ops/layernorm/test_rmsnorm.py\ttest/registered/kernels/ops/normalization/test_rmsnorm.py"
        in line
        for line in moved
    )
    assert (repo / "test/registered/kernels/benchmark/normalization/bench_rmsnorm.py").exists()
    assert not (repo / "test/registered/kernels/ops/layernorm").exists()


def test_check_reports_no_error_and_verify_passes(renamed):
    repo, base = renamed
    res = CliRunner().invoke(main, ["check", "--repo", str(repo)])
    assert res.exit_code == 0, res.output
    assert "0 error(s)" in res.output
    res = CliRunner().invoke(main, ["verify", f"{base}..HEAD", "--repo", str(repo), "--no-wheel"])
    assert res.exit_code == 0, res.output
    assert "verify: PASS" in res.output


def test_the_samples_own_tests_pass(renamed):
    repo, _ = renamed
    env = dict(os.environ, PYTHONPATH="python", TRITON_INTERPRET="1", OMP_NUM_THREADS="1")
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert re.search(r"\d+ passed", run.stdout)

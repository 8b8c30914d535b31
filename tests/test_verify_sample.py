"""End to end on kernels_sample/: apply the sample plan, then verify the commits.

One applied copy per module (apply runs the real engine once); tests that change history
work on clones of it.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import PLANS, SAMPLE, git, init_repo
from test_verify import rebuild_with_hand_edit

from migrate.cli import main
from migrate.git_steps import plan_changeset
from migrate.verify import reproduce, verify

PLAN = PLANS / "sample-jit-to-ops.yaml"
STEPS = ["relocate", "code", "string", "prose", "tests", "delete", "blame-ignore-revs"]


def fresh_sample(dst: Path, edit=None) -> Path:
    shutil.copytree(SAMPLE, dst, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    if edit:
        edit(dst)
    return init_repo(dst)


def apply(repo: Path) -> str:
    base = git(repo, "rev-parse", "HEAD").strip()
    res = CliRunner().invoke(main, ["apply", str(PLAN), "--repo", str(repo)], obj=cached_engine)
    assert res.exit_code == 0, res.output
    return base


def _tree_key(prep) -> tuple:
    index = prep.index
    files = tuple((p, hashlib.sha1(index.read_bytes(p)).hexdigest()) for p in sorted(index.files))
    return prep.plan.sha256, files


_RUNS: dict = {}


def cached_engine(prep, durations=None):
    """The real engine, run once per distinct (plan, tree): identical input, identical output.
    Every apply, verify and reproduce here is given it as their engine."""
    key = _tree_key(prep)
    if key not in _RUNS:
        _RUNS[key] = plan_changeset(prep)
    return _RUNS[key]


@pytest.fixture(scope="module")
def applied(tmp_path_factory) -> tuple[Path, str]:
    repo = fresh_sample(tmp_path_factory.mktemp("sample") / "kernels_sample")
    return repo, apply(repo)


def clone(src: Path, dst: Path) -> Path:
    subprocess.run(["git", "clone", "-q", str(src), str(dst)], check=True)
    git(dst, "config", "user.name", "t")
    git(dst, "config", "user.email", "t@example.invalid")
    return dst


def test_sample_apply_makes_the_step_commits_and_relocate_is_renames_only(applied):
    repo, base = applied
    subjects = git(repo, "log", "--reverse", "--format=%B%x00", f"{base}..HEAD").split("\0")
    steps = [m.group(1) for s in subjects if (m := re.search(r"Migrate-Step: (\S+)", s))]
    assert steps == STEPS
    relocate = git(repo, "rev-list", "--reverse", f"{base}..HEAD").split()[0]
    stat = git(repo, "log", "-1", "--stat", "-M", "--summary", "--format=", relocate)
    renames = [ln for ln in stat.splitlines() if ln.startswith(" rename ")]
    assert renames and all(ln.endswith("(100%)") for ln in renames)
    assert " create mode" not in stat and " delete mode" not in stat
    status = git(repo, "show", "-M", "--name-status", "--format=", relocate).split()
    kinds = {s for s in status[::3]}
    assert kinds == {"R100"}
    assert git(repo, "status", "--porcelain") == ""


def test_sample_verify_passes_right_after_apply(applied, tmp_path):
    repo = clone(applied[0], tmp_path / "c")
    base = applied[1]
    # A clone has no copy of a plan kept outside the repository: it is given explicitly.
    args = ["verify", f"{base}..HEAD", "--repo", str(repo), "--plan", str(PLAN)]
    res = CliRunner().invoke(main, args, obj=cached_engine)
    assert res.exit_code == 0, res.output
    assert "PASS check wheel-contents" in res.output


def test_sample_hand_edit_in_the_code_commit_is_the_residual(applied, tmp_path):
    repo = clone(applied[0], tmp_path / "c")
    base = applied[1]
    target = "python/sglang/srt/layers/layernorm.py"
    text = (repo / target).read_text()
    assert "import" in text
    rebuild_with_hand_edit(repo, base, "code", target, "import", "import  ")
    results = {c.step: c for c in reproduce(repo, base, "HEAD", str(PLAN), engine=cached_engine)}
    assert results["code"].status == "FAIL"
    assert target in results["code"].message
    assert "+" in results["code"].residual_diff and "import  " in results["code"].residual_diff
    for step in ("relocate", "string", "prose", "tests", "delete"):
        assert results[step].status == "PASS", results[step].message


def test_sample_package_data_glob_that_misses_a_moved_file_fails_verify(tmp_path):
    def narrow_glob(root: Path) -> None:
        """`*/*/configs` covers sglang/jit_kernel/gemm/configs but not one level deeper."""
        p = root / "python/pyproject.toml"
        text = p.read_text()
        section = text.index("[tool.setuptools.package-data]")
        p.write_text(
            text[:section]
            + "[tool.setuptools.package-data]\n"
            + '"sglang" = ["**/csrc/*.cuh", "*/*/configs/*.json"]\n'
            + '"sglang.kernels" = ["README.md"]\n'
        )

    repo = fresh_sample(tmp_path / "kernels_sample", narrow_glob)
    base = apply(repo)
    result = verify(repo, f"{base}..HEAD", engine=cached_engine)
    wheel = next(c for c in result.static_checks if c.name == "wheel-contents")
    assert wheel.status == "FAIL" and not result.ok
    missing = {f.file for f in wheel.findings}
    assert any(f.startswith("python/sglang/kernels/ops/gemm/configs/") for f in missing), missing
    assert all(c.status == "PASS" for c in result.commits)


def test_a_sha256_repository_is_applied_and_verified_like_a_sha1_one(tmp_path):
    """Object ids are 64 hex digits in a `--object-format=sha256` repository: the git
    layer's "no object" id (a removed index entry, a ref that must not exist yet) has the
    repository's length, so apply writes its commits and verify reproduces them."""
    dst = tmp_path / "kernels_sample"
    shutil.copytree(SAMPLE, dst, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    git(dst, "init", "-q", "--object-format=sha256", "-b", "main")
    git(dst, "config", "user.name", "migrate-tests")
    git(dst, "config", "user.email", "tests@example.invalid")
    git(dst, "add", "-A")
    git(dst, "commit", "-q", "-m", "base")
    base = apply(dst)
    assert len(base) == 64
    assert len(git(dst, "rev-list", f"{base}..HEAD").split()) == len(STEPS)
    args = ["verify", f"{base}..HEAD", "--repo", str(dst), "--no-wheel"]
    res = CliRunner().invoke(main, args, obj=cached_engine)
    assert res.exit_code == 0, res.output
    assert "FAIL" not in res.output

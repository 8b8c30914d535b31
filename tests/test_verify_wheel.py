"""verify's wheel check builds through the project's declared backend, never the caller's
venv: a tree no one can build is "could not run" (exit 3), not a failed migration."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import PLANS, REPO_ROOT, SAMPLE, git, init_repo

from migrate.cli import main

BACKEND = """\
import os


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    raise RuntimeError("this backend builds nothing: " + os.getcwd())
"""


def _project(repo: Path, backend: str) -> None:
    (repo / "pyproject.toml").write_text(
        "[build-system]\nrequires = []\n"
        f'build-backend = "{backend}"\nbackend-path = ["."]\n'
        '[project]\nname = "pkg"\nversion = "1"\n'
    )
    (repo / f"{backend}.py").write_text(BACKEND)


def test_a_tree_whose_backend_cannot_build_is_could_not_run_exit_3(make_repo, tmp_path):
    repo = make_repo(
        {
            "pkg/__init__.py": "",
            "pkg/old/__init__.py": "",
            "pkg/old/mod.py": "X = 1\n",
            "pkg/user.py": "from pkg.old.mod import X\n",
        },
        git_init=False,
    )
    _project(repo, "nobuild")
    init_repo(repo)
    plan = tmp_path / "plan.yaml"
    plan.write_text("version: 1\nmoves:\n  - from: pkg.old\n    to: pkg.new\n")
    base = git(repo, "rev-parse", "HEAD").strip()
    assert CliRunner().invoke(main, ["apply", str(plan), "--repo", str(repo)]).exit_code == 0
    res = CliRunner().invoke(main, ["verify", f"{base}..HEAD", "--repo", str(repo)])
    assert res.exit_code == 3, res.output
    assert "could not run check wheel-contents (no BASE wheel could be built:" in res.output
    assert "this backend builds nothing" in res.output
    assert "verify: COULD-NOT-RUN" in res.output


@pytest.mark.slow
def test_in_a_fresh_venv_with_only_migrate_installed_the_sample_verify_passes(tmp_path):
    """Exactly what a new user does: `python3 -m venv`, `pip install <migrate>`, apply, verify.

    The venv's bundled setuptools has no `bdist_wheel` without the `wheel` package; the
    wheel check must build through the sample's declared backend anyway."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    py = venv / "bin" / "python"
    src = tmp_path / "migrate-src"  # a copy: pip must not write build/ into the checkout
    shutil.copytree(
        REPO_ROOT,
        src,
        ignore=shutil.ignore_patterns(".venv", ".git", "__pycache__", "*.egg-info", "build"),
    )
    res = subprocess.run(
        [str(py), "-m", "pip", "install", "-q", "--disable-pip-version-check", str(src)],
        capture_output=True,
        text=True,
    )
    assert res.returncode == 0, res.stderr[-3000:]
    repo = tmp_path / "kernels_sample"
    shutil.copytree(SAMPLE, repo, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    init_repo(repo)
    base = git(repo, "rev-parse", "HEAD").strip()
    exe = str(venv / "bin" / "migrate")
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    plan = str(PLANS / "sample-jit-to-ops.yaml")
    applied = subprocess.run(
        [exe, "apply", plan, "--repo", str(repo)], capture_output=True, text=True, env=env
    )
    assert applied.returncode == 0, applied.stdout + applied.stderr
    res = subprocess.run(
        [exe, "verify", f"{base}..HEAD", "--repo", str(repo)],
        capture_output=True,
        text=True,
        env=env,
    )
    assert res.returncode == 0, res.stdout + res.stderr
    assert "PASS check wheel-contents" in res.stdout

"""verify's wheel check builds through the project's declared backend, never the caller's
venv: a tree no one can build is "could not run" (exit 3), not a failed migration."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner
from helpers import PLANS, REPO_ROOT, SAMPLE, git, init_repo

from migrate.cli import main

SCHEMA = json.loads((REPO_ROOT / "docs/report-schema.json").read_text())

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


def _unbuildable_migration(make_repo, tmp_path) -> tuple[Path, str]:
    """(repo, BASE) of a real applied move in a project whose backend builds nothing."""
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
    return repo, base


SRC_BACKEND = """\
import pathlib
import zipfile


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    name = "pkg-1-py3-none-any.whl"
    with zipfile.ZipFile(pathlib.Path(wheel_directory) / name, "w") as whl:
        for f in sorted(pathlib.Path("src").rglob("*.py")):
            whl.write(f, f.relative_to("src").as_posix())  # a src layout: no src/ inside
        whl.writestr("pkg-1.dist-info/METADATA", "Metadata-Version: 2.1\\nName: pkg\\n")
    return name
"""


def test_a_src_layout_wheel_maps_every_file_and_passes(make_repo, tmp_path):
    """Wheel paths of a src layout lack `src/`: every file, moved or not, is found again
    (before, each HEAD path kept its `src/` and every file was 'missing')."""
    repo = make_repo(
        {
            "src/pkg/__init__.py": "",
            "src/pkg/old.py": "X = 1\n",
            "src/pkg/user.py": "from pkg.old import X\n",
        },
        git_init=False,
    )
    _project(repo, "srcbuild")
    (repo / "srcbuild.py").write_text(SRC_BACKEND)
    init_repo(repo)
    plan = tmp_path / "plan.yaml"
    plan.write_text("version: 1\nroots: [src]\nmoves:\n  - from: pkg.old\n    to: pkg.new\n")
    base = git(repo, "rev-parse", "HEAD").strip()
    assert CliRunner().invoke(main, ["apply", str(plan), "--repo", str(repo)]).exit_code == 0
    res = CliRunner().invoke(main, ["verify", f"{base}..HEAD", "--repo", str(repo)])
    assert "PASS check wheel-contents (BASE wheel 3 files, HEAD wheel 3)" in res.output, res.output
    assert res.exit_code == 0, res.output


def test_a_tree_whose_backend_cannot_build_is_could_not_run_exit_3(make_repo, tmp_path):
    repo, base = _unbuildable_migration(make_repo, tmp_path)
    res = CliRunner().invoke(main, ["verify", f"{base}..HEAD", "--repo", str(repo)])
    assert res.exit_code == 3, res.output
    assert "could not run check wheel-contents (no BASE wheel could be built:" in res.output
    assert "this backend builds nothing" in res.output
    assert "verify: COULD-NOT-RUN" in res.output


def test_the_report_shows_could_not_run_as_its_own_state(make_repo, tmp_path):
    """verify's exit 3 reaches the report as "could not be checked": not broken, not safe,
    the check marked "could not run" with its reason, from verify's own --json."""
    repo, base = _unbuildable_migration(make_repo, tmp_path)
    out = tmp_path / "verify.json"
    res = CliRunner().invoke(main, ["verify", f"{base}..HEAD", "--repo", str(repo), "--json"])
    assert res.exit_code == 3, res.output
    out.write_text(res.stdout)
    plan = ["--plan", str(tmp_path / "plan.yaml")]
    args = ["report", f"{base}..HEAD", "--repo", str(repo), *plan, "--verify-json", str(out)]
    md = CliRunner().invoke(main, args)
    assert md.exit_code == 0, md.output
    assert "## ⚪ Migration report: **could not be checked**" in md.output
    reason = "- verify check wheel-contents could not run: no BASE wheel could be built:"
    assert reason in md.output and "this backend builds nothing" in md.output
    assert "⚪ `wheel-contents` could not run" in md.output
    assert "verify check wheel-contents failed" not in md.output
    data = json.loads(CliRunner().invoke(main, [*args, "--format", "json"]).output)
    assert data["verdict"]["level"] == "unchecked"
    assert data["verdict"]["title"] == "could not be checked"
    (check,) = [c for c in data["verify"]["static_checks"] if c["name"] == "wheel-contents"]
    assert check["status"] == "COULD-NOT-RUN" and "no BASE wheel" in check["summary"]
    assert jsonschema.validate(data, SCHEMA) is None
    for level, code in (("unchecked", 1), ("broken", 0)):  # unchecked is worse than review
        assert CliRunner().invoke(main, [*args, "--fail-on", level]).exit_code == code


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

"""Shared fixtures: real git repositories built in tmp dirs."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
SAMPLE = REPO_ROOT / "kernels_sample"
PLANS = REPO_ROOT / "plans"
GOLDEN = REPO_ROOT / "golden"

GIT_ENV = {
    "GIT_AUTHOR_NAME": "migrate-tests",
    "GIT_AUTHOR_EMAIL": "tests@example.invalid",
    "GIT_COMMITTER_NAME": "migrate-tests",
    "GIT_COMMITTER_EMAIL": "tests@example.invalid",
    "GIT_AUTHOR_DATE": "2026-01-01T00:00:00+00:00",
    "GIT_COMMITTER_DATE": "2026-01-01T00:00:00+00:00",
}
os.environ.update(GIT_ENV)


def git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args],
        cwd=repo,
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def init_repo(path: Path) -> Path:
    """Turn `path` into a git repo with everything committed on branch main."""
    git(path, "init", "-q", "-b", "main")
    git(path, "config", "user.name", "migrate-tests")
    git(path, "config", "user.email", "tests@example.invalid")
    git(path, "config", "commit.gpgsign", "false")
    git(path, "add", "-A")
    git(path, "commit", "-q", "-m", "base", "--allow-empty")
    return path


def write_tree(root: Path, files: dict[str, str | bytes]) -> Path:
    for rel, content in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            p.write_bytes(content)
        else:
            p.write_text(content, encoding="utf-8")
    return root


@pytest.fixture
def make_repo(tmp_path):
    """make_repo({"path": "text", ...}, git=True) -> Path of a fresh repo."""
    counter = iter(range(1000))

    def make(files: dict[str, str | bytes], git_init: bool = True) -> Path:
        root = tmp_path / f"repo{next(counter)}"
        root.mkdir()
        write_tree(root, files)
        return init_repo(root) if git_init else root

    return make


@pytest.fixture
def sample_copy(tmp_path) -> Path:
    """A scratch copy of kernels_sample/ (not a git repo)."""
    dst = tmp_path / "kernels_sample"
    shutil.copytree(SAMPLE, dst, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return dst


@pytest.fixture
def sample_repo(sample_copy) -> Path:
    """A scratch copy of kernels_sample/ as a git repo with one base commit."""
    return init_repo(sample_copy)

"""Shared fixtures: real git repositories built in tmp dirs (helpers live in helpers.py)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from helpers import GIT_ENV, SAMPLE, init_repo, write_tree

os.environ.update(GIT_ENV)  # commits in every test repo get fixed authors and dates


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

"""Real SGLang source trees for tests and benchmarks: downloaded at run time, cached.

Wheels come from the package registry with `pip download --no-deps`; nothing is
committed. A wheel is a zip whose top level holds the `sglang/` package, so its import
root is the tree's top (`roots: [.]`).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

CACHE = Path(os.environ.get("MIGRATE_CACHE", Path.home() / ".cache" / "migrate"))


class Unavailable(RuntimeError):
    """The wheel could not be downloaded (no registry access)."""


def download(requirement: str, pattern: str, subdir: str, binary: str) -> Path:
    """The one cached `pip download --no-deps` of `requirement` (`binary`: pip's
    `--only-binary=:all:` or `--no-binary=:all:`), found again by `pattern`."""
    where = CACHE / subdir
    where.mkdir(parents=True, exist_ok=True)
    found = sorted(where.glob(pattern))
    if found:
        return found[0]
    pip = [sys.executable, "-m", "pip", "download", "-q", "--no-deps", binary]
    res = subprocess.run([*pip, requirement, "-d", str(where)], capture_output=True, text=True)
    found = sorted(where.glob(pattern))
    if res.returncode != 0 or not found:
        raise Unavailable(f"pip download {requirement} failed: {res.stderr.strip()[-500:]}")
    return found[0]


def extracted(dst: Path, extract) -> Path:
    """`dst`, filled once by `extract(tmp) -> the directory to keep`; `.complete` marks it.

    Safe when several processes (xdist workers) extract the same tree at once: each
    extracts into its own temporary directory, and the first complete rename wins."""
    if not (dst / ".complete").exists():
        dst.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=dst.name + ".", suffix=".tmp", dir=dst.parent))
        try:
            kept = extract(tmp / "x")
            (kept / ".complete").write_text("")
            if not (dst / ".complete").exists():
                shutil.rmtree(dst, ignore_errors=True)  # a half tree of an interrupted run
                try:
                    kept.rename(dst)
                except OSError:
                    if not (dst / ".complete").exists():  # not another worker's tree
                        raise
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    return dst


def sglang_wheel(version: str) -> Path:
    return download(
        f"sglang=={version}", f"sglang-{version}-*.whl", "wheels", "--only-binary=:all:"
    )


def sglang_tree(version: str) -> Path:
    """Extracted, read-only-by-convention tree of the wheel (only `sglang/`)."""

    def extract(tmp: Path) -> Path:
        with zipfile.ZipFile(sglang_wheel(version)) as zf:
            zf.extractall(tmp, [m for m in zf.namelist() if m.startswith("sglang/")])
        return tmp

    return extracted(CACHE / "trees" / f"sglang-{version}", extract)


def sglang_copy(version: str, where: Path) -> Path:
    """A private writable copy of the tree at `where` (without the cache marker)."""
    shutil.copytree(sglang_tree(version), where, ignore=shutil.ignore_patterns(".complete"))
    return where

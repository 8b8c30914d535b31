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
import zipfile
from pathlib import Path

CACHE = Path(os.environ.get("MIGRATE_CACHE", Path.home() / ".cache" / "migrate"))


class Unavailable(RuntimeError):
    """The wheel could not be downloaded (no registry access)."""


def sglang_wheel(version: str) -> Path:
    wheels = CACHE / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    found = sorted(wheels.glob(f"sglang-{version}-*.whl"))
    if found:
        return found[0]
    res = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "-q",
            "--no-deps",
            "--only-binary=:all:",
            f"sglang=={version}",
            "-d",
            str(wheels),
        ],
        capture_output=True,
        text=True,
    )
    found = sorted(wheels.glob(f"sglang-{version}-*.whl"))
    if res.returncode != 0 or not found:
        raise Unavailable(f"pip download sglang=={version} failed: {res.stderr.strip()[-500:]}")
    return found[0]


def sglang_tree(version: str) -> Path:
    """Extracted, read-only-by-convention tree of the wheel (only `sglang/`)."""
    dst = CACHE / "trees" / f"sglang-{version}"
    if not (dst / ".complete").exists():
        tmp = dst.with_suffix(".tmp")
        shutil.rmtree(tmp, ignore_errors=True)
        with zipfile.ZipFile(sglang_wheel(version)) as zf:
            members = [m for m in zf.namelist() if m.startswith("sglang/")]
            zf.extractall(tmp, members)
        shutil.rmtree(dst, ignore_errors=True)
        tmp.rename(dst)
        (dst / ".complete").write_text("")
    return dst


def sglang_copy(version: str, where: Path) -> Path:
    """A private writable copy of the tree at `where` (without the cache marker)."""
    shutil.copytree(sglang_tree(version), where, ignore=shutil.ignore_patterns(".complete"))
    return where

"""Real open-source projects (sdists with their own test suites) for end-to-end tests.

Nothing is committed: each sdist is downloaded with `pip download --no-deps --no-binary
:all:` into `~/.cache/migrate/sdists` (or `$MIGRATE_CACHE`) and extracted once under
`trees/`. The suites need nothing but pytest, so they run with this interpreter and
`PYTHONPATH=<tree>/<root>`: the tree being migrated is what is imported.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tarfile
from dataclasses import dataclass
from pathlib import Path

from realtrees import CACHE, Unavailable


@dataclass(frozen=True)
class Project:
    name: str  # distribution name
    version: str
    package: str  # import name
    root: str  # import root inside the sdist ("." or "src")
    tests: tuple[str, ...] = ("tests",)

    @property
    def stem(self) -> str:
        return f"{self.name}-{self.version}"


def sdist(p: Project) -> Path:
    sdists = CACHE / "sdists"
    sdists.mkdir(parents=True, exist_ok=True)
    found = sorted(sdists.glob(f"{p.stem}.tar.gz"))
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
            "--no-binary",
            ":all:",
            f"{p.name}=={p.version}",
            "-d",
            str(sdists),
        ],
        capture_output=True,
        text=True,
    )
    found = sorted(sdists.glob(f"{p.stem}.tar.gz"))
    if res.returncode != 0 or not found:
        raise Unavailable(f"pip download {p.name}=={p.version} failed: {res.stderr[-500:]}")
    return found[0]


def tree(p: Project) -> Path:
    """The extracted sdist (read-only by convention)."""
    dst = CACHE / "trees" / p.stem
    if not (dst / ".complete").exists():
        tmp = dst.with_suffix(".tmp")
        shutil.rmtree(tmp, ignore_errors=True)
        with tarfile.open(sdist(p)) as tf:
            if hasattr(tarfile, "data_filter"):
                tf.extractall(tmp, filter="data")
            else:  # pragma: no cover - Python without extraction filters
                tf.extractall(tmp)
        shutil.rmtree(dst, ignore_errors=True)
        (tmp / p.stem).rename(dst)
        shutil.rmtree(tmp, ignore_errors=True)
        (dst / ".complete").write_text("")
    return dst


def env(where: Path, p: Project) -> dict[str, str]:
    """A small fixed environment: the tree first on the path, no bytecode written."""
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": os.environ.get("HOME", str(where)),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "PYTHONPATH": str(where / p.root),
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONHASHSEED": "0",
        "OMP_NUM_THREADS": "1",
    }


def imported_from(where: Path, p: Project, module: str) -> str:
    res = subprocess.run(
        [sys.executable, "-c", f"import {module} as m; print(m.__file__)"],
        cwd=where,
        env=env(where, p),
        capture_output=True,
        text=True,
    )
    assert res.returncode == 0, res.stderr[-2000:]
    return res.stdout.strip()


_COUNT = re.compile(r"(\d+) (passed|failed|skipped|errors?|xfailed|xpassed|deselected)\b")


def run_suite(where: Path, p: Project) -> tuple[dict[str, int], str]:
    res = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *p.tests],
        cwd=where,
        env=env(where, p),
        capture_output=True,
        text=True,
        timeout=600,
    )
    out = res.stdout + res.stderr
    summary = [line for line in out.splitlines() if re.search(r" in [\d.]+s", line)]
    assert summary, f"no pytest summary line (rc {res.returncode}):\n{out[-3000:]}"
    counts = {"passed": 0, "failed": 0, "skipped": 0, "errors": 0}
    for n, kind in _COUNT.findall(summary[-1]):
        counts["errors" if kind.startswith("error") else kind] = int(n)
    return counts, out

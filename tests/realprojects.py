"""Real open-source projects (sdists with their own test suites) for end-to-end tests.

Nothing is committed: each sdist is downloaded with `pip download --no-deps --no-binary
:all:` into `~/.cache/migrate/sdists` (or `$MIGRATE_CACHE`) and extracted once under
`trees/`. The suites need nothing but pytest, so they run with this interpreter and
`PYTHONPATH=<tree>/<root>`: the tree being migrated is what is imported.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tarfile
from dataclasses import dataclass
from pathlib import Path

from realtrees import CACHE, download, extracted


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
    return download(f"{p.name}=={p.version}", f"{p.stem}.tar.gz", "sdists", "--no-binary=:all:")


def tree(p: Project) -> Path:
    """The extracted sdist (read-only by convention)."""

    def extract(tmp: Path) -> Path:
        with tarfile.open(sdist(p)) as tf:
            tf.extractall(tmp, filter="data")
        return tmp / p.stem

    return extracted(CACHE / "trees" / p.stem, extract)


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


def imported_from(where: Path, p: Project, module: str, python=sys.executable) -> str:
    res = subprocess.run(
        [str(python), "-c", f"import {module} as m; print(m.__file__)"],
        cwd=where,
        env=env(where, p),
        capture_output=True,
        text=True,
    )
    assert res.returncode == 0, res.stderr[-2000:]
    return res.stdout.strip()


_COUNT = re.compile(r"(\d+) (passed|failed|skipped|errors?|xfailed|xpassed|deselected)\b")


def run_suite(where: Path, p: Project, python=sys.executable) -> tuple[dict[str, int], str]:
    """The project's suite on `where`, with `python` (this interpreter unless the suite
    needs its own venv); the summary line's counts and the whole output."""
    res = subprocess.run(
        [str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider", *p.tests],
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

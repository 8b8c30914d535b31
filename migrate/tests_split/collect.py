"""Exact pytest node ids, by running `pytest --collect-only -q` in a subprocess (opt in).

Collection imports the test modules, so it is never the default: the static inventory
must work on trees whose dependencies (GPUs, compiled kernels) are absent.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Collected:
    node_ids: dict[str, list[str]] = field(default_factory=dict)  # file -> node ids
    errors: list[str] = field(default_factory=list)
    returncode: int = 0


def collect_node_ids(
    root: str | Path,
    paths: list[str],
    pythonpath: list[str] = (),
    python: str = sys.executable,
    timeout: float = 600,
) -> Collected:
    """Node ids of `paths` (repo-relative) as pytest collects them from `root`."""
    res = Collected()
    if not paths:
        return res
    root = Path(root).resolve()
    env = dict(os.environ)
    extra = [str(Path(root) / p) for p in pythonpath]
    if extra:
        env["PYTHONPATH"] = os.pathsep.join([*extra, env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    proc = subprocess.run(
        [
            python,
            "-m",
            "pytest",
            "--collect-only",
            "-q",
            "-p",
            "no:cacheprovider",
            f"--rootdir={root}",
            *paths,
        ],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    res.returncode = proc.returncode
    for line in proc.stdout.splitlines():
        if "::" in line and not line.startswith(("ERROR", " ")):
            res.node_ids.setdefault(line.split("::", 1)[0], []).append(line.strip())
        elif line.startswith("ERROR"):
            res.errors.append(line)
    if proc.returncode not in (0, 5):  # 5: nothing collected
        res.errors.append(
            proc.stderr.strip().splitlines()[-1]
            if proc.stderr.strip()
            else f"pytest exited with {proc.returncode}"
        )
    return res

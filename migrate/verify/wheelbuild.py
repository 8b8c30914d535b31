"""Build a tree's wheel through its declared PEP 517 backend, whatever the caller's venv has.

First an isolated build (`build` installs the backend the project declares into a
throwaway environment); when that environment cannot be made (no index reachable), the
backend already installed here is called in process (`--no-isolation`). A tree neither
way can build raises `CannotBuild` with both reasons: the caller reports "could not
run", never a failed migration, unless the other revision built.
"""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path


class CannotBuild(RuntimeError):
    pass


def _tail(text: str, n: int = 6) -> str:
    lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip()]
    return " | ".join(lines[-n:])


def _run_build(root: Path, out: Path, isolated: bool) -> str:
    """'' when a wheel was written to `out`, else why not."""
    cmd = [sys.executable, "-m", "build", "--wheel", "--outdir", str(out), str(root)]
    if not isolated:
        cmd.insert(4, "--no-isolation")
    env = dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1", PYTHONDONTWRITEBYTECODE="1")
    res = subprocess.run(cmd, capture_output=True, text=True, env=env, start_new_session=True)
    if res.returncode == 0 and any(out.glob("*.whl")):
        return ""
    return _tail(res.stderr + "\n" + res.stdout) or f"exit status {res.returncode}"


def build_wheel(root: Path, out: Path) -> Path:
    """The wheel built from the packaging root `root` into `out`."""
    why = []
    for isolated in (True, False):
        dest = out / ("isolated" if isolated else "in-process")
        dest.mkdir(parents=True, exist_ok=True)
        failed = _run_build(root, dest, isolated)
        if not failed:
            return sorted(dest.glob("*.whl"))[0]
        why.append(f"{'isolated' if isolated else 'in-process'} build: {failed}")
    raise CannotBuild("; ".join(why))


def wheel_files(root: Path, out: Path) -> list[str]:
    """Names of the files in the wheel of `root` (dist-info excluded)."""
    with zipfile.ZipFile(build_wheel(root, out)) as z:
        return [n for n in z.namelist() if ".dist-info/" not in n and not n.endswith("/")]

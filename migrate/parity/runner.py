"""Run one side's tests in a pytest subprocess with the recorder loaded; read what it wrote."""

from __future__ import annotations

import glob
import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import migrate

MIGRATE_HOME = str(Path(migrate.__file__).resolve().parent.parent)


@dataclass
class SideOutput:
    out_dir: Path
    returncode: int | None
    seconds: float
    stderr_tail: str
    env: dict = field(default_factory=dict)
    imports: dict[str, str | None] = field(default_factory=dict)
    modules: list[dict] = field(default_factory=list)
    calls: list[dict] = field(default_factory=list)
    outcomes: list[dict] = field(default_factory=list)


def side_env(
    tree: Path, roots: list[str], device: str, config: Path, default_device: str | None = None
) -> dict[str, str]:
    # An outer pytest (xdist worker) must not leak its identity into the recorded run.
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_XDIST", "PYTEST_CUR"))}
    paths = [str(tree / r) if r not in (".", "") else str(tree) for r in roots]
    paths.append(MIGRATE_HOME)
    if env.get("PYTHONPATH"):
        paths.append(env["PYTHONPATH"])
    env["PYTHONPATH"] = os.pathsep.join(paths)
    env["MIGRATE_PARITY_CONFIG"] = str(config)
    env["PYTHONHASHSEED"] = "0"
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.setdefault("OMP_NUM_THREADS", "1")
    # Each side compiles its own kernels: no cached binary is shared between BASE and HEAD.
    env["TRITON_CACHE_DIR"] = str(config.parent / "triton-cache")
    if default_device:
        env["MIGRATE_PARITY_DEFAULT_DEVICE"] = default_device
    if device == "cpu":
        env["TRITON_INTERPRET"] = "1"
        env["CUDA_VISIBLE_DEVICES"] = ""
    else:
        env.pop("TRITON_INTERPRET", None)
    return env


def _jsonl(out_dir: Path, kind: str) -> list[dict]:
    rows = []
    for path in sorted(glob.glob(str(out_dir / f"{kind}-*.jsonl"))):
        with open(path, encoding="utf-8") as fh:
            rows.extend(json.loads(line) for line in fh if line.strip())
    return rows


def run_side(
    tree: Path,
    out_dir: Path,
    targets: dict[str, dict[str, str]],
    tests: list[str],
    roots: list[str],
    device: str,
    seed: int = 0,
    python: str = sys.executable,
    timeout: float = 3600,
    path_moves: dict[str, str] | None = None,
    default_device: str | None = None,
) -> SideOutput:
    out_dir.mkdir(parents=True, exist_ok=True)
    if os.sep in python:  # a path given relative to the caller, not to the checkout
        python = os.path.abspath(python)
    config = out_dir / "config.json"
    cfg = {"out": str(out_dir), "root": str(tree), "seed": seed, "targets": targets}
    config.write_text(json.dumps(dict(cfg, path_moves=path_moves or {})))
    cmd = [python, "-m", "pytest", "-p", "migrate.parity.recorder", "-p", "no:cacheprovider"]
    cmd += ["-q", "--continue-on-collection-errors", "--rootdir", str(tree), *tests]
    start = time.monotonic()
    try:
        res = subprocess.run(
            cmd,
            cwd=tree,
            env=side_env(tree, roots, device, config, default_device),
            capture_output=True,
            text=True,
            errors="replace",
            timeout=timeout,
        )
        rc, tail = res.returncode, (res.stdout + res.stderr)[-4000:]
    except subprocess.TimeoutExpired as exc:
        rc, tail = None, f"timed out after {timeout:.0f}s: {str(exc.stdout or '')[-3000:]}"
    except OSError as exc:  # the interpreter itself cannot be started
        rc, tail = None, f"cannot start {python}: {exc.strerror or exc}"
    side = SideOutput(out_dir, rc, time.monotonic() - start, tail)
    for env_file in sorted(glob.glob(str(out_dir / "env-*.json")))[:1]:
        side.env = json.loads(Path(env_file).read_text())
    for row in _jsonl(out_dir, "imports"):
        side.imports[row["module"]] = row["error"]
    side.modules = _jsonl(out_dir, "modules")
    side.calls = _jsonl(out_dir, "calls")
    side.outcomes = _jsonl(out_dir, "outcomes")
    return side


def probe_cuda(python: str = sys.executable) -> bool:
    """Would a test subprocess see a GPU? (Asked of the interpreter that runs the tests.)"""
    code = "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)"
    env = dict(os.environ)
    env.pop("TRITON_INTERPRET", None)
    res = subprocess.run([python, "-c", code], env=env, capture_output=True)
    return res.returncode == 0

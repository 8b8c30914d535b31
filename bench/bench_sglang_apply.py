"""`migrate apply` on the real SGLang 0.5.15 tree: an earlier revision of migrate against
this checkout, in the same run, on identical copies.

    .venv/bin/python bench/bench_sglang_apply.py --before REV [--rounds 2]

REV's `migrate/` is exported with `git archive` into a scratch directory and run with the
same interpreter (PYTHONPATH first); "after" is this checkout. Rounds alternate before/after
so load drifts hit both; the table gives every wall time and the best of each. The result
trees of both are compared (same tree id for every step commit). No timing asserts.
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from realtrees import sglang_copy  # noqa: E402

PLAN = ROOT / "plans" / "sglang-0.5.15-jit-to-ops.yaml"
ENV = {
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@example.invalid",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@example.invalid",
    "GIT_AUTHOR_DATE": "2026-01-01T00:00:00+00:00",
    "GIT_COMMITTER_DATE": "2026-01-01T00:00:00+00:00",
}


def git(repo: Path, *args: str) -> str:
    env = {**os.environ, **ENV}
    out = subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, env=env)
    return out.stdout.decode().strip()


def export(rev: str, dest: Path) -> Path:
    cmd = ["git", "archive", "--format=tar", rev, "migrate"]
    data = subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(dest, filter="data")
    return dest


def apply(repo: Path, code: Path | None) -> tuple[float, int, str]:
    env = {**os.environ, **ENV}
    if code is not None:
        env["PYTHONPATH"] = str(code)
    cmd = [sys.executable, "-m", "migrate", "apply", str(PLAN), "--allow-rule-errors", "-q"]
    t0 = time.perf_counter()
    res = subprocess.run(cmd, cwd=repo, capture_output=True, env=env)
    wall = time.perf_counter() - t0
    return wall, res.returncode, res.stderr.decode()[-500:]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--before", required=True, help="the earlier revision of migrate")
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-sglang-"))
    try:
        before_code = export(args.before, tmp / "before")
        base = sglang_copy("0.5.15", tmp / "base")
        git(base, "init", "-q", "-b", "main")
        git(base, "config", "gc.auto", "0")
        git(base, "add", "-A")
        git(base, "commit", "-qm", "sglang 0.5.15 wheel tree")
        times: dict[str, list[float]] = {"before": [], "after": []}
        tips: dict[str, set[str]] = {"before": set(), "after": set()}
        for i in range(args.rounds):
            for name, code in (("before", before_code), ("after", None)):
                repo = tmp / f"{name}-{i}"
                shutil.copytree(base, repo, symlinks=True)
                git(repo, "update-index", "-q", "--refresh")
                wall, rc, err = apply(repo, code)
                if rc != 0:
                    raise SystemExit(f"{name} apply failed ({rc}):\n{err}")
                times[name].append(wall)
                log = git(repo, "log", "--format=%T %s", "main~1..main").splitlines()
                tips[name].add("\n".join(log))
                shutil.rmtree(repo)
        files = len(git(base, "ls-files").splitlines())
        print(f"SGLang 0.5.15 ({files} files), plan {PLAN.name}, {args.rounds} rounds")
        print("| migrate | wall s (each round) | best s |")
        print("|---|---|---|")
        for name in ("before", "after"):
            label = args.before[:12] if name == "before" else "this checkout"
            runs = ", ".join(f"{t:.2f}" for t in times[name])
            print(f"| {name} ({label}) | {runs} | {min(times[name]):.2f} |")
        ratio = min(times["after"]) / min(times["before"])
        print(f"\nafter/before: {ratio:.2f}x; same trees: {tips['before'] == tips['after']}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()

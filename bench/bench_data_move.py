"""A path move of a big data directory: `migrate apply` against `git mv` + commit.

Builds one repository per size (a small package plus N data files under
`pkg/data/tables/`), then in the same run times, on two identical copies:
  - `git mv pkg/data/tables pkg/tables && git commit` (the floor), and
  - `migrate apply PLAN` with the plan `pkg/data/tables/ -> pkg/tables/`.
Prints a Markdown table (and `--json`); the README records a run.

    python bench/bench_data_move.py [--sizes 6000 30000] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PLAN = "version: 1\nmoves:\n  - from: pkg/data/tables/\n    to: pkg/tables/\n"
ENV = {
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@example.invalid",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@example.invalid",
}


def sh(cwd: Path, *args: str) -> None:
    subprocess.run(args, cwd=cwd, check=True, capture_output=True, env={**os.environ, **ENV})


def make_repo(root: Path, n: int) -> Path:
    repo = root / "repo"
    (repo / "pkg/data/tables").mkdir(parents=True)
    (repo / "pkg/__init__.py").write_text("")
    (repo / "pkg/load.py").write_text(
        "from pathlib import Path\n\nTABLES = Path(__file__).parent / 'tables'\n"
    )
    for i in range(n):
        sub = repo / "pkg/data/tables" / f"d{i % 100:02d}"
        sub.mkdir(exist_ok=True)
        (sub / f"t{i}.csv").write_text(f"id,value\n{i},{i * 7 % 1000}\n")
    sh(repo, "git", "init", "-q", "-b", "main")
    sh(repo, "git", "config", "gc.auto", "0")  # no background gc racing the copies below
    sh(repo, "git", "add", "-A")
    sh(repo, "git", "commit", "-qm", "base")
    return repo


def timed(cwd: Path, *cmds: list[str]) -> float:
    start = time.perf_counter()
    for cmd in cmds:
        res = subprocess.run(cmd, cwd=cwd, capture_output=True, env={**os.environ, **ENV})
        if res.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} failed:\n{res.stderr.decode()}")
    return time.perf_counter() - start


def run(n: int, work: Path) -> dict:
    base = make_repo(work / f"n{n}", n)
    floor_repo = work / f"n{n}-git-mv"
    ours_repo = work / f"n{n}-migrate"
    shutil.copytree(base, floor_repo, symlinks=True)
    shutil.copytree(base, ours_repo, symlinks=True)
    for r in (floor_repo, ours_repo):  # a copy's index has stale stat data: refresh it
        sh(r, "git", "update-index", "-q", "--refresh")
    plan = work / f"plan-{n}.yaml"
    plan.write_text(PLAN)
    floor = timed(
        floor_repo,
        ["git", "mv", "pkg/data/tables", "pkg/tables"],
        ["git", "commit", "-qm", "move tables"],
    )
    ours = timed(ours_repo, [sys.executable, "-m", "migrate", "apply", str(plan)])
    t_floor = subprocess.run(
        ["git", "rev-parse", "HEAD^{tree}"], cwd=floor_repo, capture_output=True, text=True
    ).stdout.strip()
    t_ours = subprocess.run(
        ["git", "rev-parse", "HEAD~1^{tree}"], cwd=ours_repo, capture_output=True, text=True
    ).stdout.strip()
    return {
        "files": n,
        "git_mv_commit_s": round(floor, 2),
        "migrate_apply_s": round(ours, 2),
        "ratio": round(ours / floor, 2),
        "same_tree": t_floor == t_ours,
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="+", default=[6000, 30000])
    ap.add_argument("--json")
    ap.add_argument("--work", help="Scratch directory (default: a new temporary one).")
    args = ap.parse_args()
    rows = []
    if args.work:
        Path(args.work).mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="bench-move-", dir=args.work) as tmp:
        for n in args.sizes:
            rows.append(run(n, Path(tmp)))
    print("| files | git mv + commit s | migrate apply s | ratio | same tree |")
    print("|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['files']} | {r['git_mv_commit_s']} | {r['migrate_apply_s']} | "
            f"{r['ratio']}x | {r['same_tree']} |"
        )
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()

"""A path move of a big data directory: `migrate apply` against `git mv` + commit.

Builds one repository per size (a small package plus N data files under
`pkg/data/tables/`), then in the same run times, on two identical copies:
  - `git mv pkg/data/tables pkg/tables && git commit` (the floor), and
  - `migrate apply PLAN` with the plan `pkg/data/tables/ -> pkg/tables/`.
Prints a Markdown table (and `--json`); the README records a run.

    python bench/bench_data_move.py [--sizes 6000 30000] [--json out.json] [--profile DIR]

`--profile DIR` also runs apply once more, untimed, on a third copy under cProfile and
writes DIR/apply-N.prof and DIR/apply-N.txt (the top functions by cumulative time).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
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


def _children_cpu() -> float:
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


def timed(cwd: Path, *cmds: list[str]) -> float:
    """Wall seconds of `cmds` run in order; their CPU seconds (with every process they
    waited for) accumulate in `CPU[cwd]`: on a loaded machine CPU is the steadier figure."""
    start, cpu = time.perf_counter(), _children_cpu()
    for cmd in cmds:
        res = subprocess.run(cmd, cwd=cwd, capture_output=True, env={**os.environ, **ENV})
        if res.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} failed:\n{res.stderr.decode()}")
    CPU[cwd] = _children_cpu() - cpu
    return time.perf_counter() - start


CPU: dict[Path, float] = {}


def profile(repo: Path, plan: Path, n: int, out: Path) -> None:
    prof = out / f"apply-{n}.prof"
    cmd = [sys.executable, "-m", "cProfile", "-o", str(prof), "-m", "migrate", "apply", str(plan)]
    timed(repo, cmd)
    import pstats

    with open(out / f"apply-{n}.txt", "w") as fh:
        stats = pstats.Stats(str(prof), stream=fh)
        stats.sort_stats("cumulative").print_stats(50)
        stats.sort_stats("tottime").print_stats(25)


def run(n: int, work: Path, prof: Path | None = None) -> dict:
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
    if prof is not None:
        third = work / f"n{n}-profiled"
        shutil.copytree(base, third, symlinks=True)
        sh(third, "git", "update-index", "-q", "--refresh")
        profile(third, plan, n, prof)
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
        "git_mv_commit_cpu_s": round(CPU[floor_repo], 2),
        "migrate_apply_cpu_s": round(CPU[ours_repo], 2),
        "cpu_ratio": round(CPU[ours_repo] / CPU[floor_repo], 2),
        "same_tree": t_floor == t_ours,
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="+", default=[6000, 30000])
    ap.add_argument("--json")
    ap.add_argument("--work", help="Scratch directory (default: a new temporary one).")
    ap.add_argument("--profile", help="Directory for a cProfile run of apply per size.")
    args = ap.parse_args()
    rows = []
    if args.work:
        Path(args.work).mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="bench-move-", dir=args.work) as tmp:
        prof = Path(args.profile) if args.profile else None
        if prof is not None:
            prof.mkdir(parents=True, exist_ok=True)
        for n in args.sizes:
            rows.append(run(n, Path(tmp), prof))
    print("| files | git mv + commit s | migrate apply s | ratio | CPU s (git / migrate) | tree |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['files']} | {r['git_mv_commit_s']} | {r['migrate_apply_s']} | "
            f"{r['ratio']}x | {r['git_mv_commit_cpu_s']} / {r['migrate_apply_cpu_s']} "
            f"({r['cpu_ratio']}x) | {'same' if r['same_tree'] else 'DIFFERENT'} |"
        )
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()

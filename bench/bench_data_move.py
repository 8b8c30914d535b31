"""A path move of a big data directory: `migrate apply` against `git mv` + commit.

Builds one repository per size (a small package plus N data files under
`pkg/data/tables/`), then in the same run times, on two identical copies:
  - `git mv pkg/data/tables pkg/tables && git commit` (the floor), and
  - `migrate apply PLAN` with the plan `pkg/data/tables/ -> pkg/tables/`.
Each of `--rounds` rounds times both on fresh copies, alternating which runs first, and
records the load average. Prints a Markdown table (and `--json`); the README records a run.

    python bench/bench_data_move.py [--sizes 6000 30000] [--rounds 3] [--json out.json]
        [--profile DIR]

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


def bytecode_env(work: Path) -> None:
    """Run migrate as an installed copy runs: with its bytecode cached (in a scratch
    prefix, nothing written to the checkout), compiled once here, untimed. With
    PYTHONDONTWRITEBYTECODE set, as in some sandboxes, every run would compile ~150
    modules again (~0.5 s of CPU on the shared machine), which no user pays."""
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = str(work / "pycache")
    pkg = Path(__file__).resolve().parent.parent / "migrate"
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(pkg)], check=True)


def _tree(repo: Path, rev: str) -> str:
    out = subprocess.run(["git", "rev-parse", rev], cwd=repo, capture_output=True, text=True)
    return out.stdout.strip()


def fresh_copy(base: Path, dst: Path) -> Path:
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(base, dst, symlinks=True)
    sh(dst, "git", "update-index", "-q", "--refresh")  # a copy's index has stale stat data
    return dst


def run(n: int, work: Path, base: Path, rnd: int) -> dict:
    """One round: both commands on fresh copies of `base`; odd rounds run migrate first,
    so a drift in the machine's load hits both sides alike over the rounds."""
    floor_repo = fresh_copy(base, work / f"n{n}-git-mv")
    ours_repo = fresh_copy(base, work / f"n{n}-migrate")
    plan = work / f"plan-{n}.yaml"
    plan.write_text(PLAN)

    def floor() -> float:
        return timed(
            floor_repo,
            ["git", "mv", "pkg/data/tables", "pkg/tables"],
            ["git", "commit", "-qm", "move tables"],
        )

    def ours() -> float:
        return timed(ours_repo, [sys.executable, "-m", "migrate", "apply", str(plan)])

    load = os.getloadavg()[0]
    if rnd % 2:
        t_ours, t_floor = ours(), floor()
    else:
        t_floor, t_ours = floor(), ours()
    return {
        "files": n,
        "round": rnd + 1,
        "git_mv_commit_s": round(t_floor, 2),
        "migrate_apply_s": round(t_ours, 2),
        "ratio": round(t_ours / t_floor, 2),
        "git_mv_commit_cpu_s": round(CPU[floor_repo], 2),
        "migrate_apply_cpu_s": round(CPU[ours_repo], 2),
        "cpu_ratio": round(CPU[ours_repo] / CPU[floor_repo], 2),
        "load": round(load, 1),
        "same_tree": _tree(floor_repo, "HEAD^{tree}") == _tree(ours_repo, "HEAD~1^{tree}"),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="+", default=[6000, 30000])
    ap.add_argument("--rounds", type=int, default=1, help="Rounds per size, interleaved.")
    ap.add_argument("--json")
    ap.add_argument("--work", help="Scratch directory (default: a new temporary one).")
    ap.add_argument("--profile", help="Directory for a cProfile run of apply per size.")
    ap.add_argument(
        "--cold-bytecode",
        action="store_true",
        help="Keep the environment's bytecode setting (PYTHONDONTWRITEBYTECODE: compile per run).",
    )
    args = ap.parse_args()
    rows = []
    if args.work:
        Path(args.work).mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="bench-move-", dir=args.work) as tmp:
        work = Path(tmp)
        if not args.cold_bytecode:
            bytecode_env(work)
        prof = Path(args.profile) if args.profile else None
        if prof is not None:
            prof.mkdir(parents=True, exist_ok=True)
        bases = {n: make_repo(work / f"n{n}", n) for n in args.sizes}
        print(
            "| files | round | git mv + commit s | migrate apply s | ratio | "
            "CPU s (git / migrate) | load | tree |"
        )
        print("|---|---|---|---|---|---|---|---|", flush=True)
        for rnd in range(args.rounds):  # sizes interleaved within each round
            for n in args.sizes:
                r = run(n, work, bases[n], rnd)
                rows.append(r)
                print(
                    f"| {r['files']} | {r['round']} | {r['git_mv_commit_s']} | "
                    f"{r['migrate_apply_s']} | {r['ratio']}x | {r['git_mv_commit_cpu_s']} / "
                    f"{r['migrate_apply_cpu_s']} ({r['cpu_ratio']}x) | {r['load']} | "
                    f"{'same' if r['same_tree'] else 'DIFFERENT'} |",
                    flush=True,
                )
                if args.json:
                    Path(args.json).write_text(json.dumps(rows, indent=2))
        for n in args.sizes if prof is not None else ():
            third = fresh_copy(bases[n], work / f"n{n}-profiled")
            profile(third, work / f"plan-{n}.yaml", n, prof)
        for n in args.sizes:
            mine = [r for r in rows if r["files"] == n]
            best = min(r["ratio"] for r in mine), min(r["cpu_ratio"] for r in mine)
            print(
                f"{n} files: best ratio {best[0]}x wall, {best[1]}x CPU over {len(mine)} round(s)"
            )


if __name__ == "__main__":
    main()

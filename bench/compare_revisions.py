"""`migrate apply` + `migrate verify` on the real SGLang 0.5.15 tree: this checkout against
another revision of migrate, in the same run.

    .venv/bin/python bench/compare_revisions.py --base REV [--this REV] [--pairs N] [--readme]
        [--plan FILE] [--apply-only] [--one-at-a-time]

Run by hand, never in tests. The other revision (and --this, if given: else the checkout
as it is) is exported with `git archive` into a
temporary directory and imported from there (`PYTHONPATH`), with this venv's packages.
Each pair runs both revisions at once (two threads, one process tree each), every run on
a fresh copy of the tree committed as BASE, with fixed author and committer dates, so
the step commits' trees and subjects can be compared: "same commits" means every step
commit of both revisions has the same subject and the same tree (the commit SHAs differ
by the `Migrate-Engine` fingerprint alone, and so the blame-ignore-revs file).
Ratios are this checkout over BASE pair by pair (the same load on both); the median is
quoted. Each revision applies its own copy of the plan; `--plan FILE` gives both the same
plan (when the plan itself changed between them, "same commits" needs one plan).
`--apply-only` leaves verify out; `--one-at-a-time` runs a pair's two revisions one after
the other, in alternating order from pair to pair, instead of at once (on a loaded machine
two at once compete for the cores; one at a time, load drift hits both). --readme writes
the section into bench/README.md. No timing asserts.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests"))

from bench_apply_verify import git, make_repo, timed  # noqa: E402

PLAN = "plans/sglang-0.5.15-jit-to-ops.yaml"
BEGIN = "<!-- compare_revisions:begin -->"
END = "<!-- compare_revisions:end -->"
DATE = "2026-01-01T00:00:00+00:00"


def export(rev: str, where: Path) -> Path:
    where.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", rev], cwd=ROOT, check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", str(where)], input=archive.stdout, check=True)
    return where


def run_one(src: Path, work: Path, plan_file: str | None = None, verify: bool = True) -> dict:
    """Fresh repo, apply, verify --no-wheel (unless not `verify`), with `src`'s migrate;
    times and commits."""
    repo, base = make_repo(work)
    env = dict(
        os.environ,
        PYTHONPATH=str(src),
        GIT_AUTHOR_DATE=DATE,
        GIT_COMMITTER_DATE=DATE,
        GIT_AUTHOR_NAME="bench",
        GIT_AUTHOR_EMAIL="bench@example.com",
        GIT_COMMITTER_NAME="bench",
        GIT_COMMITTER_EMAIL="bench@example.com",
    )
    cli = [sys.executable, "-m", "migrate"]
    plan = plan_file or str(src / PLAN)
    apply = timed([*cli, "apply", plan, "--repo", str(repo), "--allow-rule-errors"], repo, env)
    head = git(repo, "rev-parse", "HEAD")
    checked = None
    if verify:
        checked = timed([*cli, "verify", f"{base}..{head}", "--json", "--no-wheel"], repo, env)
    log = git(repo, "log", "--reverse", "--format=%T %s", f"{base}..{head}").splitlines()
    return {"apply": apply, "verify": checked, "commits": log[:-1], "blame": log[-1:]}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", required=True, help="the revision of migrate to compare with")
    ap.add_argument("--this", help="a revision to measure instead of this checkout")
    ap.add_argument("--pairs", type=int, default=1)
    ap.add_argument("--readme", action="store_true")
    ap.add_argument("--plan", help="one plan file for both revisions (default: each its own)")
    ap.add_argument("--apply-only", action="store_true", help="time apply alone, no verify")
    ap.add_argument(
        "--one-at-a-time", action="store_true", help="a pair's revisions in turn, not at once"
    )
    args = ap.parse_args()
    sha = git(ROOT, "rev-parse", args.base)
    here = git(ROOT, "rev-parse", args.this or "HEAD")
    dirty = not args.this and bool(git(ROOT, "status", "--porcelain", "--untracked-files=no"))
    tmp = Path(tempfile.mkdtemp(prefix="bench-compare-"))
    rows: list[tuple[dict, dict]] = []
    try:
        this = export(here, tmp / "src-this") if args.this else ROOT
        srcs = {"base": export(sha, tmp / "src-base"), "this": this}
        verify = not args.apply_only
        for i in range(args.pairs):
            order = ["base", "this"] if i % 2 == 0 else ["this", "base"]
            with ThreadPoolExecutor(1 if args.one_at_a_time else 2) as pool:
                futs = {
                    k: pool.submit(run_one, srcs[k], tmp / f"{k}-{i}", args.plan, verify)
                    for k in order
                }
                rows.append((futs["base"].result(), futs["this"].result()))
            print(f"pair {i + 1} done", file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    text = render(rows, sha, here, dirty, args.base, args.plan, args.one_at_a_time)
    print(text)
    if args.readme:
        write_section(ROOT / "bench" / "README.md", text)


def _cells(run: dict | None) -> str:
    if run is None:
        return "- | - | -"
    return f"{run['rc']} | {run['wall']:.1f} | {run['cpu']:.1f}"


def _ratio(rows, stages: tuple[str, ...], what: str) -> str:
    """this / BASE of the summed `stages`, the median over pairs ("-" for a stage not run)."""
    if any(b[s] is None for b, _ in rows for s in stages):
        return "-"
    ratios = [sum(t[s][what] for s in stages) / sum(b[s][what] for s in stages) for b, t in rows]
    return f"{statistics.median(ratios):.2f}"


def render(
    rows, sha: str, here: str, dirty: bool, base_name: str, plan: str | None, serial=False
) -> str:
    load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    verify = rows[0][0]["verify"] is not None
    how = (
        "Each pair runs the two one after the other (alternating which goes first)"
        if serial
        else "Each pair runs both at once"
    )
    out = [
        BEGIN,
        f"## apply{' + verify' if verify else ''} on SGLang 0.5.15: this revision against "
        "another (`bench/compare_revisions.py`)",
        "",
        f"Run {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} on {platform.node()} "
        f"({os.cpu_count()} cores), Python {platform.python_version()}; `uptime` at the end: "
        f"`{load}`. BASE = `{base_name}` ({sha[:10]}), this = {here[:10]}"
        f"{' plus uncommitted changes' if dirty else ''}. Plan: "
        f"{f'`{Path(plan).name}` for both' if plan else f'each revision its own `{PLAN}`'}. "
        f"{how} on fresh copies of the tree (`migrate apply PLAN --allow-rule-errors`"
        + (", then `migrate verify BASE..HEAD --json --no-wheel`" if verify else "; no verify")
        + "); the machine is shared, so the ratios (this / BASE, pair by pair) are the "
        "figures, not the absolute times.",
        "",
        "| pair | rev | apply exit | apply wall s | apply CPU s | verify exit | verify wall s "
        "| verify CPU s |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for i, (b, t) in enumerate(rows, 1):
        for name, r in (("BASE", b), ("this", t)):
            out.append(f"| {i} | {name} | {_cells(r['apply'])} | {_cells(r['verify'])} |")
    out += ["", "| ratio this / BASE (median of pairs) | apply | verify | apply + verify |"]
    out.append("|---|---|---|---|")
    for what in ("wall", "cpu"):
        stages = [("apply",), ("verify",), ("apply", "verify")]
        out.append(f"| {what} | " + " | ".join(_ratio(rows, s, what) for s in stages) + " |")
    same = all(b["commits"] == t["commits"] for b, t in rows)
    first = rows[0][0]["commits"]
    verdict = (
        f"**yes**: {len(first)} step commits, the same subject and tree in every run of both"
        if same
        else "**NO**: the step commits' subjects or trees differ between the revisions"
    )
    out += [
        "",
        f"Same commits: {verdict}.",
        "",
        "Step commits (tree, subject): " + "; ".join(f"`{c[:10]} {c[41:]}`" for c in first),
        END,
    ]
    return "\n".join(out) + "\n"


def write_section(readme: Path, text: str) -> None:
    old = readme.read_text(encoding="utf-8")
    if BEGIN in old and END in old:
        head, rest = old.split(BEGIN, 1)
        new = head + text.rstrip("\n") + rest.split(END, 1)[1]
    else:
        new = old.rstrip("\n") + "\n\n" + text
    readme.write_text(new, encoding="utf-8")


if __name__ == "__main__":
    main()

"""`run_parity`: worktrees -> discovery -> `execute`: two recorded pytest runs, compared."""

from __future__ import annotations

import shutil
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from migrate import progress
from migrate.errors import Diagnostic, MigrateError, Pos
from migrate.git import resolve_range, worktrees
from migrate.parity import spec
from migrate.parity.compare import (
    judge,
    match_nodeids,
    pair_calls,
    summarize_ops,
    summarize_tests,
)
from migrate.parity.discover import Discovery, discover
from migrate.parity.model import ParityResult, SideRun, problem
from migrate.parity.runner import SideOutput, probe_cuda, run_side


def _relocation(plan: str, repo: Path, tree: Path):
    from migrate.pipeline import prepare

    path = Path(plan)
    if not path.exists() and (repo / plan).exists():
        path = repo / plan
    prep = prepare(path.resolve(), tree)
    return prep.relocation, list(prep.plan.roots)


def _side_run(rev: str, sha: str, tests: list[str], out: SideOutput | None) -> SideRun:
    run = SideRun(rev=rev, sha=sha, tests=tests)
    if out is not None:
        run.returncode, run.env, run.seconds = out.returncode, out.env, round(out.seconds, 1)
        run.import_errors = {m: e for m, e in out.imports.items() if e}
        run.configs = {r["module"]: r["configs"] for r in out.modules}
        run.stderr_tail = out.stderr_tail[-1500:]
    return run


def run_parity(
    repo: str | Path,
    rev_range: str,
    plan: str | None = None,
    device: str = "auto",
    roots: list[str] | None = None,
    python: str = sys.executable,
    seed: int = 0,
    timeout: float = 3600,
    keep: str | Path | None = None,
    only: list[str] | None = None,
    save_spec: str | Path | None = None,
    run: bool = True,
    default_device: str | None = None,
) -> ParityResult | None:
    repo = Path(repo).resolve()
    rng = resolve_range(repo, rev_range)
    base_rev, head_rev = rng.base_name, rng.head_name
    shas = {"base": rng.base, "head": rng.head}
    with worktrees(repo, shas, prefix="migrate-parity-") as trees:
        relocation = None
        if plan:
            relocation, plan_roots = _relocation(plan, repo, trees["base"])
            roots = roots or plan_roots
        found = discover(repo, shas["base"], shas["head"], relocation, roots, only)
        revs = {"base": (base_rev, shas["base"]), "head": (head_rev, shas["head"])}
        if save_spec:
            spec.save(save_spec, found, revs)
        if not run:
            return None
        return execute(found, trees, revs, device, python, seed, timeout, keep, default_device)


def execute(
    found: Discovery,
    trees: dict[str, Path],
    revs: dict[str, tuple[str, str]],
    device: str = "auto",
    python: str = sys.executable,
    seed: int = 0,
    timeout: float = 3600,
    keep: str | Path | None = None,
    default_device: str | None = None,
) -> ParityResult:
    """Run both sides' tests in `trees` (checkouts of BASE and HEAD) and compare."""
    if device not in ("auto", "cpu", "cuda"):
        raise MigrateError(Diagnostic(Pos("--device"), f"unknown device {device!r}"))
    resolved = device
    if device == "auto":
        resolved = "cuda" if probe_cuda(python) else "cpu"
    work = Path(keep) if keep else Path(tempfile.mkdtemp(prefix="migrate-parity-out-"))
    try:
        outs: dict[str, SideOutput | None] = {"base": None, "head": None}
        if found.modules:
            with ThreadPoolExecutor(2) as pool:
                futs = {
                    side: pool.submit(
                        run_side,
                        trees[side],
                        work / side,
                        found.targets[side],
                        found.tests[side],
                        found.roots[side],
                        resolved,
                        seed,
                        python,
                        timeout,
                        found.path_moves if side == "base" else None,
                        default_device,
                    )
                    for side in ("base", "head")
                    if found.tests[side]
                }
                progress.phase("parity", total=len(futs), label=f"{' and '.join(futs)} tests")
                for side, fut in futs.items():
                    outs[side] = fut.result()
                    progress.step(f"{side} done")
        result = ParityResult(
            base=_side_run(*revs["base"], found.tests["base"], outs["base"]),
            head=_side_run(*revs["head"], found.tests["head"], outs["head"]),
            device_requested=device,
            device=resolved,
            default_device=default_device,
            modules=found.modules,
            findings=list(found.warnings),
        )
        if not found.modules:
            result.findings.append(
                problem(
                    "nothing-compared",
                    "nothing was compared: no moved module defines or wraps a Triton kernel",
                )
            )
            return result
        empty = SideOutput(work, None, 0.0, "no tests found")
        base_out, head_out = outs["base"] or empty, outs["head"] or empty
        ids = match_nodeids(base_out, head_out, found.test_path_map)
        result.calls = pair_calls(base_out, head_out, ids)
        result.ops = summarize_ops(found.modules, result.calls)
        result.tests = summarize_tests(base_out, head_out, ids)
        judge(result, base_out, head_out)
        return result
    finally:
        if not keep:
            shutil.rmtree(work, ignore_errors=True)

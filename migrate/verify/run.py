"""`verify(repo, BASE..HEAD)`: reproduce the step commits, then run the static checks on HEAD.

Returns data (`VerifyResult`); the command prints it and the report reads it.
"""

from __future__ import annotations

from contextlib import ExitStack, suppress
from pathlib import Path

from migrate.errors import MigrateError
from migrate.git import BLAME_FILE, resolve_range, snapshot
from migrate.git.reads import changed_names
from migrate.index import build_index
from migrate.pipeline import Prepared, prepare
from migrate.verify.checks import cycles, duplicates, imports, old_names, registry, shims, wheel
from migrate.verify.codetree import CodeTree
from migrate.verify.commits import range_check
from migrate.verify.context import VerifyContext
from migrate.verify.reproduce import reproduce_all, step_commits
from migrate.verify.result import FAIL, CheckResult, Finding, VerifyResult

CHECKS = (old_names, imports, registry, shims, duplicates, cycles, wheel)
CHECK_NAMES = tuple(c.NAME for c in CHECKS)


def _plan_files(repo: Path, base: str, head: str, plan: str | None) -> set[str]:
    paths = {t.plan_path for _, _, t in step_commits(repo, base, head)}
    if plan:
        with suppress(ValueError):
            paths.add(Path(plan).resolve().relative_to(repo).as_posix())
    return paths


def _run_check(mod, ctx: VerifyContext) -> CheckResult:
    try:
        return mod.check(ctx)
    except Exception as exc:  # a crashed check fails verify; it never passes silently
        return CheckResult(mod.NAME, FAIL, [Finding("", 0, mod.NAME, f"check crashed: {exc}")])


def verify(
    repo_dir: str | Path,
    rev_range: str,
    plan: str | None = None,
    *,
    wheel_check: bool = True,
    skip: tuple[str, ...] = (),
    allow_foreign: bool = False,
) -> VerifyResult:
    """Raises MigrateError (exit 2) for a range that is not BASE..HEAD in order."""
    repo = Path(repo_dir).resolve()
    unknown = sorted(set(skip) - set(CHECK_NAMES))
    if unknown:
        raise ValueError(f"unknown check {', '.join(unknown)}; checks: {', '.join(CHECK_NAMES)}")
    rng = resolve_range(repo, rev_range)
    base, head = rng.base, rng.head
    commits, preps = reproduce_all(repo, base, head, plan)
    result = VerifyResult(base, head, commits)
    result.static_checks.append(range_check(repo, base, head, allow_foreign))
    if not preps and plan:
        with snapshot(repo, base) as bd:
            try:
                preps = [prepare(plan, bd)]
            except MigrateError as exc:
                result.static_checks.append(
                    CheckResult(
                        "plan",
                        FAIL,
                        [
                            Finding(d.pos.file, d.pos.line, "plan", d.message)
                            for d in exc.diagnostics
                        ],
                    )
                )
                return result
    result.static_checks += static_checks(
        repo, base, head, preps, plan, wheel_check=wheel_check, skip=skip
    )
    return result


def static_checks(
    repo: Path,
    base: str,
    head: str,
    preps: list[Prepared],
    plan: str | None,
    *,
    wheel_check: bool = True,
    skip: tuple[str, ...] = (),
) -> list[CheckResult]:
    roots = tuple(dict.fromkeys(r for p in preps for r in p.plan.roots)) or (".",)
    touched = changed_names(repo, base, head)
    with ExitStack() as stack:
        hd = stack.enter_context(snapshot(repo, head))
        bd = stack.enter_context(snapshot(repo, base))
        ctx = VerifyContext(
            repo_dir=repo,
            base_rev=base,
            head_rev=head,
            head_dir=hd,
            head=CodeTree(build_index(hd, roots)),
            base_dir=bd,
            base=CodeTree(build_index(bd, roots)),
            plans=[p.plan for p in preps],
            relocations=[p.relocation for p in preps],
            touched=touched,
            exclude=_plan_files(repo, base, head, plan) | {BLAME_FILE},
        )
        out = []
        for mod in CHECKS:
            if mod.NAME in skip or (mod is wheel and not wheel_check):
                out.append(CheckResult(mod.NAME, "SKIP", summary="skipped"))
            else:
                out.append(_run_check(mod, ctx))
        return out

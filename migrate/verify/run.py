"""`verify(repo, BASE..HEAD)`: reproduce the step commits, then run the static checks on HEAD.

Returns data (`VerifyResult`); the command prints it and the report reads it.
"""

from __future__ import annotations

import gc
from contextlib import ExitStack, contextmanager, suppress
from pathlib import Path

from migrate import progress
from migrate.errors import MigrateError
from migrate.git import BLAME_FILE, removed_in_background, resolve_range, snapshot
from migrate.git.reads import changed_names
from migrate.git.trailers import chain_refs
from migrate.git_steps.engine import Engine, plan_changeset
from migrate.index import build_index
from migrate.pipeline import Prepared, plan_paths, prepare
from migrate.verify.checks import (
    attributes,
    cycles,
    data_lookups,
    deferred_names,
    duplicates,
    git_integrity,
    import_reach,
    imports,
    lost_files,
    old_names,
    organization,
    registry,
    shims,
    tests_kept,
    unbound_names,
    wheel,
)
from migrate.verify.codetree import CodeTree
from migrate.verify.commits import range_check
from migrate.verify.context import VerifyContext
from migrate.verify.reproduce import reproduce_all, step_commits
from migrate.verify.result import FAIL, CheckResult, Finding, VerifyResult

CHECKS = (
    old_names,
    imports,
    attributes,
    unbound_names,
    deferred_names,
    registry,
    organization,
    shims,
    duplicates,
    cycles,
    import_reach,
    lost_files,
    data_lookups,
    tests_kept,
    git_integrity,
    wheel,
)
CHECK_NAMES = tuple(c.NAME for c in CHECKS)


def _plan_files(repo: Path, base: str, head: str, plan: str | None) -> set[str]:
    paths = {r for _, _, t in step_commits(repo, base, head) for r in chain_refs(t.plan_path)}
    for given in plan_paths(plan) if plan else ():
        with suppress(ValueError):
            paths.add(Path(given).resolve().relative_to(repo).as_posix())
    return paths


def _run_check(mod, ctx: VerifyContext) -> CheckResult:
    try:
        return mod.check(ctx)
    except Exception as exc:  # a crashed check fails verify; it never passes silently
        return CheckResult(mod.NAME, FAIL, [Finding("", 0, mod.NAME, f"check crashed: {exc}")])


@removed_in_background()  # each snapshot goes in the background while the next work runs
def verify(
    repo_dir: str | Path,
    rev_range: str,
    plan: str | None = None,
    *,
    wheel_check: bool = True,
    skip: tuple[str, ...] = (),
    allow_foreign: bool = False,
    reproduced: tuple | None = None,
    base_cache: dict | None = None,
    engine: Engine = plan_changeset,
) -> VerifyResult:
    """Raises MigrateError (exit 2) for a range that is not BASE..HEAD in order.

    `engine` reproduces the step commits (the one apply ran, unless a caller passes its own).

    `reproduced` (what `reproduce_all` returned for these very step commits) and
    `base_cache` (a dict kept across calls with the same BASE) let a caller that verifies
    many HEADs on one BASE, the mutation benchmark, skip recomputing what cannot differ.
    """
    repo = Path(repo_dir).resolve()
    unknown = sorted(set(skip) - set(CHECK_NAMES))
    if unknown:
        raise ValueError(f"unknown check {', '.join(unknown)}; checks: {', '.join(CHECK_NAMES)}")
    rng = resolve_range(repo, rev_range)
    base, head = rng.base, rng.head
    commits, preps, changesets = reproduced or reproduce_all(repo, base, head, plan, engine)
    result = VerifyResult(base, head, list(commits))
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
        repo,
        base,
        head,
        preps,
        plan,
        changesets=changesets,
        wheel_check=wheel_check,
        skip=skip,
        base_cache=base_cache,
    )
    return result


def _base_tree(stack: ExitStack, repo: Path, base: str, roots, cache: dict | None):
    """(directory, CodeTree) of BASE; kept in `cache` (it outlives this call) if given."""
    if cache is None:
        bd = stack.enter_context(snapshot(repo, base))
        return bd, CodeTree(build_index(bd, roots))
    key = (str(repo), base, roots)
    if key not in cache:
        keeper = cache.setdefault("_stack", ExitStack())
        bd = keeper.enter_context(snapshot(repo, base))
        cache[key] = (bd, CodeTree(build_index(bd, roots)))
    return cache[key]


class _SharedFacts(dict):
    """BASE's facts cache: a file that BASE..HEAD leaves unchanged (same path, same bytes,
    same roots) has HEAD's facts, so it is parsed once for both revisions."""

    def __init__(self, own: dict, head, unchanged):
        super().__init__(own)
        self.head, self.unchanged = head, unchanged

    def __contains__(self, path) -> bool:
        if dict.__contains__(self, path):
            return True
        if self.unchanged(path):
            self[path] = self.head.facts(path)
            return True
        return False


class _MemoFacts(dict):
    """HEAD's facts cache over a memo that outlives one verify (`base_cache`: the mutation
    benchmark verifies many HEADs of one tree): a file with the same text, module name and
    package-ness has the same facts, so only the files a HEAD changed are parsed again."""

    def __init__(self, index, memo: dict):
        super().__init__()
        self.index, self.memo = index, memo

    def _key(self, path: str):
        text = self.index.text(path) if path.endswith(".py") else None
        return (
            None
            if text is None
            else (text, self.index.module_of(path), path.endswith("__init__.py"))
        )

    def __contains__(self, path) -> bool:
        if dict.__contains__(self, path):
            return True
        key = self._key(path)
        if key is not None and key in self.memo:
            dict.__setitem__(self, path, self.memo[key])
            return True
        return False

    def __setitem__(self, path, facts) -> None:
        dict.__setitem__(self, path, facts)
        key = self._key(path)
        if key is not None:
            self.memo[key] = facts


def share_unchanged_facts(base: CodeTree, head: CodeTree, touched: set[str]) -> None:
    index = base.index
    if index.roots != head.index.roots:
        return
    own = index.__dict__.get("_code_facts", {})
    if isinstance(own, _SharedFacts):
        own.head = head.index  # a cached BASE: the files unchanged against this HEAD
        own.unchanged = _unchanged(index, head.index, touched)
        return
    index.__dict__["_code_facts"] = _SharedFacts(
        own, head.index, _unchanged(index, head.index, touched)
    )


def _unchanged(base, head, touched: set[str]):
    return lambda path: path not in touched and path in base.files and path in head.files


@contextmanager
def _frozen_heap():
    """The checks run with what is allocated so far (both trees' facts: millions of
    objects that live as long as the checks and make no reference cycles) out of the
    cyclic GC's sight (`gc.freeze`), so its full collections do not traverse them again
    and again; refcounting still frees them, and they are handed back to it after."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def static_checks(
    repo: Path,
    base: str,
    head: str,
    preps: list[Prepared],
    plan: str | None,
    *,
    changesets: list | None = None,
    wheel_check: bool = True,
    skip: tuple[str, ...] = (),
    base_cache: dict | None = None,
) -> list[CheckResult]:
    roots = tuple(dict.fromkeys(r for p in preps for r in p.plan.roots)) or (".",)
    touched = changed_names(repo, base, head)
    with ExitStack() as stack:
        hd = stack.enter_context(snapshot(repo, head))
        bd, base_tree = _base_tree(stack, repo, base, roots, base_cache)
        head_tree = CodeTree(build_index(hd, roots))
        if base_cache is not None:
            memo = base_cache.setdefault(("facts-memo", str(repo), roots), {})
            head_tree.index.__dict__["_code_facts"] = _MemoFacts(head_tree.index, memo)
        share_unchanged_facts(base_tree, head_tree, touched)
        ctx = VerifyContext(
            repo_dir=repo,
            base_rev=base,
            head_rev=head,
            head_dir=hd,
            head=head_tree,
            base_dir=bd,
            base=base_tree,
            plans=[p.plan for p in preps],
            relocations=[p.relocation for p in preps],
            changesets=list(changesets or []),
            touched=touched,
            exclude=_plan_files(repo, base, head, plan) | {BLAME_FILE},
            cache=base_cache if base_cache is not None else {},
        )
        # imports-resolve and attributes-resolve read every file; deferred-names' walk
        # of the files it reads runs on the same parse, in the pool
        later = deferred_names.files_read(ctx) if deferred_names.NAME not in skip else ()
        head_tree.prefetch(deferred=frozenset(later))
        stack.enter_context(_frozen_heap())
        out = []
        progress.phase("check", total=len(CHECKS))
        for mod in CHECKS:
            progress.step(mod.NAME, n=0)
            if mod.NAME in skip or (mod is wheel and not wheel_check):
                out.append(CheckResult(mod.NAME, "SKIP", summary="skipped"))
            else:
                out.append(_run_check(mod, ctx))
            progress.step(mod.NAME)
        progress.did(f"{len(out)} static checks")
        return out

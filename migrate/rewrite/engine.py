"""`plan_changes`: the whole ChangeSet of a plan, computed without writing anything.

Order: relocation moves -> candidate files by text scan -> every Python candidate
rewritten in one libcst pass (a process pool when there are many) -> non-Python files
(text_files, packaging) -> symbol moves -> missing `__init__.py` -> split test files ->
deleted legacy leftovers. Unparsable files stop the run unless `skip_unparsable`.
"""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor
from pathlib import PurePosixPath

from migrate.changes import ChangeSet, ContractError, Edit, FileMove, apply_edits
from migrate.errors import Diagnostic, MigrateError, Pos
from migrate.index.repo import RepoIndex
from migrate.pipeline import Prepared
from migrate.plan.model import Plan
from migrate.relocate import Relocation
from migrate.rewrite import scan
from migrate.rewrite.context import Context, FileJob, FileResult
from migrate.rewrite.data_paths import data_path_problems
from migrate.rewrite.groups import group_changes, group_removals
from migrate.rewrite.import_cycles import cycle_problems
from migrate.rewrite.new_packages import missing_inits
from migrate.rewrite.packaging import owned_regions, packaging_changes
from migrate.rewrite.pyfile import rewrite_python
from migrate.rewrite.run_context import build_context
from migrate.rewrite.symbols import plan_symbol_moves
from migrate.rewrite.text_files import handles, text_file_changes
from migrate.tests_split import split_file

POOL_MIN_FILES = 48  # below this a pool costs more than it saves


def python_job(index: RepoIndex, rel: Relocation, path: str) -> FileJob | None:
    info = index.files[path]
    text = index.text(path)
    if text is None:
        return None
    old_module = info.module
    new_module = rel.moved_modules.get(old_module, old_module) if old_module else None
    return FileJob(
        old_path=path,
        new_path=rel.files.get(path, path),
        text=text,
        old_module=old_module,
        new_module=new_module,
        is_init=info.is_package_init,
    )


_WORKER: tuple[Context, object] | None = None


def _init_worker(ctx: Context, regex) -> None:
    global _WORKER
    _WORKER = (ctx, regex)


def _run_job(job: FileJob) -> FileResult:
    ctx, regex = _WORKER
    return rewrite_python(job, ctx, regex)


def rewrite_python_files(jobs: list[FileJob], ctx: Context, regex, workers: int | None = None):
    """FileResults in job order; parallel when there are many files."""
    workers = workers if workers is not None else min(os.cpu_count() or 1, 8)
    if len(jobs) < POOL_MIN_FILES or workers <= 1:
        return [rewrite_python(job, ctx, regex) for job in jobs]
    with ProcessPoolExecutor(workers, initializer=_init_worker, initargs=(ctx, regex)) as pool:
        return list(pool.map(_run_job, jobs, chunksize=8))


def _text_file_changes(index, rel, plan, paths) -> tuple[list[Edit], list[Diagnostic]]:
    edits, notes = [], []
    for path in sorted(paths):
        if handles(path):
            e, n = text_file_changes(index, rel, plan, path)
            edits += e
            notes += n
    return edits, notes


def _packaging_changes(index, rel, plan) -> tuple[list[Edit], list[Diagnostic]]:
    return packaging_changes(index, rel, plan)


def _group_changes(index, rel, plan, cs: ChangeSet) -> None:
    """`groups.add` (`_GROUPS`, README sentence, group `__init__`), and the error for a
    move that creates a group implicitly: always run, even when nothing is added."""
    edits, writes, notes = group_changes(index, rel, plan)
    # A group statement is rendered whole from the final group list: it supersedes the
    # reference edits inside it (a renamed group's `import layernorm` -> `normalization`).
    cs.edits = [e for e in cs.edits if not any(_overlap(e, g) for g in edits)]
    cs.edits.extend(edits)
    cs.writes.update(writes)
    cs.notes.extend(notes)
    removals, notes = group_removals(index, rel, plan)
    cs.removals.update(removals)
    cs.notes.extend(notes)


def _overlap(a: Edit, b: Edit) -> bool:
    return a.path == b.path and a.start < b.end and b.start < a.end


def _packaging_owned(path: str, text: str) -> list[tuple[int, int]]:
    if PurePosixPath(path).name != "setup.py":
        return []
    return owned_regions(path, text)


def _outside(edit: Edit, regions) -> bool:
    return not any(edit.start < e and s < edit.end for s, e in regions)


def python_changes(
    index: RepoIndex,
    rel: Relocation,
    plan: Plan,
    ctx: Context,
    paths: set[str],
    skip_unparsable: bool = False,
    exclude: set[str] = frozenset(),
) -> tuple[list[Edit], list[Diagnostic], list[FileResult]]:
    """Reference edits of every Python file in `paths` (old paths)."""
    regex = scan.old_name_regex(rel, _names_only(plan))
    jobs = []
    for path in sorted(paths):
        info = index.files.get(path)
        if info is None or not info.is_python or path in exclude:
            continue
        job = python_job(index, rel, path)
        if job is not None:
            jobs.append(job)
    results = rewrite_python_files(jobs, ctx, regex)
    errors = [r.parse_error for r in results if r.parse_error is not None]
    if errors and not skip_unparsable:
        raise MigrateError(errors)
    edits, notes = [], []
    for job, r in zip(jobs, results, strict=False):
        if r.parse_error is not None:
            notes.append(
                Diagnostic(r.parse_error.pos, r.parse_error.message + " (skipped)", "warning")
            )
            continue
        owned = _packaging_owned(job.old_path, job.text)
        edits.extend(e for e in r.edits if _outside(e, owned))
        notes.extend(r.notes)
    return edits, notes, results


def _names_only(plan: Plan) -> Plan:
    """The plan without op ids: strings handle those as whole literals, not tokens."""
    from dataclasses import replace

    return replace(plan, op_ids=())


def deleted_leftovers(index: RepoIndex, rel: Relocation, plan: Plan) -> list[str]:
    out = []
    split_sources = {sp.file for sp in plan.splits}
    for pkg in plan.delete:
        d = index.package_dir(pkg)
        if d is None:
            continue
        out.extend(f for f in index.files_under(d) if f not in rel.files and f not in split_sources)
    return out


def _split_tests(index, rel, plan, cs: ChangeSet, durations=None) -> None:
    if not plan.splits:
        return
    for sp in plan.splits:
        src = sp.file
        text = index.text(src)
        if text is None:
            continue
        new_src = rel.files.get(src, src)
        text = apply_edits(text, cs.edits_for(new_src))
        result = split_file(text, new_src, sp, durations)
        cs.notes.extend(result.notes)
        for out_path, out_text in result.outputs.items():
            cs.writes[out_path] = ("tests", out_text)
        if new_src not in result.outputs:
            cs.removals[new_src] = "tests"


def _plan_file(index: RepoIndex, plan: Plan) -> set[str]:
    """The plan itself, when it lives in the repository: it names old locations on purpose."""
    from pathlib import Path

    try:
        return {Path(plan.path).resolve().relative_to(index.root).as_posix()}
    except ValueError:
        return set()


def plan_changes(
    prep: Prepared, skip_unparsable: bool = False, durations: dict | None = None
) -> ChangeSet:
    """Everything the plan does to the tree, as data (see docs/rewrite.md)."""
    plan, index, rel = prep.plan, prep.index, prep.relocation
    problems = data_path_problems(index, rel)
    if problems:
        raise MigrateError(problems)
    symbol_plan = plan_symbol_moves(index, rel)
    if symbol_plan.errors:
        raise MigrateError(symbol_plan.errors)
    ctx = build_context(index, rel, plan, symbol_plan.moving)
    cs = ChangeSet(moves=[FileMove(o, n) for o, n in sorted(rel.files.items())])
    removed = set(deleted_leftovers(index, rel, plan))
    paths = (scan.candidates(index, rel, plan) | symbol_plan.touched) - _plan_file(index, plan)
    edits, notes, _ = python_changes(index, rel, plan, ctx, paths, skip_unparsable, exclude=removed)
    text_edits, text_notes = _text_file_changes(index, rel, plan, paths - removed)
    pkg_edits, pkg_notes = _packaging_changes(index, rel, plan)
    cs.edits = edits + text_edits + pkg_edits
    if prep.followed is not None:
        cs.edits += prep.followed.edits  # computed op ids' literal group prefixes
        cs.notes += prep.followed.notes
    cs.notes = notes + text_notes + pkg_notes
    symbol_plan.apply(cs, index, rel)
    _group_changes(index, rel, plan, cs)
    for path in missing_inits(index, rel, cs, removed):
        cs.writes[path] = ("code", "")
        cs.notes.append(
            Diagnostic(
                Pos(path),
                "created: the new directory must be a package "
                "for packaging and imports to keep working",
                "warning",
            )
        )
    _split_tests(index, rel, plan, cs, durations)
    for path in sorted(removed):
        cs.removals[path] = "delete"
    cs = checked(cs)
    cycles = cycle_problems(index, rel, cs, plan.roots)
    if cycles:
        raise MigrateError(cycles)
    return cs


def checked(cs: ChangeSet) -> ChangeSet:
    """`cs` once it obeys the one-path contract (`ChangeSet.check`); a plan that makes the
    engine break it is refused like any other plan error."""
    try:
        return cs.check()
    except ContractError as exc:
        why = f"the plan's changes conflict: {exc}"
        raise MigrateError(Diagnostic(Pos(exc.path), why)) from None

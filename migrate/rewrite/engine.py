"""`plan_changes`: the whole ChangeSet of a plan, computed without writing anything.

The engine is a declared list of passes (`PASSES`), run in order after the relocation
moves and the candidate scan: python forms (every Python candidate rewritten in one
libcst pass, a process pool when there are many) -> text files -> packaging -> followed
op ids -> symbol moves -> groups -> import layout -> new packages (missing
`__init__.py`) -> split tests -> delete. Each pass reads the ChangeSet so far and
returns a `Contribution` (edits, writes, removals, notes, and the earlier edits it folds
into its own output); `plan_changes` adds them in order and checks the result against
the ChangeSet contract. Unparsable files stop the run unless `skip_unparsable`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from migrate import faults, progress
from migrate.changes import ChangeSet, ContractError, Edit, FileMove, apply_edits
from migrate.errors import Diagnostic, MigrateError, Pos
from migrate.index.repo import RepoIndex
from migrate.pipeline import Prepared
from migrate.plan.model import Plan
from migrate.pool import ignore_stop_signals, pool_map, usable_cores
from migrate.relocate import Relocation
from migrate.rewrite import scan
from migrate.rewrite.context import Context, FileJob, FileResult
from migrate.rewrite.data_paths import CodeLookup, data_path_problems
from migrate.rewrite.groups import group_changes, group_removals
from migrate.rewrite.import_cycles import cycle_problems
from migrate.rewrite.import_layout import kept_blank_lines, leading_blank_lines, parsed, relaid
from migrate.rewrite.import_order import Orders
from migrate.rewrite.new_packages import missing_inits
from migrate.rewrite.packaging import owned_regions, packaging_changes
from migrate.rewrite.run_context import build_context
from migrate.rewrite.spans import line_starts
from migrate.rewrite.submodules import GITMODULES, rewritten_gitmodules, submodule_moves
from migrate.rewrite.symbol_stubs import move_stub_declarations
from migrate.rewrite.symbols import SymbolPlan, plan_symbol_moves
from migrate.rewrite.symlinks import symlink_retargets
from migrate.rewrite.text_files import handles, text_file_changes
from migrate.rewrite.undecodable import undecodable_problems

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
    ignore_stop_signals()
    _WORKER = (ctx, regex)


def _run_job(job: FileJob) -> FileResult:
    from migrate.rewrite.pyfile import rewrite_python  # imported before the fork

    faults.checkpoint("rewrite-worker")
    ctx, regex = _WORKER
    return rewrite_python(job, ctx, regex)


def rewrite_python_files(jobs: list[FileJob], ctx: Context, regex, workers: int | None = None):
    """FileResults in job order; parallel when there are many files."""
    workers = workers if workers is not None else usable_cores()
    progress.phase("parse", total=len(jobs), label="candidate files")
    if not jobs:  # nothing to parse: libcst is not even imported (a pure data move)
        return []
    from migrate.rewrite.pyfile import rewrite_python  # libcst: only when there is Python

    if len(jobs) < POOL_MIN_FILES or workers <= 1:
        return [_stepped(rewrite_python(job, ctx, regex)) for job in jobs]
    return pool_map(_run_job, jobs, workers, _init_worker, (ctx, regex), done=_stepped_n)


def _stepped(result):
    progress.step("candidate files")
    return result


def _stepped_n(n: int) -> None:
    progress.step("candidate files", n)


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


def _groups_pass(run: EngineRun) -> Contribution:
    """`groups.add` (`_GROUPS`, README sentence, group `__init__`), and the error for a
    move that creates a group implicitly: always run, even when nothing is added."""
    index, rel, plan = run.prep.index, run.prep.relocation, run.prep.plan
    edits, writes, notes = group_changes(index, rel, plan)
    # A group statement is rendered whole from the final group list: it supersedes the
    # reference edits inside it (a renamed group's `import layernorm` -> `normalization`).
    withdrawn = [e for e in run.cs.edits if any(_overlap(e, g) for g in edits)]
    removals, removal_notes = group_removals(index, rel, plan)
    return Contribution(edits, writes, removals, notes + removal_notes, withdrawn)


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


def _split_pass(run: EngineRun) -> Contribution:
    """Each split source, with every edit of the earlier steps applied, is written out as
    its split files at the `tests` step (the ChangeSet contract: a write folds in the
    path's earlier edits); a source that keeps no output at its path is removed."""
    index, rel, out = run.prep.index, run.prep.relocation, Contribution()
    for sp in run.prep.plan.splits:
        text = index.text(sp.file)
        if text is None:
            continue
        from migrate.tests_split import split_file  # libcst matchers: only for splits

        new_src = rel.files.get(sp.file, sp.file)
        text = apply_edits(text, run.cs.edits_for(new_src))
        result = split_file(text, new_src, sp, run.durations)
        out.notes.extend(result.notes)
        for out_path, out_text in result.outputs.items():
            out.writes[out_path] = ("tests", out_text)
        if new_src not in result.outputs:
            out.removals[new_src] = "tests"
    return out


def _plan_file(index: RepoIndex, plan: Plan) -> set[str]:
    """The plan itself, when it lives in the repository: it names old locations on purpose."""
    from pathlib import Path

    try:
        return {Path(plan.path).resolve().relative_to(index.root).as_posix()}
    except ValueError:
        return set()


@dataclass
class Contribution:
    """What one pass adds to the ChangeSet. `withdrawn` are earlier edits the pass folds
    into its own output (a moved symbol's code, a group statement rendered whole)."""

    edits: list[Edit] = field(default_factory=list)
    writes: dict[str, tuple[str, str]] = field(default_factory=dict)
    removals: dict[str, str] = field(default_factory=dict)
    notes: list[Diagnostic] = field(default_factory=list)
    withdrawn: list[Edit] = field(default_factory=list)
    withdrawn_notes: list[Diagnostic] = field(default_factory=list)
    submodules: dict[str, str] = field(default_factory=dict)  # gitlink moves: old -> new

    def add_to(self, cs: ChangeSet) -> None:
        if self.withdrawn:
            gone = {id(e) for e in self.withdrawn}
            cs.edits = [e for e in cs.edits if id(e) not in gone]
        if self.withdrawn_notes:
            gone = {id(n) for n in self.withdrawn_notes}
            cs.notes = [n for n in cs.notes if id(n) not in gone]
        cs.edits.extend(self.edits)
        cs.writes.update(self.writes)
        cs.removals.update(self.removals)
        cs.notes.extend(self.notes)
        cs.submodules.update(self.submodules)


@dataclass
class EngineRun:
    """What every pass reads: the prepared plan, the shared rewrite context, the candidate
    files, and the ChangeSet of the passes before it (read, never changed, by a pass)."""

    prep: Prepared
    ctx: Context
    symbol_plan: SymbolPlan
    paths: set[str]  # candidate files (old paths), the plan file excluded
    removed: set[str]  # legacy leftovers the `delete` step removes
    cs: ChangeSet
    skip_unparsable: bool = False
    durations: dict | None = None
    # Import-time events of the texts the python pass parsed (`import_time.key` ->
    # events), for the cycle check after the passes: what it would otherwise parse again.
    import_events: dict = field(default_factory=dict)
    # Lookups of code the plan moves, by path from a loader that stays (data_paths)
    path_lookups: list = field(default_factory=list)


@dataclass(frozen=True)
class Pass:
    name: str
    run: Callable[[EngineRun], Contribution]


def _python_pass(run: EngineRun) -> Contribution:
    """Reference edits in every Python candidate (one libcst pass per file)."""
    p = run.prep
    # A removed file that code moves out of is read too: the references inside the code
    # it gives away are respelled (the symbols pass takes them along); nothing else of it
    # is kept, since the delete step removes it (markdown.extensions' moved docstrings).
    moved_out: dict[str, list[tuple[int, int]]] = {}
    for mv in run.symbol_plan.moves:
        if mv.src_path in run.removed:
            moved_out.setdefault(mv.src_path, []).extend(mv.spans)
    edits, notes, results = python_changes(
        p.index,
        p.relocation,
        p.plan,
        run.ctx,
        run.paths | set(moved_out),
        run.skip_unparsable,
        run.removed - set(moved_out),
    )
    for r in results:
        run.import_events.update(r.import_events)
    if moved_out:
        edits, notes = _inside_moved_code(p.index, moved_out, edits, notes)
    return Contribution(edits=edits, notes=notes)


def _inside_moved_code(index: RepoIndex, moved_out, edits: list[Edit], notes: list[Diagnostic]):
    """`edits` and `notes` less those in the removed files of `moved_out` (path -> the
    spans of code moving out of it) that fall outside those spans."""

    def inside(path: str, offset: int) -> bool:
        return any(s <= offset < e for s, e in moved_out[path])

    kept = [e for e in edits if e.path not in moved_out or inside(e.path, e.start)]
    said = []
    for n in notes:
        if n.pos.file in moved_out:
            starts = line_starts(index.text(n.pos.file) or "")
            at = starts[n.pos.line - 1] + max(n.pos.col - 1, 0) if n.pos.line else -1
            if not (0 < n.pos.line <= len(starts) and inside(n.pos.file, at)):
                continue
        said.append(n)
    return kept, said


def _text_pass(run: EngineRun) -> Contribution:
    """Reference edits in non-Python candidates (docs, configs, C++, CI files)."""
    p = run.prep
    edits, notes = _text_file_changes(p.index, p.relocation, p.plan, run.paths - run.removed)
    return Contribution(edits=edits, notes=notes)


def _data_paths_pass(run: EngineRun) -> Contribution:
    """Path parts from a loader that stays, naming code the plan moves, respelled
    (`data_paths.py`), or warned about; a lookup another pass already rewrites is left
    to it."""
    out = Contribution()
    for look in run.path_lookups:
        path = look.warning.pos.file
        start, end = look.span
        if any(e.path == path and e.start < end and start < e.end for e in run.cs.edits):
            continue  # a string pass respelled it already
        if look.edit is not None:
            out.edits.append(look.edit)
        else:
            out.notes.append(look.warning)
    return out


def _packaging_pass(run: EngineRun) -> Contribution:
    """Package lists, package data and entry points in setup.py / pyproject.toml."""
    edits, notes = _packaging_changes(run.prep.index, run.prep.relocation, run.prep.plan)
    return Contribution(edits=edits, notes=notes)


def _followed_pass(run: EngineRun) -> Contribution:
    """Computed op ids' literal group prefixes (`prep.followed`, from plan preparation)."""
    followed = run.prep.followed
    if followed is None:
        return Contribution()
    return Contribution(edits=list(followed.edits), notes=list(followed.notes))


def _registrations_pass(run: EngineRun) -> Contribution:
    """Registrations whose kernel changed group move to the new group's `__init__.py`;
    edits inside a cut statement or row are withdrawn (the cut supersedes them)."""
    from migrate.errors import TABLE_ROWS
    from migrate.layout.names import OPS_PKG
    from migrate.rewrite.registrations_follow import follow_registrations

    prep = run.prep
    if prep.followed is None or not prep.followed.strays:
        return Contribution()
    renames = {o.src: o.dst for o in prep.plan.op_ids}
    moved = follow_registrations(
        prep.index, prep.relocation, prep.followed.strays, renames, OPS_PKG
    )

    def cut(e: Edit) -> bool:
        return any(e.path == p and e.start < b and a < e.end for p, a, b in moved.cut)

    def stale_row_note(n) -> bool:
        # A table whose moved rows left with their registrations keeps only rows that
        # stay: what the table rewriters said of its rows (rows naming nothing the plan
        # moves, computed op ids no one edit can rename) no longer applies.
        return n.kind == TABLE_ROWS and any(
            n.pos.file == p and a <= n.pos.line <= b for p, a, b in moved.loops
        )

    return Contribution(
        edits=list(moved.edits),
        notes=[n for n in moved.notes if not stale_row_note(n)],
        withdrawn=[e for e in run.cs.edits if cut(e)],
        withdrawn_notes=[n for n in run.cs.notes if stale_row_note(n)],
    )


def _init_path(prep, package: str) -> str | None:
    old = prep.index.modules.get(package)
    return prep.relocation.files.get(old, old) if old else None


def _text_at(prep, new_path: str) -> str:
    old = next((o for o, n in prep.relocation.files.items() if n == new_path), new_path)
    return prep.index.text(old) or ""


def _exports_pass(run: EngineRun) -> Contribution:
    """Lazy `_EXPORTS` entries whose module changed group move to the new group's table,
    relative owners that moved otherwise are respelled; edits inside a cut entry or a
    respelled value are withdrawn (the pass's edit supersedes them)."""
    from migrate.rewrite.exports_follow import respelled

    prep = run.prep
    moved = respelled(prep.index, prep.relocation, prep.derived_exports)
    if prep.derived_exports:
        moved = _exports_moved(run, moved)

    def cut(e: Edit) -> bool:
        return any(e.path == p and e.start < b and a < e.end for p, a, b in moved.cut)

    return Contribution(
        edits=list(moved.edits),
        notes=list(moved.notes),
        withdrawn=[e for e in run.cs.edits if cut(e)],
    )


def _exports_moved(run: EngineRun, respelled):
    from migrate.layout.names import OPS_PKG
    from migrate.rewrite.exports_follow import export_edits

    prep = run.prep
    dests = {rel_path for e in prep.derived_exports if (rel_path := _init_path(prep, e.new_group))}
    appended = {  # destinations an earlier pass appends to: the table goes after that
        e.path
        for e in run.cs.edits
        if e.path in dests and e.start == e.end == len(_text_at(prep, e.path))
    }
    moved = export_edits(prep.index, prep.relocation, prep.derived_exports, OPS_PKG, appended)
    moved.edits += respelled.edits
    moved.cut += respelled.cut
    return moved


def _dynamic_imports_pass(run: EngineRun) -> Contribution:
    """Review notes at module names computed under a package that loses modules."""
    from migrate.rewrite.dynamic_imports import dynamic_import_notes

    return Contribution(notes=dynamic_import_notes(run.prep.index, run.prep.relocation))


def _symbols_pass(run: EngineRun) -> Contribution:
    """Moved top-level definitions: cut from their module (taking the reference edits
    inside them along), written to or appended at their new module."""
    scratch = ChangeSet(edits=list(run.cs.edits))
    run.symbol_plan.apply(scratch, run.prep.index, run.prep.relocation)
    move_stub_declarations(run.symbol_plan, scratch, run.prep.index, run.prep.relocation)
    before = {id(e) for e in run.cs.edits}
    after = {id(e) for e in scratch.edits}
    return Contribution(
        edits=[e for e in scratch.edits if id(e) not in before],
        writes=scratch.writes,
        notes=scratch.notes,  # the stub declarations left for review
        withdrawn=[e for e in run.cs.edits if id(e) not in after],
    )


def _layout_pass(run: EngineRun) -> Contribution:
    """Imports the passes before added, split or respelled go where isort/ruff would put
    them (`import_layout.py`); each touched block's edits fold into one edit."""
    from migrate.materialize import materialize
    from migrate.rewrite.quiet_modules import InitOrder

    prep = run.prep
    orders = Orders(prep.index, prep.relocation)
    init = InitOrder(materialize(run.cs, prep.index))  # the tree the edits so far leave
    by_path: dict[str, list[Edit]] = {}
    for e in run.cs.edits:
        if e.path.endswith(".py") and e.path not in run.cs.writes:
            by_path.setdefault(e.path, []).append(e)
    out = Contribution()
    for path, edits in sorted(by_path.items()):
        if not any(e.kind == "code" for e in edits):
            continue
        text = _text_at(prep, path)
        tree = parsed(text)  # one parse for both
        new, folded = relaid(path, text, edits, orders.of(path), init.of_file(path), tree)
        gone = {id(e) for e in folded}
        kept = [e for e in edits if id(e) not in gone] + new
        given = kept_blank_lines(path, text, kept, tree)
        out.edits += new + given + leading_blank_lines(path, text, kept + given)
        out.withdrawn += folded
    return out


def _new_packages_pass(run: EngineRun) -> Contribution:
    """The `__init__.py` a new package directory needs to stay a package."""
    out = Contribution()
    p = run.prep
    for path in missing_inits(p.index, p.relocation, run.cs, run.removed):
        out.writes[path] = ("code", "")
        out.notes.append(
            Diagnostic(
                Pos(path),
                "created: the new directory must be a package "
                "for packaging and imports to keep working",
                "warning",
            )
        )
    return out


def _symlinks_pass(run: EngineRun) -> Contribution:
    """Relative symlinks retargeted to where what they reach now lives (`symlinks.py`)."""
    rel = run.prep.relocation
    gone = {rel.files.get(p, p) for p in run.removed} | set(run.cs.removals)
    writes, notes = symlink_retargets(run.prep.index, rel, gone)
    return Contribution(writes={p: ("code", t) for p, t in writes.items()}, notes=notes)


def _submodules_pass(run: EngineRun) -> Contribution:
    """Submodules inside moved directories move with them, and `.gitmodules` is written in
    the same `relocate` step with only their `path =` values changed (`submodules.py`)."""
    p = run.prep
    out = Contribution(submodules=submodule_moves(p.index, p.relocation))
    text = p.index.text(GITMODULES) if GITMODULES in p.index.files else None
    if text is not None:  # this pass owns the file: no other pass's edit of it stays
        out.withdrawn = [e for e in run.cs.edits if e.path == GITMODULES]
        new = rewritten_gitmodules(text, p.relocation)
        if new != text:
            out.writes[GITMODULES] = ("relocate", new)
    return out


def _delete_pass(run: EngineRun) -> Contribution:
    """The legacy packages' leftovers, removed by the `delete` step."""
    return Contribution(removals=dict.fromkeys(sorted(run.removed), "delete"))


# The engine, in order: each pass sees the ChangeSet of the ones before it.
PASSES: tuple[Pass, ...] = (
    Pass("python forms", _python_pass),
    Pass("text files", _text_pass),
    Pass("data paths", _data_paths_pass),
    Pass("packaging", _packaging_pass),
    Pass("followed op ids", _followed_pass),
    Pass("registrations follow", _registrations_pass),
    Pass("exports follow", _exports_pass),
    Pass("dynamic imports", _dynamic_imports_pass),
    Pass("symbols", _symbols_pass),
    Pass("groups", _groups_pass),
    Pass("import layout", _layout_pass),
    Pass("new packages", _new_packages_pass),
    Pass("symlinks", _symlinks_pass),
    Pass("submodules", _submodules_pass),
    Pass("split tests", _split_pass),
    Pass("delete", _delete_pass),
)


def plan_changes(
    prep: Prepared,
    skip_unparsable: bool = False,
    durations: dict | None = None,
    passes: tuple[Pass, ...] = PASSES,
) -> ChangeSet:
    """Everything the plan does to the tree, as data (see docs/rewrite.md): the moves,
    then every pass's contribution in order, checked against the ChangeSet contract."""
    plan, index, rel = prep.plan, prep.index, prep.relocation
    lookups: list[CodeLookup] = []
    problems = data_path_problems(index, rel, lookups) + undecodable_problems(
        index, rel, plan, _plan_file(index, plan)
    )
    if problems:
        raise MigrateError(problems)
    symbol_plan = plan_symbol_moves(index, rel)
    if symbol_plan.errors:
        raise MigrateError(symbol_plan.errors)
    run = EngineRun(
        prep,
        build_context(index, rel, plan, symbol_plan.moving),
        symbol_plan,
        (scan.candidates(index, rel, plan) | symbol_plan.touched) - _plan_file(index, plan),
        set(deleted_leftovers(index, rel, plan)),
        ChangeSet(
            moves=[FileMove(o, rel.files[o]) for o in sorted(rel.files)],
            encodings=_plan_codecs(index, rel),
        ),
        skip_unparsable,
        durations,
    )
    run.path_lookups = lookups
    run.cs.notes.extend(symbol_plan.warnings)
    for p in passes:
        p.run(run).add_to(run.cs)
    cs = checked(run.cs)
    cycles = cycle_problems(index, rel, cs, plan.roots, run.import_events)
    if cycles:
        raise MigrateError(cycles)
    return cs


def _plan_codecs(index: RepoIndex, rel: Relocation) -> dict[str, str]:
    """path (before and after the move) -> the plan's codec, for files it names."""
    out: dict[str, str] = {}
    for path in index.files if index.encodings else ():
        codec = index.codec_for(path)
        if codec is not None:
            out[path] = out[rel.files.get(path, path)] = codec
    return out


def checked(cs: ChangeSet) -> ChangeSet:
    """`cs` once it obeys the one-path contract (`ChangeSet.check`); a plan that makes the
    engine break it is refused like any other plan error."""
    try:
        return cs.check()
    except ContractError as exc:
        why = f"the plan's changes conflict: {exc}"
        raise MigrateError(Diagnostic(Pos(exc.path), why)) from None

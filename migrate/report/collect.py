"""Gather the facts of one report into `ReportData`; read-only, nothing is applied.

Two entry points: `collect_preview` (a plan before it is applied: the dry run) and
`collect_range` (an applied migration, BASE..HEAD). Results of other stages are taken
as given (objects or their JSON); a stage that is cheap and read-only is run here when
its result is not given; one that is neither given nor run is `not_run`.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from migrate.errors import MigrateError
from migrate.git import parse_trailers, resolve_range, snapshot
from migrate.git.plans import kept_chain
from migrate.git.reads import RevReader, grep_files, ls_names, messages
from migrate.git.trailers import chain_ref, chain_refs
from migrate.git_steps.engine import Engine, plan_changeset
from migrate.materialize import materialize, text_tree
from migrate.oldnames import OldNames
from migrate.report import facts, sources
from migrate.report.data import (
    NOT_RUN,
    OK,
    CommitInfo,
    InventorySection,
    LeftoverSection,
    Meta,
    ReportData,
    RulesSection,
)
from migrate.report.leftovers import scan_leftovers
from migrate.rules import run_rules


@dataclass
class Given:
    """Results produced elsewhere (objects or parsed JSON); None means "not given"."""

    verify: object = None
    inventory: object = None
    rules: object = None
    parity: object = None


def tool_version() -> str:
    try:
        return version("migrate")
    except PackageNotFoundError:
        return "0+unknown"


def _fill_plan_facts(data: ReportData, prep, cs) -> None:
    data.summary = facts.summarize(cs, prep.plan, prep.relocation)
    prefixes = prep.relocation.path_prefixes
    data.moves, data.moves_not_drawn = facts.move_edges(
        cs, prep.plan.roots, tuple(prefixes), tuple(prefixes.values())
    )
    data.review = facts.review_items(cs)


def _rules(tree, given) -> RulesSection:
    if given is not None:
        return sources.rules_section(given)

    return sources.rules_section(run_rules(tree))


def collect_preview(
    prep, cs=None, given: Given | None = None, engine: Engine = plan_changeset
) -> ReportData:
    """The report of a plan not yet applied: what it would do to the checkout in `prep`
    (`cs`, or what `engine` makes of it)."""
    given = given or Given()
    if cs is None:
        cs = engine(prep)
    data = ReportData(
        Meta("preview", prep.plan.path, prep.plan.sha256, tool_version=tool_version())
    )
    _fill_plan_facts(data, prep, cs)
    tree = materialize(cs, prep.index)
    data.rules = _rules(tree, given.rules)
    data.inventory = _inventory(
        given.inventory,
        prep,
        lambda: _inventory_of(prep.index.python_files(), prep.index.text),
        lambda: _inventory_of([p for p in tree.paths if p.endswith(".py")], tree.text),
    )
    skip = {_display_path(prep.index.root, prep.plan.path)}
    items = scan_leftovers(tree.paths, tree.text, prep.relocation, prep.plan, skip=skip, tree=tree)
    noted = {(r.file, r.line) for r in data.review if r.kind == "note"}
    for item in items:
        item.flagged = (item.file, item.line) in noted
    data.leftovers = LeftoverSection(OK, items, "the tree the plan would produce")
    _fill_given(data, given)
    return data


def _inventory(given, prep, before, after) -> InventorySection:
    """The given inventory diff, else one computed here (static: nothing is imported)."""
    if given is not None:
        return sources.inventory_section(given)
    if prep is None:
        return InventorySection(NOT_RUN)
    from migrate.tests_split.inventory_diff import inventory_diff, mapping_from_plan

    mapping = mapping_from_plan(prep.plan, prep.relocation)
    return sources.inventory_section(inventory_diff(before(), after(), mapping))


def _fill_given(data: ReportData, given: Given) -> None:
    if given.parity is not None:
        data.parity = sources.parity_section(given.parity)


def _plan_path(repo: Path, plan: str | None, commits, tmp: Path) -> str | list | None:
    """`--plan`, else the plan(s) the trailer records: each member at its repo-relative
    path, or (a plan outside the repo) the copies apply kept, written under `tmp`."""
    if plan:
        return plan
    for c in commits:
        if not c.plan_path:
            continue
        refs = chain_refs(c.plan_path)
        paths = [p if p.is_absolute() else repo / p for p in map(Path, refs)]
        kept = None if all(p.is_file() for p in paths) else kept_chain(repo, c.plan_sha256 or "")
        if kept is not None and len(kept) == len(refs):
            for i, (p, data) in enumerate(zip(paths, kept, strict=True)):
                if not p.is_file():
                    paths[i] = tmp / str(i) / p.name
                    paths[i].parent.mkdir()
                    paths[i].write_bytes(data)
        out = [str(p) for p in paths]
        return out[0] if len(out) == 1 else out
    return None


def _run_verify(
    repo: Path, base: str, head: str, plan: str | None, wheel_check: bool, engine: Engine
):
    """`migrate verify` in-process (read-only: it reproduces commits in temporary trees)."""
    from migrate.verify import verify

    return verify(repo, f"{base}..{head}", plan, wheel_check=wheel_check, engine=engine)


def _apply_verify(data: ReportData, given) -> None:
    if given is None:
        if data.verify.error:
            return
        data.verify.status = NOT_RUN
        return
    data.verify, per_commit = sources.verify_section(given)
    for c in data.commits:
        hit = per_commit.get(c.sha) or next(
            (v for k, v in per_commit.items() if k and c.sha.startswith(k)), None
        )
        if hit:
            c.verify, c.residual_diff = hit


def collect_range(
    repo: str | Path,
    range_spec: str,
    plan: str | None = None,
    given: Given | None = None,
    *,
    run_verify: bool = True,
    wheel_check: bool = True,
    parity_device: str | None = None,
    engine: Engine = plan_changeset,
) -> ReportData:
    """The report of BASE..HEAD (see `_collect_range`); kept plans are read from a
    temporary directory that lives as long as the report is built."""
    with tempfile.TemporaryDirectory(prefix="migrate-report-plans-") as tmp:
        return _collect_range(
            repo, range_spec, plan, given, Path(tmp), run_verify, wheel_check, parity_device,
            engine,
        )  # fmt: skip


def _collect_range(
    repo, range_spec, plan, given, tmp: Path, run_verify, wheel_check, parity_device, engine
) -> ReportData:
    """The report of an applied migration: the commits of BASE..HEAD and what they did.

    Verify runs here unless its result is given (or `run_verify` is off). Parity runs
    the test suites twice, so it runs only when asked (`parity_device`: auto, cpu or
    cuda); otherwise give its result or the section says "not run".
    """
    repo = Path(repo).resolve()
    given = Given(**vars(given)) if given else Given()
    rng = resolve_range(repo, range_spec)
    base, head = rng.base, rng.head
    commits = [commit_info(sha, msg) for sha, msg in messages(repo, base, head)]
    plan_path = _plan_path(repo, plan, commits, tmp)
    data = ReportData(
        Meta("range", base=base, head=head, range_spec=range_spec, tool_version=tool_version()),
        commits=commits,
        commits_status=OK,
    )
    if given.verify is None and run_verify:
        given.verify, data.verify.error = _attempt(
            _run_verify, repo, base, head, plan_path, wheel_check, engine
        )
    _apply_verify(data, given.verify)
    prep = _replay_plan(data, repo, base, plan_path, engine)
    recorded = next((c.plan_path for c in commits if c.plan_path), None)
    if prep is not None and not plan and recorded:  # as the trailer names it, not a copy
        data.meta.plan_path = recorded
    read_head = RevReader(repo, head)
    roots = prep.plan.roots if prep is not None else (".",)
    tree = text_tree(ls_names(repo, head), read_head, roots)
    if prep is not None:
        needles = OldNames(prep.relocation, prep.plan).needles()
        files = grep_files(repo, head, needles)
        skip = set(chain_refs(data.meta.plan_path))
        items = scan_leftovers(files, read_head, prep.relocation, prep.plan, skip=skip, tree=tree)
        data.leftovers = LeftoverSection(OK, items, f"HEAD {head[:10]}")
    data.rules = _rules(tree, given.rules)
    data.inventory = _inventory(
        given.inventory, prep, lambda: _inventory_at(repo, base), lambda: _inventory_at(repo, head)
    )
    parity_error = ""
    if given.parity is None and parity_device:
        given.parity, parity_error = _attempt(
            _run_parity, repo, base, head, plan_path, parity_device
        )
    _fill_given(data, given)
    data.parity.error = parity_error
    return data


def commit_info(sha: str, message: str) -> CommitInfo:
    """One commit of the range with what its Migrate-* trailers say."""
    t = parse_trailers(message)
    return CommitInfo(
        sha=sha,
        subject=message.strip().splitlines()[0] if message.strip() else "",
        step=t.step if t else None,
        plan_path=t.plan_path if t else None,
        plan_sha256=t.plan_sha256 if t else None,
    )


def _attempt(fn, *args) -> tuple[object, str]:
    """(result, "") or (None, why): a stage that crashes is reported, never hidden."""
    try:
        return fn(*args), ""
    except Exception as exc:
        return None, f"{type(exc).__name__}: {exc}"


def _replay_plan(data: ReportData, repo: Path, base: str, plan_path: str | None, engine: Engine):
    """Prepare the plan against BASE and fill the plan facts; plan problems become data.

    BASE is the snapshot verify replays on (its exact blobs, and an index that lists its
    gitlinks, so moved submodules are counted as the dry run counted them)."""
    from migrate.pipeline import prepare

    if plan_path is None:
        data.plan_errors.append("no plan: give --plan or commits with a Migrate-Plan trailer")
        return None
    try:
        with snapshot(repo, base) as base_dir:
            prep = prepare(plan_path, base_dir)
            cs = engine(prep)
    except MigrateError as exc:
        data.plan_errors += [str(d) for d in exc.diagnostics]
        return None
    except OSError as exc:
        data.plan_errors.append(f"cannot read plan {plan_path}: {exc}")
        return None
    data.meta.plan_path = _display_path(repo, plan_path)
    data.meta.plan_sha256 = prep.plan.sha256
    _fill_plan_facts(data, prep, cs)
    named = {c.plan_sha256 for c in data.commits if c.plan_sha256}
    for sha in sorted(named - {prep.plan.sha256}):
        data.plan_errors.append(
            f"commits were made by plan sha256:{sha[:12]}, not {data.meta.plan_path}"
            f" (sha256:{prep.plan.sha256[:12]})"
        )
    return prep


def _run_parity(repo: Path, base: str, head: str, plan: str | None, device: str):
    from migrate.parity.check import run_parity

    return run_parity(repo, f"{base}..{head}", plan, device=device)


def _inventory_of(paths, read):
    from migrate.tests_split.inventory import inventory_of_texts

    return inventory_of_texts({p: read(p) for p in paths})


def _inventory_at(repo: Path, revision: str):
    from migrate.tests_split.inventory import inventory_at_rev

    return inventory_at_rev(repo, revision)


def _display_path(repo: Path, plan_path: str | list) -> str:
    if isinstance(plan_path, list):  # a chain, as its trailer records it
        return chain_ref([_display_path(repo, p) for p in plan_path])
    p = Path(plan_path).resolve()
    try:
        return p.relative_to(Path(repo).resolve()).as_posix()
    except ValueError:
        return str(plan_path)

"""Reproduce every `Migrate-Step` commit of a range with the same engine and compare trees.

A run is the commits of one plan hash. Its ChangeSet is recomputed from the run's base in a
temporary worktree; `step_trees` gives the tree of every step. Each commit is then checked
against its *actual* parent: the expected tree is the parent plus that step's change (an
earlier hand edit is carried forward by a 3-way merge, so it is reported once, where it
was made). Whatever the commit holds beyond that is its residual: changes made by hand.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from migrate import progress
from migrate.changes import ChangeSet
from migrate.errors import MigrateError
from migrate.git import (
    BLAME_FILE,
    BLAME_STEP,
    GitError,
    GitObjects,
    Listing,
    Trailers,
    parse_trailers,
    run_git,
    snapshot,
)
from migrate.git.plans import kept_chain
from migrate.git.reads import message
from migrate.git.trailers import chain_refs
from migrate.git_steps.apply import blame_contents
from migrate.git_steps.engine import Engine, plan_changeset
from migrate.git_steps.fingerprint import engine_fingerprint
from migrate.git_steps.trees import (
    Files,
    StepError,
    move_map,
    moved_gitlinks,
    needed_paths,
    step_trees,
)
from migrate.pipeline import Prepared, plan_paths, prepare
from migrate.plan import load_plan
from migrate.plan.compose import chain_sha
from migrate.verify.residual import residual
from migrate.verify.result import FAIL, PASS, CommitCheck

BASE = "<base>"


@dataclass
class Run:
    plan: Trailers
    base: str  # parent of the run's first commit
    commits: list[tuple[str, str, str]] = field(default_factory=list)  # (sha, parent, step)


def step_commits(repo_dir: Path, base: str, head: str) -> list[tuple[str, str, Trailers]]:
    """(sha, first parent, trailers) of every migrate commit in base..head, oldest first."""
    out = (
        run_git(repo_dir, "rev-list", "--reverse", "--first-parent", "--parents", f"{base}..{head}")
        .decode()
        .split("\n")
    )
    found = []
    for line in out:
        if not line.strip():
            continue
        sha, *parents = line.split()
        t = parse_trailers(message(repo_dir, sha))
        if t is not None and parents:
            found.append((sha, parents[0], t))
    return found


def group_runs(commits: list[tuple[str, str, Trailers]]) -> list[Run]:
    runs: dict[str, Run] = {}
    for sha, parent, t in commits:
        run = runs.setdefault(t.plan_sha256, Run(t, parent))
        run.commits.append((sha, parent, t.step))
    return list(runs.values())


def _member_text(repo_dir: Path, path: str, run: Run, range_base: str) -> bytes | None:
    """One recorded plan's bytes at the run's base or BASE (in the repo), else on disk."""
    if not os.path.isabs(path):
        for rev in (run.base, range_base):
            try:
                return run_git(repo_dir, "show", f"{rev}:{path}")
            except GitError:
                continue
        if (repo_dir / path).is_file():
            return (repo_dir / path).read_bytes()
    return Path(path).read_bytes() if Path(path).is_file() else None


def plan_texts(
    repo_dir: Path, run: Run, range_base: str, override: str | list | tuple | None
) -> list[tuple[str, bytes]]:
    """(recorded ref, bytes) of every plan of the run, in chain order: `--plan` (one path per
    member), else each trailer path at the run's base or BASE, else on disk, else the copies
    apply kept. Raises OSError naming what cannot be read."""
    refs = chain_refs(run.plan.plan_path)
    if override:
        given = plan_paths(override)
        if len(given) != len(refs):
            raise OSError(
                f"the commits record a chain of {len(refs)} plan(s) ({run.plan.plan_path}); "
                f"--plan gave {len(given)}"
            )
        return [(r, Path(g).read_bytes()) for r, g in zip(refs, given, strict=True)]
    found = [_member_text(repo_dir, r, run, range_base) for r in refs]
    if any(f is None for f in found):  # a plan outside the repo: the copies apply kept
        kept = kept_chain(repo_dir, run.plan.plan_sha256)
        if kept is not None and len(kept) == len(refs):
            found = [f if f is not None else k for f, k in zip(found, kept, strict=True)]
    missing = [r for r, f in zip(refs, found, strict=True) if f is None]
    if missing:
        raise OSError(f"no such file: {', '.join(missing)}")
    return list(zip(refs, found, strict=True))


def prepare_run(
    repo_dir: Path,
    run: Run,
    range_base: str,
    override: str | list | tuple | None,
    engine: Engine,
) -> tuple[Prepared | None, ChangeSet | None, str]:
    """Prepared plan (a chain composed as apply composed it) and its ChangeSet at the run's
    base, or (None, None, why not).

    `engine` runs inside a worktree of the run's base, exactly as apply ran it.
    """
    try:
        texts = plan_texts(repo_dir, run, range_base, override)
    except OSError as exc:
        return None, None, f"cannot read plan {run.plan.plan_path}: {exc.strerror or exc}"
    with tempfile.TemporaryDirectory(prefix="migrate-plan-") as tmp:
        files = []
        for i, (ref, data) in enumerate(texts):
            f = Path(tmp) / str(i) / Path(ref).name
            f.parent.mkdir()
            f.write_bytes(data)
            files.append(f)
        sha = chain_sha([load_plan(f)[0] for f in files])
        if sha != run.plan.plan_sha256:
            return (
                None,
                None,
                (
                    f"plan {run.plan.plan_path} has sha256:{sha[:12]}, the commits "
                    f"name sha256:{run.plan.plan_sha256[:12]}"
                ),
            )
        with snapshot(repo_dir, run.base) as wt:
            try:
                where = [
                    _plan_in(wt, ref, f, data) for (ref, data), f in zip(texts, files, strict=True)
                ]
                prep = prepare(where[0] if len(where) == 1 else where, wt)
                return prep, engine(prep), ""
            except MigrateError as exc:
                return None, None, f"plan does not validate at {run.base[:12]}:\n{exc}"


def _plan_in(tree: Path, recorded: str, fallback: Path, data: bytes) -> Path:
    """Where the engine must find the plan: at its recorded place when that is inside the
    repository (apply ran with the plan there, so the engine left the file alone), else
    outside the tree."""
    if os.path.isabs(recorded) or ".." in Path(recorded).parts:
        return fallback
    inside = tree / recorded
    if not (inside.is_file() and inside.read_bytes() == data):
        inside.parent.mkdir(parents=True, exist_ok=True)
        inside.write_bytes(data)  # apply saw it untracked in the work tree
    return inside


def _merge3(base: bytes, ours: bytes, theirs: bytes) -> bytes:
    """`git merge-file`: carry an earlier hand edit (ours) across a mechanical change."""
    with tempfile.TemporaryDirectory(prefix="migrate-merge-") as tmp:
        paths = []
        for name, data in (("ours", ours), ("base", base), ("theirs", theirs)):
            p = Path(tmp) / name
            p.write_bytes(data)
            paths.append(str(p))
        # exit status: the number of conflicts; the merged text (with markers) is the answer
        return run_git(tmp, "merge-file", "-p", "-q", *paths, check=False)


def expected_listing(
    objs: GitObjects,
    parent: Listing,
    prev: Files,
    cur: Files,
    domain: set[str],
    sources: dict[str, str],
    blobs: dict[str, bytes],
) -> Listing:
    """The parent's tree with this step's change (prev -> cur) applied to it."""
    out = {p: v for p, v in parent.items() if p not in domain}
    consumed = set()
    for p, (mode, data) in cur.items():
        src = sources.get(p, p)
        consumed.add(src)
        before, actual = prev.get(src), parent.get(src)
        if before is not None and actual is None:
            continue  # deleted by hand earlier: stays deleted
        if before is None or actual == (before[0], objs.blob_sha(before[1])):
            new = (mode, data)
        else:
            carried = objs.read(actual[1])
            merged = carried if before[1] == data else _merge3(before[1], carried, data)
            new = (actual[0] if actual[0] != before[0] else mode, merged)
        sha = objs.blob_sha(new[1])
        blobs[sha] = new[1]
        out[p] = (new[0], sha)
    for p in domain:  # entries of the parent the chain does not know about: carried as is
        if p in parent and p not in prev and p not in cur and p not in consumed:
            out[p] = parent[p]
    return out


def _check(
    objs: GitObjects, sha: str, step: str, plan: str, expected: Listing, blobs: dict[str, bytes]
) -> CommitCheck:
    found = residual(objs, expected, objs.ls_tree(sha), blobs)
    if not found:
        return CommitCheck(sha, step, plan, PASS)
    diff = "".join(d for _, _, d in found)
    files = ", ".join(f"{p}:{ln}" if ln else p for p, ln, _ in found)
    return CommitCheck(
        sha, step, plan, FAIL, diff, f"differs from its reproduction (hand changes?): {files}"
    )


def reproduce_run(objs: GitObjects, cs: ChangeSet, run: Run) -> list[CommitCheck]:
    plan = run.plan.plan_path
    needed = needed_paths(cs)
    base_files = objs.files(objs.ls_tree(run.base), needed)
    try:
        chain = step_trees(base_files, cs)
    except StepError as exc:
        return [
            CommitCheck(s, st, plan, FAIL, "", f"cannot reproduce: {exc}")
            for s, _, st in run.commits
        ]
    trees = {BASE: base_files, **dict(chain)}
    order = [BASE, *(s for s, _ in chain)]
    domain = needed.union(*(t.keys() for t in trees.values()))
    results, step_shas = [], []
    for sha, parent, step in run.commits:
        blobs: dict[str, bytes] = {}
        if step == BLAME_STEP:
            listing, data = blame_contents(objs, parent, step_shas, plan, run.plan.plan_sha256)
            mode = listing.get(BLAME_FILE, (0o100644, ""))[0]
            blobs[objs.blob_sha(data)] = data
            expected = {**listing, BLAME_FILE: (mode, objs.blob_sha(data))}
        elif step not in trees:
            results.append(
                CommitCheck(sha, step, plan, FAIL, "", f"the plan has no {step} step here")
            )
            continue
        else:
            prev = trees[order[order.index(step) - 1]]
            sources = move_map(cs) if step == "relocate" else {}
            parent_listing = objs.ls_tree(parent)
            if step == "relocate":  # submodules move with it (later steps carry them)
                parent_listing = moved_gitlinks(parent_listing, cs)
            expected = expected_listing(
                objs, parent_listing, prev, trees[step], domain, sources, blobs
            )
            step_shas.append(sha)
        results.append(_check(objs, sha, step, plan, expected, blobs))
    return results


def reproduce_all(
    repo_dir: str | Path,
    base: str,
    head: str,
    plan_override: str | None = None,
    engine: Engine = plan_changeset,
    fingerprint: str | None = None,
) -> tuple[list[CommitCheck], list[Prepared], list[ChangeSet]]:
    """PASS/FAIL for every migrate commit in base..head, each run's prepared plan and the
    ChangeSet `engine` reproduced for it. `fingerprint` is `engine`'s (`Migrate-Engine`;
    default: this code's): a commit that fails and names another was made by another engine."""
    repo_dir = Path(repo_dir).resolve()
    fingerprint = fingerprint or engine_fingerprint()
    objs = GitObjects(repo_dir)
    try:
        results, preps, changesets = [], [], []
        commits = step_commits(repo_dir, base, head)
        progress.phase("reproduce", total=len(commits), label="step commits")
        for run in group_runs(commits):
            prep, cs, why = prepare_run(repo_dir, run, base, plan_override, engine)
            if prep is None:
                results += [
                    CommitCheck(s, st, run.plan.plan_path, FAIL, "", why)
                    for s, _, st in run.commits
                ]
                continue
            preps.append(prep)
            changesets.append(cs)
            checks = reproduce_run(objs, cs, run)
            made_by = {sha: t.engine for sha, _, t in commits}
            for c in checks:
                if c.status == FAIL and made_by.get(c.sha) not in ("", fingerprint):
                    c.message += (
                        f" (made by engine {made_by[c.sha]}, reproduced with "
                        f"{fingerprint}: the engine changed since)"
                    )
            results += checks
            progress.step("step commits", n=len(run.commits))
        progress.did(f"{len(results)} commit(s) reproduced")
        return results, preps, changesets
    finally:
        objs.close()


def reproduce(repo_dir: str | Path, base: str, head: str, *args, **kwargs) -> list[CommitCheck]:
    """PASS/FAIL for every migrate commit in base..head (`reproduce_all`'s arguments)."""
    return reproduce_all(repo_dir, base, head, *args, **kwargs)[0]

"""`migrate apply`: one commit per non-empty step, then one switch that is all or nothing.

Every commit is built as git objects from the base tree (`step_listings`), then the branch is
fast-forwarded and the work tree switched in a `Transaction` that restores the starting
state byte for byte on any exception or SIGINT/SIGTERM. A last commit appends the step
commits' SHAs to `.git-blame-ignore-revs` (a commit cannot name its own SHA).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from migrate import faults as hooks
from migrate import progress
from migrate.changes import ChangeSet
from migrate.errors import Diagnostic, MigrateError, Pos
from migrate.git import (
    BLAME_FILE,
    BLAME_STEP,
    GitError,
    GitObjects,
    Listing,
    blame_file_text,
    listing_with,
    plan_ref,
    run_git,
)
from migrate.git.objects import TREE
from migrate.git.plans import keep_chain, keep_plan
from migrate.git.runner import redirected_by_env
from migrate.git.trailers import chain_ref
from migrate.git_steps.applied import applied_state, commit_with_plan
from migrate.git_steps.engine import Engine, plan_changeset, refusals
from migrate.git_steps.lock import LockHeld, RepoLock
from migrate.git_steps.message import blame_message, step_message
from migrate.git_steps.preflight import problems
from migrate.git_steps.recover import Recovery, lock_path, recover
from migrate.git_steps.transaction import Refused, SwitchRefused, Transaction
from migrate.git_steps.trees import carried, step_listings
from migrate.interrupts import Interrupted, signals_raise
from migrate.pipeline import load_chain, plan_paths, prepare
from migrate.plan import load_plan


@dataclass(frozen=True)
class StepCommit:
    step: str
    sha: str
    subject: str


@dataclass
class ApplyResult:
    status: str  # applied | already-applied | nothing-to-do
    base: str
    tip: str
    branch: str | None = None
    commits: list[StepCommit] = field(default_factory=list)
    reason: str = ""
    recovered: Recovery | None = None  # what an earlier, interrupted apply left
    left: list[str] = field(default_factory=list)  # others' files the switch left as they are


class ApplyRefused(Refused):
    """The repository is not in a state we can restore exactly; nothing was done."""


class ApplyFailed(Exception):
    """Apply stopped; the repository is back at its starting state (or `left`/`failed`
    say what is not, and how to restore it). `internal`: what stopped it is a bug in
    migrate (exit 4), not the world (a full disk, git, a signal: exit 1)."""

    def __init__(self, message: str, left=(), failed=(), internal: bool = False):
        self.left, self.failed, self.internal = list(left), list(failed), internal
        super().__init__(message)

    def __reduce__(self):
        return (type(self), (str(self), self.left, self.failed, self.internal))


def _is_bug(exc: BaseException) -> bool:
    """An exception no outside cause explains: not an OSError, a git failure, a signal
    or a test's injected failure (which stands for any of those)."""
    return not isinstance(exc, (OSError, GitError, Interrupted, hooks.InjectedFailure))


def _failed(what: str, exc: BaseException, where: str, left=(), failed=()) -> ApplyFailed:
    if _is_bug(exc):
        return ApplyFailed(
            f"internal error while {what}: {type(exc).__name__}: {exc}; {where}. This is "
            "a bug in migrate; please report it (--debug shows its traceback)",
            left,
            failed,
            internal=True,
        )
    return ApplyFailed(f"{what} failed ({exc}); {where}", left, failed)


def build_commits(
    objs: GitObjects,
    base: str,
    cs: ChangeSet,
    plan_path: str,
    plan_sha: str,
    hook=hooks.checkpoint,
    listing: Listing | None = None,
) -> list[StepCommit]:
    """Create (as objects only) one commit per non-empty step plus the blame-ignore commit.
    `listing`: base's (`GitObjects.ls_tree`), when the caller has read it."""
    commits: list[StepCommit] = []
    parent, parent_tree = base, run_git(objs.dir, "rev-parse", f"{base}^{{tree}}").decode().strip()
    listing = objs.ls_tree(base) if listing is None else listing
    listing, whole = carried(objs, parent_tree, listing, cs)
    progress.phase("commit", label="building step commits")
    for step, step_listing in step_listings(objs, listing, whole):
        progress.step(f"step {step}")
        tree = _write_step_tree(objs, listing, parent_tree, step_listing)
        if tree == parent_tree:
            continue
        msg = step_message(step, cs, plan_path, plan_sha)
        parent = objs.commit_tree(tree, parent, msg)
        parent_tree, listing = tree, step_listing
        commits.append(StepCommit(step, parent, msg.splitlines()[0]))
        hook(step)
    progress.did(f"{len(commits)} step commit(s)")
    if commits:
        shas = [c.sha for c in commits]
        commits.append(
            blame_commit(objs, parent, shas, plan_path, plan_sha, (listing, parent_tree))
        )
        hook(BLAME_STEP)
    return commits


def _write_step_tree(objs: GitObjects, before: dict, tree: str, after: dict) -> str:
    """The tree of listing `after`: from `before`'s `tree` and the entries that differ
    when they are few (a step that edits a handful of files; a directory carried whole is
    one entry, grafted), else written whole."""
    changes = {p: v for p, v in after.items() if before.get(p) != v}
    changes.update({p: (0, "") for p in before if p not in after})
    if len(changes) * 2 < len(after):
        if any(TREE in (v[0], before.get(p, (0,))[0]) for p, v in changes.items()):
            return objs.graft(tree, changes)
        return objs.write_tree_from(tree, changes)
    return objs.write_tree(after)


def blame_contents(
    objs: GitObjects, parent: str, shas: list[str], plan_path: str, plan_sha: str, listing=None
) -> tuple[dict, bytes]:
    """(parent listing, new `.git-blame-ignore-revs` bytes): shared with verify.
    `listing`: the parent's, when the caller has it (else read from git)."""
    listing = objs.ls_tree(parent) if listing is None else listing
    old = objs.read(listing[BLAME_FILE][1]) if BLAME_FILE in listing else None
    return listing, blame_file_text(old, shas, plan_path, plan_sha)


def blame_commit(
    objs: GitObjects,
    parent: str,
    shas: list[str],
    plan_path: str,
    plan_sha: str,
    known: tuple[dict, str] | None = None,
) -> StepCommit:
    """The blame-ignore commit on `parent`; `known`: the parent's (listing, tree) if the
    caller built them, so only the one file's directories are written again."""
    listing, data = blame_contents(
        objs, parent, shas, plan_path, plan_sha, known[0] if known else None
    )
    mode = listing.get(BLAME_FILE, (0o100644, ""))[0]
    if mode == 0o120000:
        raise MigrateError(
            Diagnostic(
                Pos(BLAME_FILE),
                f"{BLAME_FILE} is a symlink; apply will not write through it (make it a "
                "regular file, or point blame.ignoreRevsFile at the target)",
            )
        )
    after = listing_with(objs, listing, {BLAME_FILE}, {BLAME_FILE: (mode, data)})
    if known:  # the parent's tree with one entry changed
        tree = objs.write_tree_from(known[1], {BLAME_FILE: after[BLAME_FILE]})
    else:
        tree = objs.write_tree(after)
    msg = blame_message(shas, plan_path, plan_sha)
    return StepCommit(BLAME_STEP, objs.commit_tree(tree, parent, msg), msg.splitlines()[0])


def _check_repo(repo_dir: Path, branch: str | None) -> None:
    """Why apply must not start (after `_check_top`: `repo_dir` is a work tree's top)."""
    if not run_git(repo_dir, "rev-parse", "-q", "--verify", "HEAD", check=False).strip():
        raise ApplyRefused(["the repository has no commit to apply on"])
    reasons = problems(repo_dir)
    if branch:
        exists = run_git(
            repo_dir, "rev-parse", "-q", "--verify", f"refs/heads/{branch}", check=False
        ).strip()
        if exists:
            reasons.append(f"branch {branch} already exists")
        elif run_git(repo_dir, "check-ref-format", "--branch", branch, check=False) == b"":
            reasons.append(f"{branch!r} is not a valid branch name")
    if reasons:
        raise ApplyRefused(reasons)


def apply_plan(
    plan_path: str | Path,
    repo_dir: str | Path,
    branch: str | None = None,
    hook=hooks.checkpoint,
    allow_rule_errors: bool = False,
    engine: Engine = plan_changeset,
) -> ApplyResult:
    """Apply a plan as step commits, the ChangeSet `engine` makes of it.

    Raises MigrateError (invalid plan), ApplyRefused (dirty repo) or ApplyFailed (restored).
    """
    repo_dir = Path(repo_dir).resolve()
    _check_top(repo_dir)
    try:
        recovered = recover(repo_dir)
        with RepoLock(lock_path(repo_dir)):
            result = _locked(plan_path, repo_dir, branch, hook, allow_rule_errors, engine)
    except LockHeld as exc:
        raise ApplyRefused([str(exc)]) from None
    result.recovered = recovered if recovered.done else None
    return result


def _check_top(repo_dir: Path) -> None:
    try:
        top = run_git(repo_dir, "rev-parse", "--show-toplevel").decode().strip()
    except GitError as exc:  # not a repository, or one git will not use: git says which
        why = str(exc).partition(" failed: ")[2] or str(exc)
        raise ApplyRefused([f"{repo_dir}: git cannot work here:", *why.splitlines()]) from None
    at_top = bool(top) and Path(top).resolve() == repo_dir
    redirected = redirected_by_env(repo_dir, at_top)
    if redirected:
        raise ApplyRefused(redirected)
    if not at_top:
        raise ApplyRefused([f"{repo_dir} is not the top of a git work tree"])


def _locked(
    plan_path, repo_dir: Path, branch, hook, allow_rule_errors: bool, engine: Engine
) -> ApplyResult:
    _check_repo(repo_dir, branch)
    plan, errors = load_chain(plan_path)  # a chain of plans is recorded under one hash
    base = run_git(repo_dir, "rev-parse", "HEAD").decode().strip()
    if not errors:
        prior = commit_with_plan(repo_dir, plan.sha256)
        if prior:
            return ApplyResult(
                "already-applied",
                base,
                base,
                branch,
                reason=f"commit {prior[:12]} carries this plan's hash",
            )
    objs = GitObjects(repo_dir)
    try:
        with signals_raise():
            return _apply(plan_path, repo_dir, branch, base, objs, hook, allow_rule_errors, engine)
    finally:
        objs.close()


def _apply(
    plan_path,
    repo_dir: Path,
    branch,
    base: str,
    objs: GitObjects,
    hook,
    allow_rule_errors: bool,
    engine: Engine,
) -> ApplyResult:
    try:
        prep = prepare(plan_path, repo_dir)
    except MigrateError as exc:
        moved, missing = applied_state(plan_paths(plan_path)[-1], repo_dir)
        if moved and not missing:
            reason = "every move, op id, split, group and delete of the plan is in effect"
            return ApplyResult("already-applied", base, base, branch, reason=reason)
        if moved:  # partly in effect: say what is missing rather than claim it is done
            raise MigrateError(
                [*missing, *exc.diagnostics]
                + [
                    Diagnostic(
                        Pos(str(plan_path), 1, 1),
                        "the plan's moves are already in effect but the parts above are not; "
                        "apply a plan without the moves for the rest",
                    )
                ]
            ) from None
        raise
    except Interrupted as exc:
        raise ApplyFailed(f"{exc} while reading the plan; nothing was changed") from exc
    try:
        cs = engine(prep)
        if not allow_rule_errors:  # the dry run lists these after the engine's notes
            from migrate.rules.load import introduced_error_notes

            cs.notes.extend(introduced_error_notes(prep, cs))
        errors = refusals(cs)
        if errors:  # the dry run shows these and exits non-zero: apply writes nothing
            raise MigrateError(errors)
        ref = chain_ref([plan_ref(p, repo_dir) for p in plan_paths(plan_path)])
        listing = objs.ls_tree(base)  # read once: the commits' base and the switch's
        commits = build_commits(objs, base, cs, ref, prep.plan.sha256, hook, listing)
    except MigrateError:
        raise
    except BaseException as exc:
        raise _failed("building commits", exc, "nothing was changed") from exc
    if not commits:
        return ApplyResult("nothing-to-do", base, base, branch, reason="the plan changes nothing")
    tip = commits[-1].sha
    tx = Transaction(repo_dir, base, branch, hook)
    try:
        tx.prepare(tip, {**{m.old: m.new for m in cs.moves}, **cs.submodules}, listing)
        tx.switch(tip)
    except SwitchRefused as exc:
        tx.rollback()
        raise ApplyRefused(exc.reasons) from None
    except BaseException as exc:
        report = tx.rollback()
        if report.complete:
            where = f"HEAD, index and work tree are restored to {base[:12]}"
        else:
            where = "the repository could not be fully restored (see below)"
        raise _failed(
            "switching to the new commits", exc, where, report.left, report.failed
        ) from exc
    tx.finish()
    paths = plan_paths(plan_path)
    if len(paths) == 1:  # an outside plan is recorded by name and hash: keep its bytes
        keep_plan(repo_dir, paths[0], prep.plan.sha256)
    else:  # each member under its own hash, and the chain's list of them
        shas = [load_plan(p)[0].sha256 for p in paths]
        keep_chain(repo_dir, paths, shas, prep.plan.sha256)
    return ApplyResult("applied", base, tip, branch, commits, left=tx.left)

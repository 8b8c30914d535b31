"""`migrate apply PLAN`: commit the plan step by step, all or nothing."""

from __future__ import annotations

import sys

import click

from migrate.cli_errors import (
    INTERNAL,
    PROBLEMS,
    REFUSED,
    _debug_flag,
    debug_enabled,
    handle_errors,
)
from migrate.cli_options import repo_option


def print_leftovers(left, failed) -> None:
    """What a rollback left as someone changed it, and what it could not restore (and how)."""
    if left:
        click.echo("left as they are (changed while apply ran):", err=True)
        for line in left:
            click.echo(f"  {line}", err=True)
    if failed:
        click.echo(
            "could not restore (the originals are kept; `migrate recover` retries):", err=True
        )
        for line in failed:
            click.echo(f"  {line}", err=True)


@click.command("apply")
@handle_errors(
    problems="apply failed part way; the repository is restored to where it started",
    refused="refused to start (dirty work tree, merge in progress, branch exists)",
)
@click.argument("plan", nargs=-1, required=True, type=click.Path(dir_okay=False))
@repo_option("Repository to migrate (its top directory).")
@click.option("--branch", default=None, help="Create this branch for the commits and switch to it.")
@click.option(
    "--allow-rule-errors",
    is_flag=True,
    help="Apply even when the result has organization-rule errors BASE does not have.",
)
@click.pass_obj
def command(
    obj, plan: tuple[str, ...], repo: str, branch: str | None, allow_rule_errors: bool
) -> None:
    """Apply PLAN as one commit per step (relocate, code, string, prose, tests, delete).

    Several plans (`apply A.yaml B.yaml`) are a chain: B is written against the tree A
    leaves, and the two are composed into one relocation from the tree as it is.

    Exit 0 also when the plan is already applied (then nothing changes).
    """
    from migrate.git_steps import ApplyFailed, ApplyRefused, apply_plan
    from migrate.git_steps.engine import engine_of

    try:
        result = apply_plan(
            plan[0] if len(plan) == 1 else list(plan),
            repo,
            branch,
            allow_rule_errors=allow_rule_errors,
            engine=engine_of(obj),
        )
    except ApplyRefused as exc:
        click.echo("migrate apply: refusing to start:", err=True)
        for line in exc.reasons:
            click.echo(f"  {line}", err=True)
        sys.exit(REFUSED)
    except ApplyFailed as exc:
        click.echo(f"migrate apply: {exc}", err=True)
        print_leftovers(exc.left, exc.failed)
        if exc.internal and (debug_enabled() or _debug_flag[0]) and exc.__cause__ is not None:
            raise exc.__cause__ from None  # the restore is done: now the bug's traceback
        sys.exit(INTERNAL if exc.internal else PROBLEMS)
    if result.recovered is not None:
        click.echo(f"migrate apply: recovered first: {result.recovered.done}", err=True)
        print_leftovers(result.recovered.left, result.recovered.failed)
    if result.status != "applied":
        click.echo(f"{result.status}: {result.reason}; nothing changed.")
        return
    where = f" on new branch {result.branch}" if result.branch else ""
    click.echo(f"applied {len(result.commits)} commit(s){where} on {result.base[:12]}:")
    for c in result.commits:
        click.echo(f"  {c.sha[:12]} {c.subject}")
    print_leftovers(result.left, [])

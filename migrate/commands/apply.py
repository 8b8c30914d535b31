"""`migrate apply PLAN`: commit the plan step by step, all or nothing."""

from __future__ import annotations

import sys

import click

from migrate.errors import MigrateError


@click.command("apply")
@click.argument("plan", type=click.Path(dir_okay=False))
@click.option(
    "--repo",
    default=".",
    type=click.Path(file_okay=False, exists=True),
    help="Repository to migrate (its top directory).",
)
@click.option("--branch", default=None, help="Create this branch for the commits and switch to it.")
def command(plan: str, repo: str, branch: str | None) -> None:
    """Apply PLAN as one commit per step (relocate, code, string, prose, tests, delete).

    Exit status: 0 applied or already applied, 1 failed (repository restored),
    2 invalid plan, 3 refused (dirty work tree, merge in progress).
    """
    from migrate.git_steps import ApplyFailed, ApplyRefused, apply_plan

    try:
        result = apply_plan(plan, repo, branch)
    except MigrateError as exc:
        for d in exc.diagnostics:
            click.echo(str(d), err=True)
        n = len(exc.diagnostics)
        click.echo(f"{n} error{'s' if n != 1 else ''}; nothing was written.", err=True)
        sys.exit(2)
    except ApplyRefused as exc:
        click.echo("migrate apply: refusing to start:", err=True)
        for line in exc.reasons:
            click.echo(f"  {line}", err=True)
        sys.exit(3)
    except ApplyFailed as exc:
        click.echo(f"migrate apply: {exc}", err=True)
        sys.exit(1)
    if result.status != "applied":
        click.echo(f"{result.status}: {result.reason}; nothing changed.")
        return
    where = f" on new branch {result.branch}" if result.branch else ""
    click.echo(f"applied {len(result.commits)} commit(s){where} on {result.base[:12]}:")
    for c in result.commits:
        click.echo(f"  {c.sha[:12]} {c.subject}")

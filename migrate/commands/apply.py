"""`migrate apply PLAN`: commit the plan step by step, all or nothing."""

from __future__ import annotations

import sys

import click

from migrate.cli_errors import PROBLEMS, REFUSED, handle_errors


@click.command("apply")
@handle_errors(
    problems="apply failed part way; the repository is restored to where it started",
    refused="refused to start (dirty work tree, merge in progress, branch exists)",
)
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

    Exit 0 also when the plan is already applied (then nothing changes).
    """
    from migrate.git_steps import ApplyFailed, ApplyRefused, apply_plan

    try:
        result = apply_plan(plan, repo, branch)
    except ApplyRefused as exc:
        click.echo("migrate apply: refusing to start:", err=True)
        for line in exc.reasons:
            click.echo(f"  {line}", err=True)
        sys.exit(REFUSED)
    except ApplyFailed as exc:
        click.echo(f"migrate apply: {exc}", err=True)
        sys.exit(PROBLEMS)
    if result.status != "applied":
        click.echo(f"{result.status}: {result.reason}; nothing changed.")
        return
    where = f" on new branch {result.branch}" if result.branch else ""
    click.echo(f"applied {len(result.commits)} commit(s){where} on {result.base[:12]}:")
    for c in result.commits:
        click.echo(f"  {c.sha[:12]} {c.subject}")

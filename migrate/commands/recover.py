"""`migrate recover`: finish or roll back what an interrupted `migrate apply` left."""

from __future__ import annotations

import sys

import click

from migrate.cli_errors import PROBLEMS, REFUSED, handle_errors
from migrate.cli_options import repo_option


@click.command("recover")
@handle_errors(
    problems="some paths could not be restored (listed, with how to restore them)",
    refused="an apply is still running here (its lock's owner is alive)",
)
@repo_option()
def command(repo: str) -> None:
    """Recover from an apply killed part way (SIGKILL, power loss).

    A switch that had completed is finished (the migration stands); any other is rolled
    back to where the apply started, from the journal it wrote before touching anything.
    `migrate apply` does this by itself first; this command only recovers.
    """
    from migrate.commands.apply import print_leftovers
    from migrate.git.runner import redirected_by_env
    from migrate.git_steps.lock import LockHeld
    from migrate.git_steps.recover import recover

    redirected = redirected_by_env(repo)  # a journal of another repository is not ours
    if redirected:
        click.echo("migrate recover: refusing to start:", err=True)
        for line in redirected:
            click.echo(f"  {line}", err=True)
        sys.exit(REFUSED)
    try:
        out = recover(repo)
    except LockHeld as exc:
        click.echo(f"migrate recover: {exc}", err=True)
        sys.exit(REFUSED)
    click.echo(out.done or "nothing to recover: no interrupted apply left anything here")
    print_leftovers(out.left, out.failed)
    if out.failed:
        sys.exit(PROBLEMS)

"""`migrate suggest --from PKG`: draft a plan (YAML on stdout) that retires a legacy package."""

from __future__ import annotations

import sys

import click

from migrate.errors import MigrateError


@click.command("suggest")
@click.option("--from", "legacy", required=True, help="Legacy package, e.g. sglang.jit_kernel.")
@click.option("--repo", default=".", type=click.Path(file_okay=False, exists=True))
def command(legacy: str, repo: str) -> None:
    """Draft a complete plan moving every module of LEGACY into logical groups."""
    from migrate.rules.context import Context
    from migrate.rules.load import repo_tree
    from migrate.suggest.draft import draft_plan
    from migrate.suggest.yaml_out import render

    _, tree = repo_tree(repo)
    try:
        draft = draft_plan(tree, legacy, Context(tree))
    except MigrateError as exc:
        for d in exc.diagnostics:
            click.echo(str(d), err=True)
        sys.exit(2)
    click.echo(render(draft), nl=False)

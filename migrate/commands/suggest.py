"""`migrate suggest --from PKG`: draft a plan (YAML on stdout) that retires a legacy package."""

from __future__ import annotations

import click

from migrate.cli_errors import handle_errors
from migrate.cli_options import repo_option


@click.command("suggest")
@handle_errors(problems="(not used by suggest)", refused="(not used by suggest)")
@click.option("--from", "legacy", required=True, help="Legacy package, e.g. sglang.jit_kernel.")
@repo_option()
def command(legacy: str, repo: str) -> None:
    """Draft a complete plan moving every module of LEGACY into logical groups."""
    from migrate.rules.context import Context
    from migrate.rules.load import repo_tree
    from migrate.suggest.draft import draft_plan
    from migrate.suggest.yaml_out import render

    _, tree = repo_tree(repo)
    draft = draft_plan(tree, legacy, Context(tree))
    click.echo(render(draft), nl=False)

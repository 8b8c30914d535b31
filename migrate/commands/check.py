"""`migrate check`: enforce SGLang's kernel organization rules on a tree or a plan's result."""

from __future__ import annotations

import sys
import time

import click

from migrate.cli_errors import handle_errors
from migrate.cli_options import repo_option


@click.command("check")
@handle_errors(problems="a rule reported an error", refused="(not used by check)")
@repo_option()
@click.option(
    "--plan",
    "plan",
    default=None,
    type=click.Path(dir_okay=False, exists=True),
    help="Check the tree PLAN would produce, before anything is written.",
)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--select", multiple=True, help="Only these rule ids or names (repeatable).")
def command(repo: str, plan: str | None, as_json: bool, select: tuple[str, ...]) -> None:
    """Check kernel organization rules on the checkout, or on the tree PLAN would produce."""
    from migrate.rules import run_rules
    from migrate.rules.load import plan_tree, repo_tree
    from migrate.rules.output import format_json, format_text

    t0 = time.perf_counter()
    source = "checkout"
    if plan:
        tree, source = plan_tree(plan, repo)
    else:
        _, tree = repo_tree(repo)
    findings = run_rules(tree, set(select) or None)
    elapsed = round(time.perf_counter() - t0, 3)
    if as_json:
        click.echo(format_json(findings, tree=source, files=len(tree.paths), seconds=elapsed))
    else:
        click.echo(format_text(findings))
        if plan:
            click.echo(f"(checked the tree {plan} would produce; changes from: {source})")
    sys.exit(1 if any(f.severity == "error" for f in findings) else 0)

"""`migrate PLAN --dry-run` (`migrate run`): preview what the plan does; without --dry-run,
the same as `migrate apply PLAN`."""

from __future__ import annotations

import json
import sys

import click

from migrate import progress
from migrate.cli_errors import PROBLEMS, REFUSED, handle_errors
from migrate.cli_options import repo_option

# Dry-run output formats: the summary, the same facts as JSON, the reviewer's Markdown preview.
DRY_RUN_FORMATS = ["text", "json", "md"]


@click.command("run")
@handle_errors(
    problems="the dry run reports an error (apply would refuse it); without --dry-run: "
    "as `migrate apply`",
    refused="refused (without --dry-run: as `migrate apply`)",
)
@click.argument("plan", nargs=-1, required=True, type=click.Path(dir_okay=False))
@repo_option()
@click.option("--dry-run", is_flag=True, help="Show what the plan would do; write nothing.")
@click.option("--diff", "show_diff", is_flag=True, help="With --dry-run: add the unified diff.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(DRY_RUN_FORMATS),
    default="text",
    show_default=True,
    help="With --dry-run: summary as text, the same facts as JSON, or the reviewer preview "
    "(Markdown).",
)
@click.option(
    "--durations",
    type=click.Path(dir_okay=False, exists=True),
    help="With --dry-run: a JUnit XML of measured test durations; split budgets are shared "
    "by measured time instead of by case count.",
)
@click.pass_context
def command(
    ctx,
    plan: tuple[str, ...],
    repo: str,
    dry_run: bool,
    show_diff: bool,
    fmt: str,
    durations: str | None,
) -> None:
    """Run PLAN: with --dry-run, preview it; otherwise the same as `migrate apply PLAN`."""
    if not dry_run:
        if show_diff or fmt != "text" or durations:
            raise click.UsageError("--diff, --format and --durations only apply with --dry-run")
        from migrate.commands.apply import command as apply

        ctx.invoke(apply, plan=plan, repo=repo)
        return
    from migrate.git.runner import redirected_by_env
    from migrate.git_steps.engine import engine_of, refusals  # the same engine and gate as apply's
    from migrate.pipeline import prepare
    from migrate.present import summary, to_json, unified_diff

    redirected = redirected_by_env(repo)  # apply refuses these: so does its preview
    if redirected:
        click.echo("migrate run: refusing to start:", err=True)
        for line in redirected:
            click.echo(f"  {line}", err=True)
        sys.exit(REFUSED)
    prep = prepare(plan[0] if len(plan) == 1 else list(plan), repo)
    changes = engine_of(ctx.obj)(prep, durations=durations)
    from migrate.rules.load import introduced_error_notes

    changes.notes.extend(introduced_error_notes(prep, changes))
    progress.did(f"dry run: {len(changes.moves)} move(s), {len(changes.edits)} edit(s)")
    if fmt == "json":
        data = to_json(changes, prep)
        if show_diff:
            data["diff"] = unified_diff(changes, prep.index)
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
    elif fmt == "md":
        from migrate.report import render_preview_md

        click.echo(render_preview_md(prep, changes).rstrip("\n"))
        if show_diff:
            patch = unified_diff(changes, prep.index)
            click.echo(f"\n<details><summary>diff</summary>\n\n```diff\n{patch}```\n</details>")
    else:
        click.echo(summary(changes, prep), nl=False)
        if show_diff:
            click.echo("")
            click.echo(unified_diff(changes, prep.index), nl=False)
    if refusals(changes):
        sys.exit(PROBLEMS)

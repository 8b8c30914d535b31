"""Command-line wiring only: parse arguments, call pipeline functions, print results."""

from __future__ import annotations

import sys

import click

from migrate.errors import MigrateError


class _PlanDefaultGroup(click.Group):
    """`migrate PLAN.yaml [...]` is shorthand for `migrate run PLAN.yaml [...]`."""

    def parse_args(self, ctx, args):
        if args and args[0] not in self.commands and not args[0].startswith("-"):
            args = ["run", *args]
        return super().parse_args(ctx, args)


def _fail(exc: MigrateError) -> None:
    for d in exc.diagnostics:
        click.echo(str(d), err=True)
    n = len(exc.diagnostics)
    click.echo(f"{n} error{'s' if n != 1 else ''}; nothing was written.", err=True)
    sys.exit(2)


@click.group(cls=_PlanDefaultGroup)
@click.version_option(package_name="migrate")
def main() -> None:
    """Mechanical, verifiable kernel migrations for SGLang-style monorepos."""


def _plan_changes(prep, durations=None):
    from migrate.rewrite.engine import plan_changes

    return plan_changes(prep, durations=durations)


# Dry-run output formats: the summary, the same facts as JSON, the reviewer's Markdown preview.
DRY_RUN_FORMATS = ["text", "json", "md"]


@main.command("run")
@click.argument("plan", type=click.Path(dir_okay=False))
@click.option("--repo", default=".", type=click.Path(file_okay=False, exists=True))
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
def run_cmd(
    ctx, plan: str, repo: str, dry_run: bool, show_diff: bool, fmt: str, durations: str | None
) -> None:
    """Run PLAN: with --dry-run, preview it; otherwise the same as `migrate apply PLAN`."""
    if not dry_run:
        if show_diff or fmt != "text" or durations:
            raise click.UsageError("--diff, --format and --durations only apply with --dry-run")
        apply = main.commands.get("apply")
        if apply is None:
            raise click.UsageError("apply is not available")
        ctx.invoke(apply, plan=plan, repo=repo)
        return
    from migrate.pipeline import prepare
    from migrate.present import summary, to_json, unified_diff

    try:
        prep = prepare(plan, repo)
    except MigrateError as exc:
        _fail(exc)
    changes = _plan_changes(prep, durations=durations)
    if fmt == "json":
        import json

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
    if any(getattr(n, "severity", "") == "error" for n in changes.notes):
        sys.exit(1)


def _register() -> None:
    from migrate.commands import discover

    for cmd in discover():
        main.add_command(cmd)


_register()

if __name__ == "__main__":
    main()

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


@main.command("run")
@click.argument("plan", type=click.Path(dir_okay=False))
@click.option("--repo", default=".", type=click.Path(file_okay=False, exists=True))
@click.option("--dry-run", is_flag=True, help="Show what the plan would do; write nothing.")
@click.pass_context
def run_cmd(ctx, plan: str, repo: str, dry_run: bool) -> None:
    """Run PLAN: with --dry-run, preview it; otherwise the same as `migrate apply PLAN`."""
    if not dry_run:
        apply = main.commands.get("apply")
        if apply is None:
            raise click.UsageError("apply is not available")
        ctx.invoke(apply, plan=plan, repo=repo)
        return
    from migrate.pipeline import prepare

    try:
        prep = prepare(plan, repo)
    except MigrateError as exc:
        _fail(exc)
    rel = prep.relocation
    click.echo(f"plan {prep.plan.path} (sha256:{prep.plan.sha256[:12]}) is valid")
    click.echo(f"{len(rel.files)} file(s) would move:")
    for old, new in sorted(rel.files.items()):
        click.echo(f"  {old} -> {new}")
    for (mod, sym), new in sorted(rel.symbols.items()):
        click.echo(f"  symbol {mod}:{sym} -> {new}")


def _register() -> None:
    from migrate.commands import discover

    for cmd in discover():
        main.add_command(cmd)


_register()

if __name__ == "__main__":
    main()

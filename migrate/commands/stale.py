"""`migrate stale PLAN... [FILE...]`: flag references to names a plan already moved."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import click

from migrate.cli_errors import handle_errors
from migrate.cli_options import repo_option
from migrate.errors import MigrateError


def _is_plan(arg: str) -> bool:
    """A YAML file that declares `version:` at top level is a plan, not a file to check."""
    p = Path(arg)
    if p.suffix not in (".yaml", ".yml") or not p.is_file():
        return False
    return re.search(r"^version:\s*1\b", p.read_text(errors="replace"), re.M) is not None


@click.command("stale")
@handle_errors(
    problems="a stale reference to a moved name was found", refused="(not used by stale)"
)
@click.argument("args", nargs=-1, required=True, metavar="PLAN... [FILE...]")
@repo_option()
def command(args: tuple[str, ...], repo: str) -> None:
    """Exit 1 listing file:line and the new name of every reference to a moved name.

    Arguments that are plan files (YAML with `version: 1`) are plans; any others restrict
    the check to those files (as pre-commit passes them). Run it on branches that raced
    the migration, or on every commit through the `migrate-stale` pre-commit hook.
    """
    from migrate.plan import load_plan
    from migrate.verify.stale import stale_references

    plan_args = [a for a in args if _is_plan(a)]
    files = [a for a in args if a not in plan_args]
    if not plan_args:
        raise click.UsageError("give at least one plan file (YAML with `version: 1`)")
    plans, errors = [], []
    for a in plan_args:
        plan, errs = load_plan(a)
        errors += errs
        plans.append(plan)
    if errors:
        raise MigrateError(errors)
    repo_dir = Path(repo).resolve()
    checked = [_file_in_repo(f, repo_dir) for f in files] if files else None
    if len(plans) > 1:  # a chain: names from before A and between A and B go to the end
        from migrate.plan.compose import compose_all

        plans = [compose_all(plans, None)]
    findings = stale_references(repo_dir, plans, checked)
    for f in findings:
        click.echo(f"{f.file}:{f.line}: {f.message} ({f.fix})")
    if findings:
        n = len(findings)
        click.echo(f"{n} stale reference{'s' if n != 1 else ''} to moved names.", err=True)
        sys.exit(1)


def _file_in_repo(arg: str, repo_dir: Path) -> str:
    """An existing file inside the repository, absolute; else a bad argument naming it."""
    path = (Path.cwd() / arg).resolve()
    if not path.is_file():
        why = "is a directory" if path.is_dir() else "does not exist"
        raise click.BadParameter(f"{arg!r} {why}", param_hint="FILE")
    if not path.is_relative_to(repo_dir):
        raise click.BadParameter(f"{arg!r} is outside the repository {repo_dir}", param_hint="FILE")
    return str(path)

"""`migrate verify BASE..HEAD`: reproduce every step commit; static checks on HEAD."""

from __future__ import annotations

import json
import sys

import click

from migrate.cli_errors import INTERRUPTED, handle_errors
from migrate.cli_options import repo_option


@click.command("verify")
@handle_errors(
    problems="FAIL: a commit does not reproduce or is foreign, or a check found new breakage",
    refused="could not check: a check could not run (no wheel of BASE could be built); "
    "the reason is printed, nothing failed and nothing is proven",
)
@click.argument("rev_range", metavar="BASE..HEAD")
@click.option(
    "--plan",
    multiple=True,
    type=click.Path(dir_okay=False, exists=True),
    help="Plan file (default: the path in each commit's Migrate-Plan trailer); repeat it "
    "for a chained apply, in the order apply was given the plans.",
)
@repo_option()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable result.")
@click.option("--no-wheel", is_flag=True, help="Skip building BASE and HEAD wheels.")
@click.option(
    "--allow-foreign",
    is_flag=True,
    help="List commits of the range that are not Migrate-Step commits (and merges) as "
    "warnings instead of failing on them.",
)
@click.option(
    "--skip",
    multiple=True,
    help="Skip a static check (repeatable): old-names, imports-resolve, attributes-resolve, "
    "import-time-names, deferred-names, registry-targets, organization-rules, no-shims, "
    "single-module, no-new-cycles, import-reach, no-lost-files, data-lookups, tests-kept, "
    "git-integrity, wheel-contents.",
)
@click.pass_obj
def command(
    obj,
    rev_range: str,
    plan: tuple[str, ...],
    repo: str,
    as_json: bool,
    no_wheel: bool,
    allow_foreign: bool,
    skip: tuple[str, ...],
) -> None:
    """Prove BASE..HEAD: step commits that reproduce, no new breakage (docs/verify.md)."""
    from migrate.git_steps.engine import engine_of
    from migrate.interrupts import Interrupted, signals_raise
    from migrate.verify import verify
    from migrate.verify.text import render

    try:
        with signals_raise():  # so that the temporary worktrees are removed on ^C/SIGTERM
            result = verify(
                repo,
                rev_range,
                (plan[0] if len(plan) == 1 else list(plan)) or None,
                wheel_check=not no_wheel,
                skip=skip,
                allow_foreign=allow_foreign,
                engine=engine_of(obj),
            )
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    except Interrupted as exc:
        click.echo(f"migrate verify: {exc}", err=True)
        sys.exit(INTERRUPTED)
    if as_json:
        click.echo(json.dumps(result.to_dict(), indent=2))
    else:
        click.echo(render(result))
    sys.exit(result.exit_code)

"""`migrate report [--plan PLAN] BASE..HEAD`: the review report of an applied migration.

Reads what other stages produced (`--verify-json`, `--inventory-json`, `--check-json`,
`--parity-json`) and runs only read-only analysis itself; never writes to the repository.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from migrate.cli_errors import handle_errors
from migrate.cli_options import repo_option
from migrate.errors import Diagnostic, MigrateError, Pos


def _load(path: str | None, option: str):
    """A stage's JSON output, or a positioned error naming the file (exit 2)."""
    if path is None:
        return None
    try:
        data = json.loads(Path(path).read_bytes().decode("utf-8"))
    except json.JSONDecodeError as exc:
        raise MigrateError(
            Diagnostic(Pos(path, exc.lineno, exc.colno), f"{option}: not valid JSON: {exc.msg}")
        ) from None
    except UnicodeDecodeError as exc:
        raise MigrateError(
            Diagnostic(Pos(path), f"{option}: not UTF-8 (byte {exc.start})")
        ) from None
    if not isinstance(data, dict):
        raise MigrateError(
            Diagnostic(
                Pos(path, 1, 1), f"{option}: expected a JSON object, got {type(data).__name__}"
            )
        )
    return data


def _stage_json(flag: str, help: str):
    """A stage's result given as the JSON it printed, instead of running it here."""
    return click.option(flag, type=click.Path(dir_okay=False, exists=True), help=help)


@click.command("report")
@handle_errors(
    problems="with --fail-on: the verdict is that level or worse (report still written)",
    refused="(not used by report)",
)
@click.argument("rev_range", metavar="BASE..HEAD")
@click.option(
    "--plan",
    type=click.Path(dir_okay=False, exists=True),
    help="Defaults to the plan named in the commits' Migrate-Plan trailer.",
)
@repo_option()
@click.option("--format", "fmt", type=click.Choice(["md", "json"]), default="md")
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write here, not stdout.")
@_stage_json("--verify-json", "`migrate verify --json` output (default: verify runs here).")
@_stage_json(
    "--inventory-json",
    "`migrate inventory --diff-from BASE --json` output (default: computed here).",
)
@_stage_json("--check-json", "`migrate check --json` output (default: the rules run on HEAD here).")
@_stage_json(
    "--parity-json", "`migrate parity --json` output (default: not run; see --run-parity)."
)
@click.option(
    "--no-verify", is_flag=True, help="Do not run verify here (the section says not run)."
)
@click.option(
    "--no-wheel-check",
    "--no-wheel",  # verify's spelling of the same choice
    "no_wheel_check",
    is_flag=True,
    help="Run verify without building the wheel (also --no-wheel, as verify spells it).",
)
@click.option(
    "--run-parity",
    type=click.Choice(["auto", "cpu", "cuda"]),
    help="Run parity here on this device (runs the tests at BASE and HEAD: slow).",
)
@click.option(
    "--fail-on",
    type=click.Choice(["broken", "unchecked", "review"]),
    help="Exit 1 when the verdict is this or worse (the report is still written).",
)
@click.option(
    "--link-base", help="URL prefix for file:line links, e.g. https://github.com/o/r/blob/SHA"
)
@click.pass_obj
def command(
    obj,
    rev_range,
    plan,
    repo,
    fmt,
    output,
    verify_json,
    inventory_json,
    check_json,
    parity_json,
    no_verify,
    no_wheel_check,
    run_parity,
    fail_on,
    link_base,
):
    """Report on the migration BASE..HEAD: verdict, moves, commits, checks, parity, leftovers."""
    from migrate.git_steps.engine import engine_of
    from migrate.report import Given, collect_range, to_json, to_markdown, verdict
    from migrate.report.verdict import LEVELS

    if plan:  # a plan given explicitly must load; one found in the trailers is reported on
        from migrate.plan import load_plan

        _, errors = load_plan(plan)
        if errors:
            raise MigrateError(errors)
    given = Given(
        verify=_load(verify_json, "--verify-json"),
        inventory=_load(inventory_json, "--inventory-json"),
        rules=_load(check_json, "--check-json"),
        parity=_load(parity_json, "--parity-json"),
    )
    data = collect_range(
        repo,
        rev_range,
        plan,
        given,
        run_verify=not no_verify,
        wheel_check=not no_wheel_check,
        parity_device=run_parity,
        engine=engine_of(obj),
    )
    text = to_json(data) if fmt == "json" else to_markdown(data, link_base)
    if output:
        Path(output).write_text(text, encoding="utf-8")
    else:
        click.echo(text, nl=False)
    if fail_on and LEVELS.index(verdict(data).level) >= LEVELS.index(fail_on):
        sys.exit(1)

"""`migrate parity BASE..HEAD`: rerun the moved Triton kernels' tests at both ends, compare."""

from __future__ import annotations

import json
import sys

import click

from migrate.cli_errors import handle_errors
from migrate.cli_options import repo_option


@click.command("parity")
@handle_errors(
    problems="a moved kernel computes different bits, or a side's tests failed",
    refused="(not used by parity: a side that could not run is exit 1 or 2)",
)
@click.argument("rev_range", metavar="BASE..HEAD")
@click.option("--plan", type=click.Path(dir_okay=False), help="Also take moves from this plan.")
@repo_option()
@click.option("--device", type=click.Choice(["auto", "cpu", "cuda"]), default="auto")
@click.option("--root", "roots", multiple=True, help="Import root (repeatable); default: inferred.")
@click.option("--python", default=sys.executable, show_default=True, help="Runs the tests.")
@click.option("--seed", default=0, show_default=True)
@click.option("--timeout", default=3600.0, show_default=True, help="Seconds per side.")
@click.option("--keep", type=click.Path(file_okay=False), help="Keep recordings in this dir.")
@click.option("--only", multiple=True, help="Only moved modules matching this glob (old or new).")
@click.option(
    "--save-spec",
    type=click.Path(dir_okay=False),
    help="Write what to run as JSON, for python -m migrate.parity.offline on a git-less host.",
)
@click.option("--no-run", is_flag=True, help="With --save-spec: discover only, run nothing.")
@click.option(
    "--default-device",
    help="torch default device inside the tests (e.g. cuda for tests that create CPU tensors).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the ParityResult as JSON.")
def command(
    rev_range,
    plan,
    repo,
    device,
    roots,
    python,
    seed,
    timeout,
    keep,
    only,
    save_spec,
    no_run,
    default_device,
    as_json,
):
    """Prove moved Triton kernels compute the same bits at BASE and HEAD.

    Runs the tests that exercise every moved kernel module twice (old and new
    locations) with the same seeds, records each call of the moved public wrappers,
    and compares outputs bit for bit.
    """
    from migrate.parity import run_parity
    from migrate.parity.report import render

    result = run_parity(
        repo,
        rev_range,
        plan,
        device,
        list(roots) or None,
        python,
        seed,
        timeout,
        keep,
        list(only) or None,
        save_spec,
        not no_run,
        default_device,
    )
    if result is None:
        click.echo(f"parity spec written to {save_spec}; nothing was run")
        return
    if as_json:
        click.echo(json.dumps(result.to_dict(), indent=1, sort_keys=True))
    else:
        click.echo(render(result))
    sys.exit(0 if result.ok else 1)

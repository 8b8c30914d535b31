"""`migrate inventory`: the test inventory of a tree, or its diff against a git revision."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from migrate.cli_errors import handle_errors
from migrate.cli_options import repo_option


@click.command("inventory")
@handle_errors(
    problems="with --diff-from: a case, registration or budget is lost",
    refused="(not used by inventory)",
)
@repo_option()
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of tables.")
@click.option(
    "--collect",
    is_flag=True,
    help="Also run `pytest --collect-only -q` (imports the tests) for exact node ids.",
)
@click.option(
    "--pythonpath",
    multiple=True,
    default=("python",),
    show_default=True,
    help="Repo-relative import roots for --collect.",
)
@click.option(
    "--diff-from",
    "rev",
    default=None,
    help="Compare with this git revision instead (needs --plan for moves/splits).",
)
@click.option(
    "--plan",
    default=None,
    type=click.Path(dir_okay=False),
    help="The plan that led from --diff-from to the tree.",
)
def command(repo, as_json, collect, pythonpath, rev, plan) -> None:
    """List test files, cases, CI registrations and per-suite budgets, statically.

    With --diff-from REV: check that every case and registration of REV survives in the
    tree, mapped through PLAN's moves and splits, and that est_time per suite is equal.
    """
    from migrate.tests_split.inventory import build_inventory
    from migrate.tests_split.render import diff_text, inventory_text

    root = Path(repo).resolve()
    inv = build_inventory(root)
    if collect:
        from migrate.tests_split.collect import collect_node_ids

        got = collect_node_ids(root, sorted(inv.files), list(pythonpath))
        for path, f in inv.files.items():
            f.collected = got.node_ids.get(path, [])
        for e in got.errors:
            click.echo(f"collect: {e}", err=True)
    if rev is None:
        click.echo(
            json.dumps(inv.to_json(), indent=2) if as_json else inventory_text(inv), nl=not as_json
        )
        return
    from migrate.git import resolve_revision

    res = _diff(root, resolve_revision(root, rev, "--diff-from"), plan, inv)
    click.echo(json.dumps(res.to_dict(), indent=2) if as_json else diff_text(res), nl=not as_json)
    sys.exit(0 if res.ok else 1)


def _diff(root: Path, rev: str, plan: str | None, after):
    from migrate.git import exported
    from migrate.tests_split.inventory import build_inventory
    from migrate.tests_split.inventory_diff import inventory_diff, mapping_from_plan

    with exported(root, rev) as before_dir:
        before = build_inventory(before_dir)
        mapping: dict = {}
        if plan:
            from migrate.pipeline import prepare

            prep = prepare(plan, before_dir)
            mapping = mapping_from_plan(prep.plan, prep.relocation)
    return inventory_diff(before, after, mapping)

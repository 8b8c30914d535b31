"""`migrate fix PLAN`: rewrite stale references in place (no file moves)."""

from __future__ import annotations

from pathlib import Path

import click

from migrate.cli_errors import handle_errors
from migrate.cli_options import repo_option
from migrate.errors import OVERLAP, MigrateError


def write_edits(root: Path, index, cs) -> list[str]:
    """Write every file `cs` changes in place (its materialized bytes: the same encoding
    and line endings as the file had); `fix` ChangeSets hold edits only."""
    from migrate.materialize import materialize

    tree = materialize(cs, index)
    written = []
    for old, new in tree.changes():
        if old != new or new is None:
            raise ValueError(f"fix changes only file contents, not {old} -> {new}")
        (root / new).write_bytes(tree.read_bytes(new))
        written.append(new)
    return written


@click.command("fix")
@handle_errors(
    problems="(not used by fix: what it cannot rewrite is a note)", refused="(not used by fix)"
)
@click.argument("plan", nargs=-1, required=True, type=click.Path(dir_okay=False, exists=True))
@repo_option()
@click.option("--dry-run", is_flag=True, help="List the edits; write nothing.")
@click.option("--skip-unparsable", is_flag=True, help="Skip files libcst cannot parse.")
def command(plan: tuple[str, ...], repo: str, dry_run: bool, skip_unparsable: bool) -> None:
    """Rewrite references to PLAN's old names in a tree already in the new layout.

    Several plans are a chain (`fix A.yaml B.yaml`): names from before A and from between
    A and B are both fixed forward to where B leaves them.

    For branches written against the old layout: same engine as `apply`, edits in place,
    no file moves, no commit.
    """
    from migrate.index import build_index
    from migrate.plan import load_plan
    from migrate.plan.compose import compose_all
    from migrate.rewrite.fix_mode import fix_changes

    loaded = [load_plan(x) for x in plan]
    errors = [e for _, errs in loaded for e in errs]
    if errors:
        raise MigrateError(errors)
    p = compose_all([x for x, _ in loaded], None)
    index = build_index(repo, p.roots)
    cs = fix_changes(p, index, skip_unparsable)
    overlaps = [n for n in cs.notes if n.kind == OVERLAP]
    if overlaps:  # writing either rewrite alone would drop the other's change
        raise MigrateError(overlaps)
    for e in cs.edits:
        flag = "" if e.applicability == "safe" else " [review]"
        click.echo(f"{e.path}:{e.line}:{e.col}: {e.kind}{flag}: {e.old} -> {e.new}  ({e.reason})")
    for n in cs.notes:
        click.echo(str(n), err=True)
    if dry_run:
        click.echo(
            f"{len(cs.edits)} edit(s) in {len({e.path for e in cs.edits})} file(s); "
            "nothing written (--dry-run)"
        )
        return
    written = write_edits(index.root, index, cs)
    click.echo(f"{len(cs.edits)} edit(s) written to {len(written)} file(s)")

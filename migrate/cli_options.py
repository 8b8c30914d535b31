"""Options that several commands share, declared once so they read and behave alike."""

from __future__ import annotations

import click

REPO_HELP = "Repository (its top directory)."


def repo_option(help: str = REPO_HELP):
    """`--repo DIR` (default: the current directory), an existing directory."""
    return click.option(
        "--repo", default=".", type=click.Path(file_okay=False, exists=True), help=help
    )

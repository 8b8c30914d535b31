"""One module per CLI command; each defines `command` (a click.Command).

`migrate.cli` registers every module found here, so adding a command never edits a
shared file.
"""

from __future__ import annotations

import importlib
import pkgutil

import click


def discover() -> list[click.Command]:
    cmds = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        mod = importlib.import_module(f"{__name__}.{info.name}")
        cmd = getattr(mod, "command", None)
        if isinstance(cmd, click.Command):
            cmds.append(cmd)
    return cmds

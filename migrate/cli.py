"""The `migrate` command group: every command is a module in `migrate/commands/`.

`migrate PLAN [...]` is shorthand for `migrate run PLAN [...]`. The console script enters
through `migrate.__main__` (interrupt-safe from the first import on).
"""

from __future__ import annotations

import click

from migrate.cli_errors import MigrateGroup
from migrate.commands import discover


@click.group(cls=MigrateGroup)
@click.version_option(package_name="migrate")
def main() -> None:
    """Mechanical, verifiable kernel migrations for SGLang-style monorepos.

    \b
    Exit status, the same for every command (each command's --help says what 1 and 3 mean):
      0  ok
      1  the check found problems
      2  bad input (plan, argument or file): positioned errors, nothing written
      3  refused, or could not check (the message says which)
      4  internal error in migrate (a bug; --debug or MIGRATE_DEBUG=1 for the traceback)
      130  interrupted
    """


for _cmd in discover():
    main.add_command(_cmd)

if __name__ == "__main__":
    main(prog_name="migrate")

"""`python -m migrate` and the `migrate` console script.

The CLI is imported inside the interrupt guard, so a Ctrl-C while the interpreter is still
importing click and the commands exits 130 with one line, like one during a command.
"""

from __future__ import annotations

import sys


def main() -> None:
    try:
        from migrate.cli import main as cli
    except KeyboardInterrupt:
        sys.stderr.write("migrate: interrupted\n")
        raise SystemExit(130) from None
    cli(prog_name="migrate")


if __name__ == "__main__":
    main()

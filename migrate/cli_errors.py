"""One error handler for every command: what reaches the user, and with which exit status.

Every command is wrapped by `handle_errors`, so the same failure reads the same and exits
the same everywhere, and no traceback reaches a user unless `--debug` or MIGRATE_DEBUG
asks for it.
"""

from __future__ import annotations

import functools
import os
import sys

import click

from migrate.errors import MigrateError
from migrate.interrupts import Interrupted

OK = 0
PROBLEMS = 1  # the command ran and found problems (or, for apply: failed and restored)
BAD_INPUT = 2  # the plan, an argument or a file given is wrong; nothing was written
REFUSED = 3  # refused to start, or could not check; the message says which
INTERNAL = 4  # a bug in migrate
INTERRUPTED = 130  # Ctrl-C / SIGINT, as shells report it

REPORT_TO = "the migrate issue tracker (include the command line and the --debug output)"


def exit_status_help(problems: str, refused: str = "refused or could not check") -> str:
    """The exit-status paragraph every command's --help ends with."""
    return (
        "\b\nExit status:\n"
        "  0  ok\n"
        f"  1  {problems}\n"
        "  2  bad input (plan, argument or file): positioned errors, nothing written\n"
        f"  3  {refused}\n"
        "  4  internal error in migrate (a bug; --debug or MIGRATE_DEBUG=1 for the traceback)\n"
        "  130  interrupted"
    )


_debug_flag = [False]  # set by a command's --debug, read by the group's last-resort handler


def debug_enabled() -> bool:
    return os.environ.get("MIGRATE_DEBUG", "") not in ("", "0")


def report_migrate_error(exc: MigrateError, written: str = "nothing was written.") -> None:
    from migrate import progress

    progress.finish(done=False)  # end a live progress line before the diagnostics
    for d in exc.diagnostics:
        click.echo(str(d), err=True)
    n = sum(1 for d in exc.diagnostics if d.severity == "error")
    click.echo(f"{n} error{'s' if n != 1 else ''}; {written}", err=True)


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text[:300] + ("..." if len(text) > 300 else "")


def _os_error_message(exc: OSError) -> str:
    what = exc.strerror or _one_line(exc)
    names = [n for n in (exc.filename, exc.filename2) if n is not None]
    shown = " -> ".join(repr(os.fsdecode(n)) for n in names)
    return f"{shown}: {what}" if shown else what


def _fail(name: str, message: str, code: int) -> None:
    from migrate import progress

    progress.finish(done=False)
    click.echo(f"migrate{' ' + name if name else ''}: {message}", err=True)
    sys.exit(code)


def handle_errors(problems: str, refused: str = "refused or could not check"):
    """Wrap a command callback: add --debug/--quiet, document and map every exit status.

    MigrateError -> its positioned diagnostics, exit 2; a bad file argument (OSError
    naming a file, undecodable bytes) -> one line, exit 2; Ctrl-C -> one line, exit 130;
    anything else -> one line saying where to report it, exit 4 (a traceback only with
    --debug or MIGRATE_DEBUG=1).
    """

    def wrap(fn):
        name = fn.__module__.rsplit(".", 1)[-1]

        @functools.wraps(fn)
        def wrapper(*args, debug: bool = False, quiet: bool = False, **kwargs):
            from migrate import progress

            progress.configure(quiet=quiet, command=name)
            _debug_flag[0] = debug = debug or debug_enabled()
            try:
                rv = fn(*args, **kwargs)
                progress.finish()
                return rv
            except SystemExit as exc:  # the command's own verdict: 0 and 1 are work done
                progress.finish(done=exc.code in (None, OK, PROBLEMS))
                raise
            except (click.exceptions.Exit, click.ClickException, click.Abort):
                raise
            except BrokenPipeError:  # the reader stopped early (`| head`): the group's exit
                raise
            except MigrateError as exc:
                if debug:
                    raise
                report_migrate_error(exc)
                sys.exit(BAD_INPUT)
            except KeyboardInterrupt:
                if debug:
                    raise
                _fail(name, "interrupted", INTERRUPTED)
            except Interrupted as exc:  # SIGINT/SIGTERM turned into an exception by us
                if debug:
                    raise
                _fail(name, str(exc), INTERRUPTED)
            except (OSError, UnicodeError) as exc:
                if debug or (isinstance(exc, OSError) and exc.filename is None):
                    return _internal(name, exc, debug)
                what = _os_error_message(exc) if isinstance(exc, OSError) else _one_line(exc)
                _fail(name, f"error: {what}", BAD_INPUT)
            except Exception as exc:
                if _is_git_error(exc) and not debug:  # git failed on valid input: not our bug
                    _fail(name, f"could not run: {_one_line(exc)}", REFUSED)
                return _internal(name, exc, debug)
            finally:
                progress.finish(done=False)

        wrapper.__doc__ = (fn.__doc__ or "").rstrip() + "\n\n" + exit_status_help(problems, refused)
        wrapper.handles_errors = True  # checked by the tests for every registered command
        wrapper = click.option(
            "--debug",
            is_flag=True,
            help="Show the traceback of an internal error (also MIGRATE_DEBUG=1).",
        )(wrapper)
        return click.option("--quiet", "-q", is_flag=True, help="No progress lines on stderr.")(
            wrapper
        )

    return wrap


def _is_git_error(exc: BaseException) -> bool:
    """A GitError of the git layer; looked up lazily so that the CLI starts without git."""
    runner = sys.modules.get("migrate.git.runner")
    return runner is not None and isinstance(exc, runner.GitError)


def _internal(name: str, exc: BaseException, debug: bool):
    if debug:
        raise exc
    _fail(
        name,
        f"internal error: {type(exc).__name__}: {_one_line(exc)}\n"
        f"This is a bug in migrate; please report it to {REPORT_TO}.",
        INTERNAL,
    )


class MigrateGroup(click.Group):
    """The top-level group: `migrate PLAN` means `migrate run PLAN`; no traceback escapes.

    Click itself turns Ctrl-C during argument parsing into "Aborted!" and exit 1, which
    would read as "found problems"; here it is exit 130 like everywhere else.
    """

    def parse_args(self, ctx, args):
        if args and args[0] not in self.commands and not args[0].startswith("-"):
            args = ["run", *args]
        return super().parse_args(ctx, args)

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        _debug_flag[0] = False  # one invocation's --debug does not leak into the next
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        try:
            rv = super().main(args, prog_name, complete_var, False, **extra)
        except click.ClickException as exc:
            exc.show()
            sys.exit(exc.exit_code)
        except (click.Abort, KeyboardInterrupt):
            click.echo("migrate: interrupted", err=True)
            sys.exit(INTERRUPTED)
        except click.exceptions.Exit as exc:
            sys.exit(exc.exit_code)
        except BrokenPipeError:
            sys.stderr = open(os.devnull, "w")  # noqa: SIM115 (the interpreter closes it)
            sys.exit(PROBLEMS)
        except Exception as exc:  # raised outside any command (group parsing, registration)
            _internal("", exc, _debug_flag[0] or debug_enabled())
        sys.exit(rv if isinstance(rv, int) else OK)

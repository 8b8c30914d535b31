"""Progress of long work, on stderr only: live lines on a terminal, nothing in the output.

Stages call `phase("scan", total=n)` and `step()`; the CLI's error handler configures and
finishes it. On a terminal one line per phase is redrawn in place and a final line gives
the elapsed time and what was done. Elsewhere (CI logs, pipes, tests) nothing is shown,
unless MIGRATE_PROGRESS=lines asks for one line per phase; `--quiet` or
MIGRATE_PROGRESS=off silences it everywhere. stdout and --json/--format output never
carry progress.
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass, field

REDRAW_EVERY_S = 0.1


@dataclass
class _State:
    mode: str = "off"  # off | live (a terminal) | lines (one line per phase)
    command: str = ""
    t0: float = field(default_factory=time.monotonic)
    name: str = ""
    total: int | None = None
    done: int = 0
    label: str = ""
    drawn_at: float = 0.0
    shown: int = 0  # phases shown
    summary: list[str] = field(default_factory=list)


_state = _State()


def _mode(quiet: bool, stream) -> str:
    env = os.environ.get("MIGRATE_PROGRESS", "auto")
    if quiet or env == "off":
        return "off"
    if env == "lines":
        return "lines"
    try:
        return "live" if stream.isatty() else "off"
    except (AttributeError, ValueError):
        return "off"


def configure(quiet: bool = False, command: str = "") -> None:
    """Start a command's progress (its clock, its mode); called once per CLI command."""
    global _state
    _state = _State(mode=_mode(quiet, sys.stderr), command=command)


def _write(text: str) -> None:
    try:
        sys.stderr.write(text)
        sys.stderr.flush()
    except (OSError, ValueError):
        _state.mode = "off"


def _line() -> str:
    s = _state
    count = f" {s.done}/{s.total}" if s.total is not None else (f" {s.done}" if s.done else "")
    label = f" {s.label}" if s.label else ""
    return f"{s.name}{count}{label}"


def _draw(force: bool = False) -> None:
    now = time.monotonic()
    if _state.mode == "live" and (force or now - _state.drawn_at >= REDRAW_EVERY_S):
        _state.drawn_at = now
        _write("\r\x1b[K" + _line()[:200])


def _close_phase() -> None:
    s = _state
    if not s.name:
        return
    if s.mode == "live":
        _draw(force=True)
        _write("\n")
    elif s.mode == "lines":
        _write(_line() + "\n")
    s.name, s.shown = "", s.shown + 1


def phase(name: str, total: int | None = None, label: str = "") -> None:
    """Begin a phase (`scan`, `parse`, `commit`, `verify`, ...), ending the one before."""
    if _state.mode == "off":
        return
    if name != _state.name:  # the same phase again (now with its total) stays on its line
        _close_phase()
    _state.name, _state.total, _state.done, _state.label = name, total, 0, label
    _draw(force=True)


def step(label: str = "", n: int = 1) -> None:
    """One more unit of the current phase is done; `label` names what comes next or now."""
    if _state.mode == "off" or not _state.name:
        return
    _state.done += n
    _state.label = label
    _draw()


def did(what: str) -> None:
    """Record what was done, for the final line (`3 commits`, `7 checks passed`)."""
    _state.summary.append(what)


def finish(done: bool = True) -> None:
    """End the last phase; on a terminal and when the work got `done`, the final line
    with the elapsed time and what was done. Once per command (then progress is off)."""
    if _state.mode == "off":
        return
    _close_phase()
    if _state.mode == "live" and _state.shown and done:
        elapsed = time.monotonic() - _state.t0
        what = "; ".join(_state.summary)
        prefix = f"migrate {_state.command}" if _state.command else "migrate"
        _write(f"{prefix}: done in {elapsed:.1f}s" + (f": {what}" if what else "") + "\n")
    _state.mode = "off"

"""SIGINT/SIGTERM as an exception, so `finally` blocks undo what a run did.

`signals_raise` turns the signals into `Interrupted` where Python was; `signals_held`
ignores them while a cleanup runs (a half-done rollback is the worst outcome).
`Interrupted` pickles, so it may cross a process pool.
"""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager

SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Interrupted(BaseException):
    """A SIGINT/SIGTERM arrived; raised where Python was, so `finally` blocks run."""

    def __init__(self, signum: int):
        self.signum = signum
        super().__init__(f"interrupted by {signal.Signals(signum).name}")

    def __reduce__(self):
        return (type(self), (self.signum,))

    @property
    def exit_code(self) -> int:
        return 128 + self.signum


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextmanager
def signals_raise():
    """Turn SIGINT/SIGTERM into `Interrupted` (main thread only)."""
    if not _main_thread():
        yield
        return

    def handler(signum, frame):
        for s in SIGNALS:  # one is enough: a second must not interrupt the cleanup
            signal.signal(s, signal.SIG_IGN)
        raise Interrupted(signum)

    old = {s: signal.signal(s, handler) for s in SIGNALS}
    try:
        yield
    finally:
        for s, h in old.items():
            signal.signal(s, h)


@contextmanager
def signals_held():
    """Ignore SIGINT/SIGTERM for the duration (main thread only)."""
    if not _main_thread():
        yield
        return
    old = {s: signal.signal(s, signal.SIG_IGN) for s in SIGNALS}
    try:
        yield
    finally:
        for s, h in old.items():
            signal.signal(s, h)

"""`.git/migrate.lock`: one migrate at a time per work tree.

Created atomically (O_CREAT|O_EXCL) holding the owner's pid, host and start time. A lock
whose owner is gone (same host, no such process) is stale: the next invocation recovers
what that run left (see `recover`) and takes the lock over.
"""

from __future__ import annotations

import json
import os
import socket
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Owner:
    pid: int
    host: str
    started: float

    def alive(self) -> bool:
        if self.host != socket.gethostname():
            return True  # another machine's process: we cannot tell, so assume it runs
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True

    def describe(self) -> str:
        when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(self.started))
        return f"pid {self.pid} on {self.host}, started {when}"


class LockHeld(Exception):
    def __init__(self, path: Path, owner: Owner):
        self.path, self.owner = path, owner
        super().__init__(f"another migrate is running here ({owner.describe()}; lock {path})")


def read_owner(path: Path) -> Owner | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return Owner(int(data["pid"]), str(data["host"]), float(data["started"]))
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError):
        return Owner(0, "", 0.0)  # unreadable (a crash while writing it): stale


class RepoLock:
    """Hold the lock for the duration of a `with`; a stale lock is taken over."""

    def __init__(self, path: Path):
        self.path = path
        self.held = False

    def acquire(self) -> None:
        me = {"pid": os.getpid(), "host": socket.gethostname(), "started": time.time()}
        data = json.dumps(me).encode()
        for _ in range(3):
            try:
                fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            except FileExistsError:
                owner = read_owner(self.path)
                if owner is not None and owner.pid != os.getpid() and owner.alive():
                    raise LockHeld(self.path, owner) from None
                self.path.unlink(missing_ok=True)  # stale: its owner is gone
                continue
            try:
                os.write(fd, data)
                os.fsync(fd)
            finally:
                os.close(fd)
            self.held = True
            return
        raise LockHeld(self.path, read_owner(self.path) or Owner(0, "?", 0.0))

    def release(self) -> None:
        if self.held:
            owner = read_owner(self.path)
            if owner is not None and owner.pid == os.getpid():
                self.path.unlink(missing_ok=True)
            self.held = False

    def __enter__(self) -> RepoLock:
        self.acquire()
        return self

    def __exit__(self, *exc) -> None:
        self.release()

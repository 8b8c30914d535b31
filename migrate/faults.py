"""Test-only fault injection: `MIGRATE_FAIL_AT=<point>[:<ERRNO>][,...]` raises there (an
`InjectedFailure`, or an OSError such as ENOSPC or EACCES), `MIGRATE_SLOW_AT=<point>:<s>[,...]`
sleeps (after printing `migrate: at <point>` to stderr, and appending the point to the file
`MIGRATE_AT_FILE` names, so a test knows when to signal; several points: a test acts at
the first, then stops the run at a later one).

Points: each step name (after its commit object is built), `blame-ignore-revs`, `journal`
(the journal is written, nothing visible changed), `ref` (after the branch moved),
`dir-rename` (after a whole directory was renamed, before what went along is put back),
`checkout` (after index and work tree were switched), and in a rollback `rollback-refs`,
`rollback-index`, `rollback-files` (before each of its steps); `rewrite-worker` in each
task of the parallel rewrite (in the worker process).
"""

from __future__ import annotations

import errno
import os
import sys
import time


class InjectedFailure(RuntimeError):
    pass


def _faults() -> dict[str, str]:
    out = {}
    for item in os.environ.get("MIGRATE_FAIL_AT", "").split(","):
        name, _, kind = item.strip().partition(":")
        if name:
            out[name] = kind
    return out


def checkpoint(point: str) -> None:
    for item in os.environ.get("MIGRATE_SLOW_AT", "").split(","):
        name, _, secs = item.strip().partition(":")
        if name == point:
            print(f"migrate: at {point}", file=sys.stderr, flush=True)
            marker = os.environ.get("MIGRATE_AT_FILE")
            if marker:  # for tests that cannot read our stderr while we run
                with open(marker, "a", encoding="utf-8") as fh:
                    fh.write(f"{point}\n")
            time.sleep(float(secs or 30))
    faults = _faults()
    if point in faults:
        kind = faults[point]
        if kind:
            code = getattr(errno, kind)
            raise OSError(code, f"{os.strerror(code)} (injected at {point})")
        raise InjectedFailure(f"injected failure at {point}")

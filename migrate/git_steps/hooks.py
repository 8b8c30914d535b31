"""Test-only fault injection: `MIGRATE_FAIL_AT=<point>` raises, `MIGRATE_SLOW_AT=<point>:<s>`
sleeps (after printing `migrate: at <point>` to stderr so a test knows when to signal).

Points: each step name (after its commit object is built), `blame-ignore-revs`, `ref`
(after the branch moved) and `checkout` (after index and work tree were switched).
"""

from __future__ import annotations

import os
import sys
import time


class InjectedFailure(RuntimeError):
    pass


def checkpoint(point: str) -> None:
    slow = os.environ.get("MIGRATE_SLOW_AT", "")
    if slow:
        name, _, secs = slow.partition(":")
        if name == point:
            print(f"migrate: at {point}", file=sys.stderr, flush=True)
            time.sleep(float(secs or 30))
    if os.environ.get("MIGRATE_FAIL_AT") == point:
        raise InjectedFailure(f"injected failure at {point}")

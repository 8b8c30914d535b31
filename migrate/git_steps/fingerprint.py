"""A fingerprint of the engine's code, recorded in each commit (`Migrate-Engine`).

Reproduction is exact only with the engine that made the commits; when verify fails and
the fingerprints differ, the message says so (the plan may be fine, the engine changed).
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

import migrate


@lru_cache(maxsize=1)
def engine_fingerprint() -> str:
    root = Path(migrate.__file__).parent
    h = hashlib.sha256()
    for p in sorted(root.rglob("*.py")):
        h.update(p.relative_to(root).as_posix().encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()[:12]

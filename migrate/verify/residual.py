"""The residual of a commit: how its tree differs from the reproduced one, as a diff."""

from __future__ import annotations

import difflib
import re

from migrate.git import GitObjects, Listing

_HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+(\d+)")


def _lines(data: bytes) -> list[str] | None:
    if b"\0" in data[:8192]:
        return None
    return data.decode("utf-8", "replace").splitlines(keepends=True)


def _first_changed_line(diff: list[str]) -> int:
    """Line number, in the actual file, of the first added or removed line."""
    at = 0
    for d in diff[2:]:
        m = _HUNK.match(d)
        if m:
            at = int(m.group(1))
        elif d[:1] in "+-":
            return max(at, 1)
        else:
            at += 1
    return 0


def file_diff(path: str, expected: bytes | None, actual: bytes | None) -> tuple[str, int]:
    """(unified diff expected -> actual, first changed line in the actual file)."""
    a = _lines(expected) if expected is not None else []
    b = _lines(actual) if actual is not None else []
    if a is None or b is None:
        return f"Binary file {path} differs\n", 0
    diff = list(
        difflib.unified_diff(
            a,
            b,
            "/dev/null" if expected is None else f"expected/{path}",
            "/dev/null" if actual is None else f"actual/{path}",
        )
    )
    line = _first_changed_line(diff)
    text = "".join(d if d.endswith("\n") else d + "\n\\ No newline at end of file\n" for d in diff)
    return text, line


def residual(
    objs: GitObjects, expected: Listing, actual: Listing, blobs: dict[str, bytes]
) -> list[tuple[str, int, str]]:
    """[(path, line, diff)] for every entry where `actual` departs from `expected`."""

    def content(entry) -> bytes | None:
        if entry is None:
            return None
        return blobs[entry[1]] if entry[1] in blobs else objs.read(entry[1])

    out = []
    for path in sorted(set(expected) | set(actual)):
        e, a = expected.get(path), actual.get(path)
        if e == a:
            continue
        if e and a and e[1] == a[1]:
            out.append((path, 0, f"mode of {path}: expected {e[0]:o}, found {a[0]:o}\n"))
            continue
        text, line = file_diff(path, content(e), content(a))
        out.append((path, line, text))
    return out

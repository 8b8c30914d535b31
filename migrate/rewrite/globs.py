"""Path globs with `**`: the one matcher for `keep_prose` and setuptools package-data.

`*` and `?` stay inside one path segment, `**` spans segments (zero or more), as in
setuptools package-data and gitignore. fnmatch's `*` crosses `/`, which is exactly the
bug that hides a data file that needed `**`.
"""

from __future__ import annotations

import re
from functools import lru_cache


@lru_cache(maxsize=1024)
def glob_regex(pattern: str) -> re.Pattern:
    out, i, n = [], 0, len(pattern)
    while i < n:
        c = pattern[i]
        if pattern.startswith("**/", i):
            out.append(r"(?:[^/]*/)*")
            i += 3
        elif pattern.startswith("**", i):
            out.append(r".*")
            i += 2
        elif c == "*":
            out.append(r"[^/]*")
            i += 1
        elif c == "?":
            out.append(r"[^/]")
            i += 1
        elif c == "[":
            close = pattern.find("]", i + 1)
            if close == -1:
                out.append(re.escape(c))
                i += 1
            else:
                body = pattern[i + 1 : close].replace("\\", "\\\\")
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append(f"[{body}]")
                i = close + 1
        else:
            out.append(re.escape(c))
            i += 1
    return re.compile("".join(out) + r"\Z")


def glob_match(pattern: str, path: str) -> bool:
    """True when the relative posix `path` matches `pattern` (whole path, `**` aware)."""
    return glob_regex(pattern).match(path) is not None


def repo_glob_match(pattern: str, path: str) -> bool:
    """gitignore-like matching of a repo-relative path.

    A pattern without `/` matches a file name at any depth (`CHANGELOG.md`); a pattern
    ending in `/` matches everything under that directory; otherwise the pattern is
    anchored at the repository root (a leading `/` is allowed).
    """
    anchored = pattern.startswith("/") or "/" in pattern.rstrip("/")
    pattern = pattern.lstrip("/")
    if pattern.endswith("/"):
        pattern += "**"
    if not anchored:
        return glob_match(pattern, path.rsplit("/", 1)[-1]) or (
            pattern.endswith("/**") and glob_match("**/" + pattern, path)
        )
    return glob_match(pattern, path)

"""Leftover references: old names still spelled in a tree after (or as planned by) a move.

A text scan, token-bounded so `can_use_hicache_jit_kernel` never matches: dotted
spellings (`sglang.jit_kernel.norm`) and path spellings (`sglang/jit_kernel/csrc`). A hit
counts only when the relocation map (or the plan's `delete`) says the name is gone;
files the plan keeps prose in (`keep_prose`) and the plan file itself are skipped.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from migrate.report.data import Leftover
from migrate.rewrite.globs import repo_glob_match


def old_names(relocation, plan) -> list[str]:
    """Dotted names that no longer exist after the plan: moved modules, sources, deletions."""
    names = set(relocation.modules) | set(relocation.moved_modules)
    names |= {f"{mod}.{sym}" for mod, sym in relocation.symbols}
    names |= {d for d in getattr(plan, "delete", ()) if "/" not in d}
    return sorted(names, key=lambda n: (-len(n), n))


def spellings(names: list[str], roots=(".",)) -> list[str]:
    """Path spellings of dotted names: under the import root and repo-relative."""
    out = []
    for n in names:
        rel = n.replace(".", "/")
        out.append(rel)
        out += [f"{r.rstrip('/')}/{rel}" for r in roots if r not in (".", "")]
    return sorted(set(out), key=lambda s: (-len(s), s))


def _pattern(names: list[str], roots) -> re.Pattern | None:
    if not names:
        return None
    dotted = "|".join(re.escape(n) for n in names)
    slashed = "|".join(re.escape(p) for p in spellings(names, roots))
    return re.compile(
        rf"(?<![\w.])(?:{dotted})(?:\.\w+)*(?!\w)|(?<![\w./])(?:{slashed})(?:/[\w.-]+)*(?:\.\w+)*/?(?![\w/])"
    )


def prefilter(names: list[str]) -> list[str]:
    """Fewest substrings that every dotted or path spelling of `names` contains."""
    spelled = sorted(set(names) | {n.replace(".", "/") for n in names}, key=len)
    out: list[str] = []
    for n in spelled:
        if not any(k in n for k in out):
            out.append(n)
    return out


class StaleCheck:
    """Decides whether one spelled name refers to something the plan moved or deleted."""

    def __init__(self, relocation, plan, roots=(".",)):
        self.rel = relocation
        self.deleted = [d for d in getattr(plan, "delete", ()) if "/" not in d]
        self.new = set(relocation.moved_modules.values()) | set(relocation.modules.values())
        self.roots = roots

    def _under(self, name: str, prefixes) -> bool:
        return any(name == p or name.startswith(p + ".") for p in prefixes)

    def dotted(self, name: str) -> bool:
        if self._under(name, self.new):
            return False  # the new spelling happens to start with an old one
        return self.rel.dotted(name) is not None or self._under(name, self.deleted)

    def path(self, token: str) -> bool:
        """`token` is root-relative (`sglang/x`) or repo-relative (`python/sglang/x`)."""
        rel = token
        for root in self.roots:
            prefix = root.rstrip("/") + "/"
            if root not in (".", "") and token.startswith(prefix):
                rel = token[len(prefix) :]
        candidates = {token} | {
            rel if r in (".", "") else f"{r.rstrip('/')}/{rel}" for r in self.roots
        }
        if any(self.rel.path(c) is not None for c in candidates):
            return True
        stem = rel[:-3] if rel.endswith(".py") else rel
        return self.dotted(stem.replace("/", "."))


def scan_text(path: str, text: str, pattern: re.Pattern, check: StaleCheck) -> list[Leftover]:
    out = []
    for lineno, line in enumerate(text.splitlines(), 1):
        for m in pattern.finditer(line):
            token = m.group(0)
            stale = check.path(token.rstrip("/.")) if "/" in token else check.dotted(token)
            if stale:
                out.append(Leftover(path, lineno, m.start() + 1, token, line.strip()[:200]))
    return out


def scan_leftovers(
    paths: Iterable[str],
    read: Callable[[str], str | None],
    relocation,
    plan,
    *,
    skip: Iterable[str] = (),
) -> list[Leftover]:
    """Every stale spelling in the files `paths` (text from `read`), sorted by position."""
    roots = getattr(plan, "roots", (".",))
    pattern = _pattern(old_names(relocation, plan), roots)
    if pattern is None:
        return []
    check = StaleCheck(relocation, plan, roots)
    keep = tuple(getattr(plan, "keep_prose", ()))
    skip = set(skip)
    needles = prefilter(old_names(relocation, plan))
    out: list[Leftover] = []
    for path in sorted(paths):
        if path in skip or any(repo_glob_match(g, path) for g in keep):
            continue
        text = read(path)
        if text is None or not any(n in text for n in needles):
            continue
        out.extend(scan_text(path, text, pattern, check))
    return out

"""Inline suppressions, for a finding a team has decided to keep (with a reason nearby).

x = load()  # migrate: ignore[KO301]      that line, those rules (or all without [...])
# migrate: ignore-file[KO403]              the whole file, those rules
"""

from __future__ import annotations

import re

from migrate.findings import Finding
from migrate.index.tree import CodeTree

_LINE = re.compile(r"#\s*migrate:\s*ignore(?!-file)(?:\[([A-Z0-9,\s]+)\])?")
_FILE = re.compile(r"#\s*migrate:\s*ignore-file(?:\[([A-Z0-9,\s]+)\])?")


def _covers(m: re.Match | None, rule: str) -> bool:
    if m is None:
        return False
    ids = m.group(1)
    return ids is None or rule in {i.strip() for i in ids.split(",")}


def is_suppressed(tree: CodeTree, f: Finding) -> bool:
    text = tree.text(f.pos.file) if tree.exists(f.pos.file) else None
    if not text or "migrate:" not in text:
        return False
    if any(_covers(m, f.check) for m in _FILE.finditer(text)):
        return True
    if f.pos.line:
        lines = text.splitlines()
        if f.pos.line <= len(lines):
            return _covers(_LINE.search(lines[f.line - 1]), f.check)
    return False


def unsuppressed(tree: CodeTree, findings: list[Finding]) -> list[Finding]:
    return [f for f in findings if not is_suppressed(tree, f)]

"""Where an added import goes: where isort/ruff would put it, when the block is sorted.

A block is the run of import statements around the binding import, in one body, with no
blank line between them. If the block is sorted (plain `import` lines before `from`
lines, modules in order; names inside a statement in order), the new import is added
at its sorted place, or merged into a one-line `from M import ...` of the same module, as
isort would. An unsorted block, `# isort: skip` on the binding line, or an `isort: off`
region in force keeps the simple rule: right after the binding import. The import is
never moved out of the scope of the binding (no hoisting out of a function).
"""

from __future__ import annotations

import ast
import re

from migrate.rewrite.spans import ast_offset, line_starts

_SKIP = re.compile(r"#\s*isort:\s*skip")
_OFF = re.compile(r"#\s*isort:\s*(off|on)\b")


def _body_of(tree: ast.AST, line: int) -> list[ast.stmt] | None:
    for node in ast.walk(tree):
        for field in ("body", "orelse", "finalbody"):
            body = getattr(node, field, None)
            if isinstance(body, list) and any(
                isinstance(s, ast.stmt) and s.lineno == line for s in body
            ):
                return body
        for h in getattr(node, "handlers", []) or []:
            if any(s.lineno == line for s in h.body):
                return h.body
    return None


def _key(node: ast.stmt) -> tuple:
    if isinstance(node, ast.Import):
        return (0, 0, 0, node.names[0].name.lower())
    level = node.level or 0
    return (1, 1 if level else 0, -level, (node.module or "").lower())


def name_key(name: str) -> tuple:
    """ruff/isort `order-by-type`: CONSTANTS, Classes, then the rest; case-insensitive."""
    kind = 0 if name.isupper() and len(name) > 1 else 1 if name[:1].isupper() else 2
    return (kind, name.lower())


def _isort_off(text: str, offset: int) -> bool:
    state = False
    for m in _OFF.finditer(text, 0, offset):
        state = m.group(1) == "off"
    return state


def _block(text: str, body: list[ast.stmt], line: int) -> list[ast.stmt]:
    i = next(k for k, s in enumerate(body) if s.lineno == line)
    lines = text.splitlines()

    def joined(a: ast.stmt, b: ast.stmt) -> bool:
        gap = lines[a.end_lineno : b.lineno - 1]
        return all(g.strip() for g in gap) and not any(g.lstrip()[:1] != "#" for g in gap)

    lo = i
    while lo > 0 and isinstance(body[lo - 1], (ast.Import, ast.ImportFrom)):
        if not joined(body[lo - 1], body[lo]):
            break
        lo -= 1
    hi = i
    while hi + 1 < len(body) and isinstance(body[hi + 1], (ast.Import, ast.ImportFrom)):
        if not joined(body[hi], body[hi + 1]):
            break
        hi += 1
    return body[lo : hi + 1]


def place(
    text: str, tree: ast.Module, line: int, new: str, can_merge
) -> tuple[int, int, str] | None:
    """(start, end, replacement) adding `new` (one statement, no indentation or newline)
    into the sorted block holding the statement at `line`; None: add after the binding.
    `can_merge(node)`: whether that statement may be rewritten (nothing else edits it)."""
    starts = line_starts(text)
    body = _body_of(tree, line)
    if body is None:
        return None
    start = starts[line - 1]
    first_line = text[start : text.find("\n", start) if "\n" in text[start:] else len(text)]
    if _SKIP.search(first_line) or _isort_off(text, start):
        return None
    block = _block(text, body, line)
    keys = [_key(s) for s in block]
    if keys != sorted(keys):
        return None
    new_node = ast.parse(new).body[0]
    nl = "\r\n" if "\r\n" in text else "\n"
    indent = first_line[: len(first_line) - len(first_line.lstrip(" \t"))]
    if isinstance(new_node, ast.ImportFrom) and len(new_node.names) == 1:
        merged = _merge(text, starts, block, new_node, can_merge)
        if merged is not None:
            return merged
    key = _key(new_node)
    for s in block:
        if _key(s) > key:
            at = starts[s.lineno - 1]
            return at, at, f"{indent}{new}{nl}"
    last = block[-1]
    at = starts[last.end_lineno] if last.end_lineno < len(starts) else len(text)
    lead = "" if text[:at].endswith("\n") else nl
    return at, at, f"{lead}{indent}{new}{nl}"


def _merge(text, starts, block, new_node: ast.ImportFrom, can_merge):
    """`from M import a` + `from M import b` -> `from M import a, b` (isort combines)."""
    alias = new_node.names[0]
    for s in block:
        if not (
            isinstance(s, ast.ImportFrom)
            and s.module == new_node.module
            and s.level == new_node.level
            and s.lineno == s.end_lineno
            and can_merge(s)
        ):
            continue
        a = ast_offset(text, starts, s.lineno, s.col_offset)
        b = ast_offset(text, starts, s.end_lineno, s.end_col_offset)
        src = text[a:b]
        line_end = text.find("\n", b)
        rest = text[b : len(text) if line_end == -1 else line_end]
        if "(" in src or rest.strip() or any(n.name == "*" for n in s.names):
            continue
        names = [n.name + (f" as {n.asname}" if n.asname else "") for n in s.names]
        keys = [name_key(n.name) for n in s.names]
        if keys != sorted(keys):
            return None
        add = alias.name + (f" as {alias.asname}" if alias.asname else "")
        if add in names:
            return a, b, src
        names.append(add)
        names.sort(key=lambda n: name_key(n.split(" ")[0]))
        head = src.split(" import ", 1)[0]
        return a, b, f"{head} import {', '.join(names)}"
    return None

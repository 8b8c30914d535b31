"""Give libcst only the top-level statements that can need an edit.

libcst parsing plus position metadata costs ~0.4 CPU-s for a 150 KB module; a real
SGLang migration touches modules of 300 KB for one import line. The file's `ast` (10x
cheaper) says which top-level statements are "hot": they contain a line the old-name
regex matches, a relative import, or are imports, the module docstring, or literal tables
(registrations loop over them). Every other top-level statement's lines are replaced by
spaces: offsets and line numbers stay identical, so spans computed on the sparse text
are spans of the real text. File-wide facts that cold lines still influence (names the
file defines, uses of an import's root name) come from the `ast` of the whole file.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from dataclasses import dataclass, field

from migrate.index.attrs import attr_chain


@dataclass
class FileFacts:
    """What the whole file says, from `ast`: for collision and still-used checks."""

    defined: set[str] = field(default_factory=set)
    name_counts: Counter = field(default_factory=Counter)  # bare names, not chain roots
    chains: list[str] = field(default_factory=list)  # maximal pure dotted chains


def file_facts(tree: ast.Module) -> FileFacts:
    ff = FileFacts()
    chain_parts: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            ff.defined.add(node.name)
        elif isinstance(node, ast.arg):
            ff.defined.add(node.arg)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            ff.defined.add(node.id)
        elif isinstance(node, ast.alias) and node.asname:
            ff.defined.add(node.asname)
        elif isinstance(node, ast.Attribute) and id(node) not in chain_parts:
            found = attr_chain(node)
            if found is not None:
                ff.chains.append(".".join([found[0], *found[1]]))
                inner = node.value
                while isinstance(inner, ast.Attribute):
                    chain_parts.add(id(inner))
                    inner = inner.value
                chain_parts.add(id(inner))
    for node in ast.walk(tree):
        is_bare = isinstance(node, ast.Name) and id(node) not in chain_parts
        if is_bare and isinstance(node.ctx, ast.Load):
            ff.name_counts[node.id] += 1
    return ff


def _first_line(node: ast.stmt) -> int:
    decorators = getattr(node, "decorator_list", [])
    return min([node.lineno] + [d.lineno for d in decorators])


def _always_hot(node: ast.stmt, index: int) -> bool:
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return True
    if index == 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
        return True  # the module docstring decides what else is a docstring
    if isinstance(node, ast.Assign) and isinstance(node.value, (ast.List, ast.Tuple)):
        return True  # a literal table a registration loop may read
    return any(isinstance(n, ast.ImportFrom) and n.level for n in ast.walk(node))


def sparse_text(text: str, tree: ast.Module, regex: re.Pattern) -> tuple[str, int]:
    """(text with cold top-level statements blanked, number of statements kept)."""
    lines = text.splitlines(keepends=True)
    hit_lines = set()
    for m in regex.finditer(text):
        first = text.count("\n", 0, m.start()) + 1
        last = text.count("\n", 0, m.end()) + 1
        hit_lines.update(range(first, last + 1))
    keep_lines: set[int] = set()
    cold_lines: set[int] = set()
    kept = 0
    for i, node in enumerate(tree.body):
        span = range(_first_line(node), (node.end_lineno or node.lineno) + 1)
        if _always_hot(node, i) or hit_lines.intersection(span):
            keep_lines.update(span)
            kept += 1
        else:
            cold_lines.update(span)
    blank = cold_lines - keep_lines
    if not blank:
        return text, kept
    out = []
    for n, line in enumerate(lines, start=1):
        if n in blank:
            body = line.rstrip("\r\n")
            out.append(" " * len(body) + line[len(body) :])
        else:
            out.append(line)
    return "".join(out), kept

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
from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass, field

from migrate.index.attrs import attr_chain
from migrate.rewrite.spans import line_starts


@dataclass
class FileFacts:
    """What the whole file says, from `ast`: for collision and still-used checks."""

    defined: set[str] = field(default_factory=set)
    name_counts: Counter = field(default_factory=Counter)  # bare names, not chain roots
    chains: list[str] = field(default_factory=list)  # maximal pure dotted chains
    relative: set[int] = field(default_factory=set)  # top-level statements with `from .`


def file_facts(tree: ast.Module) -> FileFacts:
    """One walk per top-level statement. A walk visits a chain's outermost Attribute
    before the Names inside it, so a Name is known to be a chain's root when it is met."""
    ff = FileFacts()
    chain_parts: set[int] = set()
    for i, stmt in enumerate(tree.body):
        for node in ast.walk(stmt):
            if isinstance(node, ast.Name):
                if isinstance(node.ctx, (ast.Store, ast.Del)):
                    ff.defined.add(node.id)
                elif isinstance(node.ctx, ast.Load) and id(node) not in chain_parts:
                    ff.name_counts[node.id] += 1
            elif isinstance(node, ast.Attribute):
                if id(node) not in chain_parts:
                    _chain(node, ff, chain_parts)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                ff.defined.add(node.name)
            elif isinstance(node, ast.arg):
                ff.defined.add(node.arg)
            elif isinstance(node, ast.alias):
                if node.asname:
                    ff.defined.add(node.asname)
            elif isinstance(node, ast.ImportFrom) and node.level:
                ff.relative.add(i)
    return ff


def _chain(node: ast.Attribute, ff: FileFacts, chain_parts: set[int]) -> None:
    found = attr_chain(node)
    if found is not None:
        ff.chains.append(".".join([found[0], *found[1]]))
        inner = node.value
        while isinstance(inner, ast.Attribute):
            chain_parts.add(id(inner))
            inner = inner.value
        chain_parts.add(id(inner))


def _first_line(node: ast.stmt) -> int:
    decorators = getattr(node, "decorator_list", [])
    return min([node.lineno] + [d.lineno for d in decorators])


def _always_hot(node: ast.stmt, index: int, relative: set[int]) -> bool:
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return True
    if index == 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
        return True  # the module docstring decides what else is a docstring
    if isinstance(node, ast.Assign) and isinstance(node.value, (ast.List, ast.Tuple)):
        return True  # a literal table a registration loop may read
    return index in relative  # it holds a relative import


# Line breaks that `str.splitlines` sees but libcst does not (or sees differently):
# with one of these, line numbers of the two disagree, so cold lines stay as blanks.
_ODD_BREAKS = re.compile("\r(?!\n)|[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


@dataclass
class Sparse:
    """libcst's input: the hot lines of the real text. `lines[i]` is the real line number
    of source line i + 1 (None: the real lines, every one present)."""

    source: str
    lines: list[int] | None
    blanked: str  # the same text with cold lines blanked in place (libcst's error report)


def sparse_text(text: str, tree: ast.Module, regex: re.Pattern, whole: FileFacts) -> Sparse:
    """The text without its cold top-level statements (`whole`: `file_facts(tree)`). A
    cold line left as blanks would still cost libcst a node to parse and to position, so
    it is left out, and `lines` maps positions back."""
    relative = whole.relative
    lines = text.splitlines(keepends=True)
    starts = line_starts(text)
    hit_lines = set()
    for m in regex.finditer(text):
        first = bisect_right(starts, m.start())
        hit_lines.update(range(first, bisect_right(starts, m.end()) + 1))
    keep_lines: set[int] = set()
    cold_lines: set[int] = set()
    for i, node in enumerate(tree.body):
        span = range(_first_line(node), (node.end_lineno or node.lineno) + 1)
        if _always_hot(node, i, relative) or hit_lines.intersection(span):
            keep_lines.update(span)
        else:
            cold_lines.update(span)
    blank = cold_lines - keep_lines
    if not blank:
        return Sparse(text, None, text)
    out = []
    for n, line in enumerate(lines, start=1):
        if n in blank:
            body = line.rstrip("\r\n")
            out.append(" " * len(body) + line[len(body) :])
        else:
            out.append(line)
    blanked = "".join(out)
    if cold_lines & keep_lines or _ODD_BREAKS.search(text):
        return Sparse(blanked, None, blanked)  # a line shared by hot and cold code
    kept = [n for n in range(1, len(lines) + 1) if n not in blank]
    return Sparse("".join(lines[n - 1] for n in kept), kept, blanked)

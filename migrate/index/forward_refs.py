"""Forward references (string annotations: `x: "mod.Cls"`, `-> "list[m.T]"`) as the
expressions they hold, placed where the string is in the file.

A string whose source text is its value (one line, ASCII, no escape; `r`/`u` prefixes
and triple quotes are read: `value_offset`) is parsed and its nodes get the file's
positions, so the readers of a file's `ast` (`bindings.find_uses`, a chain's span) read
a name inside it like any other and an edit of its span edits the string's text. Any
other string annotation is skipped: an offset in its value is not one in the file.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from migrate.rewrite.spans import ast_offset, line_starts

_SPECIAL = SPECIAL = frozenset(("Literal", "Annotated"))
_TYPING = frozenset(("typing", "typing_extensions"))


def annotation_strings(tree: ast.AST) -> Iterator[ast.Constant]:
    """Every string constant inside an annotation of a parameter, a return or an
    annotated assignment that is a forward reference (`list["T"]` included): not the
    values a `Literal[...]` lists, an `Annotated[...]`'s metadata, nor a call's
    arguments (`Arg(help="...")`): those are values, whatever they spell."""
    special = {name: name for name in _SPECIAL}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in _TYPING:
            special.update(
                {a.asname: a.name for a in node.names if a.name in _SPECIAL and a.asname}
            )
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = node.args
            params = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
            notes = [p.annotation for p in params if p is not None] + [node.returns]
        elif isinstance(node, ast.AnnAssign):
            notes = [node.annotation]
        else:
            continue
        for note in notes:
            if note is not None:
                yield from _strings(note, special)


def reference_strings(note: ast.AST, special: dict[str, str]) -> Iterator[ast.Constant]:
    """The forward-reference strings of one annotation, by the rule above; `special` maps
    a local name to the special form (`Literal`, `Annotated`) it is bound to."""
    return _strings(note, {**{name: name for name in SPECIAL}, **special})


def _strings(node: ast.AST, special: dict[str, str]) -> Iterator[ast.Constant]:
    if isinstance(node, ast.Constant):
        if isinstance(node.value, str):
            yield node
        return
    if isinstance(node, ast.Call):
        yield from _strings(node.func, special)
        return
    if isinstance(node, ast.Subscript):
        head = node.value
        name = head.attr if isinstance(head, ast.Attribute) else getattr(head, "id", None)
        kind = name if isinstance(head, ast.Attribute) and name in _SPECIAL else special.get(name)
        if kind == "Literal":
            return
        if kind == "Annotated":
            first = node.slice.elts[0] if isinstance(node.slice, ast.Tuple) else node.slice
            yield from _strings(first, special)
            return
    for child in ast.iter_child_nodes(node):
        yield from _strings(child, special)


def value_offset(raw: str, value: str) -> int | None:
    """Where `value` starts in the literal's source `raw` when the source spells it
    verbatim: a one-line literal, any quotes, no prefix but `r`/`u`, no escape unless
    raw (`r"a.B"`, `u'a.B'`, a one-line triple-quoted one); None otherwise. The chains
    of `cstfacts` read a forward reference's offsets by this rule too."""
    prefix = len(raw) - len(raw.lstrip("rRuU"))
    if prefix > 1 or "\n" in raw:
        return None
    body = raw[prefix:]
    quote = body[:3] if body[:3] in ('"""', "'''") else body[:1]
    if quote not in ('"', "'", '"""', "'''") or len(body) < 2 * len(quote):
        return None
    if body != quote + value + quote or ("\\" in value and raw[:1] not in "rR"):
        return None
    return prefix + len(quote)


def forward_references(tree: ast.AST, text: str) -> Iterator[tuple[ast.Constant, ast.expr]]:
    """(string, the expression it holds) for the string annotations of `tree` (a parse
    of `text`) whose text is their value; the expression has the positions of the file."""
    starts = line_starts(text)
    for node in annotation_strings(tree):
        value = node.value
        if node.lineno != node.end_lineno or not value.strip() or not value.isascii():
            continue
        s = ast_offset(text, starts, node.lineno, node.col_offset)
        e = ast_offset(text, starts, node.end_lineno, node.end_col_offset)
        head = value_offset(text[s:e], value)
        if head is None:
            continue
        try:
            expr = ast.parse(value.strip(), mode="eval").body
        except (SyntaxError, ValueError):
            continue  # not an expression: a type checker reports it
        shift = node.col_offset + head + len(value) - len(value.lstrip())
        for sub in ast.walk(expr):
            if hasattr(sub, "lineno"):
                sub.lineno = sub.end_lineno = node.lineno
                sub.col_offset += shift
                sub.end_col_offset += shift
        yield node, expr

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
from collections.abc import Callable, Iterator

from migrate.rewrite.spans import ast_offset, line_starts

SPECIAL = frozenset(("Literal", "Annotated"))


def special_form(head: ast.expr, bound: Callable[[str], str | None | bool]) -> str | None:
    """`Literal` or `Annotated` when the subscript head `head` names that special form:
    spelled as an attribute (`typing.Literal`, `t.Annotated`), a name bound by an import
    of it (`from typing import Annotated as A`), or the bare name bound by nothing.
    `bound(name)`: the dotted value an import binds `name` to, None when something else
    binds it, False when nothing does."""
    if isinstance(head, ast.Attribute):
        return head.attr if head.attr in SPECIAL else None
    if not isinstance(head, ast.Name):
        return None
    value = bound(head.id)
    if isinstance(value, str):
        leaf = value.rpartition(".")[2]
        return leaf if leaf in SPECIAL else None
    return head.id if value is False and head.id in SPECIAL else None


def annotation_parts(node: ast.AST, bound) -> tuple[list[ast.AST], list[ast.AST]]:
    """THE rule for what an annotation holds: (the parts of `node` that are still types,
    the parts that are values). A `Literal[...]` lists values, an `Annotated[...]`'s
    metadata after its first element are values, a call's arguments are values
    (`Arg(help="...")`); everything else is a type. A string among the types is a forward
    reference; a string among the values is just a string, whatever it spells; a name
    among either is read (`Literal[Color.RED]` reads Color). `bound`: as for
    `special_form`."""
    if isinstance(node, ast.Call):
        return [node.func], [*node.args, *(k.value for k in node.keywords)]
    if isinstance(node, ast.Subscript):
        kind = special_form(node.value, bound)
        if kind == "Literal":
            return [node.value], [node.slice]
        if kind == "Annotated":
            elts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            return [node.value, *elts[:1]], list(elts[1:])
    return list(ast.iter_child_nodes(node)), []


def annotation_strings(tree: ast.AST) -> Iterator[ast.Constant]:
    """Every string constant inside an annotation of a parameter, a return or an
    annotated assignment that is a forward reference (`list["T"]` included), by
    `annotation_parts`; the special forms are found by the file's imports."""
    imported: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            imported.update({a.asname or a.name: f"{node.module}.{a.name}" for a in node.names})
    bound = _by_imports(imported)
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
                yield from _strings(note, bound)


def reference_strings(note: ast.AST, imported: dict[str, str]) -> Iterator[ast.Constant]:
    """The forward-reference strings of one annotation, by `annotation_parts`;
    `imported` maps a local name to the dotted value its import binds it to."""
    return _strings(note, _by_imports(imported))


def _by_imports(imported: dict[str, str]):
    """`bound` for `special_form` from a name -> imported value table (a name no import
    binds is read as bound by nothing)."""
    return lambda name: imported.get(name, False)


def _strings(node: ast.AST, bound) -> Iterator[ast.Constant]:
    if isinstance(node, ast.Constant):
        if isinstance(node.value, str):
            yield node
        return
    for child in annotation_parts(node, bound)[0]:
        yield from _strings(child, bound)


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

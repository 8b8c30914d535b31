"""The value an f-string hole takes for a loop variable's value, when that is pure.

A computed op id is often `f"attention.{_fn}"`, but real tables also spell
`f"attention.{_fn.lstrip('_')}"` (the row names a private function, the op id drops its
underscore). A hole that is the loop variable, or a chain of pure `str` methods with
literal arguments over it, is a function of the row: evaluating it lets the op-id check
judge every row instead of refusing the site. Anything else (another name, a call of a
helper, keyword or starred arguments) is not evaluable and the caller reports the site.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass

import libcst as cst

# str methods whose result depends only on the string and the literal arguments
PURE_METHODS = frozenset(
    {
        "lstrip", "rstrip", "strip", "removeprefix", "removesuffix", "replace",
        "lower", "upper", "casefold", "capitalize", "title", "swapcase",
        "zfill", "ljust", "rjust", "center", "expandtabs",
    }
)  # fmt: skip


@dataclass(frozen=True)
class Hole:
    var: str  # the loop variable the hole reads
    source: str  # the hole as written, for messages
    apply: Callable[[str], str | None]  # the hole's value for a row (None: not a string)
    identity: bool  # the hole is the bare variable


def _literal(arg: cst.Arg):
    """A literal argument's value (str or int), else raise ValueError."""
    if arg.keyword is not None or arg.star:
        raise ValueError("not a plain positional argument")
    node = arg.value
    if isinstance(node, (cst.SimpleString, cst.Integer)) or (
        isinstance(node, cst.UnaryOperation)
        and isinstance(node.operator, cst.Minus)
        and isinstance(node.expression, cst.Integer)
    ):
        value = ast.literal_eval(cst.Module([]).code_for_node(node))
        if isinstance(value, (str, int)) and not isinstance(value, bool):
            return value
    raise ValueError("not a literal")


def _chain(node: cst.BaseExpression) -> tuple[str, list[tuple[str, tuple]]] | None:
    """(variable, [(method, literal args), ...] innermost first), or None."""
    if isinstance(node, cst.Name):
        return node.value, []
    if not (
        isinstance(node, cst.Call)
        and isinstance(node.func, cst.Attribute)
        and node.func.attr.value in PURE_METHODS
    ):
        return None
    inner = _chain(node.func.value)
    if inner is None:
        return None
    try:
        args = tuple(_literal(a) for a in node.args)
    except ValueError:
        return None
    return inner[0], [*inner[1], (node.func.attr.value, args)]


def hole_of(node: cst.FormattedString, index: int = 0) -> Hole | None:
    """The `index`-th expression of an f-string as a function of its variable, if pure."""
    exprs = [p for p in node.parts if isinstance(p, cst.FormattedStringExpression)]
    if index >= len(exprs):
        return None
    part = exprs[index]
    if part.conversion is not None or part.format_spec is not None:
        return None
    found = _chain(part.expression)
    if found is None:
        return None
    var, calls = found

    def apply(value: str) -> str | None:
        for method, args in calls:
            try:
                value = getattr(value, method)(*args)
            except (TypeError, ValueError):
                return None
            if not isinstance(value, str):
                return None
        return value

    source = cst.Module([]).code_for_node(part.expression)
    return Hole(var, source, apply, not calls)

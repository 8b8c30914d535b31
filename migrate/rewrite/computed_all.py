"""A module's `__all__` computed from another module's `__all__`, when names leave it.

`from .ops import *` plus `__all__ = ["ops"] + ops.__all__` exports what ops lists. A
symbol move takes `relu` out of ops (and out of `ops.__all__`); the star re-export
(`module_uses`) imports it back beside the star, and the computed export list must name
it again: `ops.__all__ + ["relu"]` (trial23 T28). Only the module's own export list is
such a list (`__all__ = ...`, `__all__ += ...`, `__all__.extend(...)` at module level);
any other read of `ops.__all__` keeps its value.
"""

from __future__ import annotations

import ast

from migrate.index.bindings import Bindings, ModuleBinding
from migrate.rewrite.spans import ast_offset, line_starts


def _export_values(tree: ast.Module) -> list[ast.expr]:
    """The expressions the module's top-level statements build `__all__` from."""
    out = []
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            out.append(node.value)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and node.value is not None:
            if isinstance(node.target, ast.Name) and node.target.id == "__all__":
                out.append(node.value)
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            f = node.value.func
            if (
                isinstance(f, ast.Attribute)
                and f.attr in ("extend", "__iadd__")
                and isinstance(f.value, ast.Name)
                and f.value.id == "__all__"
            ):
                out.extend(node.value.args)
    return out


def export_list_names(tree: ast.Module) -> set[str]:
    """The string literals the module's export list is built from (`__all__ = [...]`,
    `+=`, `.extend`): the names it lists, whatever else the list reads."""
    return {
        c.value
        for value in _export_values(tree)
        for c in ast.walk(value)
        if isinstance(c, ast.Constant) and isinstance(c.value, str)
    }


def _bound_module(model: Bindings, name: str) -> str | None:
    events = [e for e in model.scopes[0].events.get(name, []) if not e.fallback]
    last = events[-1].binding if events else None
    return last.value if isinstance(last, ModuleBinding) else None


def _bare(parent: ast.AST | None, node: ast.expr) -> bool:
    """`node + [...]` needs no parentheses in `parent`: the list's own expression, an
    operand of `+`, an unpacked item, a call's argument."""
    return (
        parent is None
        or (isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Add))
        or isinstance(parent, ast.Starred)
        or (isinstance(parent, ast.Call) and node in parent.args)
    )


def computed_all_edits(
    tree: ast.Module, text: str, model: Bindings, added: dict[str, set[str]]
) -> list[tuple[int, int, str]]:
    """(start, end, new text) edits adding back to the module's computed `__all__` the
    names of `added` (losing module -> names the module now imports beside its star
    import of it) wherever the list reads that module's `__all__` through a binding."""
    out = []
    starts = line_starts(text)
    for value in _export_values(tree):
        parents = {id(c): p for p in ast.walk(value) for c in ast.iter_child_nodes(p)}
        seg = ast.get_source_segment(text, value) or ""
        q = "'" if "'" in seg and '"' not in seg else '"'
        for node in ast.walk(value):
            if not (
                isinstance(node, ast.Attribute)
                and node.attr == "__all__"
                and isinstance(node.value, ast.Name)
            ):
                continue
            names = added.get(_bound_module(model, node.value.id) or "")
            if not names:
                continue
            s = ast_offset(text, starts, node.lineno, node.col_offset)
            e = ast_offset(text, starts, node.end_lineno, node.end_col_offset)
            listed = "[" + ", ".join(f"{q}{n}{q}" for n in sorted(names)) + "]"
            new = f"{text[s:e]} + {listed}"
            out.append((s, e, new if _bare(parents.get(id(node)), node) else f"({new})"))
    return out

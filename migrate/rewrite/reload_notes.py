"""`importlib.reload(mod)` of a module that loses symbols: the reload no longer re-runs the
moved definitions (packaging 24.2's test reloads `tags` to recompute the moved
`_32_BIT_INTERPRETER`, then reads it from the new module, unreloaded: the test fails).
Nothing can be respelled safely (reloading the new module too changes what the test
does), so each such call gets a warning that names the moved names and where they went."""

from __future__ import annotations

import ast

from migrate.errors import Diagnostic
from migrate.index.attrs import attr_chain
from migrate.index.imports import bound_modules
from migrate.rewrite.context import Context, FileJob
from migrate.rewrite.spans import line_starts, note_at


def reload_notes(job: FileJob, ctx: Context) -> list[Diagnostic]:
    losing: dict[str, dict[str, str]] = {}
    for (mod, sym), dst in ctx.relocation.symbols.items():
        losing.setdefault(mod, {})[sym] = dst
    if not losing or job.ast is None or "reload" not in job.text:
        return []
    # local name -> a module losing symbols (any scope)
    bound = bound_modules(job.ast, job.old_module, job.is_init, losing)
    starts = line_starts(job.text)
    out = []
    for node in ast.walk(job.ast):
        if not (isinstance(node, ast.Call) and node.args and _is_reload(node.func)):
            continue
        arg = node.args[0]
        chain = attr_chain(arg)
        name = ".".join([chain[0], *chain[1]]) if chain else None
        module = bound.get(name) if name and "." not in name else name
        if module not in losing:
            continue
        by_dst: dict[str, list[str]] = {}
        for sym, dst in sorted(losing[module].items()):
            by_dst.setdefault(dst, []).append(sym)
        where = "; ".join(f"{', '.join(syms)} (now in {dst})" for dst, syms in by_dst.items())
        why = (
            f"reloading {module} no longer re-runs what moved out of it: {where}; "
            "a reload meant to recompute those must reload their new module"
        )
        offset = starts[node.lineno - 1] + _col(job.text, starts, node)
        out.append(note_at(job.new_path, job.text, offset, why, "warning"))
    return out


def _is_reload(func: ast.expr) -> bool:
    return (isinstance(func, ast.Name) and func.id == "reload") or (
        isinstance(func, ast.Attribute) and func.attr == "reload"
    )


def _col(text: str, starts: list[int], node: ast.AST) -> int:
    """`node.col_offset` (UTF-8 bytes) as characters of its line."""
    line = text[starts[node.lineno - 1] :].split("\n", 1)[0]
    return len(line.encode()[: node.col_offset].decode(errors="ignore"))

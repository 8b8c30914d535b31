"""Registrations follow their module: a `KernelSpec` whose kernel moved to another group
leaves the old group's `__init__.py` for the new group's.

Two spellings move mechanically:
- a top-level `register_kernel(KernelSpec(...))` statement: cut from the source, appended
  to the destination with its op id and target rewritten as literals;
- a row of a literal table driving a loop (`for _mod, _fn in _TABLE: register_kernel(
  KernelSpec(op=f"g.{_fn}", target=f"...g.{_mod}:{_fn}"))`): the row is cut; in the
  destination it joins a loop of the same shape when there is one (the destination's
  own style, the row's cells re-derived from its templates), else it becomes a literal
  statement.
- a loop over the lazy exports (`for _name, _owner in _EXPORTS.items(): register_kernel(
  ...)`): the entry itself moves with exports_follow.py, so the source loop stops
  registering it; the destination's own loop over its `_EXPORTS` registers it when it
  gives the same op id, else it becomes a literal statement there.
Anything else (helpers, registrations built by other code) is an error that names the
registration: apply stops rather than leave it in the wrong group.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

from migrate.changes import Edit
from migrate.errors import Diagnostic, Pos
from migrate.index.repo import RepoIndex
from migrate.relocate import Relocation
from migrate.rewrite.spans import ast_offset, line_starts, make_edit, whole_lines

REASON = "registration follows its kernel to group {to}"


@dataclass
class Moved:
    edits: list[Edit] = field(default_factory=list)
    notes: list[Diagnostic] = field(default_factory=list)
    cut: list[tuple[str, int, int]] = field(default_factory=list)  # (new path, start, end)
    loops: set[tuple[str, int, int]] = field(default_factory=set)  # (new path, lines) handled


def _span(text: str, starts, node: ast.AST) -> tuple[int, int]:
    return (
        ast_offset(text, starts, node.lineno, node.col_offset),
        ast_offset(text, starts, node.end_lineno, node.end_col_offset),
    )


def _whole_lines(text: str, start: int, end: int, comma: bool = False) -> tuple[int, int]:
    """Widen [start, end) (and the `,` after it, with `comma`) to whole lines when
    nothing else shares them (`spans.whole_lines`)."""
    if comma:
        m = re.compile(r"[ \t]*,").match(text, end)
        end = m.end() if m else end
    return whole_lines(text, start, end, comma=True) or (start, end)


def _blank_around(text: str, a: int, b: int) -> tuple[int, int]:
    """A cut statement takes the blank lines after it (before it, when it ends the file)."""
    end = b
    while text.startswith("\n", end) or text.startswith("\r\n", end):
        end = text.index("\n", end) + 1
    if end < len(text):
        return a, end
    start = a
    while start > 0 and text[start - 1] == "\n" and (start < 2 or text[start - 2] == "\n"):
        start -= 1
    return start, b


def _enclosing(tree: ast.Module, line: int) -> ast.stmt | None:
    for stmt in tree.body:
        if stmt.lineno <= line <= stmt.end_lineno:
            return stmt
    return None


def _spec_call(stmt: ast.AST, line: int, col: int) -> ast.Call | None:
    for node in ast.walk(stmt):
        if isinstance(node, ast.Call) and node.lineno == line and node.col_offset + 1 == col:
            return node
    return None


def _kw(call: ast.Call, name: str, pos: int) -> ast.AST | None:
    for k in call.keywords:
        if k.arg == name:
            return k.value
    return call.args[pos] if len(call.args) > pos else None


def _literal_statement(text: str, starts, node: ast.AST, call: ast.Call, op, target) -> str:
    """The source of `node` (a statement or a `register_kernel(...)` call) with its spec's
    op and target replaced by literals, dedented to the top level."""
    import textwrap

    s0, e0 = _span(text, starts, node)
    src = text[s0:e0]
    repl = []
    for arg, value in ((_kw(call, "op", 0), op), (_kw(call, "target", 2), target)):
        if arg is not None:
            a, b = _span(text, starts, arg)
            repl.append((a - s0, b - s0, f'"{value}"'))
    for a, b, v in sorted(repl, reverse=True):
        src = src[:a] + v + src[b:]
    return textwrap.dedent(" " * node.col_offset + src)


def _outer_call(stmt: ast.AST, call: ast.Call) -> ast.Call | None:
    """The `register_kernel(KernelSpec(...))` call around a spec call."""
    for node in ast.walk(stmt):
        if isinstance(node, ast.Call) and any(a is call for a in node.args):
            return node
    return None


def _uses(call: ast.Call, names: list[str]) -> bool:
    """Whether the spec uses a loop variable outside its op and target."""
    skip = {id(_kw(call, "op", 0)), id(_kw(call, "target", 2))}
    stack = [*call.args, *(k.value for k in call.keywords)]
    while stack:
        n = stack.pop()
        if id(n) in skip:
            continue
        if isinstance(n, ast.Name) and n.id in names:
            return True
        stack.extend(ast.iter_child_nodes(n))
    return False


def _loop_table(tree: ast.Module, loop: ast.For):
    """(table node, [row nodes], [loop variable names]) of a loop over a literal table."""
    table = loop.iter
    if isinstance(table, ast.Name):
        table = next(
            (
                n.value
                for n in tree.body
                if isinstance(n, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id == loop.iter.id for t in n.targets)
            ),
            None,
        )
    if not isinstance(table, (ast.List, ast.Tuple)):
        return None
    t = loop.target
    names = [e.id for e in t.elts] if isinstance(t, ast.Tuple) else [getattr(t, "id", None)]
    if None in names or not table.elts:
        return None
    return table, list(table.elts), names


def _cells(row: ast.AST) -> list[str] | None:
    elts = row.elts if isinstance(row, (ast.Tuple, ast.List)) else [row]
    if all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in elts):
        return [e.value for e in elts]
    return None


def _template(node: ast.AST) -> list | None:
    """An f-string as [literal | variable name | (name, method, args)] parts, or None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if not isinstance(node, ast.JoinedStr):
        return None
    parts = []
    for v in node.values:
        if isinstance(v, ast.Constant):
            parts.append(v.value)
        elif isinstance(v, ast.FormattedValue) and isinstance(v.value, ast.Name):
            parts.append(("var", v.value.id))
        else:
            return None
    return parts


def _fill(parts: list, env: dict) -> str | None:
    out = []
    for p in parts:
        if isinstance(p, str):
            out.append(p)
        elif p[1] in env:
            out.append(env[p[1]])
        else:
            return None
    return "".join(out)


def _solve(parts: list, value: str) -> dict | None:
    """Variable values making the template equal `value` (variables are `[\\w.]+`)."""
    rx = "".join(re.escape(p) if isinstance(p, str) else f"(?P<{p[1]}>[\\w.]+?)" for p in parts)
    m = re.fullmatch(rx, value)
    return m.groupdict() if m else None


def _row_matches(cells: list[str], names: list[str], call: ast.Call, reg) -> bool:
    env = dict(zip(names, cells, strict=False))
    op_t, tg_t = _template(_kw(call, "op", 0)), _template(_kw(call, "target", 2))
    if tg_t is None:
        return False
    # an op computed beyond plain substitution (`{_fn.lstrip('_')}`): the target decides
    return _fill(tg_t, env) == reg.target and (op_t is None or _fill(op_t, env) == reg.op)


def _top_level_names(tree: ast.Module) -> set[str]:
    out = set()
    for stmt in tree.body:
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            out |= {(a.asname or a.name).split(".")[0] for a in stmt.names}
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(stmt.name)
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            out |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    return out


def _merged(lines) -> list[str]:
    """`from m import a` lines merged per module and sorted, as isort would write them."""
    froms: dict[str, set[str]] = {}
    plain = set()
    for line in lines:
        if line.startswith("from "):
            mod, _, names = line[5:].partition(" import ")
            froms.setdefault(mod, set()).add(names)
        else:
            plain.add(line)
    return sorted(plain) + [
        f"from {m} import {', '.join(sorted(n))}" for m, n in sorted(froms.items())
    ]


def _read_names(statement: str) -> set[str]:
    import builtins

    tree = ast.parse(statement)
    names = {
        n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
    }
    return names - set(dir(builtins)) - {"__name__"}


def _import_of(tree: ast.Module, name: str, module: tuple[str, bool]) -> str | None:
    """`from m import name` (absolute) as the source file binds `name` at top level."""
    from migrate.index.imports import absolute

    for stmt in tree.body:
        if isinstance(stmt, ast.ImportFrom):
            for a in stmt.names:
                if (a.asname or a.name) == name:
                    mod = absolute(stmt.module or "", stmt.level, *module)
                    alias = f" as {a.asname}" if a.asname else ""
                    return f"from {mod} import {a.name}{alias}" if mod else None
        elif isinstance(stmt, ast.Import):
            for a in stmt.names:
                if (a.asname or a.name.split(".")[0]) == name:
                    return f"import {a.name}" + (f" as {a.asname}" if a.asname else "")
    return None


def _exports_loop(stmt: ast.For) -> list[str] | None:
    """The two loop variables of `for k, v in _EXPORTS.items():`, else None."""
    it, t = stmt.iter, stmt.target
    if not (
        isinstance(it, ast.Call)
        and not it.args
        and isinstance(it.func, ast.Attribute)
        and it.func.attr == "items"
        and isinstance(it.func.value, ast.Name)
        and it.func.value.id == "_EXPORTS"
    ):
        return None
    if (
        isinstance(t, ast.Tuple)
        and len(t.elts) == 2
        and all(isinstance(e, ast.Name) for e in t.elts)
    ):
        return [e.id for e in t.elts]
    return None


class _Dest:
    """A destination group `__init__.py`: where moved registrations are added."""

    def __init__(self, path: str, new_path: str, text: str):
        self.path, self.new_path, self.text = path, new_path, text
        self.tree = ast.parse(text)
        self.starts = line_starts(text)
        self.rows: dict[int, list[str]] = {}  # insertion offset -> row texts
        self.statements: list[str] = []
        self.imports: dict[str, str] = {}  # name the statements read -> its import line

    def loop_for(self, arity: int):
        """A loop over a literal table of rows of `arity` cells registering one spec."""
        for stmt in self.tree.body:
            if not isinstance(stmt, ast.For):
                continue
            found = _loop_table(self.tree, stmt)
            if not found or len(found[2]) != arity:
                continue
            calls = [n for n in ast.walk(stmt) if _is_spec(n)]
            if len(calls) == 1 and all(_cells(r) for r in found[1]):
                return found, calls[0]
        return None

    def exports_op(self, module: str, name: str) -> str | None:
        """The op id the destination's own loop over `_EXPORTS` gives export `name` (None:
        it has no such loop, or its op id is not static)."""
        from migrate.index.registry import UNKNOWN, Evaluator

        for stmt in self.tree.body:
            names = _exports_loop(stmt) if isinstance(stmt, ast.For) else None
            calls = [n for n in ast.walk(stmt) if _is_spec(n)] if names else []
            if len(calls) == 1:
                ev = Evaluator(self.path, module, True)
                env = {**ev.env, names[0]: name, names[1]: UNKNOWN}
                op = ev.eval(_kw(calls[0], "op", 0), env)
                return op if isinstance(op, str) else None
        return None

    def add_row(self, table, rows, names, call, op, target) -> bool:
        op_t, tg_t = _template(_kw(call, "op", 0)), _template(_kw(call, "target", 2))
        if op_t is None or tg_t is None:
            return False
        env = {**(_solve(op_t, op) or {}), **(_solve(tg_t, target) or {})}
        cells = [env.get(n) for n in names]
        if None in cells or _fill(op_t, env) != op or _fill(tg_t, env) != target:
            return False
        last = rows[-1]
        _, end = _span(self.text, self.starts, last)
        quote = (
            self.text[_span(self.text, self.starts, last.elts[0])[0]]
            if isinstance(last, ast.Tuple)
            else '"'
        )
        line_start = self.text.rfind("\n", 0, _span(self.text, self.starts, last)[0]) + 1
        indent = self.text[line_start : _span(self.text, self.starts, last)[0]]
        inner = ", ".join(f"{quote}{c}{quote}" for c in cells)
        row = f"({inner})" if isinstance(last, ast.Tuple) else f"{quote}{cells[0]}{quote}"
        comma = re.compile(r"[ \t]*,").match(self.text, end)
        at = comma.end() if comma else end
        lead = "" if comma else ","
        self.rows.setdefault(at, []).append(f"{lead}\n{indent}{row}," if indent.strip() == ""
                                            else f"{lead} {row},")  # fmt: skip
        return True

    def add(self, statement: str, src_tree: ast.Module, src_module: tuple[str, bool]) -> None:
        """Append a statement; the names it reads that the destination does not bind are
        imported as the source file imports them."""
        self.statements.append(statement)
        bound = _top_level_names(self.tree)
        for name in sorted(_read_names(statement) - bound):
            line = _import_of(src_tree, name, src_module)
            if line:
                self.imports.setdefault(name, line)

    def edits(self, to: str) -> list[Edit]:
        reason = REASON.format(to=to)
        out = [
            make_edit(self.new_path, self.text, at, at, "".join(rows), "code", reason)
            for at, rows in sorted(self.rows.items())
        ]
        if self.imports:
            at = self._import_point()
            lines = "".join(f"{line}\n" for line in _merged(self.imports.values()))
            if at == 0 and self.text.strip():
                lines += "\n"
            out.append(make_edit(self.new_path, self.text, at, at, lines, "code", reason))
        if self.statements:
            end = len(self.text)
            lead = "" if not self.text.strip() else "\n" if self.text.endswith("\n") else "\n\n"
            body = lead + "\n\n".join(st.rstrip("\n") for st in self.statements) + "\n"
            if self.imports and not self.text.strip():
                body = "\n\n" + body
            out.append(make_edit(self.new_path, self.text, end, end, body, "code", reason))
        return out

    def _import_point(self) -> int:
        """After the last top-level import, else after the docstring, else the top."""
        last = None
        for i, stmt in enumerate(self.tree.body):
            doc = i == 0 and isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
            if isinstance(stmt, (ast.Import, ast.ImportFrom)) or doc:
                last = stmt
        if last is None:
            return 0
        end = _span(self.text, self.starts, last)[1]
        eol = self.text.find("\n", end)
        return len(self.text) if eol == -1 else eol + 1


def follow_registrations(
    index: RepoIndex, rel: Relocation, strays, renames: dict[str, str], ops: str
) -> Moved:
    """Edits moving each stray `(group, registration, to)` into group `to`'s `__init__`."""
    out = Moved()
    dests: dict[str, _Dest] = {}
    parsed: dict[str, tuple[str, ast.Module, list[int]]] = {}
    cut_rows: dict[str, set[int]] = {}
    for _group, reg, to in strays:
        src_text = index.text(reg.path) or ""
        if reg.path not in parsed:
            parsed[reg.path] = (src_text, ast.parse(src_text), line_starts(src_text))
        text, tree, starts = parsed[reg.path]
        module = (index.module_of(reg.path) or "", reg.path.endswith("__init__.py"))
        dest_old = index.modules.get(f"{ops}.{to}")
        if dest_old is None or not dest_old.endswith("__init__.py"):
            out.notes.append(_cannot(reg, to, f"group {to} has no __init__.py in the tree yet"))
            continue
        dest = dests.get(dest_old) or dests.setdefault(
            dest_old, _Dest(dest_old, rel.files.get(dest_old, dest_old), index.text(dest_old) or "")
        )
        stmt = _enclosing(tree, reg.line)
        call = _spec_call(stmt, reg.line, reg.col) if stmt is not None else None
        new_op = renames.get(reg.op, reg.op)
        new_target = rel.target(reg.target) or reg.target
        src_new = rel.files.get(reg.path, reg.path)
        if call is None:
            out.notes.append(_cannot(reg, to, "its registration call was not found"))
        elif isinstance(stmt, ast.Expr):
            specs = [n for n in ast.walk(stmt) if _is_spec(n)]
            if len(specs) != 1:
                out.notes.append(_cannot(reg, to, "its statement registers several specs"))
                continue
            dest.add(_literal_statement(text, starts, stmt, call, new_op, new_target), tree, module)
            a, b = _blank_around(text, *_whole_lines(text, *_span(text, starts, stmt)))
            out.cut.append((src_new, a, b))
            out.edits.append(make_edit(src_new, text, a, b, "", "code", REASON.format(to=to)))
        elif isinstance(stmt, ast.For) and (names := _exports_loop(stmt)):
            # the `_EXPORTS` entry moves (exports_follow.py): this loop stops registering it
            name = new_target.partition(":")[2].split(".")[0]
            out.loops.add((src_new, stmt.lineno, stmt.end_lineno))  # its op-id notes are moot
            registered = dest.exports_op(f"{ops}.{to}", name)
            if registered == new_op:
                continue  # the destination's own loop registers the entry it receives
            outer = _outer_call(stmt, call)
            if registered is not None or outer is None or _uses(call, names):
                why = "its destination registers its _EXPORTS under another op id"
                out.notes.append(
                    _cannot(
                        reg, to, why if registered else "its spec uses the loop's other variables"
                    )
                )
                continue
            dest.add(
                _literal_statement(text, starts, outer, call, new_op, new_target), tree, module
            )
        elif isinstance(stmt, ast.For) and (found := _loop_table(tree, stmt)):
            table, rows, names = found
            hits = [r for r in rows if (c := _cells(r)) and _row_matches(c, names, call, reg)]
            if len(hits) != 1:
                out.notes.append(_cannot(reg, to, "its table row could not be told apart"))
                continue
            row = hits[0]
            a, b = _whole_lines(text, *_span(text, starts, row), comma=True)
            if a in cut_rows.setdefault(reg.path, set()):
                continue
            cut_rows[reg.path].add(a)
            out.loops.add((src_new, stmt.lineno, stmt.end_lineno))
            out.cut.append((src_new, a, b))
            out.edits.append(make_edit(src_new, text, a, b, "", "code", REASON.format(to=to)))
            loop = dest.loop_for(len(names))
            if loop and dest.add_row(*loop[0], loop[1], new_op, new_target):
                continue
            outer = _outer_call(stmt, call)
            if outer is None or _uses(call, names):
                out.notes.append(_cannot(reg, to, "its spec uses the loop's other variables"))
                continue
            dest.add(
                _literal_statement(text, starts, outer, call, new_op, new_target), tree, module
            )
        else:
            out.notes.append(_cannot(reg, to, "its spelling cannot be moved mechanically"))
    for d in dests.values():
        out.edits.extend(d.edits(", ".join(sorted({t for _, _, t in strays}))))
    return out


def _is_spec(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and getattr(node.func, "id", "") == "KernelSpec"


def _cannot(reg, to: str, why: str) -> Diagnostic:
    return Diagnostic(
        Pos(reg.path, reg.line, reg.col),
        f"registration of {reg.op} ({reg.target}) must move to group {to}: {why}; "
        "move it by hand or keep the kernel in its group",
    )

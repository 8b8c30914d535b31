"""Statically evaluate the KernelSpec registrations of a module, as Python would at import.

Real group `__init__.py` files spell targets as literals, f-strings in loops over tables
of `(module, function)` tuples, targets relative to `__name__`, string concatenation,
`_EXPORTS` dicts iterated with `.items()`, small helper functions called with literals,
and `register_fused_op(instance, __name__, "_NAME")`. A tiny interpreter over those
forms recovers each `(op, backend, target)`; anything else evaluates to UNKNOWN and is
reported as "not static" rather than guessed.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass


class _Unknown:
    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN = _Unknown()
_MAX_DEPTH = 4
_STR_METHODS = {
    "lstrip", "rstrip", "strip", "replace", "lower", "upper", "removeprefix", "removesuffix",
    "partition", "rpartition", "split", "rsplit", "format",
}  # fmt: skip
_MAX_ITER = 2000


@dataclass(frozen=True)
class EnumRef:
    cls: str
    member: str


@dataclass(frozen=True)
class Instance:
    cls: str  # the callee name as written in this module


@dataclass(frozen=True)
class Registration:
    path: str
    line: int
    col: int
    kind: str  # spec | fused
    op: str | None  # None: not statically known
    target: str | None
    backend: str | None
    expr: str  # source of the target expression, for evidence
    fused_class: str | None = None  # for kind == fused: class name as written
    fused_instance: str | None = None


def _str(v) -> str | None:
    if isinstance(v, str):
        return v
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return str(v)
    if isinstance(v, EnumRef):
        return v.member.lower()
    return None


class Evaluator:
    def __init__(self, path: str, module: str, is_package: bool) -> None:
        self.path = path
        self.env: dict[str, object] = {
            "__name__": module,
            "__package__": module if is_package else module.rpartition(".")[0],
        }
        self.funcs: dict[str, ast.FunctionDef] = {}
        self.found: list[Registration] = []
        self._seen: set[tuple] = set()

    # -- expressions -------------------------------------------------------
    def eval(self, node: ast.AST | None, env: dict):
        if node is None:
            return UNKNOWN
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            return env.get(node.id, UNKNOWN)
        if isinstance(node, ast.JoinedStr):
            parts = []
            for v in node.values:
                val = v.value if isinstance(v, ast.Constant) else None
                if isinstance(v, ast.FormattedValue):
                    if v.format_spec is not None:
                        return UNKNOWN
                    val = _str(self.eval(v.value, env))
                if val is None:
                    return UNKNOWN
                parts.append(val)
            return "".join(parts)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            a, b = self.eval(node.left, env), self.eval(node.right, env)
            if isinstance(a, str) and isinstance(b, str):
                return a + b
            if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
                return tuple(a) + tuple(b)
            return UNKNOWN
        if isinstance(node, (ast.Tuple, ast.List)):
            return tuple(self.eval(e, env) for e in node.elts)
        if isinstance(node, ast.Dict):
            keys = [self.eval(k, env) for k in node.keys]
            if any(k is UNKNOWN or k is None or isinstance(k, (list, dict)) for k in keys):
                return UNKNOWN
            return dict(zip(keys, (self.eval(v, env) for v in node.values), strict=True))
        if isinstance(node, ast.Attribute):
            if isinstance(node.value, ast.Name) and node.value.id in (
                "KernelBackend",
                "DeviceType",
            ):
                return EnumRef(node.value.id, node.attr)
            base = self.eval(node.value, env)
            if isinstance(base, EnumRef) and node.attr == "value":
                return base.member.lower()
            return UNKNOWN
        if isinstance(node, ast.Call):
            return self._eval_call(node, env)
        return UNKNOWN

    def _eval_call(self, node: ast.Call, env: dict):
        f = node.func
        if isinstance(f, ast.Attribute):
            base = self.eval(f.value, env)
            if isinstance(base, dict) and not node.args:
                if f.attr == "items":
                    return tuple(base.items())
                if f.attr == "keys":
                    return tuple(base)
                if f.attr == "values":
                    return tuple(base.values())
            if isinstance(base, str) and f.attr == "join" and len(node.args) == 1:
                items = self.eval(node.args[0], env)
                if isinstance(items, tuple) and all(isinstance(i, str) for i in items):
                    return base.join(items)
            if isinstance(base, str) and f.attr in _STR_METHODS and not node.keywords:
                args = [self.eval(a, env) for a in node.args]
                if all(isinstance(a, (str, int)) and not isinstance(a, bool) for a in args):
                    try:
                        out = getattr(base, f.attr)(*args)
                    except (TypeError, ValueError):
                        return UNKNOWN
                    return tuple(out) if isinstance(out, list) else out
            return UNKNOWN
        if isinstance(f, ast.Name):
            if f.id in ("tuple", "list", "sorted") and len(node.args) == 1:
                v = self.eval(node.args[0], env)
                if isinstance(v, dict):
                    v = tuple(v)
                return tuple(sorted(v)) if f.id == "sorted" and isinstance(v, tuple) else v
            if f.id == "str" and len(node.args) == 1:
                s = _str(self.eval(node.args[0], env))
                return s if s is not None else UNKNOWN
            if f.id[:1].isupper():
                return Instance(f.id)
        return UNKNOWN

    # -- statements --------------------------------------------------------
    def bind(self, target: ast.AST, value, env: dict) -> None:
        if isinstance(target, ast.Name):
            env[target.id] = value
        elif isinstance(target, (ast.Tuple, ast.List)):
            vals = value if isinstance(value, tuple) and len(value) == len(target.elts) else None
            for i, t in enumerate(target.elts):
                self.bind(t, vals[i] if vals is not None else UNKNOWN, env)

    def exec_block(self, stmts: list[ast.stmt], env: dict, depth: int = 0) -> None:
        for stmt in stmts:
            self.exec_stmt(stmt, env, depth)

    def exec_stmt(self, stmt: ast.stmt, env: dict, depth: int) -> None:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if depth == 0:
                self.funcs[stmt.name] = stmt
            return
        if isinstance(stmt, ast.ClassDef):
            env[stmt.name] = UNKNOWN
            return
        if isinstance(stmt, ast.Assign):
            self.visit(stmt.value, env, depth)
            value = self.eval(stmt.value, env)
            for t in stmt.targets:
                self.bind(t, value, env)
            return
        if isinstance(stmt, ast.AnnAssign):
            if stmt.value is not None:
                self.visit(stmt.value, env, depth)
                self.bind(stmt.target, self.eval(stmt.value, env), env)
            return
        if isinstance(stmt, ast.AugAssign):
            self.visit(stmt.value, env, depth)
            if isinstance(stmt.target, ast.Name):
                new = ast.BinOp(ast.Name(stmt.target.id, ast.Load()), stmt.op, stmt.value)
                env[stmt.target.id] = self.eval(new, env)
            return
        if isinstance(stmt, (ast.For, ast.AsyncFor)):
            self.visit(stmt.iter, env, depth)
            items = self.eval(stmt.iter, env)
            if isinstance(items, dict):
                items = tuple(items)
            if isinstance(items, tuple):
                for item in items[:_MAX_ITER]:
                    self.bind(stmt.target, item, env)
                    self.exec_block(stmt.body, env, depth)
            else:
                self.bind(stmt.target, UNKNOWN, env)
                self.exec_block(stmt.body, env, depth)
            self.exec_block(stmt.orelse, env, depth)
            return
        if isinstance(stmt, (ast.If, ast.While)):
            self.visit(stmt.test, env, depth)
            self.exec_block(stmt.body, env, depth)
            self.exec_block(stmt.orelse, env, depth)
            return
        if isinstance(stmt, (ast.With, ast.AsyncWith)):
            self.exec_block(stmt.body, env, depth)
            return
        if isinstance(stmt, ast.Try) or type(stmt).__name__ == "TryStar":
            self.exec_block(stmt.body, env, depth)
            for h in stmt.handlers:
                self.exec_block(h.body, env, depth)
            self.exec_block(stmt.orelse, env, depth)
            self.exec_block(stmt.finalbody, env, depth)
            return
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            for a in stmt.names:
                env[(a.asname or a.name).split(".")[0]] = UNKNOWN
            return
        self.visit(stmt, env, depth)

    # -- calls -------------------------------------------------------------
    def visit(self, node: ast.AST, env: dict, depth: int) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            return
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            self._visit_comprehension(node, env, depth)
            return
        if isinstance(node, ast.Call):
            self._on_call(node, env, depth)
        for child in ast.iter_child_nodes(node):
            self.visit(child, env, depth)

    def _visit_comprehension(self, node, env: dict, depth: int) -> None:
        elts = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]

        def expand(gens, scope):
            if not gens:
                for e in elts:
                    self.visit(e, scope, depth)
                return
            g = gens[0]
            items = self.eval(g.iter, scope)
            if isinstance(items, dict):
                items = tuple(items)
            seq = items[:_MAX_ITER] if isinstance(items, tuple) else (UNKNOWN,)
            for item in seq:
                inner = dict(scope)
                self.bind(g.target, item, inner)
                expand(gens[1:], inner)

        expand(node.generators, dict(env))

    def _on_call(self, node: ast.Call, env: dict, depth: int) -> None:
        f = node.func
        name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
        if name == "KernelSpec":
            self._record_spec(node, env)
        elif name == "register_fused_op":
            self._record_fused(node, env)
        elif name in self.funcs and depth < _MAX_DEPTH:
            self._call_helper(self.funcs[name], node, env, depth)

    def _arg(self, node: ast.Call, pos: int, kw: str):
        for k in node.keywords:
            if k.arg == kw:
                return k.value
        return node.args[pos] if len(node.args) > pos else None

    def _record_spec(self, node: ast.Call, env: dict) -> None:
        op_node, backend_node = self._arg(node, 0, "op"), self._arg(node, 1, "backend")
        target_node = self._arg(node, 2, "target")
        op = self.eval(op_node, env)
        target = self.eval(target_node, env)
        backend = _str(self.eval(backend_node, env))
        self._add(
            Registration(
                self.path,
                node.lineno,
                node.col_offset + 1,
                "spec",
                op if isinstance(op, str) else None,
                target if isinstance(target, str) else None,
                backend,
                ast.unparse(target_node) if target_node is not None else "",
            )
        )

    def _record_fused(self, node: ast.Call, env: dict) -> None:
        inst_node = self._arg(node, 0, "instance")
        module = self.eval(self._arg(node, 1, "module"), env)
        attr = self.eval(self._arg(node, 2, "attr"), env)
        inst = self.eval(inst_node, env)
        target = f"{module}:{attr}" if isinstance(module, str) and isinstance(attr, str) else None
        self._add(
            Registration(
                self.path,
                node.lineno,
                node.col_offset + 1,
                "fused",
                None,
                target,
                None,
                ast.unparse(node),
                fused_class=inst.cls if isinstance(inst, Instance) else None,
                fused_instance=ast.unparse(inst_node) if inst_node is not None else None,
            )
        )

    def _add(self, reg: Registration) -> None:
        key = (reg.line, reg.col, reg.op, reg.target, reg.backend)
        if key not in self._seen:
            self._seen.add(key)
            self.found.append(reg)

    def _call_helper(self, fn: ast.FunctionDef, node: ast.Call, env: dict, depth: int) -> None:
        scope = dict(self.env)
        params = [*fn.args.posonlyargs, *fn.args.args]
        defaults = fn.args.defaults
        for i, p in enumerate(params):
            j = i - (len(params) - len(defaults))
            scope[p.arg] = self.eval(defaults[j], env) if j >= 0 else UNKNOWN
        for p, d in zip(fn.args.kwonlyargs, fn.args.kw_defaults, strict=True):
            scope[p.arg] = self.eval(d, env) if d is not None else UNKNOWN
        for i, a in enumerate(node.args):
            if isinstance(a, ast.Starred):
                break
            if i < len(params):
                scope[params[i].arg] = self.eval(a, env)
        for k in node.keywords:
            if k.arg:
                scope[k.arg] = self.eval(k.value, env)
        self.exec_block(fn.body, scope, depth + 1)


def registrations(tree: ast.Module, path: str, module: str, is_package: bool) -> list[Registration]:
    """Every KernelSpec / register_fused_op call that runs when the module is imported."""
    ev = Evaluator(path, module, is_package)
    # Helpers may be defined after first use in source order only if called later, as
    # in Python; collect definitions first so a call site never misses its helper.
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            ev.funcs[stmt.name] = stmt
    ev.exec_block(tree.body, ev.env)
    return ev.found


def top_level_env(tree: ast.Module, module: str, is_package: bool) -> dict:
    """Module-level constant bindings (e.g. `_EXPORTS`), evaluated statically."""
    ev = Evaluator("", module, is_package)
    ev.exec_block(tree.body, ev.env)
    return ev.env


__all__ = ["EnumRef", "Instance", "Registration", "UNKNOWN", "registrations", "top_level_env"]

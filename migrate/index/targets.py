"""THE target resolver: a `module:attr.path` target, statically, as `resolve_target` would.

Shared by KO204 (`rules`, on the tree a plan would leave) and verify's registry-targets
check (on HEAD's index): both ask `Resolver(tree).problem(target)` of any `CodeTree`.

A target resolves when its module exists in the tree and its first attribute is bound at
the module's top level (def, class, assignment, import); a dotted rest is checked against
the class (or the class of a top-level instance) when that class is visible. Modules with
a module-level `__getattr__` are dynamic: only an `_EXPORTS` table they read is followed.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from migrate.index.facts import TARGET, CodeTree
from migrate.index.imports import absolute
from migrate.index.registry import registrations, top_level_env

_PLAIN_BASES = {"object", "BaseFusedOp"}


@dataclass
class Bindings:
    names: dict[str, ast.AST]  # name -> defining node
    imported: dict[str, tuple[str, str]]  # name -> (absolute module, imported name)
    dynamic: bool  # module-level __getattr__
    star: bool  # `from x import *` somewhere at top level


def _walk_top(body: list[ast.stmt]):
    """Top-level statements, descending into if/try/with blocks (still import-time)."""
    for stmt in body:
        yield stmt
        if isinstance(stmt, (ast.If, ast.With, ast.AsyncWith, ast.For)):
            yield from _walk_top(stmt.body)
            yield from _walk_top(getattr(stmt, "orelse", []))
        elif isinstance(stmt, ast.Try) or type(stmt).__name__ == "TryStar":
            yield from _walk_top(stmt.body)
            for h in stmt.handlers:
                yield from _walk_top(h.body)
            yield from _walk_top(stmt.orelse)
            yield from _walk_top(stmt.finalbody)


def _target_names(t: ast.AST):
    if isinstance(t, ast.Name):
        yield t.id
    elif isinstance(t, (ast.Tuple, ast.List)):
        for e in t.elts:
            yield from _target_names(e)


def bindings(tree: ast.Module, module: str, is_package: bool) -> Bindings:
    b = Bindings({}, {}, False, False)
    for stmt in _walk_top(tree.body):
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            b.names[stmt.name] = stmt
            if stmt.name == "__getattr__":
                b.dynamic = True
        elif isinstance(stmt, ast.Assign):
            for t in stmt.targets:
                for n in _target_names(t):
                    b.names[n] = stmt
        elif isinstance(stmt, (ast.AnnAssign, ast.AugAssign, ast.For)):
            for n in _target_names(stmt.target):
                b.names[n] = stmt
        elif isinstance(stmt, ast.Import):
            for a in stmt.names:
                b.names[a.asname or a.name.split(".")[0]] = stmt
        elif isinstance(stmt, ast.ImportFrom):
            src = absolute(stmt.module, stmt.level, module, is_package)
            for a in stmt.names:
                if a.name == "*":
                    b.star = True
                else:
                    b.names[a.asname or a.name] = stmt
                    b.imported[a.asname or a.name] = (src, a.name)
    return b


def _defined_at_column_0(text: str, name: str) -> bool:
    pattern = rf"^(?:(?:async\s+)?def|class)\s+{re.escape(name)}\b|^{re.escape(name)}\s*[:=][^=]"
    return re.search(pattern, text, re.M) is not None


class Resolver:
    """Caches per-module bindings; `problem(target)` is None when the target resolves."""

    def __init__(self, tree: CodeTree) -> None:
        self.tree = tree
        self._cache: dict[str, Bindings | None] = {}

    def _bindings(self, module: str) -> Bindings | None:
        if module not in self._cache:
            path = self.tree.modules.get(module)
            mod_ast = self.tree.ast(path) if path else None
            self._cache[module] = (
                bindings(mod_ast, module, path.endswith("__init__.py")) if mod_ast else None
            )
        return self._cache[module]

    def problem(self, target: str, depth: int = 0) -> str | None:
        module, _, attr = target.partition(":")
        if not self.tree.is_module(module.split(".", 1)[0]):
            return None  # another distribution (sgl_kernel, flashinfer): not in this tree
        if not self.tree.is_module(module):
            return f"module {module} does not exist"
        if not attr or depth > 4:
            return None
        head, *rest = attr.split(".")
        path = self.tree.modules.get(module)
        if path is None:  # namespace package: only submodules are reachable
            if self.tree.is_module(f"{module}.{head}"):
                return None
            return f"{module} is a namespace package without {head!r}"
        if not rest and _defined_at_column_0(self.tree.text(path) or "", head):
            return None  # text fast path: a column-0 def/class/assignment binds at top level
        b = self._bindings(module)
        if b is None:
            return None  # unparsable: reported elsewhere, not guessed here
        if head not in b.names:
            if b.dynamic:
                return self._exports_problem(module, head, depth)
            if b.star or self.tree.is_module(f"{module}.{head}"):
                return None
            return f"{head!r} is not defined at the top level of {module} ({path})"
        if head in b.imported:
            src, name = b.imported[head]
            if self.tree.is_module(f"{src}.{name}"):
                return None
            if src in self.tree.modules:
                inner = self.problem(f"{src}:{'.'.join([name, *rest])}", depth + 1)
                return f"{head!r} is imported by {module} but {inner}" if inner else None
            return None
        if rest:
            return self._member_problem(module, b, head, rest[0])
        return None

    def _exports_problem(self, module: str, head: str, depth: int) -> str | None:
        path = self.tree.modules[module]
        env = top_level_env(self.tree.ast(path), module, path.endswith("__init__.py"))
        exports = env.get("_EXPORTS")
        if not isinstance(exports, dict) or head not in exports:
            return None
        dest = exports[head]
        if not isinstance(dest, str):
            return None
        if dest.startswith("."):
            dest = absolute(dest.lstrip("."), len(dest) - len(dest.lstrip(".")), module, True)
        inner = self.problem(dest if ":" in dest else f"{dest}:{head}", depth + 1)
        return f"{module}._EXPORTS[{head!r}] -> {dest}: {inner}" if inner else None

    def _class_of(self, module: str, b: Bindings, name: str) -> tuple[str, ast.ClassDef] | None:
        node = b.names.get(name)
        if isinstance(node, ast.ClassDef):
            return module, node
        if name in b.imported:
            src, real = b.imported[name]
            sb = self._bindings(src)
            if sb is not None and isinstance(sb.names.get(real), ast.ClassDef):
                return src, sb.names[real]
        return None

    def _member_problem(self, module: str, b: Bindings, head: str, member: str) -> str | None:
        node = b.names[head]
        cls = None
        if isinstance(node, ast.ClassDef):
            cls = (module, node)
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            f = node.value.func
            if isinstance(f, ast.Name):
                cls = self._class_of(module, b, f.id)
        if cls is None:
            return None
        return self._class_member_problem(*cls, member, head)

    def _class_member_problem(self, module: str, cls: ast.ClassDef, member: str, head: str):
        seen = 0
        while cls is not None and seen < 5:
            seen += 1
            for stmt in cls.body:
                if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    if stmt.name == member:
                        return None
                elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
                    targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                    if any(member in _target_names(t) for t in targets):
                        return None
            bases = [ast.unparse(x) for x in cls.bases]
            others = [x for x in bases if x.split(".")[-1] not in _PLAIN_BASES]
            if not others:
                return f"{head}: class {cls.name} has no member {member!r}"
            b = self._bindings(module)
            nxt = self._class_of(module, b, others[0]) if b and len(others) == 1 else None
            if nxt is None:
                return None  # inherited from something we cannot see: do not guess
            module, cls = nxt
        return None


def registry_targets(tree: CodeTree, path: str) -> list[tuple[int, str]]:
    """(line, "module:attr") of every registry target a file spells: `target=` and
    `"pkg.mod:attr"` literals (code facts) and the targets its KernelSpec registrations
    evaluate to (f-strings over tables, `_EXPORTS` loops, `__name__`-relative targets)."""
    facts = tree.facts(path)
    if facts is None:
        return []
    out = list(facts.targets)
    known = {t for _, t in out}
    text = tree.text(path) or ""
    module = tree.module_of(path)
    if module and "KernelSpec" in text:
        mod = tree.ast(path)
        for reg in registrations(mod, path, module, path.endswith("__init__.py")) if mod else []:
            target = reg.target
            if reg.kind != "fused" and target and TARGET.match(target) and target not in known:
                known.add(target)
                out.append((reg.line, target))
    return sorted(out)

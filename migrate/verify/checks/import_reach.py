"""Importing a package still runs the code it ran at BASE: every module whose top-level
code ran when a package was imported at BASE (through its import-time imports, followed
transitively) still runs, where the plan put it, when that package is imported at HEAD.

A decorator that registers an op (`@register("relu")`) runs when its module is imported;
a definition moved into a new module that nothing imports, or an import of a module
dropped from a package's `__init__`, imports fine and silently loses the registration.
Where the plan moves a symbol, the code that ran is the module it went to, when the
definition does something as it is defined (a decorator, a class keyword such as
`metaclass=`, an own base class whose `__init_subclass__` or metaclass registers each
subclass); a plain def that nothing imports at import time loses nothing.

A module that is not a package is judged too when the migration edited it, for what it
no longer runs that does something beyond defining names (a module-level call such as
`init()`, a write into another object): a symbol move whose callers now import only the
new module leaves a source whose own import ran that code unimported (trial25 T53c).

What importing a module runs is `verify.import_runs` (the import-time graph, parents
included, closed one bit set per strongly connected component), so every package is
judged in one pass over each graph.
"""

from __future__ import annotations

import ast
import sys

from migrate.verify.codetree import CodeTree
from migrate.verify.context import VerifyContext
from migrate.verify.import_runs import Runs, closure, run_graph
from migrate.verify.result import CheckResult, Finding

NAME = "import-reach"
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _keeps_parent(ctx: VerifyContext):
    """At BASE a module the plan moves into another package no longer runs its old one,
    by the plan's design."""

    def keeps(module: str) -> bool:
        parent = module.rpartition(".")[0]
        return ctx.dotted_now(module).rpartition(".")[0] == ctx.dotted_now(parent)

    return keeps


def _top_def(tree: CodeTree, module: str, name: str) -> ast.stmt | None:
    """The top-level def or class `name` of `module` (inside if/try bodies too)."""
    path = tree.index.modules.get(module)
    syntax = tree.ast(path) if path else None
    body = list(syntax.body) if syntax else []
    while body:
        stmt = body.pop(0)
        if isinstance(stmt, (ast.If, ast.Try)):
            body[:0] = [*stmt.body, *getattr(stmt, "orelse", [])]
        elif isinstance(stmt, _DEFS) and stmt.name == name:
            return stmt
    return None


def _defined(tree: CodeTree, dotted: str, depth: int = 0) -> tuple[str, str] | None:
    """(module, class) where `pkg.mod.Name` is defined, through re-exports."""
    module, _, name = dotted.rpartition(".")
    facts = tree.facts(tree.index.modules[module]) if module in tree.index.modules else None
    binding = facts.bindings.get(name) if facts is not None else None
    if binding is None or depth > 8:
        return None
    if binding.kind == "class":
        return module, name
    target = binding.target
    return _defined(tree, target, depth + 1) if target and target != dotted else None


def _base_class(tree: CodeTree, module: str, node: ast.expr) -> tuple[str, str] | None:
    """(module, class) of an own-code base class expression (`Op`, `base.Op`) of a class
    of `module`, by what its first name is bound to there."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.insert(0, node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    facts = tree.facts(tree.index.modules[module])
    binding = facts.bindings.get(node.id) if facts is not None else None
    if binding is None:
        return None
    root = f"{module}.{node.id}" if binding.kind == "class" else binding.target
    return _defined(tree, ".".join([root, *parts])) if root else None


def _inherited_effect(tree: CodeTree, module: str, cls: ast.ClassDef, seen=None) -> str | None:
    """What an own base class runs when a subclass is defined: its (or its own bases')
    `__init_subclass__`, or its metaclass (a registry keyed by subclass)."""
    seen = seen if seen is not None else set()
    for node in cls.bases:
        found = _base_class(tree, module, node)
        if found is None or found in seen:
            continue
        seen.add(found)
        base = _top_def(tree, *found)
        if not isinstance(base, ast.ClassDef):
            continue
        where = ".".join(found)
        if any(isinstance(s, _DEFS[:2]) and s.name == "__init_subclass__" for s in base.body):
            return f"{where}.__init_subclass__"
        meta = next((k for k in base.keywords if k.arg == "metaclass"), None)
        if meta is not None:
            return f"{ast.unparse(meta)} of {where}"
        deeper = _inherited_effect(tree, found[0], base, seen)
        if deeper:
            return deeper
    return None


def _effect(tree: CodeTree, module: str, name: str) -> str | None:
    """How the top-level definition `name` of `module` acts as it is defined (its
    decorators, its class keywords, what an own base class runs for a subclass), or
    None when it only binds the name."""
    stmt = _top_def(tree, module, name)
    if stmt is None:
        return None
    if stmt.decorator_list:
        return "@" + ast.unparse(stmt.decorator_list[0])
    if isinstance(stmt, ast.ClassDef):
        if stmt.keywords:
            return ast.unparse(stmt.keywords[0])
        return _inherited_effect(tree, module, stmt)
    return None


def _acts(tree: CodeTree, module: str) -> bool:
    """Whether running `module` does anything beyond binding names: what its import does
    by the code fact (`_loud`: a call, a store, a decorator that registers), a class whose
    definition runs code of its own (a class keyword such as `metaclass=`, an own base's
    `__init_subclass__` or metaclass), an import of a module that is neither standard
    library nor the repository's (whose own modules are judged in their own right), or a
    statement of another kind. A module the moves left with defs, literals and such
    imports need not run (trial24 T47; f12 F3: a package `__init__` that re-exported
    every name of it that moved now imports them from where they went)."""
    path = tree.index.modules.get(module)
    syntax = tree.ast(path) if path else None
    if syntax is None or _loud(tree, module):
        return True
    for i, stmt in enumerate(syntax.body):
        if isinstance(stmt, ast.Pass) or (i == 0 and _is_docstring(stmt)):
            continue
        if isinstance(stmt, ast.Import):
            tops = [a.name.split(".")[0] for a in stmt.names]
        elif isinstance(stmt, ast.ImportFrom):
            if stmt.level:
                continue  # a relative import: the repository's own module
            tops = [stmt.module.split(".")[0]]  # `__future__` is a standard-library name
        elif isinstance(stmt, _DEFS[:2]) or _binds_a_literal(stmt):
            continue  # a def's decorators are the code fact's
        elif isinstance(stmt, ast.ClassDef):
            if stmt.keywords or _inherited_effect(tree, module, stmt):
                return True
            continue
        else:
            return True
        if not all(t in sys.stdlib_module_names or tree.is_own(t) for t in tops):
            return True
    return False


def _is_docstring(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)


def _binds_a_literal(stmt: ast.stmt) -> bool:
    if not isinstance(stmt, (ast.Assign, ast.AnnAssign)) or stmt.value is None:
        return False
    targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
    if not all(isinstance(t, ast.Name) for t in targets):
        return False
    try:
        ast.literal_eval(stmt.value)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False
    return True


def _loud(tree: CodeTree, module: str) -> str | None:
    """What importing `module` does beyond defining names (THE predicate, the code fact
    `import_effect`: a module-level call such as `init()`, a store into an attribute or
    item); None for a module that only defines."""
    path = tree.index.modules.get(module)
    facts = tree.facts(path) if path else None
    return facts.import_effect if facts is not None else None


def _holders(ctx: VerifyContext) -> dict[str, dict[str, str]]:
    """BASE module -> {HEAD module holding code of it that runs on import: why}."""
    head_modules = ctx.head.index.modules
    out: dict[str, dict[str, str]] = {}
    for module in ctx.base.index.modules:
        now = ctx.dotted_now(module)
        if now in head_modules:
            out[module] = {now: ""}
    for rel in ctx.relocations:
        for (module, name), dst in rel.symbols.items():
            now = ctx.dotted_now(dst)
            if module not in ctx.base.index.modules or now not in head_modules:
                continue
            effect = _effect(ctx.base, module, name)
            if effect:
                why = f"{name}, moved there from {module}, runs {effect} as it is defined"
                out.setdefault(module, {})[now] = why
    return out


def _runs(reach: dict[str, int], bit: dict[str, int], a: str, b: str) -> bool:
    """Importing `a` runs `b` and not the reverse (of a cycle, the first name stands)."""
    if a == b or not reach[a] & bit[b]:
        return False
    return not reach[b] & bit[a] or a < b


def base_reach(ctx: VerifyContext, graph: dict[str, set[str]], start: str) -> set[str]:
    """The BASE modules importing `start` runs (for the message: which one ran the code)."""
    seen, todo = {start}, [start]
    while todo:
        for t in graph.get(todo.pop(), ()):
            if t not in seen:
                seen.add(t)
                todo.append(t)
    return seen


def _lost(ctx, holders, base_graph, head_bit, head_reach) -> tuple[list[str], dict[str, str]]:
    """The BASE packages judged, and HEAD module -> a package importing it no longer runs it."""
    seed = {}
    for module, held in holders.items():
        bits = 0
        for h in held:
            bits |= head_bit.get(h, 0)
        seed[module] = bits
    needed = closure(base_graph, seed)
    packages = [
        m for m, p in ctx.base.index.modules.items() if p.endswith("__init__.py") and m in needed
    ]
    lost: dict[str, str] = {}
    for package in sorted(packages, key=lambda m: (m.count("."), m)):
        now = ctx.dotted_now(package)
        if now not in head_reach or ctx.head.index.modules[now] in ctx.exclude:
            continue
        missing = needed[package] & ~head_reach[now]
        if not missing:
            continue
        gone = [m for m, bit in head_bit.items() if missing & bit]
        for module in gone:  # not one that another lost module runs: that one is the loss
            if not any(_runs(head_reach, head_bit, o, module) for o in gone):
                lost.setdefault(module, package)
    return packages, lost


def _edited_modules(ctx: VerifyContext, needed_by) -> list[str]:
    """BASE modules, not packages, whose HEAD file the migration changed."""
    return [
        m
        for m, p in ctx.base.index.modules.items()
        if not p.endswith("__init__.py") and ctx.head_path(p) in ctx.touched and m in needed_by
    ]


def _quiet_losses(ctx, holders, base_graph, head_bit, head_reach) -> dict[str, tuple[str, str]]:
    """HEAD module -> (edited BASE module that ran it, what it does) for each module an
    edited module imported at BASE and no longer runs, whose import does more than define."""
    seed = {m: sum(head_bit.get(h, 0) for h in held) for m, held in holders.items()}
    needed = closure(base_graph, seed)
    out: dict[str, tuple[str, str]] = {}
    loud: dict[str, str | None] = {}
    for module in sorted(_edited_modules(ctx, needed)):
        now = ctx.dotted_now(module)
        if now not in head_reach or ctx.head.index.modules[now] in ctx.exclude:
            continue
        missing = needed[module] & ~head_reach[now]
        for gone, bit in head_bit.items():
            if missing & bit and gone not in out:
                if gone not in loud:
                    loud[gone] = _loud(ctx.head, gone)
                if loud[gone]:
                    out[gone] = (module, loud[gone])
    return out


def check(ctx: VerifyContext) -> CheckResult:
    if ctx.base is None:
        return CheckResult(NAME, "SKIP", summary="no BASE tree")
    runs = Runs.of(ctx.head)
    head_bit, head_reach = runs.bit, runs.reach
    holders = _holders(ctx)
    ctx.base.prefetch(ctx.base.index.modules.values())  # the files BASE..HEAD changed
    base_graph = run_graph(ctx.base, _keeps_parent(ctx))
    while True:
        packages, lost = _lost(ctx, holders, base_graph, head_bit, head_reach)
        # A module still at its place that the moves left doing nothing on import need not
        # run (trial24 T47); judged only for the lost ones (a parse each), then again
        # without them, so what such a module ran at BASE is still judged.
        inert = {m for m in lost if not _acts(ctx.head, m)}
        dropped = [(held, m) for held in holders.values() for m in inert if held.get(m) == ""]
        if not dropped:
            break
        for held, m in dropped:
            del held[m]
    sources: dict[str, list[tuple[str, str]]] = {}  # HEAD module -> [(BASE module, why)]
    for module, held in holders.items():
        for h, why in held.items():
            sources.setdefault(h, []).append((module, why))
    findings = []
    for module, package in sorted(lost.items()):
        reached = base_reach(ctx, base_graph, package)
        origin, why = next(
            ((m, w) for m, w in sorted(sources[module]) if m in reached), sources[module][0]
        )
        detail = f": {why}" if why else f" ({origin} at BASE)" if origin != module else ""
        findings.append(
            Finding(
                ctx.head.index.modules[module],
                0,
                NAME,
                f"importing {ctx.dotted_now(package)} no longer runs {module}{detail}; "
                f"at BASE importing {package} ran {origin}",
                "import it where its code was imported at BASE (the source module, or "
                "the package's __init__), or what its code does on import is lost",
            )
        )
    for module, (importer, does) in sorted(
        _quiet_losses(ctx, holders, base_graph, head_bit, head_reach).items()
    ):
        if module in lost:
            continue
        now = ctx.dotted_now(importer)
        findings.append(
            Finding(
                ctx.head.index.modules[now],
                0,
                NAME,
                f"{now} no longer imports {module}, whose import runs `{does}`; at BASE "
                f"importing {importer} ran it",
                "import it where it was imported at BASE, or what its import does is lost",
            )
        )
    return CheckResult.of(NAME, findings, f"{len(packages)} packages")

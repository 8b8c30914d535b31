"""Every attribute chain into a repo module resolves at HEAD: `mod.func()` after
`from pkg import mod`, `pkg.sub.mod.X` after `import pkg.sub.mod`, `getattr(mod, "x")`,
`patch.object(mod, "x")` and `patch("pkg.mod.x")`. Each step is a submodule or a
top-level binding (a re-exported module is followed); a dynamic module ends the chain.

A symbol move that leaves `mod.func()` behind imports fine and fails on first call; only
this check sees it. A chain already broken at BASE (mapped through the plan) is a warning.
"""

from __future__ import annotations

from migrate.index.attrs import AttrRef
from migrate.verify.codetree import CodeTree
from migrate.verify.context import VerifyContext
from migrate.verify.result import CheckResult, against_base

NAME = "attributes-resolve"


def _start(tree: CodeTree, ref: AttrRef) -> tuple[str, tuple[str, ...]] | None:
    """(module the chain starts from, attributes to resolve), or None when not ours."""
    if not tree.is_own(ref.target):
        return None
    if not ref.string:
        return (ref.target, ref.attrs) if tree.is_module(ref.target) else None
    parts = [ref.target, *ref.attrs]
    for i in range(len(parts) - 1, 0, -1):  # the longest importable prefix
        if tree.is_module(".".join(parts[:i])):
            return ".".join(parts[:i]), tuple(parts[i:])
    return None


def broken_step(tree: CodeTree, module: str, attrs: tuple[str, ...]) -> tuple[str, str] | None:
    """(module, attribute) of the first step that does not resolve, or None."""
    for attr in attrs:
        if tree.is_module(f"{module}.{attr}"):
            module = f"{module}.{attr}"
            continue
        found = tree.has_attr(module, attr)
        if found is False:
            return module, attr
        facts = tree.module_facts(module)
        alias = facts.attrs.bindings.get(attr) if facts and facts.attrs else None
        if found is None or not alias or alias not in tree.index.modules:
            return None  # an object (or unknowable): the chain leaves the modules
        module = alias
    return None


def _is_module(tree: CodeTree, module: str, attrs: tuple[str, ...]) -> bool:
    """The chain ends on a module (calling it is a TypeError)."""
    return tree.is_module(".".join([module, *attrs]))


def unresolved(tree: CodeTree, only: set[str] | None = None) -> list[tuple[str, int, str, str]]:
    """[(path, line, broken dotted name, chain as written)]."""
    out = []
    for path, _module in tree.python_files(only):
        facts = tree.facts(path)
        if facts is None or facts.attrs is None:
            continue
        seen = set()
        for ref in facts.attrs.refs:
            start = _start(tree, ref)
            broken = broken_step(tree, *start) if start else None
            if start and not broken and ref.called and _is_module(tree, *start):
                broken = (".".join([start[0], *start[1]]), "__call__")
            if broken and (ref.line, broken) not in seen:
                seen.add((ref.line, broken))
                out.append((path, ref.line, f"{broken[0]}.{broken[1]}", ref.text))
    return out


def check(ctx: VerifyContext) -> CheckResult:
    found = unresolved(ctx.head)
    before = ctx.at_base(found, unresolved, lambda u: (ctx.path_now(u[0]), ctx.dotted_now(u[2])))
    findings = []
    for path, line, dotted, text in found:
        old = (path, dotted) in before
        module, _, attr = dotted.rpartition(".")
        if attr == "__call__":
            msg = f"{text}(...): {module} is a module, calling it raises TypeError"
        else:
            msg = f"{text}: module {module} has no attribute {attr}"
        fix = "" if old else "a rewrite missed this reference, or it names what the plan moved"
        findings.append(against_base(path, line, NAME, msg, old, fix))
    return CheckResult.judged(NAME, findings, f"{len(found)} unresolved")

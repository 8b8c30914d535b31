"""Every attribute chain into a repo module resolves at HEAD: `mod.func()` after
`from pkg import mod`, `pkg.sub.mod.X` after `import pkg.sub.mod`, `getattr(mod, "x")`,
`patch.object(mod, "x")` and `patch("pkg.mod.x")`. Each step is a submodule or a
top-level binding (a re-exported module is followed); a dynamic module ends the chain.

A symbol move that leaves `mod.func()` behind imports fine and fails on first call; only
this check sees it. A chain already broken at BASE (mapped through the plan) is a warning.

A step onto a submodule (`pkg.mod` after `import pkg`) resolves only once something
imported that submodule: the file's own imports, or what importing the chain's root runs
(`verify.import_runs`; a package `__init__` whose `from .mod import f` bound `mod`). Such
a step that nothing the file imports runs any more, where at BASE it did, is an error
(f12 F3: the `__init__` now imports `f` from where it went); one that relied on other
importers at BASE already is not judged.
"""

from __future__ import annotations

from migrate.index.attrs import AttrRef
from migrate.verify.codetree import CodeTree
from migrate.verify.context import VerifyContext
from migrate.verify.import_runs import Runs
from migrate.verify.result import CheckResult, Finding, against_base

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


def unimported(
    tree: CodeTree, only: set[str] | None = None
) -> list[tuple[str, int, str, str, str]]:
    """[(path, line, submodule, chain as written, the chain's dotted name through the
    attribute after the submodule)] for each chain step onto a submodule that neither the
    chain's root nor any import of the file (at any level) runs."""
    out: list[tuple[str, int, str, str, str]] = []
    runs: Runs | None = None
    for path, module in tree.python_files(only):
        facts = tree.facts(path)
        if facts is None or facts.attrs is None:
            continue
        importers: list[str] | None = None
        seen = set()
        for ref in facts.attrs.refs:
            if ref.string or not tree.is_own(ref.target) or not tree.is_module(ref.target):
                continue
            current = ref.target
            for i, attr in enumerate(ref.attrs):
                sub = f"{current}.{attr}"
                if not tree.is_module(sub):
                    break
                if importers is None:
                    runs = runs or Runs.of(tree)
                    imported = [
                        c
                        for imp in facts.imports
                        if not imp.type_checking
                        for c in imp.candidates()
                    ]
                    importers = [m for m in (module, *imported) if m]
                if not runs.any_runs((ref.target, *importers), sub) and (ref.line, sub) not in seen:
                    seen.add((ref.line, sub))
                    full = ".".join([sub, *ref.attrs[i + 1 : i + 2]])
                    out.append((path, ref.line, sub, ref.text, full))
                current = sub
    return out


def _unimported_findings(ctx: VerifyContext) -> list[Finding]:
    """A submodule step that resolved through the file's imports at BASE (its chain,
    mapped through the plan, is not among BASE's) and no longer does."""
    found = unimported(ctx.head)
    before = ctx.at_base(found, unimported, lambda u: (ctx.path_now(u[0]), ctx.dotted_now(u[4])))
    return [
        Finding(
            path,
            line,
            NAME,
            f"{text}: nothing this file imports imports {sub}, so it is no attribute of "
            f"{sub.rpartition('.')[0]} here (at BASE this chain's modules were imported)",
            f"import {sub} in this file",
        )
        for path, line, sub, text, full in found
        if (path, full) not in before
    ]


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
    findings += _unimported_findings(ctx)
    return CheckResult.judged(NAME, findings, f"{len(found)} unresolved")

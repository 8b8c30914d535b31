"""No file at HEAD, of any type, still spells a name the plan moved.

A moved symbol spelled through its old module (`pkg.conf.WIDTH`) while that module still
binds the name at HEAD (it imports it back for the code left there) still resolves, and
a patch of it reaches that code: a warning naming it, not a failure. So is a moved
module's old name read as an attribute of its package (`pkg.testing.f`, `from pkg import
testing`) where the package still binds that name at HEAD (trial24 T48: pyparsing's
`from .testing import pyparsing_test as testing`): it resolves to that binding. An import
of the old module itself (`import pkg.testing`, `from pkg.testing import f`) fails."""

from __future__ import annotations

import re
from dataclasses import replace

from migrate.verify.context import VerifyContext
from migrate.verify.names import OldNames, excluded, scan_text
from migrate.verify.result import CheckResult, Finding

NAME = "old-names"
_FROM_NAMES = re.compile(r"from ([\w.]+) import (\w+(?:, \w+)*)")


def check(ctx: VerifyContext) -> CheckResult:
    findings = []
    index = ctx.head.index
    for plan, rel in zip(ctx.plans, ctx.relocations, strict=True):
        names = OldNames(rel, plan)
        for path, info in sorted(index.files.items()):
            if info.is_symlink or excluded(path, ctx.exclude, plan.keep_prose):
                continue
            text = index.text(path)
            if text is not None:
                hits = scan_text(path, text, names, NAME, index)
                findings += [_judged(ctx, rel, f, text) for f in hits]
    return CheckResult.judged(NAME, findings, f"{len(index.files)} files scanned")


def _judged(ctx: VerifyContext, rel, finding: Finding, text: str) -> Finding:
    """`finding` as a warning when the old name still resolves at HEAD: a moved symbol
    that its old module still binds at module level, or a moved module's name that its
    package still binds, read as an attribute (`_bound_by_package`)."""
    old = finding.message.removeprefix("old name ")
    spelled = _FROM_NAMES.fullmatch(old)  # `from pkg.mod import a, b` (T64)
    if spelled is not None:
        pairs = [(spelled[1], name.strip()) for name in spelled[2].split(",")]
    else:
        pairs = [(old.rpartition(".")[0], old.rpartition(".")[2])]
    if all(pair in rel.symbols for pair in pairs):
        for mod, sym in pairs:
            facts = ctx.head.module_facts(mod)
            if facts is None or sym not in facts.bindings:
                return finding
        mod, names = pairs[0][0], ", ".join(sym for _, sym in pairs)
        message = f"{finding.message}: {mod} still binds {names} at HEAD, so it resolves there"
        return replace(finding, message=message, severity="warning")
    bound = _bound_by_package(ctx, rel, old, _line(text, finding.line))
    if bound is None:
        return finding
    package, name = bound
    message = (
        f"{finding.message}: {package} still binds {name} at HEAD, so it resolves to that "
        "binding, not to the moved module"
    )
    fix = f"leave it (respelled to the module it would not read {package}.{name})"
    return replace(finding, message=message, fix=fix, severity="warning")


_FROM_IMPORT = re.compile(r"from ([\w.]+) import (\w+)$")


def _bound_by_package(ctx: VerifyContext, rel, old: str, line: str) -> tuple[str, str] | None:
    """(package, name) when `old` reads a moved module `package.name` as an attribute of
    `package`, which binds `name` at HEAD; None for an import of the module itself."""
    spelled = _FROM_IMPORT.match(old)
    if spelled:
        dotted = f"{spelled[1]}.{spelled[2]}"
    else:
        dotted = old
        imported = re.match(r"\s*(?:import|from)\s+([\w.]+)", line)
        if imported and (imported[1] + ".").startswith(_moved_prefix(rel, dotted) or "\0"):
            return None
    parts = dotted.split(".")
    for i in range(len(parts) - 1, 0, -1):
        if ".".join(parts[: i + 1]) not in rel.moved_modules:
            continue
        package, name = ".".join(parts[:i]), parts[i]
        facts = ctx.head.module_facts(package)
        if facts is not None and name in facts.bindings:
            return package, name
        return None
    return None


def _moved_prefix(rel, dotted: str) -> str | None:
    """The longest moved module `dotted` starts with, and a dot."""
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        if ".".join(parts[:i]) in rel.moved_modules:
            return ".".join(parts[:i]) + "."
    return None


def _line(text: str, line: int) -> str:
    lines = text.splitlines()
    return lines[line - 1] if 0 < line <= len(lines) else ""

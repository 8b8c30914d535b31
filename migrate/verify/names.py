"""Old names of a plan and where a text still spells one, with the name that replaced it.

Used by verify's old-name check and by `migrate stale` (which runs after the migration,
when the old modules are gone, so its relocation is built from the plan alone).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from migrate.plan import Plan
from migrate.relocate import Relocation, module_to_path
from migrate.verify.result import Finding

DELETED = "deleted:"  # replacement marker: the name's package is deleted, nothing replaces it
_DOTTED_TAIL = re.compile(r"[\w.]*")
_PATH_TAIL = re.compile(r"[\w.\-/]*")


def old_regex(rel: Relocation, plan: Plan) -> re.Pattern:
    """The rewriter's token-bounded regex of every old name (dotted, path, op id), plus the
    packages the plan deletes (in dotted and path spelling, under every root)."""
    from migrate.rewrite.scan import old_name_regex

    moved = old_name_regex(rel, plan).pattern
    deleted = [rf"(?<![\w.]){re.escape(d)}(?!\w)" for d in plan.delete]
    for d in plan.delete:
        for path in sorted(_deleted_dirs(plan, d)):
            deleted.append(rf"(?<![\w.\-]){re.escape(path)}(?![\w\-])")
    return re.compile("|".join([moved, *deleted]))


def _deleted_dirs(plan: Plan, package: str) -> set[str]:
    out = {package.replace(".", "/")}
    for root in plan.roots:
        out.add(module_to_path(package, root, True).rsplit("/", 1)[0])
    return out


def _deleted(plan: Plan, token: str, path: bool) -> str | None:
    for d in plan.delete:
        names = _deleted_dirs(plan, d) if path else {d}
        sep = "/" if path else "."
        if any(token == n or token.startswith(n + sep) for n in names):
            return DELETED + d
    return None


def replacement(rel: Relocation, plan: Plan, text: str, m: re.Match) -> tuple[str, str] | None:
    """(old token, new token) for a regex hit, or None when the hit is not an old name.

    The hit is extended to the whole dotted name or path it starts (`pkg.old.mod.fn`), so
    a parent spelling that still exists (`sglang.srt.layers`) is not reported; in
    `from parent import child` the imported names decide.
    """
    start = m.start()
    ops = {o.src: o.dst for o in plan.op_ids}
    if m.group(0) in ops and start > 0 and text[start - 1] in "\"'":
        return m.group(0), ops[m.group(0)]
    stmt = _FROM_IMPORT.match(text, start)
    if stmt:
        start = stmt.start(1)
    token = _PATH_TAIL.match(text, start).group(0).rstrip("./-")
    if "/" in token and not stmt:
        for root in ("", *(r + "/" for r in plan.roots if r not in (".", ""))):
            new = rel.path(root + token)
            if new:
                return token, new[len(root) :] if new.startswith(root) else new
        gone = _deleted(plan, token, path=True)
        if gone:
            return token, gone
    token = _DOTTED_TAIL.match(text, start).group(0).rstrip(".")
    new = rel.dotted(token) or _deleted(plan, token, path=False)
    if new:
        return token, new
    stmt = stmt or _statement_at(text, start)
    return _from_names(rel, plan, stmt) if stmt else None


_FROM_IMPORT = re.compile(r"from\s+([\w.]+)\s+import\s+(\([^)]*\)|[^\n#;]*)")


def _statement_at(text: str, start: int) -> re.Match | None:
    """The `from X import ...` statement whose module token starts at `start`."""
    line = text.rfind("\n", 0, start) + 1
    hit = _FROM_IMPORT.match(text, line + len(text[line:start]) - len(text[line:start].lstrip()))
    return hit if hit and hit.start(1) == start else None


def _from_names(rel: Relocation, plan: Plan, stmt: re.Match) -> tuple[str, str] | None:
    """`from mod import a, b`: the imported names that moved (symbols or submodules)."""
    mod, names, moved = stmt.group(1), [], []
    for item in stmt.group(2).strip("()").split(","):
        name = item.split()[0] if item.split() else ""
        if (mod, name) in rel.symbols:
            moved.append(f"import {name} from {rel.symbols[(mod, name)]}")
        elif name and rel.module(f"{mod}.{name}"):
            moved.append(f"import {rel.module(f'{mod}.{name}')}")
        elif name and _deleted(plan, f"{mod}.{name}", path=False):
            moved.append(f"{mod}.{name} is deleted by the plan")
        else:
            continue
        names.append(name)
    if not moved:
        return None
    return f"from {mod} import {', '.join(names)}", "; ".join(moved)


def excluded(path: str, exclude: set[str], globs: Iterable[str]) -> bool:
    """Plan files, `.git-blame-ignore-revs` and `keep_prose` files (history) keep old names."""
    from migrate.rewrite.globs import repo_glob_match

    return path in exclude or any(repo_glob_match(g, path) for g in globs)


def scan_text(
    path: str, text: str, regex: re.Pattern, rel: Relocation, plan: Plan, check: str
) -> list[Finding]:
    out = []
    seen = set()
    for m in regex.finditer(text):
        if m.start() in seen:
            continue
        seen.add(m.start())
        hit = replacement(rel, plan, text, m)
        if hit is None:
            continue
        old, new = hit
        line = text.count("\n", 0, m.start()) + 1
        if new.startswith(DELETED):
            fix = f"the plan deletes {new[len(DELETED) :]}: no single new name, fix by hand"
        else:
            fix = f"now {new}"
        out.append(Finding(path, line, check, f"old name {old}", fix))
    return out

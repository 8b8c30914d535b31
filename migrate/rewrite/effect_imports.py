"""A binding whose uses all moved away is kept when its import was what ran its module.

`from pkg import state` + `state.init()`, with `init` and `reset` moved from `pkg.state`
to `pkg.resets`, becomes `from pkg import resets` + `resets.init()`; dropping the old
binding (`module_uses._unused_bindings`) would also stop importing `pkg.state`, and when
that module's import does more than define names (a module-level `init()`, a store into
a registry: THE predicate, the code fact `index.facts.import_effect`, which verify's
import-reach judges by too) that code no longer runs (trial25 T53c: NameError at run
time, apply exit 0). So such a binding is kept, in its own statement and layout, marked
`# noqa: F401` (ruff's `--fix` would otherwise remove it and lose the effect), with a
warning in the dry run, unless something else the file still imports at that point (a
module-level import, or one of an enclosing function) runs the module anyway.

"Runs it anyway" is judged on the tree before the plan, through imports the plan keeps:
`from m import a` keeps its edge to `m` while it imports a name that neither moves out
of `m` nor is a module losing symbols (whose binding may be dropped the same way);
`import m` keeps it unless `m` loses symbols. A module the plan creates (the symbols'
new module) is not counted. Everything here errs towards keeping the import: a kept
import that was not needed costs a `# noqa` line, a dropped one that was needed loses
behaviour. The walk over importers stops after `_LIMIT` modules (what it found counts).
"""

from __future__ import annotations

import ast
import re

from migrate.index.imports import is_type_checking
from migrate.index.repo import RepoIndex
from migrate.relocate import Relocation
from migrate.rewrite import relative
from migrate.rewrite.spans import ast_offset, line_starts

_LIMIT = 500


def import_effects(index: RepoIndex, rel: Relocation) -> dict[str, str]:
    """Module losing a symbol -> what its import does beyond defining names (its code
    fact `import_effect`), for those whose import does more."""
    out = {}
    for mod in sorted({m for m, _ in rel.symbols}):
        path = index.modules.get(mod)
        facts = index.facts(path) if path else None
        if facts is not None and facts.import_effect:
            out[mod] = facts.import_effect
    return out


def kept_targets(
    module: str, names: tuple[str, ...], rel: Relocation, losing: frozenset[str]
) -> list[str]:
    """The modules an import (`import module`: `names` empty; `from module import
    names`) still imports after the plan, as far as the plan's reference rewrite is
    concerned (importing one also runs its packages)."""
    if not names:
        return [] if module in losing else [module]
    stable = [n for n in names if (module, n) not in rel.symbols and f"{module}.{n}" not in losing]
    return [module, *(f"{module}.{n}" for n in stable)] if stable else []


def runs(target: str, module: str, reach: frozenset[str] | set[str], rel: Relocation) -> bool:
    """Whether importing `target` runs `module`, given the modules `reach` known to run
    it: `target` or one of its packages (which its import runs first, while the plan
    leaves it where it is) is `module` or in `reach`."""
    if target == module or target in reach:
        return True
    if target in rel.moved_modules:
        return False
    parts = target.split(".")
    return any(".".join(parts[:i]) in (reach | {module}) for i in range(1, len(parts)))


def importers_running(
    index: RepoIndex, rel: Relocation, module: str, losing: frozenset[str], skip: str | None = None
) -> frozenset[str]:
    """The modules of the tree whose import runs `module` through import-time imports the
    plan keeps (a fixpoint over importers, found by the leaves of the modules they may
    name: a file naming none of them imports none); the imports of module `skip` (the
    one whose imports are being judged) are not counted."""
    reach: set[str] = set()
    frontier = {module}
    texts = [(p, i) for p, i in index.files.items() if i.is_python and not i.is_symlink]
    while frontier and len(reach) < _LIMIT:
        leaves = sorted({m.rsplit(".", 1)[-1] for m in frontier})
        word = re.compile(r"\b(?:" + "|".join(map(re.escape, leaves)) + r")\b")
        found: set[str] = set()
        for path, info in texts:
            mod = info.module
            if not mod or mod in (module, skip) or mod in reach:
                continue
            text = index.text(path)
            if not text or "import" not in text or not word.search(text):
                continue
            facts = index.facts(path)
            for ref in facts.imports if facts is not None else ():
                if not ref.at_import_time:
                    continue
                targets = kept_targets(ref.module, ref.names, rel, losing)
                if any(runs(t, module, reach, rel) for t in targets):
                    found.add(mod)
                    break
        reach |= found
        frontier = found
    return frozenset(reach)


def effect_reach(
    index: RepoIndex, rel: Relocation, effects: dict[str, str]
) -> dict[str, frozenset[str]]:
    """`importers_running` of each module of `effects`."""
    losing = frozenset(m for m, _ in rel.symbols)
    return {m: importers_running(index, rel, m, losing) for m in effects}


def scoped_imports(tree: ast.Module) -> list[tuple[ast.Import | ast.ImportFrom, tuple]]:
    """Every import statement that runs (not under `TYPE_CHECKING`), with the chain of
    functions it sits in (() at module level; class bodies are transparent)."""
    out: list[tuple[ast.Import | ast.ImportFrom, tuple]] = []

    def walk(body: list[ast.stmt], chain: tuple) -> None:
        for stmt in body:
            if isinstance(stmt, (ast.Import, ast.ImportFrom)):
                out.append((stmt, chain))
            elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                walk(stmt.body, (*chain, stmt))
            elif isinstance(stmt, ast.If) and is_type_checking(stmt.test):
                walk(stmt.orelse, chain)
            else:
                for name in ("body", "orelse", "finalbody"):
                    walk(getattr(stmt, name, None) or [], chain)
                for h in getattr(stmt, "handlers", None) or []:
                    walk(h.body, chain)
                for case in getattr(stmt, "cases", None) or []:
                    walk(case.body, chain)

    walk(tree.body, ())
    return out


def runs_otherwise(
    module: str,
    chain: tuple,
    imports,
    gone: set[tuple[int, str]],
    *,
    text,
    package,
    own,
    reach,
    rel,
) -> bool:
    """Whether an import of `imports` (`scoped_imports` of `text`) that stays, at module
    level or in a function around `chain`, runs `module` through imports the plan keeps
    (`reach`: `importers_running`), or the file's own module `own` (of package
    `package`) is inside it. `gone`: (statement offset, local) of the names that go."""
    losing = frozenset(m for m, _ in rel.symbols)
    if own and runs(own, module, reach, rel):
        return True
    starts = line_starts(text)
    for node, c in imports:
        if chain[: len(c)] != c:
            continue
        start = ast_offset(text, starts, node.lineno, node.col_offset)
        left = [a for a in node.names if (start, alias_local(node, a)) not in gone]
        if isinstance(node, ast.ImportFrom):
            base = node.module
            if node.level:
                base = relative.resolve(package, node.level, node.module)
            named = [(base, tuple(a.name for a in left))] if base and left else []
        else:  # `import a.b` binds `a` and stays; `import a.b as m` may go like a binding
            named = [(a.name, ()) for a in left if a.asname]
            if any(runs(a.name, module, reach, rel) for a in left if not a.asname):
                return True
        for mod, names in named:
            if any(runs(t, module, reach, rel) for t in kept_targets(mod, names, rel, losing)):
                return True
    return False


def marker_at(text: str, line: int) -> tuple[int, str] | None:
    """(offset, text) of the `# noqa: F401` marker for source line `line` (1-based) of
    `text`; None when none is needed or none can be added (`noqa_marker`)."""
    start = line_starts(text)[line - 1]
    end = text.find("\n", start)
    end = len(text) if end == -1 else end
    hit = noqa_marker(text[start:end].rstrip("\r"))
    return (start + hit[0], hit[1]) if hit is not None and hit[1] else None


def alias_local(node: ast.Import | ast.ImportFrom, alias: ast.alias) -> str:
    if alias.asname:
        return alias.asname
    return alias.name.split(".")[0] if isinstance(node, ast.Import) else alias.name


_NOQA = re.compile(r"#\s*noqa(?P<codes>:[\s,A-Z0-9]*)?", re.IGNORECASE)


def noqa_marker(line: str) -> tuple[int, str] | None:
    """(offset in `line`, text to insert there) so that ruff's F401 passes the source
    line `line` (no newline): `  # noqa: F401` at its end, or `, F401` after the codes of
    a `# noqa: E501` already there (ruff reads the first `# noqa` of a line); (0, "")
    when a `# noqa` there covers it already; None when nothing can be added (a line
    ending in a backslash continuation)."""
    body = line.rstrip()
    if body.endswith("\\"):
        return None
    hit = _NOQA.search(line)
    if hit is None:
        return len(body), "  # noqa: F401"
    codes = hit.group("codes")
    if not codes or "F401" in codes.upper():
        return 0, ""
    return hit.start("codes") + len(codes.rstrip(" ,")), ", F401"


def effect_of(index: RepoIndex, module: str) -> str | None:
    """What importing own module `module` does beyond defining names (the code fact)."""
    path = index.modules.get(module)
    facts = index.facts(path) if path else None
    return facts.import_effect if facts is not None else None


def alias_modules(
    node: ast.Import | ast.ImportFrom, alias: ast.alias, package: str | None, index: RepoIndex
) -> list[str]:
    """The repository's modules one name of an import statement runs: each package on
    the way, the module, a from-imported submodule."""
    if isinstance(node, ast.ImportFrom):
        base = relative.resolve(package, node.level, node.module) if node.level else node.module
        if not base:
            return []
        names = [base, f"{base}.{alias.name}"]
    else:
        names = [alias.name]
    out: list[str] = []
    for name in names:
        parts = name.split(".")
        out += [".".join(parts[:i]) for i in range(1, len(parts) + 1)]
    return [m for m in dict.fromkeys(out) if m in index.modules]


def kept_in_source(index: RepoIndex, rel: Relocation, path: str, text: str, syntax, removed):
    """Of the import names only moved code used (`removed`: [(statement, aliases)] the
    symbols pass would drop from the source at `path`), those whose drop would stop the
    source importing a module whose import does more than define names, when nothing
    else the source still imports runs it: {(id(statement), id(alias)): (line, marker
    offset or None, marker or None, why)}; they stay."""
    info = index.files[path]
    own = info.module
    package = own if info.is_package_init else (own or "").rpartition(".")[0] or None
    imports = scoped_imports(syntax)
    toplevel = {(n.lineno, n.col_offset) for n, chain in imports if not chain}
    starts = line_starts(text)
    gone: set[tuple[int, str]] = set()
    todo = []
    for node, aliases in removed:
        if not isinstance(node, (ast.Import, ast.ImportFrom)):
            continue  # a whole `if TYPE_CHECKING:` block: never runs
        if (node.lineno, node.col_offset) not in toplevel:
            continue
        start = ast_offset(text, starts, node.lineno, node.col_offset)
        for a in aliases:
            gone.add((start, alias_local(node, a)))
            todo.append((node, a, start))
    losing = frozenset(m for m, _ in rel.symbols)
    out = {}
    for node, a, start in todo:
        for module in alias_modules(node, a, package, index):
            effect = effect_of(index, module)
            if not effect:
                continue
            reach = importers_running(index, rel, module, losing, own)
            if runs_otherwise(
                module, (), imports, gone, text=text, package=package, own=own, reach=reach, rel=rel
            ):
                continue
            gone.discard((start, alias_local(node, a)))  # kept: it runs the module
            marker = marker_at(text, a.lineno)
            why = (
                f"keeps `{ast.unparse(node)}`: only the moved code used it, but importing "
                f"{module} runs `{effect}`, and nothing else {own} imports runs it"
            )
            out[(id(node), id(a))] = (a.lineno, *(marker or (None, None)), why)
            break
    return out

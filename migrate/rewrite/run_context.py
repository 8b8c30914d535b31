"""Build the run `Context` from a plan, its index and relocation (cheap `ast` facts only)."""

from __future__ import annotations

import ast
import re

from migrate.index.repo import RepoIndex
from migrate.index.star_exports import StarExports, star_gives
from migrate.plan.model import Plan
from migrate.relocate import Relocation
from migrate.rewrite import relative
from migrate.rewrite.context import Context
from migrate.rewrite.effect_imports import effect_reach, import_effects
from migrate.rewrite.import_order import orders_by_dir
from migrate.rewrite.names import common_prefix
from migrate.rewrite.patch_targets import patch_misses, patched_bindings
from migrate.rewrite.scan import module_aliases
from migrate.rewrite.shadowed import shadowed_submodules
from migrate.rewrite.submodule_keep import still_defining
from migrate.rewrite.symbols import node_names
from migrate.rewrite.text_files import rootless_spellings


def gone_names(index: RepoIndex, rel: Relocation, plan: Plan) -> set[str]:
    """Old modules/packages that do not exist after the plan."""
    gone = set(rel.moved_modules) | set(rel.modules) | set(plan.delete)
    for pkg in index.packages:
        mods = [m for m in index.modules if m == pkg or m.startswith(pkg + ".")]
        if mods and all(m in rel.moved_modules for m in mods):
            gone.add(pkg)
    for pkg in plan.delete:
        gone.update(m for m in index.modules if m.startswith(pkg + "."))
    return gone


def new_module_names(index: RepoIndex, rel: Relocation) -> set[str]:
    names = {m for m in index.modules if m not in rel.moved_modules}
    names.update(rel.moved_modules.values())
    names.update(rel.symbols.values())
    for name in list(names):
        parts = name.split(".")
        names.update(".".join(parts[:i]) for i in range(1, len(parts)))
    return names


def package_fallbacks(index: RepoIndex, rel: Relocation, gone: set[str]) -> dict[str, str]:
    out = {}
    for pkg in gone:
        if rel.module(pkg) is not None or pkg not in index.packages:
            continue
        news = [new for old, new in rel.moved_modules.items() if old.startswith(pkg + ".")]
        prefix = common_prefix(news) if news else ""
        if prefix and len(news) > 1:
            out[pkg] = prefix
    return out


def reexports(index: RepoIndex, rel: Relocation, gone: set[str]) -> dict[str, str]:
    """`pkg.name` -> origin for names a removed package's `__init__` imports, by name or
    through a star import of one of the tree's modules (each name that star gives, from
    the module that binds it: the fuzzer's `from pkg import func` where pkg's `__init__`
    did `from .mod import *`). A later statement wins, as in Python."""
    out = {}
    stars = StarExports.of_index(index)
    for pkg in gone:
        path = index.modules.get(pkg)
        if path is None or not path.endswith("__init__.py") or rel.module(pkg) is not None:
            continue
        try:
            tree = ast.parse(index.text(path) or "")
        except SyntaxError:
            continue
        for node in tree.body:
            if not isinstance(node, ast.ImportFrom):
                continue
            base = relative.resolve(pkg, node.level, node.module) if node.level else node.module
            if base is None:
                continue
            for alias in node.names:
                if alias.name != "*":
                    out[f"{pkg}.{alias.asname or alias.name}"] = f"{base}.{alias.name}"
                    continue
                for name, giver in stars(base).items():
                    out[f"{pkg}.{name}"] = f"{giver}.{name}"
    return out


def gone_stars(index: RepoIndex, rel: Relocation, gone: set[str], reexp: dict) -> dict:
    """Deleted package -> what `from pkg import *` becomes: [(new module, names)] in
    order, names None for `import *` (the `__init__` was only star imports of modules
    the plan keeps or moves, with no `__all__`: the same star of their new place gives
    the same names), else each name the star gave, `(leaf, local)`, from where it now
    lives. None: no spelling (the tree cannot list what the star gave, or the `__init__`
    defines a name itself): a stale import, reported."""
    stars = StarExports.of_index(index)
    out = {}
    for pkg in sorted(gone):
        path = index.modules.get(pkg)
        if path is None or not path.endswith("__init__.py") or rel.module(pkg) is not None:
            continue
        out[pkg] = _gone_star(index, rel, gone, pkg, path, stars, reexp)
    return out


def _gone_star(index, rel, gone, pkg, path, stars, reexp) -> list | None:
    facts = index.facts(path)
    try:
        tree = ast.parse(index.text(path) or "")
    except SyntaxError:
        return None
    if facts is None or not stars.known(pkg):
        return None

    def new_home(module: str) -> str | None:
        new = rel.module(module) or module
        parts = new.split(".")
        if any(".".join(parts[:i]) in gone for i in range(1, len(parts) + 1)):
            return None  # deleted and moved nowhere
        return new

    body = [
        n for n in tree.body if not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant))
    ]
    if (
        facts.all_names is None
        and body
        and all(isinstance(n, ast.ImportFrom) and n.names[0].name == "*" for n in body)
    ):
        mods = [relative.resolve(pkg, n.level, n.module) if n.level else n.module for n in body]
        homes = [new_home(m) if m else None for m in mods]
        return None if None in homes else [(h, None) for h in homes]
    groups: dict[str, list[tuple[str, str]]] = {}
    for name, giver in stars(pkg).items():
        origin = reexp.get(f"{pkg}.{name}") or (f"{giver}.{name}" if giver != pkg else None)
        if origin is None:
            return None
        new = rel.dotted(origin) or origin
        module, _, leaf = new.rpartition(".")
        home = new_home(module) if new == origin else module
        if home is None:
            return None
        groups.setdefault(home, []).append((leaf, name))
    return [(m, sorted(names)) for m, names in groups.items()]


def symbol_callers(index: RepoIndex, rel: Relocation, moving: dict) -> dict:
    """(module, symbol) -> top-level statements left in `module` that still read `symbol`
    (the symbols pass imports it back for them: `module` still binds it after the move).

    `moving` maps each (module, symbol) to the names that leave the module with it."""
    out = {}
    for (mod, sym), _new in rel.symbols.items():
        path = index.modules.get(mod)
        if path is None:
            continue
        try:
            tree = ast.parse(index.text(path) or "")
        except SyntaxError:
            continue
        leaving = set(moving.get((mod, sym), ())) | {sym}
        callers = []
        for node in tree.body:
            names = node_names(node)
            if names & leaving:
                continue  # it moves too (a constant's own assignment included)
            if any(isinstance(n, ast.Name) and n.id == sym for n in ast.walk(node)):
                callers.append(", ".join(sorted(names)) or f"line {node.lineno}")
        if callers:
            out[(mod, sym)] = tuple(callers)
    return out


def _deleted_paths(index: RepoIndex, plan: Plan) -> set[str]:
    dirs = [d for d in (index.package_dir(p) for p in plan.delete) if d]
    out = set()
    for f in index.files:
        if any(f.startswith(d + "/") for d in dirs):
            parts = f.split("/")
            out.update("/".join(parts[:i]) for i in range(1, len(parts) + 1))
    return out


def imported_names(index: RepoIndex, rel: Relocation, aliases: dict | None = None) -> set[str]:
    """`module.name` for every `from module import name` in the tree whose module binds
    one that loses a symbol (those bindings may be removed when unused; a name another
    file imports from them must stay), and every `aliases` entry another file reads as
    an attribute chain (`user.mod.VALUE`, trial25 T52). Empty without symbol moves."""
    from migrate.rewrite.scan import binding_candidates

    if not rel.symbols:
        return set()
    binders = {index.module_of(p) for p in binding_candidates(index, rel)} - {None}
    if not binders:
        return set()
    leaves = sorted({m.rsplit(".", 1)[-1] for m in binders})
    word = re.compile(r"\b(?:" + "|".join(map(re.escape, leaves)) + r")\b")
    out = set()
    for path, info in index.files.items():
        if not info.is_python or info.is_symlink:
            continue
        text = index.text(path)
        if not text or "import" not in text or not word.search(text):
            continue
        facts = index.facts(path)
        for imp in facts.imports if facts is not None else ():
            if imp.module in binders:
                out.update(f"{imp.module}.{n}" for n in imp.names)
        for ref in facts.attrs.refs if facts is not None and facts.attrs is not None else ():
            for i in range(len(ref.attrs)):
                read = ".".join((ref.target, *ref.attrs[: i + 1]))
                after = ref.attrs[i + 1] if i + 1 < len(ref.attrs) else None
                # `user.mod.f` of a moved `f` is respelled (module_uses): no read left
                if read in (aliases or {}) and (aliases[read], after) not in rel.symbols:
                    out.add(read)
    return out


def star_exports(index: RepoIndex, rel: Relocation) -> dict[str, dict[str, str]]:
    """Module losing symbols -> {symbol: new module} for the moved symbols that a star
    import of the module gave (empty without symbol moves)."""
    out: dict[str, dict[str, str]] = {}
    for (mod, sym), dst in sorted(rel.symbols.items()):
        if (mod, sym) in rel.reexports:
            continue  # a lazy export: it follows its table (exports_follow.py)
        path = index.modules.get(mod)
        if path is not None and star_gives(index.facts(path), sym):
            out.setdefault(mod, {})[sym] = dst
    return out


def star_given(index: RepoIndex, rel: Relocation, exports: dict) -> set[tuple[str, str]]:
    """(new module, symbol) of the moved symbols a star import of their new module gives:
    a new module has no `__all__`; an existing one gives it only if its `__all__` (when
    literal) lists it already (this pass adds nothing to it)."""
    out = set()
    for names in exports.values():
        for sym, dst in names.items():
            old = rel.old_module(dst) or dst
            path = index.modules.get(old)
            if path is None or star_gives(index.facts(path), sym):
                out.add((dst, sym))
    return out


def build_context(index: RepoIndex, rel: Relocation, plan: Plan, moving=None) -> Context:
    gone = gone_names(index, rel, plan)
    stars = star_exports(index, rel)
    callers = symbol_callers(index, rel, moving or {})
    reexp = reexports(index, rel, gone)
    aliases = module_aliases(index, rel)
    effects = import_effects(index, rel)
    return Context(
        relocation=rel,
        op_ids={o.src: o.dst for o in plan.op_ids},
        gone=frozenset(gone),
        new_modules=frozenset(new_module_names(index, rel)),
        symbol_callers=callers,
        patch_misses=patch_misses(index, rel, moving or {}, callers),
        patched_bindings=patched_bindings(index, rel),
        package_fallback=package_fallbacks(index, rel, gone),
        reexports=reexp,
        gone_stars=gone_stars(index, rel, gone, reexp),
        shadowed=frozenset(shadowed_submodules(index, rel, plan.delete)),
        roots=plan.roots,
        keep_prose=plan.keep_prose,
        deleted_paths=frozenset(_deleted_paths(index, plan)),
        imported_names=frozenset(imported_names(index, rel, aliases)),
        module_aliases=aliases,
        rootless=tuple(sorted(rootless_spellings(index, rel, plan).items())),
        star_exports=stars,
        star_given=frozenset(star_given(index, rel, stars)),
        import_orders=orders_by_dir(index, rel),
        import_effects=effects,
        effect_reach=effect_reach(index, rel, effects),
        still_defining=still_defining(index, rel),
    )

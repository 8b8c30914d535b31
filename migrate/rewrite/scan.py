"""Find candidate files by text, before any parsing.

The `OldNames` scanner (one compiled regex of every old spelling) runs over every text
file; only its hits (and Python files whose relative imports may reach a moved module)
are analysed further. On a real SGLang tree this keeps libcst off ~90% of the files.
"""

from __future__ import annotations

import re
from functools import lru_cache

from migrate.index.repo import RepoIndex
from migrate.index.tree import stub_module
from migrate.oldnames import OldNames
from migrate.plan.model import Plan
from migrate.relocate import Relocation

RELATIVE_IMPORT = re.compile(r"^[ \t]*from[ \t]+\.", re.M)
RELATIVE_FROM = re.compile(r"^[ \t]*from[ \t]+(\.+)[ \t]*([\w.]*)[ \t]+import\b", re.M)


def old_name_regex(relocation: Relocation, plan: Plan | None = None) -> re.Pattern:
    """The `OldNames` regex: any old dotted name, path spelling or op id, and
    `from parent import` for parents of moved modules."""
    return OldNames(relocation, plan).regex


def relative_import_scope(index: RepoIndex, relocation: Relocation) -> set[str]:
    """Python files whose relative imports could reach a moved module or change meaning:
    files that move, and files in a package that is an ancestor of a moved module."""
    moved = set(relocation.moved_modules) | set(relocation.modules)
    moved.update(mod for mod, _ in relocation.symbols)
    ancestors = set()
    for name in moved:
        parts = name.split(".")
        for i in range(1, len(parts)):
            ancestors.add(".".join(parts[:i]))
    tops = {name.split(".")[0] for name in moved}
    out = set()
    for path, info in index.files.items():
        module, is_init = info.module, info.is_package_init
        if path.endswith(".pyi") and not info.is_symlink:  # a stub: its module's imports
            module, is_init = stub_module(path, index.roots), path.endswith("__init__.pyi")
        elif not info.is_python:
            continue
        if module is None:
            continue
        pkg = module if is_init else module.rpartition(".")[0]
        if path in relocation.files or pkg in ancestors or pkg in moved:
            out.add(path)
        elif module.split(".")[0] in tops and _climbs_to_moved(index.text(path), pkg, moved):
            out.add(path)  # e.g. `from ..utils import sym` in a subpackage of the legacy one
    return out


def _climbs_to_moved(text: str | None, pkg: str, moved: set[str]) -> bool:
    """Whether a relative import of a file in `pkg` resolves to, into or above a moved name."""
    if not text or "from ." not in text:
        return False
    parts = pkg.split(".") if pkg else []
    for m in RELATIVE_FROM.finditer(text):
        up = len(m.group(1)) - 1
        if up > len(parts):
            continue
        target = ".".join(parts[: len(parts) - up] + ([m.group(2)] if m.group(2) else []))
        if any(
            t == target or t.startswith(target + ".") or target.startswith(t + ".") for t in moved
        ):
            return True
    return False


def candidates(index: RepoIndex, relocation: Relocation, plan: Plan | None = None) -> set[str]:
    """Every file that may hold a reference the plan changes (a superset; cheap)."""
    names = OldNames(relocation, plan)
    out = set()
    for path, info in index.files.items():
        if info.is_symlink or not index.may_spell(path, names.bytes_prefilter):
            continue
        text = index.text(path)
        if text is None:
            continue
        if names.candidate(text):
            out.add(path)
    for path in relative_import_scope(index, relocation):
        text = index.text(path)
        if text is not None and RELATIVE_IMPORT.search(text):
            out.add(path)
    out |= binding_candidates(index, relocation) | table_candidates(index, relocation)
    out |= parent_binding_candidates(index, relocation, out)
    out |= computed_op_id_candidates(index, relocation, plan)
    out |= computed_group_candidates(index, relocation, out)
    return out | rootless_candidates(index, relocation, plan)


_GROUP_CALL = re.compile(rb"entry_(?:points|map|info)|load_entry_point|get_group_")


def computed_group_candidates(index: RepoIndex, relocation: Relocation, found: set[str]):
    """Python files with a computed entry-point group (`f"{PKG}.plugins"`) that can equal
    a moved module's name: they get the rewrite's warning though they spell no old name."""
    from migrate.entry_groups import computed_groups, moved_name_in

    out = set()
    for path, info in index.files.items():
        if not info.is_python or info.is_symlink or path in found:
            continue
        if not _GROUP_CALL.search(index.read_bytes(path)):
            continue
        text = index.text(path)
        if text and any(moved_name_in(p, relocation) for _, _, p in computed_groups(path, text)):
            out.add(path)
    return out


def computed_op_id_candidates(index: RepoIndex, relocation: Relocation, plan) -> set[str]:
    """Python files with an f-string built on a renamed op id's prefix."""
    op_ids = {o.src: o.dst for o in getattr(plan, "op_ids", ())} | dict(relocation.op_ids)
    if not op_ids:
        return set()
    from migrate.rewrite.op_id_tables import has_computed_op_id  # libcst: only when needed

    out = set()
    for path, info in index.files.items():
        if info.is_python and not info.is_symlink:
            text = index.text(path)
            if text and "{" in text and has_computed_op_id(text, op_ids):
                out.add(path)
    return out


def rootless_candidates(index: RepoIndex, relocation: Relocation, plan) -> set[str]:
    """Files (docs, build files, Python comments and strings) spelling an old name without
    its root package: they get a review note."""
    from migrate.rewrite.text_files import (
        handles,
        rootless_heads,
        rootless_matches,
        rootless_regex,
        rootless_spellings,
    )

    if plan is None:
        return set()
    regex = rootless_regex(index, relocation, plan)
    if regex is None:
        return set()
    heads = rootless_heads(rootless_spellings(index, relocation, plan))
    out = set()
    for path, info in index.files.items():
        if info.is_symlink or not (info.is_python or handles(path)):
            continue
        text = index.text(path)
        if text and rootless_matches(regex, heads, text):
            out.add(path)
    return out


def table_candidates(index: RepoIndex, relocation: Relocation) -> set[str]:
    """Python files with an f-string built on an unmoved ancestor of a moved module
    (`f"pkg.ops.attention.{_mod}:{_fn}"`): their table rows may name moved modules."""
    if not relocation.moved_modules:  # no ancestor to name (and libcst left unimported)
        return set()
    from migrate.rewrite.registry import ancestor_tables, names_ancestor_table

    ancestors = ancestor_tables(relocation)
    out = set()
    for path, info in index.files.items():
        if info.is_python and not info.is_symlink:
            text = index.text(path)
            if text is not None and names_ancestor_table(text, ancestors):
                out.add(path)
    return out


@lru_cache(maxsize=8)
def _leaf_regex(mods: frozenset[str]) -> re.Pattern:
    leaves = sorted({m.rsplit(".", 1)[-1] for m in mods})
    return re.compile(r"\b(?:" + "|".join(map(re.escape, leaves)) + r")\b")


def may_bind(text: str, mods: frozenset[str]) -> bool:
    """Cheap text test: every binding form spells the module's last component."""
    return bool(mods) and "import" in text and _leaf_regex(mods).search(text) is not None


def binding_candidates(index: RepoIndex, relocation: Relocation) -> set[str]:
    """Python files that bind a module losing a symbol (`from pkg import mod`,
    `from . import mod`, `import pkg.mod`, ...): candidates by binding, whatever they
    spell. Read from the index's code facts (imports, relative ones resolved)."""
    mods = frozenset(mod for mod, _ in relocation.symbols)
    out: set[str] = set()
    if not mods:
        return out
    for path, info in index.files.items():
        if not info.is_python or info.is_symlink:
            continue
        text = index.text(path)
        if text is None or not may_bind(text, mods):
            continue
        facts = index.facts(path)
        if facts is None or _binds(facts.imports, mods):
            out.add(path)  # an unparsable file: the rewrite reports it
    return out


def parent_binding_candidates(
    index: RepoIndex, relocation: Relocation, known: set[str] = frozenset()
) -> set[str]:
    """Python files that bind a package one of whose submodules moves out of its place
    and read that submodule through the binding (`sub.cond`, `s.cond`): they spell no
    old name, so only their imports (the code facts) tell. `known`: candidates already
    (not looked at again)."""
    from migrate.rewrite.parent_chains import moved_children

    children = moved_children(relocation)
    if not children:
        return set()
    tops = sorted({p.rsplit(".", 1)[-1] for p in children})
    leaves = sorted(set().union(*children.values()))
    alt = "|".join(map(re.escape, tops))
    # the package's name imported: `from x import (a, sub`, `import x.sub as s`
    bound = re.compile(
        rf"\bimport\s*\(?\s*(?:[\w.]+(?:\s+as\s+\w+)?\s*,\s*)*(?:{alt})\b"
        rf"|\bimport\s+[\w.]*\b(?:{alt})\s+as\b"
    )
    attr = re.compile(r"\.[ \t]*(?:" + "|".join(map(re.escape, leaves)) + r")\b")
    out: set[str] = set()
    for path, info in index.files.items():
        if not info.is_python or info.is_symlink or path in known:
            continue
        text = index.text(path)
        if text is None or not any(t in text for t in tops):
            continue
        if not attr.search(text) or not bound.search(text):
            continue
        facts = index.facts(path)
        if facts is None or any(
            (imp.module in children and not imp.names)
            or any(f"{imp.module}.{n}" in children for n in imp.names)
            for imp in facts.imports
        ):
            out.add(path)
    return out


def _binds(imports, mods: frozenset[str]) -> bool:
    for imp in imports:
        reached = [imp.module, *(f"{imp.module}.{n}" for n in imp.names)]
        if any(r in mods or r.startswith(tuple(m + "." for m in mods)) for r in reached):
            return True
        if any(m.startswith(imp.module + ".") for m in mods) and not imp.names:
            return True  # `import pkg` may reach pkg.mod once something imported it
    return False

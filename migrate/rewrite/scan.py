"""Find candidate files by text, before any parsing.

One compiled regex of every old dotted name and path spelling runs over every text
file; only its hits (and Python files whose relative imports may reach a moved module)
are analysed further. On a real SGLang tree this keeps libcst off ~90% of the files.
"""

from __future__ import annotations

import ast
import re
from functools import lru_cache

from migrate.index.repo import RepoIndex
from migrate.plan.model import Plan
from migrate.relocate import Relocation

# A dotted name or path token starts where no identifier character, dot or slash precedes it
# and ends where no identifier character follows (a following `.`, `/` or `:` is fine: the
# match is then a prefix of a longer old name, which the rewriter extends and relocates).
_LEFT = r"(?<![\w.])"
_LEFT_PATH = r"(?<![\w.\-])"
_RIGHT = r"(?!\w)"
RELATIVE_IMPORT = re.compile(r"^[ \t]*from[ \t]+\.", re.M)
RELATIVE_FROM = re.compile(r"^[ \t]*from[ \t]+(\.+)[ \t]*([\w.]*)[ \t]+import\b", re.M)


def old_dotted_names(relocation: Relocation) -> set[str]:
    """Every old dotted name a reference may spell: moved modules and packages, symbols."""
    names = set(relocation.modules) | set(relocation.moved_modules)
    for mod, sym in relocation.symbols:
        names.add(f"{mod}.{sym}")
        names.add(mod)  # `from mod import sym`, `patch("mod.sym")`
    return names


def parent_names(relocation: Relocation, plan: Plan | None = None) -> set[str]:
    """Immediate parents of moved modules that do not move themselves. They matter only
    in `from parent import child`, so they are matched only there: a bare `sglang`
    would make every file a candidate."""
    moved = old_dotted_names(relocation)
    parents = {m.rsplit(".", 1)[0] for m in moved if "." in m}
    return parents - moved - set(plan.delete if plan is not None else ())


def old_path_spellings(relocation: Relocation, roots: tuple[str, ...]) -> set[str]:
    """Old repo-relative paths of moved directories and files, and the same paths
    relative to each import root (`sglang/jit_kernel/...` as found in docs and C++)."""
    paths: set[str] = set()
    for old in list(relocation.path_prefixes) + list(relocation.files):
        paths.add(old)
        for root in roots:
            if root not in (".", "") and old.startswith(root + "/"):
                paths.add(old[len(root) + 1 :])
    return {p for p in paths if "/" in p}


def _alternation(words: set[str]) -> str:
    """A trie-shaped regex of `words`, longest match first.

    A flat alternation of a thousand names is tried branch by branch at every position of
    every file; the trie fails on the first character almost everywhere (10x faster).
    """
    trie: dict = {}
    for w in words:
        node = trie
        for ch in w:
            node = node.setdefault(ch, {})
        node[""] = {}
    return _trie_regex(trie)


def _trie_regex(node: dict) -> str:
    ends = "" in node
    branches = [re.escape(ch) + _trie_regex(child) for ch, child in sorted(node.items()) if ch]
    if not branches:
        return ""
    body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
    return f"(?:{body})?" if ends else body


@lru_cache(maxsize=16)
def _compile(dotted: tuple[str, ...], paths: tuple[str, ...], op_ids: tuple[str, ...], parents=()):
    parts = []
    if dotted:
        parts.append(f"{_LEFT}(?:{_alternation(set(dotted))}){_RIGHT}")
    if parents:
        alt = _alternation(set(parents))
        parts.append(f"{_LEFT}from[ \\t]+(?:{alt})[ \\t]+import{_RIGHT}")
        # A computed name built on the parent: `f"parent.{x}"`, `"parent." + x`.
        parts.append(f"{_LEFT}(?:{alt})(?=\\.(?:[{{\\0\"']))")
    if paths:
        parts.append(f"{_LEFT_PATH}(?:{_alternation(set(paths))})(?![\\w\\-])")
    if op_ids:
        # Op ids are matched only as whole quoted strings.
        parts.append(f"""(?<=["'])(?:{_alternation(set(op_ids))})(?=["'])""")
    return re.compile("|".join(parts) if parts else r"(?!x)x")


def old_name_regex(relocation: Relocation, plan: Plan | None = None) -> re.Pattern:
    """One token-bounded regex matching any old dotted name, path spelling or op id, and
    `from parent import` for parents of moved modules."""
    roots = plan.roots if plan is not None else (".",)
    op_ids = tuple(sorted(o.src for o in plan.op_ids)) if plan is not None else ()
    dotted = old_dotted_names(relocation) | set(plan.delete if plan is not None else ())
    return _compile(
        tuple(sorted(dotted)),
        tuple(sorted(old_path_spellings(relocation, roots))),
        op_ids,
        tuple(sorted(parent_names(relocation, plan))),
    )


@lru_cache(maxsize=16)
def _prefilter(words: tuple[str, ...], parents: tuple[str, ...]) -> re.Pattern:
    parts = [_alternation(set(words))] if words else []
    if parents:
        parts.append(f"(?:{_alternation(set(parents))})(?=[ \\t]+import|\\.[{{\\0\"'])")
    return re.compile("|".join(parts) if parts else r"(?!x)x")


def prefilter_regex(relocation: Relocation, plan: Plan | None = None) -> re.Pattern:
    """A superset of `old_name_regex` without leading look-behinds, so that the regex
    engine can skip ahead by first character: 40 MB of SGLang in 0.1 s instead of 7 s.
    Only files it matches are searched with the exact regex."""
    roots = plan.roots if plan is not None else (".",)
    words = old_dotted_names(relocation) | old_path_spellings(relocation, roots)
    if plan is not None:
        words |= set(plan.delete) | {o.src for o in plan.op_ids}
    return _prefilter(tuple(sorted(words)), tuple(sorted(parent_names(relocation, plan))))


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
        if not info.is_python or info.module is None:
            continue
        pkg = info.module if info.is_package_init else info.module.rpartition(".")[0]
        if path in relocation.files or pkg in ancestors or pkg in moved:
            out.add(path)
        elif info.module.split(".")[0] in tops and _climbs_to_moved(index.text(path), pkg, moved):
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
    regex = old_name_regex(relocation, plan)
    quick = prefilter_regex(relocation, plan)
    out = set()
    for path, info in index.files.items():
        if info.is_symlink:
            continue
        text = index.text(path)
        if text is None:
            continue
        if quick.search(text) and regex.search(text):
            out.add(path)
    for path in relative_import_scope(index, relocation):
        text = index.text(path)
        if text is not None and RELATIVE_IMPORT.search(text):
            out.add(path)
    return out | binding_candidates(index, relocation)


def binding_candidates(index: RepoIndex, relocation: Relocation) -> set[str]:
    """Python files that bind a module losing a symbol (`from pkg import mod`,
    `from . import mod`, ...): they are candidates by binding, whatever they spell."""
    from migrate.index.bindings import binds_any
    from migrate.rewrite.module_uses import may_bind

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
        pkg = None
        if info.module is not None:
            pkg = info.module if info.is_package_init else info.module.rpartition(".")[0]
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            out.add(path)  # the rewrite reports it
            continue
        if binds_any(tree, pkg, mods):
            out.add(path)
    return out

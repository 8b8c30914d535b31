"""`OldNames`: the one scanner for "is an old name of this plan still spelled here?".

One token-bounded regex of every old spelling, with a fast prefilter and the replacement
of each hit, serves the rewriter's candidate scan (`rewrite.scan.candidates`, and the
regex the rewriter's free-text pass extends), verify's old-names check, `migrate stale`
(so `stale` and `fix` see the same hits) and the report's leftovers. What a hit is
called now is always the relocation's answer (`Relocation.dotted`, `spelled_path`,
`op_id`); names in a package the plan deletes have no new name (`DELETED` + package).

Old spellings: moved modules and packages, moved symbols (`mod.sym`), the plan's deleted
packages (dotted, and as directories under every root), old paths of moved files and
directories (repo- and root-relative), op ids as whole quoted strings, and
`from parent import` for parents of moved modules (there the imported names decide).

Text search finds candidates; bindings decide: verify, `stale` and the leftovers read a
dotted chain in code as an old name only where its head may be bound to it
(`OldNames.references`, through the one binding walk); strings, comments and docstrings
are read as text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property, lru_cache

from migrate.entry_groups import group_spans
from migrate.relocate import Relocation, module_to_path

DELETED = "deleted:"  # replacement marker: the name's package is deleted, nothing replaces it

# A dotted name or path token starts where no identifier character, dot or slash precedes it
# and ends where no identifier character follows (a following `.`, `/` or `:` is fine: the
# match is then a prefix of a longer old name, which is extended and relocated whole).
_LEFT = r"(?<![\w.])"
_LEFT_PATH = r"(?<![\w.\-])"
_RIGHT = r"(?!\w)"
_DOTTED_TAIL = re.compile(r"[\w.]*")
_TARGET_TAIL = re.compile(r"[\w.]*(?::[A-Za-z_][\w.]*)?")  # `pkg.mod:attr.path`
_PATH_TAIL = re.compile(r"[\w.\-/]*")
_FROM_IMPORT = re.compile(r"from\s+([\w.]+)\s+import\s+(\([^)]*\)|[^\n#;]*)")


# Spellings that are names, not references, per file: a `.gitmodules` section's submodule
# name defaults to its path and is kept when the submodule moves (its git dir and the
# user's `submodule.<name>.*` config are keyed by it), so it is never an old name.
_NOT_REFERENCES = {".gitmodules": re.compile(r'^[ \t]*\[[ \t]*submodule[ \t]+"[^"\n]*"', re.M)}


def name_spans(path: str, text: str) -> list[tuple[int, int]]:
    """[start, end) of the spellings in file `path` that are names, not references: no
    rewrite edits them and no scan reports them (`_NOT_REFERENCES`, and entry-point
    group names: `entry_groups.py`)."""
    names = _NOT_REFERENCES.get(path)
    spans = [m.span() for m in names.finditer(text)] if names is not None else []
    return spans + group_spans(path, text)


@dataclass(frozen=True)
class OldName:
    """One old spelling found in a text: [start, end) reads `old`, now called `new`."""

    start: int
    end: int
    old: str
    new: str  # the new spelling, a description for `from X import a, b`, or DELETED + pkg

    @property
    def deleted(self) -> str | None:
        """The deleted package this name lived in, when nothing replaces it."""
        return self.new[len(DELETED) :] if self.new.startswith(DELETED) else None


def path_at(text: str, hit: re.Match) -> str:
    """The whole path that the regex hit `hit` starts: the hit itself (an old spelling,
    whatever characters it holds: `gemm+bias.cu`, `my kernel.cu`) and the path characters
    after it (`csrc/` + `norm.cuh`), less a trailing `.` (a full stop, not the name's).
    The one rule for the rewriter's free-text pass and for this scanner."""
    end = _PATH_TAIL.match(text, hit.end()).end()
    return text[hit.start() : end].rstrip(".")


def dotted_at(text: str, start: int, hit_end: int, *, targets: bool = False) -> tuple[str, int]:
    """(the whole dotted name that a hit [start, hit_end) starts, less a trailing `.`,
    and where its name characters ran to), by the rule of `path_at`; with `targets`, a
    `module:attr.path` target is one name. The raw end tells a name cut short by an
    f-string hole (`"pkg.{x}"`) from a whole one."""
    raw_end = (_TARGET_TAIL if targets else _DOTTED_TAIL).match(text, hit_end).end()
    return text[start:raw_end].rstrip(".:"), raw_end


def old_dotted_names(relocation: Relocation) -> set[str]:
    """Every old dotted name a reference may spell: moved modules and packages, symbols."""
    names = set(relocation.modules) | set(relocation.moved_modules)
    for mod, sym in relocation.symbols:
        names.add(f"{mod}.{sym}")
        names.add(mod)  # `from mod import sym`, `patch("mod.sym")`
    return names


def parent_names(relocation: Relocation, deleted: tuple[str, ...] = ()) -> set[str]:
    """Immediate parents of moved modules that do not move themselves. They matter only
    in `from parent import child`, so they are matched only there: a bare `sglang`
    would make every file a candidate."""
    moved = old_dotted_names(relocation)
    parents = {m.rsplit(".", 1)[0] for m in moved if "." in m}
    return parents - moved - set(deleted)


# The last (path_prefixes, files, roots) seen and its spellings: one apply builds an
# `OldNames` per pass (candidates, undecodable files, ...) of one relocation, and the
# spellings of 30,000 moved files cost a climb each. Keyed by a copy of the contents,
# compared whole, so a relocation changed since (or another one) is never served stale.
_LAST_SPELLINGS: list = []


def old_path_spellings(relocation: Relocation, roots: tuple[str, ...]) -> set[str]:
    """Old repo-relative paths of moved directories and files, and the same paths
    relative to each import root (`sglang/jit_kernel/...` as found in docs and C++)."""
    key = (relocation.path_prefixes, relocation.files, tuple(roots))
    if _LAST_SPELLINGS and _LAST_SPELLINGS[0] == key:
        return set(_LAST_SPELLINGS[1])
    found = _old_path_spellings(relocation, roots)
    _LAST_SPELLINGS[:] = [(dict(key[0]), dict(key[1]), key[2]), frozenset(found)]
    return found


# The last relocation's moved files and their covering directories (`file_heads`), kept
# as `_LAST_SPELLINGS` is: the spellings and the text-file pass both need all 30,000.
_LAST_HEADS: list = []


def file_heads(relocation: Relocation) -> dict[str, str | None]:
    """`relocation.covering_prefixes(relocation.files)`, computed once per relocation
    (its contents compared whole); the caller must not change the dict."""
    key = (relocation.path_prefixes, relocation.files)
    if _LAST_HEADS and _LAST_HEADS[0] == key:
        return _LAST_HEADS[1]
    heads = relocation.covering_prefixes(relocation.files)
    _LAST_HEADS[:] = [(dict(key[0]), dict(key[1])), heads]
    return heads


def _old_path_spellings(relocation: Relocation, roots: tuple[str, ...]) -> set[str]:
    paths: set[str] = set()
    # each path's head is its own (the climb is only shared work): files, then the rest
    heads = dict(file_heads(relocation))
    rest = [p for p in relocation.path_prefixes if p not in heads]
    heads.update(relocation.covering_prefixes(rest))
    for old, head in heads.items():
        for form, head_form in _spellings(old, head, roots):
            if head_form is None or "/" not in head_form:  # else the directory's matches it
                paths.add(form)
    return {p for p in paths if "/" in p}


def _spellings(path: str, head: str | None, roots: tuple[str, ...]):
    """(spelling of `path`, the same spelling of its covering directory `head` or None)."""
    yield path, head
    for root in roots:
        if root not in (".", "") and path.startswith(root + "/"):
            cut = len(root) + 1
            yield path[cut:], head[cut:] if head is not None else None


def deleted_dirs(package: str, roots: tuple[str, ...]) -> set[str]:
    """A deleted package's directory, root-relative and under every root."""
    out = {package.replace(".", "/")}
    for root in roots:
        out.add(module_to_path(package, root, True).rsplit("/", 1)[0])
    return out


def alternation(words: set[str]) -> str:
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
        parts.append(f"{_LEFT}(?:{alternation(set(dotted))}){_RIGHT}")
    if parents:
        alt = alternation(set(parents))
        parts.append(f"{_LEFT}from[ \\t]+(?:{alt})[ \\t]+import{_RIGHT}")
        # A computed name built on the parent: `f"parent.{x}"`, `"parent." + x`.
        parts.append(f"{_LEFT}(?:{alt})(?=\\.(?:[{{\\0\"']))")
    if paths:
        parts.append(f"{_LEFT_PATH}(?:{alternation(set(paths))})(?![\\w\\-])")
    if op_ids:
        # Op ids are matched only as whole quoted strings (or `code` spans in prose).
        parts.append(f"""(?<=["'`])(?:{alternation(set(op_ids))})(?=["'`])""")
    return re.compile("|".join(parts) if parts else r"(?!x)x")


@lru_cache(maxsize=16)
def _prefilter(words: tuple[str, ...], parents: tuple[str, ...]) -> re.Pattern:
    parts = [alternation(set(words))] if words else []
    if parents:
        parts.append(f"(?:{alternation(set(parents))})(?=[ \\t]+import|\\.[{{\\0\"'])")
    return re.compile("|".join(parts) if parts else r"(?!x)x")


@lru_cache(maxsize=16)
def _bytes_prefilter(needles: tuple[str, ...]) -> re.Pattern:
    forms = {n.encode("utf-8") for n in needles}
    forms |= {n.encode("latin-1") for n in needles if max(n, default="\0") <= "\xff"}
    if not forms:
        return re.compile(rb"(?!x)x")
    # the trie of `alternation`, on bytes: each byte one latin-1 character
    return re.compile(alternation({f.decode("latin-1") for f in forms}).encode("latin-1"))


class OldNames:
    """Every old spelling of one plan, how to find them, and what each is called now.

    `plan` gives the import roots and the deleted packages (anything with `roots` and
    `delete`; None for neither); op ids come from the relocation (`Relocation.op_ids`).
    `with_op_ids=False` leaves op ids out of the regex (the rewriter's free-text pass:
    op ids are whole literals, rewritten by their own pass).
    """

    def __init__(self, relocation: Relocation, plan=None, *, with_op_ids: bool = True) -> None:
        self.relocation = relocation
        self.roots: tuple[str, ...] = tuple(getattr(plan, "roots", None) or (".",))
        self.deleted: tuple[str, ...] = tuple(
            d for d in getattr(plan, "delete", ()) if "/" not in d
        )
        ops = dict(relocation.op_ids)
        ops.update({o.src: o.dst for o in getattr(plan, "op_ids", ())})
        self.op_ids: dict[str, str] = ops if with_op_ids else {}
        self.dotted = old_dotted_names(relocation) | set(self.deleted)
        self.parents = parent_names(relocation, self.deleted)
        self.paths = old_path_spellings(relocation, self.roots)
        self.deleted_paths = {p: d for d in self.deleted for p in deleted_dirs(d, self.roots)}
        self._new = set(relocation.moved_modules.values()) | set(relocation.modules.values())

    # -- finding -------------------------------------------------------------------------
    @cached_property
    def regex(self) -> re.Pattern:
        """The exact, token-bounded regex of every old spelling."""
        return _compile(
            tuple(sorted(self.dotted)),
            tuple(sorted(self.paths | set(self.deleted_paths))),
            tuple(sorted(self.op_ids)),
            tuple(sorted(self.parents)),
        )

    @cached_property
    def prefilter(self) -> re.Pattern:
        """A superset of `regex` without leading look-behinds, so that the regex engine can
        skip ahead by first character: 40 MB of SGLang in 0.1 s instead of 7 s."""
        words = self.dotted | self.paths | set(self.deleted_paths) | set(self.op_ids)
        return _prefilter(tuple(sorted(words)), tuple(sorted(self.parents)))

    def needles(self) -> list[str]:
        """Fewest plain substrings that every hit contains (for `git grep -F`)."""
        words = self.dotted | self.paths | set(self.deleted_paths) | set(self.op_ids)
        out: list[str] = []
        for w in sorted(words | self.parents, key=len):
            if not any(k in w for k in out):
                out.append(w)
        return out

    @cached_property
    def bytes_prefilter(self) -> re.Pattern:
        """A superset of `prefilter` on a file's bytes: every needle as UTF-8 and as
        latin-1. A text decoded as UTF-8 (or read as latin-1) that spells an old name holds
        a needle, so its bytes hold that needle's encoding: a file whose bytes match
        nothing need not be decoded to be ruled out (30,000 data files of a move)."""
        return _bytes_prefilter(tuple(self.needles()))

    def candidate(self, text: str) -> bool:
        """Whether `text` may spell an old name (cheap; the rewriter's candidate test)."""
        return bool(self.prefilter.search(text) and self.regex.search(text))

    def find(self, text: str) -> list[OldName]:
        """Every old name still spelled in `text` (a tree after the migration), in order.

        Each hit is extended to the whole dotted name or path it starts (`pkg.old.mod.fn`),
        so a parent spelling that still exists (`sglang.srt.layers`) is not reported, nor
        a token under a new name that starts like an old one; in `from parent import
        child` the imported names decide.
        """
        if not self.prefilter.search(text):
            return []
        out, seen = [], set()
        for m in self.regex.finditer(text):
            if m.start() in seen:
                continue
            seen.add(m.start())
            hit = self._replacement(text, m)
            if hit is not None:
                out.append(hit)
        return out

    def find_at(self, path: str, text: str) -> list[OldName]:
        """`find` in the file `path`, less the spellings that are names there, not
        references (`name_spans`: a `.gitmodules` section's submodule name, an entry-point
        group)."""
        hits = self.find(text)
        spans = name_spans(path, text) if hits else []
        return [h for h in hits if not any(a <= h.start < b for a, b in spans)]

    def references(self, path: str, text: str, tree=None) -> list[OldName]:
        """`find_at`, less the code spellings that are not references, read by binding:
        in a Python file of `tree` (a `CodeTree`: its cached parse and binding walk), a
        dotted chain read in code is the old name only where its head may be bound to
        it: by an import of it (or of a name that is its head: `import pkg.core.mod`,
        `from x import pkg`), by nothing the file shows (a builtin, a star import), or
        by no binding that certainly ran (`index.bindings.reaching_bindings`). A head
        rebound by a parameter, an assignment, a for/with/except/walrus target, a class
        body or an import of another thing reads that binding, not the moved module
        (lesson 2). Strings, comments, docstrings and import statements are read as
        text, as `find_at` reads them; without `tree`, or where the file does not
        parse or writes its own `globals()`, every hit is kept."""
        hits = self.find_at(path, text)
        if not hits or tree is None or not path.endswith(".py"):
            return hits
        parsed, facts = tree.ast(path), tree.facts(path)
        if parsed is None or facts is None or facts.writes_globals:
            return hits  # `globals()[...] = ...` binds names the walk does not show
        model = facts.scope_model_from(parsed)
        from migrate.index.bindings import reaching_bindings

        reach = reaching_bindings(model, parsed, text, {h.start for h in hits})
        return [h for h in hits if h.start not in reach or self._may_reach(h.old, reach[h.start])]

    def _may_reach(self, old: str, bindings) -> bool:
        """Whether a chain spelled `old` read through one of `bindings` (None: unknown)
        may be the old name: through an import binding its head to a thing of that name
        (the package itself, or a re-export of it) or to something whose chain is old."""
        if bindings is None:
            return True
        head, _, rest = old.partition(".")
        for b in bindings:
            if b is None:
                continue  # not an import: the chain reads that value, not a module
            if b.value is None or b.value.rpartition(".")[2] == head:
                return True
            if self.now_dotted(f"{b.value}.{rest}" if rest else b.value) is not None:
                return True
        return False

    # -- what it is called now -----------------------------------------------------------
    def now_dotted(self, name: str) -> str | None:
        """The new name of dotted `name` (DELETED + package when deleted), else None."""
        if any(name == n or name.startswith(n + ".") for n in self._new):
            return None  # a new spelling that starts with an old one
        new = self.relocation.dotted(name)
        if new is not None:
            return new
        gone = next((d for d in self.deleted if name == d or name.startswith(d + ".")), None)
        return DELETED + gone if gone else None

    def now_path(self, token: str) -> str | None:
        """The new spelling of a repo- or root-relative path (DELETED + package), else None."""
        hit = self.relocation.spelled_path(token, self.roots)
        if hit is not None:
            return hit[0]
        for d, pkg in self.deleted_paths.items():
            if token == d or token.startswith(d + "/"):
                return DELETED + pkg
        return None

    def _replacement(self, text: str, m: re.Match) -> OldName | None:
        start = m.start()
        if m.group(0) in self.op_ids and start > 0 and text[start - 1] in "\"'":
            return OldName(start, m.end(), m.group(0), self.op_ids[m.group(0)])
        stmt = _FROM_IMPORT.match(text, start)
        if stmt:  # `from X import`: the module X, from its first character
            start = hit_end = stmt.start(1)
        else:
            hit_end = m.end()
            token = path_at(text, m).rstrip("./-")
            new = self.now_path(token) if "/" in token else None
            if new:
                return OldName(start, start + len(token), token, new)
        token = dotted_at(text, start, hit_end)[0]
        new = self.now_dotted(token)
        if new:
            return OldName(start, start + len(token), token, new)
        stmt = stmt or _statement_at(text, start)
        return self._from_names(stmt) if stmt else None

    def _from_names(self, stmt: re.Match) -> OldName | None:
        """`from mod import a, b`: the imported names that moved (symbols or submodules)."""
        rel = self.relocation
        mod, names, moved = stmt.group(1), [], []
        for item in stmt.group(2).strip("()").split(","):
            name = item.split()[0] if item.split() else ""
            if (mod, name) in rel.symbols:
                moved.append(f"import {name} from {rel.symbols[(mod, name)]}")
            elif name and rel.module(f"{mod}.{name}"):
                moved.append(f"import {rel.module(f'{mod}.{name}')}")
            elif name and (self.now_dotted(f"{mod}.{name}") or "").startswith(DELETED):
                moved.append(f"{mod}.{name} is deleted by the plan")
            else:
                continue
            names.append(name)
        if not moved:
            return None
        return OldName(
            stmt.start(), stmt.end(), f"from {mod} import {', '.join(names)}", "; ".join(moved)
        )


def _statement_at(text: str, start: int) -> re.Match | None:
    """The `from X import ...` statement whose module token starts at `start`."""
    line = text.rfind("\n", 0, start) + 1
    hit = _FROM_IMPORT.match(text, line + len(text[line:start]) - len(text[line:start].lstrip()))
    return hit if hit and hit.start(1) == start else None

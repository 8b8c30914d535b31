"""The one materializer: the tree a ChangeSet leaves after each of its steps.

`materialize(changeset, base, upto_step=None)` is the only place that turns a ChangeSet
into content (path -> mode, bytes). Apply's commit trees (`git_steps.trees.step_trees`),
verify's reproduction, `check --plan`'s virtual tree (`materialize(cs, index)` itself), the dry
run's diff and summary (`present.tree.file_changes`), `fix` and the test helpers are all
views of it, so none of them can disagree on what a ChangeSet means. How the result is
stored (git objects, a work tree) is the caller's business.

The rules for one path (the contract `ChangeSet.check` enforces when a ChangeSet is built;
see `changes.py`) are applied step by step in `STEPS` order:

- relocate: every move renames its file at once (content and mode untouched); a move may
  not overwrite a file that stays.
- code/string/prose: a file's text at a step is its *relocated base* text with every edit
  of that step and the earlier ones applied at once (edit offsets never shift); edits need
  the file in the relocated base, and a symlink cannot be edited.
- a whole-file write replaces the file from its step on (creating it if needed, keeping
  its mode and encoding); it supersedes the path's earlier edits, which the writer has
  already folded into its text (a split kept at its source path is written from the
  edited source). Edits in the write's step or later are a contract violation.
- a removal drops the file (named at its pre- or post-move path) or every file under a
  directory, from its step on.

`base` is a mapping path -> (git mode, bytes) (e.g. read from git objects; it may be
restricted to `needed_paths(changeset)`, and the result is then restricted the same way),
a `LazyBase` (modes known, bytes read on demand: apply reads only `content_paths`) or a
`RepoIndex` (the checkout, read lazily). The result is a `Tree`: read lazily, only the
files the ChangeSet touches are ever decoded.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import replace
from functools import cached_property
from typing import NamedTuple

from migrate.changes import (
    EDIT_KINDS,
    STEPS,
    ChangeSet,
    ContractError,
    Edit,
    FileMove,
    apply_edits,
)
from migrate.index.repo import RepoIndex, choose_encoding
from migrate.index.tree import TreeQueries, import_name

Files = dict[str, tuple[int, bytes]]
REGULAR, SYMLINK = 0o100644, 0o120000


class StepError(ValueError):
    """The ChangeSet does not fit the base tree (stale edit, missing file, collision)."""


# -- codecs -----------------------------------------------------------------------------


def encoding_of(path: str, data: bytes, codec: str | None = None) -> str:
    """The codec a file's text is decoded with: PEP 263/BOM for Python, else the plan's
    `encodings` entry (`codec`), else utf-8 (the index's rule, `choose_encoding`)."""
    return choose_encoding(path, data, codec)


def decode(path: str, data: bytes, codec: str | None = None) -> str:
    try:
        return data.decode(encoding_of(path, data, codec))
    except (UnicodeDecodeError, LookupError) as exc:
        raise StepError(f"{path}: cannot decode for editing ({exc})") from None


def encode(path: str, text: str, like: bytes | None, codec: str | None = None) -> bytes:
    """Encode with the codec of the file's original bytes (`like`), else its own cookie."""
    if like is not None:
        enc = encoding_of(path, like, codec)
    else:
        enc = _cookie_encoding(path, text, codec)
    try:
        return text.encode(enc)
    except (UnicodeEncodeError, LookupError) as exc:
        raise StepError(f"{path}: new text does not fit its encoding {enc} ({exc})") from None


def _cookie_encoding(path: str, text: str, codec: str | None = None) -> str:
    head = "\n".join(text.splitlines()[:2]).encode("utf-8", "replace")
    return encoding_of(path, head, codec)


def text_of(path: str, data: bytes, codec: str | None = None) -> str | None:
    """Decoded text, or None for a binary or undecodable file (the index's rule)."""
    if b"\0" in data[:8192]:
        return None
    try:
        return data.decode(encoding_of(path, data, codec))
    except (UnicodeDecodeError, LookupError):
        return None


# -- the base ---------------------------------------------------------------------------


class LazyBase:
    """A base whose modes are known and whose bytes are read only when asked for (git
    objects: a pure move never reads its blob). `read(path)` gives the bytes."""

    def __init__(self, modes: Mapping[str, int], read) -> None:
        self.modes, self.read = modes, read


class _Base:
    """The tree a ChangeSet applies to: a mapping of (mode, bytes), a `LazyBase` or a
    RepoIndex; modules are named under `roots` (default: the base's, or the top)."""

    def __init__(
        self,
        base: Mapping[str, tuple[int, bytes]] | RepoIndex | LazyBase,
        roots=None,
        codecs: Mapping[str, str] | None = None,
    ) -> None:
        self.codecs = codecs or {}  # path -> the plan's codec for it (ChangeSet.encodings)
        self._index = base if isinstance(base, RepoIndex) else None
        self._lazy = base if isinstance(base, LazyBase) else None
        self._files = None if self._index is not None or self._lazy is not None else base
        if self._index is not None:
            self.paths = set(self._index.files)
        else:
            self.paths = set(self._lazy.modes if self._lazy is not None else base)
        given = roots if roots is not None else getattr(base, "roots", (".",))
        self.roots: tuple[str, ...] = tuple(r.rstrip("/") or "." for r in given)

    def mode(self, path: str) -> int:
        if self._index is not None:
            return self._index.files[path].mode
        if self._lazy is not None:
            return self._lazy.modes[path]
        return self._files[path][0]

    def data(self, path: str) -> bytes:
        if self._index is not None:
            return self._index.read_bytes(path)
        if self._lazy is not None:
            return self._lazy.read(path)
        return self._files[path][1]

    def text(self, path: str) -> str | None:
        if self._index is not None:
            return self._index.text(path)
        return text_of(path, self.data(path), self.codecs.get(path))


class _Texts(_Base):
    """An unchanged tree whose files are read lazily as text (a revision, a fixture)."""

    def __init__(self, paths: Iterable[str], read: Callable[[str], str | None], roots) -> None:
        super().__init__({}, roots)
        self.paths = set(paths)
        self._read = read

    def mode(self, path: str) -> int:
        return REGULAR

    def data(self, path: str) -> bytes:
        text = self._read(path)
        return text.encode("utf-8") if text is not None else b""

    def text(self, path: str) -> str | None:
        return self._read(path)


# -- the result -------------------------------------------------------------------------


class _Entry(NamedTuple):
    """One file of a materialized tree (a tuple: a tree of 30,000 files makes 30,000)."""

    origin: str | None  # the base file this one continues (renamed, edited, rewritten)
    mode: int | None = None  # None: the origin's
    data: bytes | None = None  # None: the origin's bytes, untouched


def _unchanged_entries(paths) -> dict[str, _Entry]:
    """Each path as its own untouched file: `_Entry(p)` built as the plain tuple it is
    (the named tuple's `__new__`, with its defaults, is a Python call per file)."""
    make, blank = tuple.__new__, (None, None)
    return {p: make(_Entry, (p, *blank)) for p in paths}


class Tree(TreeQueries):
    """A materialized tree: path -> (mode, bytes), backed by the base for untouched files.

    Implements the one tree protocol (`index.tree.CodeTree`: paths, text, modules named
    under the base's import roots, cached ASTs and code facts) as the index does, so the
    rules read a plan's result as they read a checkout; plus `mode`, `read_bytes` and the
    lineage the diff needs (`origin`, `changes`).
    """

    def __init__(self, base: _Base, entries: dict[str, _Entry]) -> None:
        self._base = base
        self._entries = entries
        self._text: dict[str, str | None] = {}
        self.roots = base.roots

    @cached_property
    def paths(self) -> list[str]:
        return sorted(self._entries)

    def exists(self, path: str) -> bool:
        return path in self._entries

    @cached_property
    def _named(self) -> dict[str, str]:
        """path -> dotted module name, by the one naming rule (`index.tree.import_name`)."""
        named = {}
        for path in self.paths:
            hit = import_name(path, self.roots) if path.endswith(".py") else None
            if hit is not None:
                named[path] = hit[0]
        return named

    @cached_property
    def modules(self) -> dict[str, str]:
        modules: dict[str, str] = {}
        for path, name in self._named.items():
            modules.setdefault(name, path)
        return modules

    def module_of(self, path: str) -> str | None:
        return self._named.get(path)

    def mode(self, path: str) -> int:
        e = self._entries[path]
        return e.mode if e.mode is not None else self._base.mode(e.origin)

    def read_bytes(self, path: str) -> bytes:
        e = self._entries[path]
        return e.data if e.data is not None else self._base.data(e.origin)

    def text(self, path: str) -> str | None:
        """Decoded text, or None for an absent, binary or undecodable file."""
        if path not in self._text:
            e = self._entries.get(path)
            if e is None:
                self._text[path] = None
            elif e.data is None:
                self._text[path] = self._base.text(e.origin)
            else:
                self._text[path] = text_of(path, e.data, self._base.codecs.get(path))
        return self._text[path]

    def origin(self, path: str) -> str | None:
        """The base path this file continues, or None for a file the ChangeSet created."""
        return self._entries[path].origin

    def produced(self, path: str) -> bytes | None:
        """The bytes the ChangeSet produced for `path`, None when they are its origin's
        untouched (a pure move or a file left alone: the caller may reuse the blob)."""
        return self._entries[path].data

    def lineage(self) -> Iterator[tuple[str, int, str | None, bytes | None]]:
        """(path, `mode`, `origin`, `produced`) of every file, sorted: one pass over a
        tree of 30,000 moved files instead of three lookups per file."""
        base_mode = self._base.mode
        for path in self.paths:
            e = self._entries[path]
            yield path, e.mode if e.mode is not None else base_mode(e.origin), e.origin, e.data

    def files(self) -> Files:
        """Every file as (mode, bytes): reads the whole tree, meant for a restricted base."""
        return {p: (self.mode(p), self.read_bytes(p)) for p in sorted(self._entries)}

    def changes(self) -> list[tuple[str | None, str | None]]:
        """(old, new) for every file that differs from the base, sorted by where it ends.

        `old` is None for a created file, `new` None for a removed one; a file whose
        content was produced (edited or written) counts even when the bytes came out equal.
        """
        out: list[tuple[str | None, str | None]] = []
        continued = set()
        for path, e in self._entries.items():
            if e.origin is not None:
                continued.add(e.origin)
            if e.data is not None or e.mode is not None or e.origin != path:
                out.append((e.origin, path))
        out += [(p, None) for p in self._base.paths - continued]
        return sorted(out, key=lambda c: (c[1] or c[0], c[0] or ""))


# -- stepping ---------------------------------------------------------------------------


def move_map(cs: ChangeSet) -> dict[str, str]:
    return {m.old: m.new for m in cs.moves}


def needed_paths(cs: ChangeSet) -> set[str]:
    """Base paths whose content the materializer reads or whose presence it checks."""
    moves = move_map(cs)
    back = {new: old for old, new in moves.items()}
    paths = set(moves) | set(moves.values())
    for p in {e.path for e in cs.edits} | set(cs.writes) | set(cs.removals):
        paths.add(p)
        paths.add(back.get(p, p))
    return paths


def content_paths(cs: ChangeSet) -> set[str]:
    """Base paths whose bytes the materializer reads: the origins of edited or written
    files (a removal or a pure move needs only the path)."""
    back = {m.new: m.old for m in cs.moves}
    return {back.get(p, p) for p in {e.path for e in cs.edits} | set(cs.writes)}


def carried_dirs(cs: ChangeSet, paths: Iterable[str]) -> dict[str, str]:
    """old directory -> new directory for each directory the ChangeSet's moves carry whole,
    so that it may be materialized as ONE entry (its tree) instead of a file per path.

    A directory `old` (of the base `paths`: files, symlinks, gitlinks) is carried to `new`
    when every base path under `old/` moves to the same relative path under `new/`, the
    base has nothing at or under `new`, no other move (nor submodule) ends at or under
    `new`, no edit, write or removal names a path at or under either, and neither holds
    the other. Then the tree after every step holds at `new` exactly the tree `old` was:
    the same files, modes and bytes, nothing else. Shallowest first; none inside another.
    """
    moves = move_map(cs)
    direct = set()
    for old, new in moves.items():
        o, _, a = old.rpartition("/")
        n, _, b = new.rpartition("/")
        if a == b and o and n:
            direct.add((o, n))
    if not direct:
        return {}
    cands: set[tuple[str, str]] = set()
    for o, n in direct:  # climb while the names on both sides agree
        while (o, n) not in cands:
            cands.add((o, n))
            o, _, a = o.rpartition("/")
            n, _, b = n.rpartition("/")
            if a != b or not o or not n:
                break
    base = sorted(paths)
    targets = sorted(moves.values())
    others = [*cs.submodules, *cs.submodules.values(), *cs.writes, *cs.removals]
    others += {e.path for e in cs.edits}
    chosen: dict[str, str] = {}
    for o, n in sorted(cands, key=lambda c: (c[0].count("/"), c)):
        op, np_ = o + "/", n + "/"
        if o.startswith(np_) or n.startswith(op) or o == n:
            continue
        if any(o.startswith(c + "/") or n.startswith(c + "/") for c in (*chosen, *chosen.values())):
            continue
        under = _under(base, op)
        if not under:
            continue
        if _under(base, np_) or _has(base, n) or _has(targets, n):
            continue
        if len(_under(targets, np_)) != len(under):
            continue
        if any(p in (o, n) or p.startswith((op, np_)) for p in others):
            continue
        if all(moves.get(p) == np_ + p[len(op) :] for p in under):
            chosen[o] = n
    return chosen


def _under(ordered: list[str], prefix: str) -> list[str]:
    """The strings of sorted `ordered` that start with `prefix` (one contiguous run)."""
    lo = bisect_left(ordered, prefix)
    return ordered[lo : bisect_left(ordered, prefix[:-1] + chr(ord(prefix[-1]) + 1), lo)]


def _has(ordered: list[str], item: str) -> bool:
    i = bisect_left(ordered, item)
    return i < len(ordered) and ordered[i] == item


def carry(cs: ChangeSet, dirs: Mapping[str, str]) -> ChangeSet:
    """`cs` with the moves of each of `carried_dirs` replaced by one move of the
    directory itself (a base whose entry `old` is the directory's tree materializes it)."""
    if not dirs:
        return cs
    inside = tuple(o + "/" for o in dirs)
    kept = [m for m in cs.moves if not m.old.startswith(inside)]
    return replace(cs, moves=kept + [FileMove(o, n) for o, n in sorted(dirs.items())])


def _relocate(entries: dict[str, _Entry], moves: dict[str, str]) -> dict[str, _Entry]:
    """`entries` with every move done at once; the error of the first move (by source)
    whose source is missing or whose target is a file that stays. Targets are unique
    (`ChangeSet.check`), so a target clashes only with a staying file: set operations
    find both kinds of fault without a Python step per move."""
    out = {p: e for p, e in entries.items() if p not in moves}
    missing = moves.keys() - entries.keys()
    clash = out.keys() & moves.values()
    if missing or clash:
        bad = missing | {old for old, new in moves.items() if new in clash}
        old = min(bad)
        if old in missing:
            raise StepError(f"move source {old} is not in the tree")
        raise StepError(f"move {old} -> {moves[old]} would overwrite {moves[old]}")
    out.update(zip(moves.values(), map(entries.__getitem__, moves), strict=True))
    return out


def _remove(entries: dict[str, _Entry], path: str, moves: dict[str, str]) -> None:
    target = path if path in entries else moves.get(path, path)
    if target in entries:
        del entries[target]
        return
    prefix = target.rstrip("/") + "/"
    under = [p for p in entries if p.startswith(prefix)]
    if not under:
        raise StepError(f"cannot remove {path}: not in the tree")
    for p in under:
        del entries[p]


def _edited(base: _Base, edits: list[Edit], path: str, step: str, back: dict[str, str]) -> bytes:
    """`path`'s bytes with its `edits` up to `step` applied to its relocated base text."""
    origin = back.get(path, path)
    if origin not in base.paths:
        raise StepError(f"{path}: edited but not in the tree")
    if base.mode(origin) == SYMLINK:
        raise StepError(f"{path}: edits to a symlink")
    data = base.data(origin)
    kinds = tuple(k for k in EDIT_KINDS if STEPS.index(k) <= STEPS.index(step))
    codec = base.codecs.get(path)
    text = decode(path, data, codec)
    try:
        text = apply_edits(text, [e for e in edits if e.kind in kinds])
    except ValueError as exc:
        raise StepError(str(exc)) from None
    return encode(path, text, data, codec)


def iter_steps(
    cs: ChangeSet, base: Mapping[str, tuple[int, bytes]] | RepoIndex | LazyBase, roots=None
) -> Iterator[tuple[str, Tree]]:
    """(step, tree after it) for every step the ChangeSet has, in `STEPS` order; modules
    are named under `roots` (default: the index's, or the repository root)."""
    try:
        cs.check()
    except ContractError as exc:
        raise StepError(str(exc)) from None
    src = _Base(base, roots, cs.encodings)
    moves = move_map(cs)
    back = {new: old for old, new in moves.items()}
    entries: dict[str, _Entry] = _unchanged_entries(src.paths)
    by_step_edits: dict[str, set[str]] = {}
    by_path: dict[str, list[Edit]] = {}
    for e in cs.edits:
        by_step_edits.setdefault(e.kind, set()).add(e.path)
        by_path.setdefault(e.path, []).append(e)
    for step in cs.steps_present():
        entries = _relocate(entries, moves) if step == "relocate" else dict(entries)
        for path in sorted(by_step_edits.get(step, ())):
            data = _edited(src, by_path[path], path, step, back)
            origin = back.get(path, path)
            mode = Tree(src, entries).mode(path) if path in entries else src.mode(origin)
            entries[path] = _Entry(origin, mode, data)
        for path, (wstep, text) in sorted(cs.writes.items()):
            if wstep != step:
                continue
            cur = entries.get(path)
            if cur is None:
                entries[path] = _Entry(
                    None, REGULAR, encode(path, text, None, src.codecs.get(path))
                )
                continue
            t = Tree(src, entries)
            mode = t.mode(path)
            like = t.read_bytes(path) if mode != SYMLINK else None
            codec = src.codecs.get(path)
            entries[path] = _Entry(cur.origin, mode, encode(path, text, like, codec))
        for path, rstep in sorted(cs.removals.items()):
            if rstep == step:
                _remove(entries, path, moves)
        yield step, Tree(src, entries)


def materialize(
    changeset: ChangeSet,
    base: Mapping[str, tuple[int, bytes]] | RepoIndex,
    upto_step: str | None = None,
    roots=None,
) -> Tree:
    """The tree after `upto_step` (every step when None): steps the ChangeSet lacks are
    skipped, so `upto_step="code"` is the tree after relocation and code edits."""
    if upto_step is not None and upto_step not in STEPS:
        raise ValueError(f"unknown step {upto_step!r}; steps are {', '.join(STEPS)}")
    last = STEPS.index(upto_step) if upto_step is not None else len(STEPS)
    tree = None
    for step, t in iter_steps(changeset, base, roots):
        if STEPS.index(step) > last:
            break
        tree = t
    return tree if tree is not None else _unchanged(_Base(base, roots, changeset.encodings))


def _unchanged(src: _Base) -> Tree:
    return Tree(src, _unchanged_entries(src.paths))


def text_tree(paths: Iterable[str], read: Callable[[str], str | None], roots=(".",)) -> Tree:
    """An unchanged tree over lazily read texts (`read(path)`, None for binary files): a
    revision read from git, a test fixture. The same `Tree` a ChangeSet leaves."""
    return _unchanged(_Texts(paths, read, roots))

"""Rewrite references in non-Python text files: docs, CI workflows, TOML/cfg/ini, txt.

Two spellings are rewritten, both token-bounded so that `can_use_hicache_jit_kernel` or
`python/sglang/jit_kernel_v2` never match:

* dotted names: `sglang.jit_kernel.norm`, longer chains (`...norm.rmsnorm`) and
  `module:attr` targets, relocated with `Relocation.target` (symbol moves win);
* path spellings: repo-relative (`python/sglang/jit_kernel/csrc/`,
  `test/registered/kernels/test_rope.py`) and import-root-relative
  (`sglang/jit_kernel/norm.py`), relocated with `Relocation.path`.

Kind: documentation (Markdown, rst, plain text, README-like files) is `prose`, reviewed
and committed in its own step; everything else (CI YAML, TOML, cfg/ini, shell, CMake,
requirements, C/C++ sources) is configuration that runs, so its edits are `code`.
Files matching a `keep_prose` glob are left untouched: the plan keeps them on purpose.
Spans owned by `packaging` (explicit package lists, package-data keys) are skipped here
so the two producers never overlap.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from pathlib import PurePosixPath

from migrate.changes import Edit
from migrate.entry_groups import group_note, group_spans
from migrate.errors import Diagnostic, Pos
from migrate.index.repo import RepoIndex
from migrate.oldnames import alternation, file_heads, name_spans
from migrate.plan.model import Plan
from migrate.relocate import Relocation
from migrate.rewrite.globs import repo_glob_match
from migrate.rewrite.shadowed import shadowed_submodules, through_shadow
from migrate.rewrite.spans import line_col, line_starts, match_edit, note_at
from migrate.rewrite.text_imports import from_import_changes, new_dotted

PROSE_SUFFIXES = {".md", ".markdown", ".mdx", ".rst", ".txt", ".adoc", ".rdoc"}
PROSE_STEMS = {"README", "CHANGELOG", "CHANGES", "NEWS", "HISTORY", "AUTHORS", "CONTRIBUTING"}
# `.txt` files that are configuration, not prose (entry_points.txt: read by importlib.metadata).
CONFIG_TXT = re.compile(r"^(CMakeLists|requirements.*|constraints.*|entry_points)\.txt$")
# `.pyi` stubs are not modules of the index: their text is rewritten here, their imports
# by the Python engine's import rule (stubs.py).
PYTHON_SUFFIXES = {".py"}

_IDENT = r"[A-Za-z_]\w*"
_DOTTED_TAIL = rf"(?:\.{_IDENT})*(?::{_IDENT}(?:\.{_IDENT})*)?"
_PATH_TAIL = r"(?:/[\w\-]+(?:\.[\w\-]+)*)*"
_PATH_END = r"(?![\w\-]|\.\w)"


def edit_kind(path: str) -> str:
    """`prose` for documentation files, `code` for configuration that runs."""
    p = PurePosixPath(path)
    if p.suffix.lower() == ".txt" and CONFIG_TXT.match(p.name):
        return "code"
    if p.suffix.lower() in PROSE_SUFFIXES or p.stem.upper() in PROSE_STEMS and not p.suffix:
        return "prose"
    return "code"


def is_kept(plan: Plan, path: str) -> bool:
    """True when a `keep_prose` glob of the plan names `path`."""
    return any(repo_glob_match(g, path) for g in plan.keep_prose)


def handles(path: str) -> bool:
    """Whether this module rewrites `path` (everything but Python sources)."""
    return PurePosixPath(path).suffix not in PYTHON_SUFFIXES


@dataclass(frozen=True)
class _Names:
    """Every old spelling of the plan, compiled once per (relocation, plan)."""

    dotted: re.Pattern | None
    paths: re.Pattern | None
    roots: tuple[str, ...]
    deleted_modules: tuple[str, ...]
    deleted_dirs: tuple[str, ...]
    splits: dict[str, tuple[str, ...]]
    homes: dict[str, str]  # deleted package or directory -> where its contents went
    existing: frozenset[str] = frozenset()  # files (and their directories) in deleted dirs
    rootless: re.Pattern | None = None  # old spellings without their root package
    rootless_full: dict[str, str] = dataclass_field(default_factory=dict)  # -> full spelling
    shadowed: frozenset[str] = frozenset()  # moved submodules their package rebinds over


def _compile(index: RepoIndex, relocation: Relocation, plan: Plan) -> _Names:
    deleted_modules = tuple(plan.delete)
    deleted_dirs = tuple(d for d in (index.package_dir(n) for n in plan.delete) if d)
    dotted = set(relocation.modules) | set(relocation.moved_modules) | set(deleted_modules)
    dotted |= {mod for mod, _ in relocation.symbols}
    roots = tuple(r for r in index.roots if r not in (".", ""))
    splits = {sp.file: tuple(o.path for o in sp.into) for sp in plan.splits}
    # a file its moved directory covers is matched through the directory (and its tail)
    moved = {f for f, head in file_heads(relocation).items() if head is None}
    full = moved | set(relocation.path_prefixes) | set(deleted_dirs)
    full |= set(splits)
    paths = set(full)
    for p in full:
        for r in roots:
            if p.startswith(r + "/"):
                paths.add(p[len(r) + 1 :])
    dotted_re = (
        re.compile(rf"(?<![\w.])(?:{alternation(dotted)}){_DOTTED_TAIL}(?!\w)") if dotted else None
    )
    paths_re = (
        re.compile(rf"(?<![\w.\-])(?:{alternation(paths)}){_PATH_END}{_PATH_TAIL}")
        if paths
        else None
    )
    homes = {}
    for name, d in zip(plan.delete, (index.package_dir(n) for n in plan.delete), strict=True):
        homes[name] = _common(
            v for k, v in relocation.moved_modules.items() if k.startswith(name + ".")
        )
        if d:
            homes[d] = _common(
                (v for k, v in relocation.files.items() if k.startswith(d + "/")), "/"
            )
    existing = set()
    for f in index.files:
        if any(f.startswith(d + "/") for d in deleted_dirs):
            parts = f.split("/")
            existing.update("/".join(parts[:i]) for i in range(1, len(parts) + 1))
    rootless = _rootless(index, relocation, roots)
    rootless_re = (
        re.compile(rf"(?<![\w./\-])(?:{alternation(rootless)})(?![\w\-])") if rootless else None
    )
    return _Names(
        dotted_re,
        paths_re,
        roots,
        deleted_modules,
        deleted_dirs,
        splits,
        homes,
        frozenset(existing),
        rootless_re,
        rootless,
        frozenset(shadowed_submodules(index, relocation, deleted_modules)),
    )


def _rootless(index: RepoIndex, relocation: Relocation, roots) -> dict[str, str]:
    """`jit_kernel.norm` / `jit_kernel/norm.py` for `sglang.jit_kernel.norm` under root
    `python`: spellings that omit the root package. Only three parts or more (two after
    the root package), and never one that names something real by itself."""
    out: dict[str, str] = {}
    for old in relocation.moved_modules:
        parts = old.split(".")
        if len(parts) >= 3 and ".".join(parts[1:]) not in index.modules:
            out[".".join(parts[1:])] = old
    for old in relocation.files:
        for r in roots:
            if old.startswith(r + "/"):
                segs = old[len(r) + 1 :].split("/")
                tail = "/".join(segs[1:])
                if len(segs) >= 3 and tail not in index.files:
                    out[tail] = old
    return out


def rootless_regex(index: RepoIndex, relocation: Relocation, plan: Plan) -> re.Pattern | None:
    """For candidate files: the regex of old spellings without their root package."""
    return _names(index, relocation, plan).rootless


def rootless_spellings(index: RepoIndex, relocation: Relocation, plan: Plan) -> dict[str, str]:
    """Old spellings without their root package -> the full old name."""
    return _names(index, relocation, plan).rootless_full


def rootless_heads(spellings) -> tuple[str, ...]:
    """The first components of the spellings (`jit_kernel` for `jit_kernel/norm.py`): a
    text that holds none of them cannot match, which a substring test tells cheaply."""
    return tuple(sorted({re.split(r"[./]", s, maxsplit=1)[0] for s in spellings}))


def rootless_matches(regex: re.Pattern, heads: tuple[str, ...], text: str) -> list[re.Match]:
    """`regex` matches in `text`, tried only where a head occurs (the alternation of
    every spelling is slow to scan for; a substring search is not)."""
    starts = set()
    for h in heads:
        i = text.find(h)
        while i != -1:
            starts.add(i)
            i = text.find(h, i + 1)
    out, end = [], -1
    for i in sorted(starts):
        if i < end:
            continue
        m = regex.match(text, i)
        if m is not None:
            out.append(m)
            end = m.end()
    return out


def _rootless_notes(names: _Names, relocation: Relocation, text: str, pos_file: str):
    notes = []
    heads = rootless_heads(names.rootless_full)
    for m in rootless_matches(names.rootless, heads, text):
        full = names.rootless_full[m.group(0)]
        new = relocation.files.get(full) or relocation.dotted(full) or "?"
        line, col = line_col(text, m.start())
        notes.append(
            Diagnostic(
                Pos(pos_file, line, col),
                f"`{m.group(0)}` looks like {full} spelled without its root package; "
                f"it moves to {new}: review by hand",
                "warning",
            )
        )
    return notes


def _common(names, sep: str = ".") -> str:
    """Longest common `sep`-bounded prefix of `names` ("" when none)."""
    parts = None
    for n in names:
        segs = n.split(sep)[:-1] if sep == "/" else n.split(sep)
        if parts is None:
            parts = segs
        else:
            k = 0
            while k < min(len(parts), len(segs)) and parts[k] == segs[k]:
                k += 1
            parts = parts[:k]
    return sep.join(parts or [])


def _root_relative(names: _Names, path: str) -> list[str]:
    return [path[len(r) + 1 :] for r in names.roots if path.startswith(r + "/")]


def _successor_edit(names: _Names, text: str, m, gone: str, new_path: str, kind: str):
    """A mention of a deleted package (or its directory) as a whole: where its contents went.

    Only whole mentions are rewritten (a CI path filter, a sentence about the package),
    to the deepest package holding everything that moved out of it, and always for
    review: the sentence may describe the old layout on purpose.
    """
    old = m.group(0)
    home = names.homes[gone]
    if "/" in gone and "/" not in home:
        home = home.replace(".", "/")
    if old.rstrip("/") != gone:  # spelled relative to an import root
        home = next((h for h in _root_relative(names, home)), home)
    new = home + old[len(old.rstrip("/")) :]
    why = f"{old.rstrip('/')} is deleted by the plan; everything it held now lives under {home}"
    return match_edit(new_path, text, m, new, kind, why, "review")


def _successor_subpath_edit(names: _Names, text: str, m, gone: str, new_path: str, kind: str):
    """A path below a deleted package's directory that names nothing that moved (a
    `configs/` directory that does not exist): like the package itself, it is sent to
    where the package's contents went, for review."""
    old = m.group(0)
    home = names.homes[gone]
    if "/" not in home:
        home = home.replace(".", "/")
    root_rel = next((r for r in _root_relative(names, gone) if old.startswith(r + "/")), None)
    if root_rel is not None:
        home = next((h for h in _root_relative(names, home)), home)
        tail = old[len(root_rel) :]
    else:
        tail = old[len(gone) :]
    why = f"{old} lies in {gone}, which the plan deletes; its contents now live under {home}"
    return match_edit(new_path, text, m, home + tail, kind, why, "review")


def _now_under(names: _Names, gone: str) -> str:
    home = names.homes.get(gone, "")
    return f" (its contents now live under {home})" if home else ""


_CACHE: dict[tuple[int, int, int], tuple[object, object, object, _Names]] = {}


def _names(index: RepoIndex, relocation: Relocation, plan: Plan) -> _Names:
    # Keyed by identity; the entry holds the objects so their ids cannot be reused.
    key = (id(index), id(relocation), id(plan))
    hit = _CACHE.get(key)
    if hit is None:
        if len(_CACHE) > 8:
            _CACHE.clear()
        hit = _CACHE[key] = (index, relocation, plan, _compile(index, relocation, plan))
    return hit[3]


def _under(name: str, prefixes, sep: str) -> str | None:
    return next((p for p in prefixes if name == p or name.startswith(p + sep)), None)


def _gone_note(names, pos: Pos, why: str, gone: str) -> Diagnostic:
    """The warning for an old spelling under a deleted package or directory."""
    return Diagnostic(pos, why + _now_under(names, gone), "warning")


def _dotted_changes(names, relocation, text, new_path, kind, pos_file):
    edits, notes = [], []
    for m in names.dotted.finditer(text):
        old = m.group(0)
        if "." not in old and ":" not in old:
            continue  # a bare top-level name is an ordinary word in text
        if ":" not in old and through_shadow(old.rpartition(".")[0], names.shadowed):
            continue  # past the package's rebinding: its binding, which stays
        new = new_dotted(relocation, old)
        if new is None and old in names.deleted_modules and names.homes.get(old):
            edits.append(_successor_edit(names, text, m, old, new_path, kind))
            continue
        if new is None:
            gone = _under(old.split(":")[0], names.deleted_modules, ".")
            if gone:
                line, col = line_col(text, m.start())
                why = f"{old} names deleted package {gone} and did not move"
                notes.append(_gone_note(names, Pos(pos_file, line, col), why, gone))
            continue
        if new == old:
            continue
        after_slash = m.start() > 0 and text[m.start() - 1] == "/"
        why = f"dotted name {old} moved" + (
            " (inside a path: check the file name)" if after_slash else ""
        )
        edits.append(
            match_edit(new_path, text, m, new, kind, why, "review" if after_slash else "safe")
        )
    return edits, notes


def _relocate_path(names, relocation, old: str) -> tuple[str | None, bool]:
    """(new spelling, exact) of a repo- or root-relative path spelling."""
    return relocation.spelled_path(old, tuple(names.roots)) or (None, True)


def _path_changes(names, relocation, text, new_path, kind, pos_file):
    edits, notes = [], []
    for m in names.paths.finditer(text):
        old = m.group(0)
        if "/" not in old and "." not in old:
            continue  # a top-level directory name alone is an ordinary word in text
        line, col = line_col(text, m.start())
        split = names.splits.get(old) or next(
            (v for k, v in names.splits.items() for r in names.roots if k == f"{r}/{old}"), None
        )
        if split:
            notes.append(
                Diagnostic(
                    Pos(pos_file, line, col),
                    f"{old} is split into {', '.join(split)}: update by hand",
                    "warning",
                )
            )
            continue
        new, exact = _relocate_path(names, relocation, old)
        gone_dir = next(
            (d for d in names.deleted_dirs if old.rstrip("/") in {d, *_root_relative(names, d)}),
            None,
        )
        if new is None and gone_dir and names.homes.get(gone_dir):
            edits.append(_successor_edit(names, text, m, gone_dir, new_path, kind))
            continue
        if new is None:
            full = [old] + [f"{r}/{old}" for r in names.roots]
            gone = next((d for f in full if (d := _under(f, names.deleted_dirs, "/"))), None)
            real = any(f.rstrip("/") in names.existing for f in full)
            if gone and names.homes.get(gone) and not real:
                edits.append(_successor_subpath_edit(names, text, m, gone, new_path, kind))
                continue
            if gone:
                why = f"{old} lies in deleted directory {gone} and did not move"
                notes.append(_gone_note(names, Pos(pos_file, line, col), why, gone))
            continue
        if new == old:
            continue
        reason = f"path {old} moved" + (
            "" if exact else " (left its import root: spelled repo-relative)"
        )
        edits.append(
            match_edit(new_path, text, m, new, kind, reason, "safe" if exact else "review")
        )
    return edits, notes


def _outside(regions: list[tuple[int, int]], start: int, end: int) -> bool:
    return not any(start < r_end and r_start < end for r_start, r_end in regions)


def text_file_changes(
    index: RepoIndex, relocation: Relocation, plan: Plan, path: str
) -> tuple[list[Edit], list[Diagnostic]]:
    """Edits and warnings for one non-Python file (`path` is its old, indexed path)."""
    from migrate.rewrite.op_ids import prose_op_ids
    from migrate.rewrite.packaging import owned_regions

    if not handles(path) or is_kept(plan, path):
        return [], []
    text = index.text(path)
    if not text:
        return [], []
    names = _names(index, relocation, plan)
    new_path = relocation.files.get(path, path)
    kind = edit_kind(path)
    stub = None
    if path.endswith(".pyi"):
        from migrate.rewrite.stubs import stub_import_changes  # libcst: only for a stub

        stub = stub_import_changes(relocation, index.roots, path, text, new_path)
    if stub is None:
        stub = from_import_changes(relocation, text, new_path, kind, path)
    edits, notes, claimed = stub
    for pattern, produce in ((names.dotted, _dotted_changes), (names.paths, _path_changes)):
        if pattern is not None:
            e, n = produce(names, relocation, text, new_path, kind, path)
            edits += [x for x in e if _outside(claimed, x.start, x.end)]
            notes += n
    if names.rootless is not None:
        spans = [(e.start, e.end) for e in edits]
        notes += [
            n
            for n in _rootless_notes(names, relocation, text, path)
            if _outside(spans, *_note_span(line_starts(text), n))
        ]
    op_ids = {o.src: o.dst for o in plan.op_ids}
    edits += [
        e
        for e in prose_op_ids(new_path, text, 0, len(text), op_ids, kind)
        if _outside(claimed, e.start, e.end)
    ]
    regions = owned_regions(path, text) + name_spans(path, text)
    groups = group_spans(path, text)
    kept_groups = [  # a group kept although it spells a moved name: say so
        note_at(new_path, text, e.start, group_note(e.old, e.new), "warning")
        for e in edits
        if not _outside(groups, e.start, e.end) and _outside(claimed, e.start, e.end)
    ]
    kept, last = [], -1
    for e in sorted(edits, key=lambda e: (e.start, -e.end)):
        if e.start >= last and _outside(regions, e.start, e.end):
            kept.append(e)
            last = e.end
    # Packaging speaks for its own spans (it rewrites or warns there itself).
    starts = line_starts(text)
    notes = [n for n in notes if _outside(regions, *_note_span(starts, n))] + kept_groups
    return kept, notes


def _note_span(starts: list[int], note: Diagnostic) -> tuple[int, int]:
    offset = starts[note.pos.line - 1] + note.pos.col - 1 if note.pos.line else 0
    return offset, offset + 1


def text_file_edits(index: RepoIndex, relocation: Relocation, plan: Plan, path: str) -> list[Edit]:
    """Edits for one non-Python file; see `text_file_changes` for the warnings too."""
    return text_file_changes(index, relocation, plan, path)[0]

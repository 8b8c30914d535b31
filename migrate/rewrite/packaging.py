"""Keep explicit packaging lists true to the moved tree, so the wheel still ships every module.

setuptools installs only the packages it is told about. Where a project lists them by
hand (`packages = [...]` under `[tool.setuptools]`, `packages =` in setup.cfg `[options]`,
`packages=[...]` in setup.py) a move must add the new packages and drop the emptied
ones, and package-data keys naming a moved package must follow it. A package-data glob
that matched a data file before the move but not at its new place (a `*` that needed
`**`) silently drops the file from the wheel: that is reported as a warning, not fixed,
because the right pattern is a judgement call. `find:`/`packages.find` discovery needs
no edit.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from migrate.changes import Edit
from migrate.errors import Diagnostic, Pos
from migrate.index.repo import RepoIndex
from migrate.plan.model import Plan
from migrate.relocate import Relocation
from migrate.rewrite import strlist
from migrate.rewrite.globs import glob_match
from migrate.rewrite.spans import ast_offset, line_col, line_starts, make_edit

PACKAGING_FILES = ("pyproject.toml", "setup.cfg", "setup.py")
DATA_TABLES = ("tool.setuptools.package-data", "tool.setuptools.exclude-package-data")
DATA_SECTIONS = ("options.package_data", "options.exclude_package_data")
_TOML_HEADER = re.compile(r"^[ \t]*\[([^\[\]]+)\][ \t]*(?:#.*)?$", re.M)
_TOML_PACKAGES = re.compile(r"^[ \t]*packages[ \t]*=[ \t]*(?=\[)", re.M)
_TOML_KEY = re.compile(
    r"^[ \t]*(?:\"([^\"]*)\"|'([^']*)'|([A-Za-z0-9_*\-]+))[ \t]*=[ \t]*(?=\[)", re.M
)
_CFG_HEADER = re.compile(r"^\[([^\]]+)\][ \t]*$")
_CFG_KEY = re.compile(r"^([^\s=:#;][^=:]*?)[ \t]*[=:][ \t]*(.*?)[ \t]*$")


@dataclass(frozen=True)
class PackageList:
    """An explicit list of package names; `start:end` is the span its rendering replaces."""

    start: int
    end: int
    values: tuple[str, ...]
    render: object  # callable(list[str]) -> str


@dataclass(frozen=True)
class DataKey:
    """A package-data key (the package name, unquoted span) and its globs."""

    start: int
    end: int
    name: str
    globs: tuple[str, ...]
    exclude: bool


@dataclass(frozen=True)
class Facts:
    lists: tuple[PackageList, ...]
    data: tuple[DataKey, ...]


def _section_spans(text: str, header: re.Pattern) -> list[tuple[str, int, int]]:
    heads = list(header.finditer(text))
    return [
        (h.group(1).strip(), h.end(), heads[k + 1].start() if k + 1 < len(heads) else len(text))
        for k, h in enumerate(heads)
    ]


def _literal_list(text: str, lit: strlist.ListLiteral) -> PackageList:
    return PackageList(
        lit.start,
        lit.end,
        tuple(lit.values()),
        lambda values, t=text, lit=lit: strlist.render(t, lit, values),
    )


def toml_facts(text: str) -> Facts:
    lists, data = [], []
    for name, start, end in _section_spans(text, _TOML_HEADER):
        body = text[:end]
        if name == "tool.setuptools":
            for m in _TOML_PACKAGES.finditer(body, start):
                lit = strlist.parse_list(text, m.end())
                if lit and lit.only_strings:
                    lists.append(_literal_list(text, lit))
        elif name in DATA_TABLES:
            for m in _TOML_KEY.finditer(body, start):
                g = 1 if m.group(1) is not None else 2 if m.group(2) is not None else 3
                lit = strlist.parse_list(text, m.end())
                if lit:
                    data.append(
                        DataKey(
                            m.start(g),
                            m.end(g),
                            m.group(g),
                            tuple(lit.values()),
                            name.endswith("exclude-package-data"),
                        )
                    )
    return Facts(tuple(lists), tuple(data))


def _cfg_entries(text: str, start: int, end: int):
    """(key, key span, value span, value text) of each `key = value` of a setup.cfg section."""
    entries, pos = [], start
    lines = text[start:end].splitlines(keepends=True)
    for line in lines:
        m = _CFG_KEY.match(line.rstrip("\r\n"))
        if m and not line[0].isspace():
            entries.append(
                [m.group(1), pos + m.start(1), pos + m.end(1), pos + m.start(2), pos + m.end(2)]
            )
        elif entries and line.strip() and line[0].isspace():
            entries[-1][4] = pos + len(line.rstrip("\r\n"))
        elif entries and not line.strip():
            pass
        pos += len(line)
    return [(k, ks, ke, vs, ve, text[vs:ve]) for k, ks, ke, vs, ve in entries]


def _split_cfg(value: str) -> list[str]:
    return [v.strip() for v in re.split(r"[,\n]", value) if v.strip()]


def _cfg_render(text: str, vs: int, ve: int, values: list[str]) -> str:
    value = text[vs:ve]
    if "\n" in value:
        first_nl = value.index("\n")
        cont = value[first_nl + 1 :].lstrip("\r\n")
        indent = cont[: len(cont) - len(cont.lstrip())] or "    "
        nl = "\r\n" if "\r\n" in value else "\n"
        return value[:first_nl].rstrip("\r") + nl + nl.join(indent + v for v in values)
    return ", ".join(values)


def cfg_facts(text: str) -> Facts:
    lists, data = [], []
    for name, start, end in _section_spans_cfg(text):
        for key, ks, ke, vs, ve, value in _cfg_entries(text, start, end):
            if name == "options" and key == "packages" and not value.strip().startswith("find"):
                lists.append(
                    PackageList(
                        vs,
                        ve,
                        tuple(_split_cfg(value)),
                        lambda v, t=text, a=vs, b=ve: _cfg_render(t, a, b, v),
                    )
                )
            elif name in DATA_SECTIONS:
                data.append(
                    DataKey(
                        ks,
                        ke,
                        key,
                        tuple(_split_cfg(value)),
                        name == "options.exclude_package_data",
                    )
                )
    return Facts(tuple(lists), tuple(data))


def _section_spans_cfg(text: str) -> list[tuple[str, int, int]]:
    spans, pos, current = [], 0, None
    for line in text.splitlines(keepends=True):
        m = _CFG_HEADER.match(line.rstrip("\r\n"))
        if m:
            if current:
                spans.append((current[0], current[1], pos))
            current = (m.group(1).strip(), pos + len(line))
        pos += len(line)
    if current:
        spans.append((current[0], current[1], len(text)))
    return spans


def py_facts(text: str) -> Facts:
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return Facts((), ())
    starts = line_starts(text)
    lists, data = [], []
    for node in ast.walk(tree):
        func = getattr(node, "func", None)
        name = getattr(func, "id", None) or getattr(func, "attr", None)
        if not isinstance(node, ast.Call) or name != "setup":
            continue
        for kw in node.keywords:
            v = kw.value
            if kw.arg == "packages" and isinstance(v, (ast.List, ast.Tuple)):
                lit = strlist.parse_list(text, ast_offset(text, starts, v.lineno, v.col_offset))
                if lit and lit.only_strings:
                    lists.append(_literal_list(text, lit))
            elif kw.arg in ("package_data", "exclude_package_data") and isinstance(v, ast.Dict):
                for k, val in zip(v.keys, v.values, strict=True):
                    if not (isinstance(k, ast.Constant) and isinstance(k.value, str)):
                        continue
                    ks = ast_offset(text, starts, k.lineno, k.col_offset) + 1
                    globs = tuple(
                        e.value
                        for e in getattr(val, "elts", ())
                        if isinstance(e, ast.Constant) and isinstance(e.value, str)
                    )
                    data.append(
                        DataKey(
                            ks, ks + len(k.value), k.value, globs, kw.arg == "exclude_package_data"
                        )
                    )
    return Facts(tuple(lists), tuple(data))


def facts(path: str, text: str) -> Facts:
    name = PurePosixPath(path).name
    if name == "pyproject.toml":
        return toml_facts(text)
    if name == "setup.cfg":
        return cfg_facts(text)
    if name == "setup.py":
        return py_facts(text)
    return Facts((), ())


def owned_regions(path: str, text: str) -> list[tuple[int, int]]:
    """Spans of `path` that this module edits; other producers must leave them alone."""
    if PurePosixPath(path).name not in PACKAGING_FILES:
        return []
    f = facts(path, text)
    return [(p.start, p.end) for p in f.lists] + [(d.start, d.end) for d in f.data]


# -- the moved tree ---------------------------------------------------------------------


def _root_for(index: RepoIndex, path: str) -> str:
    roots = sorted((r for r in index.roots if r not in (".", "")), key=len, reverse=True)
    return next((r for r in roots if path.startswith(r + "/")), ".")


def _dir_package(directory: str, root: str) -> str | None:
    """Dotted package name of `directory` under import root `root`, or None."""
    if root in (".", ""):
        rel = "" if directory == "." else directory
    else:
        rel = directory[len(root) + 1 :] if directory.startswith(root + "/") else ""
    return rel.replace("/", ".") or None


def after_files(index: RepoIndex, relocation: Relocation, plan: Plan) -> set[str]:
    """Every file path of the tree once the plan ran (moves, deletes and splits)."""
    gone = {sp.file for sp in plan.splits}
    deleted = [d for d in (index.package_dir(n) for n in plan.delete) if d]
    out = set()
    for f in index.files:
        new = relocation.files.get(f, f)
        if f in gone or (f not in relocation.files and any(f.startswith(d + "/") for d in deleted)):
            continue
        out.add(new)
    out |= {o.path for sp in plan.splits for o in sp.into}
    return out


def _parent(path: str) -> str:
    return path.rsplit("/", 1)[0] if "/" in path else "."


def _new_package_list(index, relocation, after, values):
    """(remove, add) for one explicit package list."""
    listed = set(values)
    py_dirs_after = {_parent(f) for f in after if f.endswith(".py")}
    remove = set()
    for p in values:
        d = index.package_dir(p)
        if d is not None and d not in py_dirs_after:
            remove.add(p)
    final = listed - remove
    add = []
    for old in sorted(relocation.files):  # keys: the items' order, cheaper to sort
        new = relocation.files[old]
        info = index.files.get(old)
        if not old.endswith(".py") or info is None or not info.module:
            continue
        root = info.root or "."
        old_pkg = _dir_package(_parent(old), root)
        if old_pkg not in listed:
            continue
        q = _dir_package(_parent(new), _root_for(index, new))
        chain = []
        while q and q not in final:
            chain.append(q)
            q = q.rpartition(".")[0]
        if not q:
            chain = chain[:1]  # no listed ancestor: the package itself is what ships the file
        for c in reversed(chain):
            final.add(c)
            add.append(c)
    return remove, add


def _nearest_package(directory: str, files: set[str]) -> str | None:
    d = directory
    while d and d != ".":
        if f"{d}/__init__.py" in files:
            return d
        d = _parent(d)
    return None


def _covered(path: str, keys: list[tuple[str | None, tuple[str, ...]]], files: set[str]) -> bool:
    """True when some (package dir, globs) key ships data file `path` (None: any package)."""
    for d, globs in keys:
        base = d if d is not None else _nearest_package(_parent(path), files)
        if base and path.startswith(base + "/"):
            rel = path[len(base) + 1 :]
            if any(glob_match(g, rel) for g in globs):
                return True
    return False


def _key_dir_after(index, relocation, after, old_dir: str, key: DataKey) -> str | None:
    """Where a package-data key's directory is after the plan, or None if it has no one place.

    A package moved as a whole takes its directory along. Otherwise, when the key's
    package is emptied but every data file it shipped moved, keeping its path relative
    to the key, into one new package, the key follows them (a legacy key whose tuning
    files moved beside their GEMM).
    """
    moved = relocation.path(old_dir)
    if moved is not None:
        return moved
    if any(_parent(f) == old_dir for f in after if f.endswith(".py")):
        return old_dir  # the package still exists
    shipped = [
        f
        for f in index.files_under(old_dir)
        if not f.endswith(".py") and any(glob_match(g, f[len(old_dir) + 1 :]) for g in key.globs)
    ]
    homes = set()
    for f in shipped:
        rel, new = f[len(old_dir) + 1 :], relocation.files.get(f)
        if new is None or not new.endswith("/" + rel):
            return None
        homes.add(new[: -len(rel) - 1])
    return homes.pop() if len(homes) == 1 else old_dir if not shipped else None


def packaging_changes(
    index: RepoIndex, relocation: Relocation, plan: Plan
) -> tuple[list[Edit], list[Diagnostic]]:
    """Edits to every explicit packaging list/package-data key, and wheel-content warnings."""
    edits, notes = [], []
    after = None
    old_files = set(index.files)
    for path in sorted(index.files):
        if path.rpartition("/")[2] not in PACKAGING_FILES:  # per file: no Path object
            continue
        text = index.text(path)
        if not text:
            continue
        f = facts(path, text)
        if not f.lists and not f.data:
            continue
        after = after if after is not None else after_files(index, relocation, plan)
        new_path = relocation.files.get(path, path)
        for lst in f.lists:
            remove, add = _new_package_list(index, relocation, after, list(lst.values))
            if not remove and not add:
                continue
            values = strlist.updated(list(lst.values), remove, add)
            why = ", ".join(
                [f"add {a}" for a in add] + [f"remove emptied {r}" for r in sorted(remove)]
            )
            edits.append(
                make_edit(
                    new_path,
                    text,
                    lst.start,
                    lst.end,
                    lst.render(values),
                    "code",
                    f"packages list: {why}",
                )
            )
        old_keys, new_keys = [], []
        for key in f.data:
            wild = key.name in ("*", "")
            old_dir = None if wild else index.package_dir(key.name)
            if not wild and old_dir is None:
                continue
            new_dir = None if wild else _key_dir_after(index, relocation, after, old_dir, key)
            if not key.exclude:
                old_keys.append((old_dir, key.globs))
                new_keys.append((new_dir or old_dir, key.globs))
            if wild:
                continue
            line, col = line_col(text, key.start)
            if new_dir is None:
                notes.append(
                    Diagnostic(
                        Pos(path, line, col),
                        f"package-data key {key.name}: its package is gone and its files went to "
                        "several places; replace the key by hand",
                        "warning",
                    )
                )
                continue
            new_name = _dir_package(new_dir, _root_for(index, new_dir))
            if new_name and new_name != key.name:
                edits.append(
                    make_edit(
                        new_path,
                        text,
                        key.start,
                        key.end,
                        new_name,
                        "code",
                        f"package-data key {key.name} follows its data files",
                    )
                )
        for old in sorted(relocation.files):
            if old.endswith(".py") or not _covered(old, old_keys, old_files):
                continue
            new = relocation.files[old]
            if not _covered(new, new_keys, after):
                line, col = line_col(text, f.data[0].start)
                notes.append(
                    Diagnostic(
                        Pos(path, line, col),
                        f"package-data no longer matches {new} (moved from {old}): the built wheel "
                        "would lose it; widen the glob (a `*` that needs `**`?) or add a key",
                        "warning",
                    )
                )
    return edits, notes

"""The test inventory of a tree: files, cases, CI registrations, skips, entry points.

Static by default (parses, never runs test code), so it works on any checkout and on
any git revision; `collect.py` adds pytest's own node ids on request.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field, replace
from pathlib import Path

from migrate.git.reads import cat_objects, ls_tree
from migrate.index import RepoIndex, build_index
from migrate.layout.tests import is_test_file
from migrate.tests_split.cases import TestCase, cases_in
from migrate.tests_split.params import dotted
from migrate.tests_split.registrations import Registration, registrations_in


@dataclass
class FileInventory:
    path: str
    cases: list[TestCase] = field(default_factory=list)
    registrations: list[Registration] = field(default_factory=list)
    module_skips: list[str] = field(default_factory=list)  # source of each module-level skip
    markers: list[str] = field(default_factory=list)  # `pytestmark` entries
    main: str | None = None  # unittest | pytest | other: what `__main__` runs; None: absent
    error: str | None = None  # why the file could not be parsed
    collected: list[str] | None = None  # pytest node ids, with --collect

    @property
    def runs_as_main(self) -> bool:
        return self.main in ("unittest", "pytest")

    def to_json(self) -> dict:
        return {
            "path": self.path,
            "cases": [c.name for c in self.cases],
            "inexact_ids": [c.name for c in self.cases if not c.exact],
            "registrations": [r.to_json() for r in self.registrations],
            "module_skips": self.module_skips,
            "markers": self.markers,
            "main": self.main,
            "error": self.error,
            **({"collected": self.collected} if self.collected is not None else {}),
        }


@dataclass
class Total:
    backend: str
    suite: str | None
    nightly: bool
    files: int = 0
    cases: int = 0
    est_time: float = 0

    def to_json(self) -> dict:
        return dict(self.__dict__)


@dataclass
class Inventory:
    files: dict[str, FileInventory] = field(default_factory=dict)

    def totals(self) -> list[Total]:
        """Files, cases and est_time per (backend, effective suite, nightly)."""
        acc: dict[tuple, Total] = {}
        for f in self.files.values():
            for r in f.registrations:
                t = acc.setdefault(r.budget_key, Total(*r.budget_key))
                t.files += 1
                t.cases += len(f.cases)
                t.est_time += r.est_time or 0
        return [acc[k] for k in sorted(acc, key=lambda k: (k[0], k[1] or "", k[2]))]

    def case_ids(self) -> list[str]:
        return [c.node_id(p) for p, f in sorted(self.files.items()) for c in f.cases]

    def to_json(self) -> dict:
        return {
            "files": [self.files[p].to_json() for p in sorted(self.files)],
            "totals": [t.to_json() for t in self.totals()],
        }


def _calls(node: ast.AST) -> list[ast.Call]:
    return [n for n in ast.walk(node) if isinstance(n, ast.Call)]


def _is_module_skip(call: ast.Call) -> bool:
    name = dotted(call.func)
    if name.endswith("importorskip"):
        return True
    return name in ("pytest.skip", "skip") and any(
        k.arg == "allow_module_level" for k in call.keywords
    )


def _main_kind(stmt: ast.If) -> str:
    names = {dotted(c.func) for c in _calls(stmt)}
    if any(n.endswith("unittest.main") for n in names):
        return "unittest"
    if any(n.endswith("pytest.main") for n in names):
        return "pytest"
    return "other"


def _is_main_guard(stmt: ast.stmt) -> bool:
    t = getattr(stmt, "test", None)
    return (
        isinstance(stmt, ast.If)
        and isinstance(t, ast.Compare)
        and isinstance(t.left, ast.Name)
        and t.left.id == "__name__"
        and any(isinstance(c, ast.Constant) and c.value == "__main__" for c in t.comparators)
    )


def inventory_file(text: str, path: str) -> FileInventory:
    """Everything the inventory records about one file."""
    inv = FileInventory(path)
    try:
        tree = ast.parse(text, filename=path)
    except (SyntaxError, ValueError) as exc:
        inv.error = f"{type(exc).__name__}: {exc}"
        return inv
    inv.cases = cases_in(tree)
    inv.registrations = registrations_in(tree, text)
    for stmt in tree.body:
        if _is_main_guard(stmt):
            inv.main = _main_kind(stmt)
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        elif isinstance(stmt, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "pytestmark" for t in stmt.targets
        ):
            v = stmt.value
            inv.markers = [
                ast.unparse(e) for e in (v.elts if isinstance(v, (ast.List, ast.Tuple)) else [v])
            ]
        elif any(_is_module_skip(c) for c in _calls(stmt)):
            inv.module_skips.append(ast.unparse(stmt).splitlines()[0])
    return inv


def wants_inventory(path: str, text: str | None) -> bool:
    """Test-named files, and any Python file that may hold a CI registration."""
    if not path.endswith(".py") or text is None:
        return False
    return is_test_file(path) or ("register_" in text and "_ci(" in text)


def _inventory_file(text: str, path: str, memo: dict | None) -> FileInventory:
    """`inventory_file`, read from `memo` (text -> inventory) for a text seen before: what
    a file records does not depend on its path (one that does not parse is redone, its
    error names the path)."""
    if memo is None:
        return inventory_file(text, path)
    hit = memo.get(text)
    if hit is not None:
        return replace(hit, path=path)
    fi = inventory_file(text, path)
    if fi.error is None:
        memo[text] = fi
    return fi


def inventory_of_texts(texts: dict[str, str | None], memo: dict | None = None) -> Inventory:
    inv = Inventory()
    for path in sorted(texts):
        text = texts[path]
        if not wants_inventory(path, text):
            continue
        fi = _inventory_file(text, path, memo)
        if is_test_file(path) or fi.registrations or fi.error:
            inv.files[path] = fi
    return inv


def build_inventory(tree: RepoIndex | str | Path, memo: dict | None = None) -> Inventory:
    """Inventory of a working tree (a RepoIndex, or a directory indexed on the fly).

    `memo` (text -> file inventory), shared by the inventories of two revisions, parses
    the files they have in common once (verify's tests-kept: BASE and HEAD)."""
    index = tree if isinstance(tree, RepoIndex) else build_index(tree)
    return inventory_of_texts({p: index.text(p) for p in index.python_files()}, memo)


def inventory_at_rev(repo: str | Path, rev: str) -> Inventory:
    """Inventory of a git revision, read from the object store (no checkout)."""
    listing = ls_tree(repo, rev)
    paths = [p for p, (mode, _) in listing.items() if mode in (0o100644, 0o100755)]
    paths = [p for p in paths if p.endswith(".py")]
    blobs = cat_objects(repo, [listing[p][1] for p in paths])
    texts: dict[str, str | None] = {}
    for path, data in zip(paths, blobs, strict=True):
        try:
            texts[path] = data.decode("utf-8") if data is not None else None
        except UnicodeDecodeError:
            texts[path] = None
    return inventory_of_texts(texts)

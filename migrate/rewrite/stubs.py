"""The imports of a `.pyi` stub, respelled as the Python engine respells a module's.

A stub is Python syntax read by type checkers only, so it is not a module of the index;
its text is rewritten by `text_files`, whose per-name `from X import a` rule knows no
relative import. Here every import statement of a stub goes through the one import
rewrite (`imports.rewrite_imports`): a relative import (`from .more import *` in an
`__init__.pyi`) is resolved with the package the stub's module lived in and spelled from
the one it lives in now, a star import follows its module, names going to several modules
split the statement. The text rewrite keeps the rest of the file (dotted names, paths).
"""

from __future__ import annotations

import libcst as cst

from migrate.changes import Edit
from migrate.errors import Diagnostic
from migrate.index.tree import stub_module
from migrate.relocate import Relocation
from migrate.rewrite.context import Context, FileJob
from migrate.rewrite.cstfacts import gather
from migrate.rewrite.imports import rewrite_imports


def stub_import_changes(
    relocation: Relocation, roots: tuple[str, ...], path: str, text: str, new_path: str
) -> tuple[list[Edit], list[Diagnostic], list[tuple[int, int]]] | None:
    """(edits, notes, spans of every import statement) for the stub at old path `path`;
    None when libcst cannot parse it (the text rewrite then does what it can)."""
    job = FileJob(
        path,
        new_path,
        text,
        stub_module(path, roots),
        stub_module(new_path, roots),
        path.endswith("__init__.pyi"),
    )
    try:
        _, facts = gather(path, text)
    except cst.ParserSyntaxError:
        return None
    res = rewrite_imports(job, facts, Context(relocation, roots=roots))
    claimed = [facts.span(site.node) for site in facts.imports]
    return res.edits, res.notes, claimed

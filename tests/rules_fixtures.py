"""Load rule fixture trees: tests/fixtures/rules/_base overlaid with <rule>/<good|bad>/."""

from __future__ import annotations

import os
from pathlib import Path

from migrate.index.tree import CodeTree
from migrate.materialize import text_tree

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "rules"
ROOTS = ("python", ".")


def _files(directory: Path) -> dict[str, Path]:
    out = {}
    for dirpath, _, names in os.walk(directory):
        for n in names:
            if n == ".keep" or n.endswith(".pyc"):
                continue
            p = Path(dirpath) / n
            out[p.relative_to(directory).as_posix()] = p
    return out


def fixture_tree(rule_dir: str, kind: str, base: bool = True) -> CodeTree:
    files = _files(FIXTURES / "_base") if base else {}
    files.update(_files(FIXTURES / rule_dir / kind))
    return text_tree(files, lambda path: files[path].read_text(encoding="utf-8"), ROOTS)


def tree_of(files: dict[str, str], base: bool = True) -> CodeTree:
    """A fixture base overlaid with inline `files` (path -> text)."""
    texts = {p: f.read_text(encoding="utf-8") for p, f in _files(FIXTURES / "_base").items()}
    texts = (texts if base else {}) | files
    return text_tree(texts, texts.__getitem__, ROOTS)

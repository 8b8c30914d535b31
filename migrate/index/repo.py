"""RepoIndex: files, their module names, encodings and line endings.

Module names follow Python's import system under each configured root: regular
packages (`__init__.py`), PEP 420 namespace packages (any directory), src layouts and
several roots. Text is read lazily and cached: most files are only ever scanned.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from migrate import progress
from migrate.git.clean import clean_contents, converted_paths
from migrate.index.files import is_git_work_tree, list_repo_files
from migrate.index.tree import TreeQueries, import_name

CODING = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)")


@dataclass
class FileInfo:
    path: str  # repo-relative, posix
    mode: int  # git-style: 0o100644, 0o100755, 0o120000
    module: str | None = None  # dotted name if importable under a root
    root: str | None = None

    @property
    def is_symlink(self) -> bool:
        return self.mode == 0o120000

    @property
    def is_python(self) -> bool:
        return self.path.endswith(".py") and not self.is_symlink

    @property
    def is_package_init(self) -> bool:
        return self.path.endswith("/__init__.py") or self.path == "__init__.py"


def detect_encoding(data: bytes) -> str:
    """PEP 263 for Python sources, BOM-aware; utf-8 otherwise."""
    if data.startswith(b"\xef\xbb\xbf"):
        return "utf-8-sig"
    for line in data.splitlines()[:2]:
        m = CODING.match(line)
        if m:
            return m.group(1).decode("ascii").lower()
    return "utf-8"


def detect_newline(data: bytes) -> str:
    """The file's dominant line ending (`\\n` when it has none)."""
    crlf = data.count(b"\r\n")
    lf = data.count(b"\n") - crlf
    return "\r\n" if crlf > lf else "\n"


def root_of_path(roots, path: str) -> str | None:
    """The import root (of `roots`) that holds repo-relative `path`: the longest, or None."""
    inside = [r for r in roots if r in (".", "") or path.startswith(r.rstrip("/") + "/")]
    return max(inside, key=lambda r: 0 if r in (".", "") else len(r), default=None)


def _git_mode(p: Path) -> int:
    st = p.lstat()
    if stat.S_ISLNK(st.st_mode):
        return 0o120000
    return 0o100755 if st.st_mode & 0o111 else 0o100644


@dataclass
class RepoIndex(TreeQueries):
    """The checkout's files and modules, one implementation of the tree protocol
    (`index.tree.CodeTree`); `facts(path)` gives a file's code facts, parsed once."""

    root: Path
    roots: tuple[str, ...]
    files: dict[str, FileInfo]
    modules: dict[str, str] = field(default_factory=dict)  # dotted -> path
    _text: dict[str, str] = field(default_factory=dict, repr=False)
    _bytes: dict[str, bytes] = field(default_factory=dict, repr=False)

    # -- content -------------------------------------------------------------
    def read_bytes(self, path: str) -> bytes:
        if path not in self._bytes:
            p = self.root / path
            self._bytes[path] = os.readlink(p).encode() if p.is_symlink() else p.read_bytes()
        return self._bytes[path]

    def encoding(self, path: str) -> str:
        return detect_encoding(self.read_bytes(path)) if path.endswith(".py") else "utf-8"

    def newline(self, path: str) -> str:
        return detect_newline(self.read_bytes(path))

    def text(self, path: str) -> str | None:
        """Decoded text with line endings untouched, or None for binary/undecodable files
        and for a path the index does not hold (the tree protocol's rule)."""
        if path not in self.files:
            return None
        if path not in self._text:
            data = self.read_bytes(path)
            if b"\0" in data[:8192]:
                self._text[path] = None
            else:
                try:
                    self._text[path] = data.decode(self.encoding(path))
                except (UnicodeDecodeError, LookupError):
                    self._text[path] = None
        return self._text[path]

    # -- the tree protocol (`index.tree.CodeTree`) ------------------------------
    @cached_property
    def paths(self) -> list[str]:
        return sorted(self.files)

    def exists(self, path: str) -> bool:
        return path in self.files

    def module_of(self, path: str) -> str | None:
        info = self.files.get(path)
        return info.module if info else None

    def python_files(self) -> list[str]:
        return sorted(p for p, f in self.files.items() if f.is_python)


def build_index(root: str | Path, roots: tuple[str, ...] | list[str] = (".",)) -> RepoIndex:
    """Index the repository at `root` with import roots `roots` (repo-relative)."""
    root = Path(root).resolve()
    roots = tuple(r.rstrip("/") or "." for r in roots)
    files: dict[str, FileInfo] = {}
    modules: dict[str, str] = {}
    progress.phase("scan", label="listing files")
    listed = list_repo_files(root)
    progress.phase("scan", total=len(listed), label="files")
    for path in listed:
        progress.step("files")
        info = FileInfo(path=path, mode=_git_mode(root / path))
        hit = import_name(path, roots) if info.is_python else None
        if hit is not None:
            info.module, info.root = hit
            modules.setdefault(hit[0], path)
        files[path] = info
    index = RepoIndex(root=root, roots=roots, files=files, modules=modules)
    if is_git_work_tree(root):  # text is what the commits store: the clean side of eol
        index._bytes.update(clean_contents(root, [p for p in converted_paths(root) if p in files]))
    return index

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
from migrate.git.reads import gitlinks
from migrate.index.files import is_git_work_tree, links_checked_out_as_files, repo_file_modes
from migrate.index.tree import TreeQueries, import_name
from migrate.rewrite.globs import repo_glob_match

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


def choose_encoding(path: str, data: bytes, codec: str | None = None) -> str:
    """The one rule for a file's codec: a Python file's BOM or PEP 263 cookie, else the
    plan's `encodings` entry for it (`codec`), else UTF-8."""
    found = detect_encoding(data) if path.endswith(".py") else "utf-8"
    return codec if codec and found == "utf-8" else found


def detect_newline(data: bytes) -> str:
    """The file's dominant line ending (`\\n` when it has none)."""
    crlf = data.count(b"\r\n")
    lf = data.count(b"\n") - crlf
    return "\r\n" if crlf > lf else "\n"


_CHUNK = 1 << 16


def _read_file(full: str) -> bytes:
    """A file's bytes, read with plain `os.read` calls: a third of `open().read()`'s cost
    for a small file (no buffer object, no fstat, isatty or seek), which is what a tree
    of 30,000 small data files is made of. A short read of a regular file is its end."""
    fd = os.open(full, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    try:
        data = os.read(fd, _CHUNK)
        if len(data) < _CHUNK:
            return data
        parts = [data]
        while data:
            data = os.read(fd, 1 << 20)
            parts.append(data)
        return b"".join(parts)
    finally:
        os.close(fd)


def root_of_path(roots, path: str) -> str | None:
    """The import root (of `roots`) that holds repo-relative `path`: the longest, or None."""
    inside = [r for r in roots if r in (".", "") or path.startswith(r.rstrip("/") + "/")]
    return max(inside, key=lambda r: 0 if r in (".", "") else len(r), default=None)


def _git_mode(st_mode: int) -> int:
    if stat.S_ISLNK(st_mode):
        return 0o120000
    return 0o100755 if st_mode & 0o111 else 0o100644


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
    encodings: tuple[tuple[str, str], ...] = ()  # the plan's (glob, codec) pairs

    # -- content -------------------------------------------------------------
    def read_bytes(self, path: str) -> bytes:
        data = self._bytes.get(path)
        if data is None:
            full = self._top + path  # `path` is repo-relative
            info = self.files.get(path)
            link = info.is_symlink if info is not None else os.path.islink(full)
            # a link checked out as a file (`core.symlinks=false`) holds its target
            data = os.readlink(full).encode() if link and os.path.islink(full) else _read_file(full)
            self._bytes[path] = data
        return data

    @cached_property
    def _top(self) -> str:
        """The work tree's top with a trailing slash."""
        return os.path.join(str(self.root), "")

    def codec_for(self, path: str) -> str | None:
        """The codec the plan's `encodings` give `path`, or None."""
        if not self.encodings:
            return None
        return next((c for g, c in self.encodings if repo_glob_match(g, path)), None)

    def encoding(self, path: str) -> str:
        return choose_encoding(path, self.read_bytes(path), self.codec_for(path))

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

    def may_spell(self, path: str, pattern: re.Pattern) -> bool:
        """Whether `path`'s text may hold a string whose UTF-8 form the bytes `pattern`
        finds: False only when its bytes match nothing and its text is read as UTF-8
        (then the text's bytes are the file's), so it is never decoded to be ruled out."""
        data = self.read_bytes(path)
        if pattern.search(data):
            return True
        return choose_encoding(path, data, self.codec_for(path)) not in ("utf-8", "utf-8-sig")

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

    @cached_property
    def gitlinks(self) -> dict[str, str]:
        """path -> commit of every submodule in the index (`git.reads.gitlinks`), listed
        once per index: plan validation and the submodules pass both ask, and on a big
        tree each `ls-files -s` reads every entry."""
        return gitlinks(self.root)


def build_index(root: str | Path, roots: tuple[str, ...] | list[str] = (".",)) -> RepoIndex:
    """Index the repository at `root` with import roots `roots` (repo-relative)."""
    root = Path(root).resolve()
    roots = tuple(r.rstrip("/") or "." for r in roots)
    files: dict[str, FileInfo] = {}
    modules: dict[str, str] = {}
    progress.phase("scan", label="listing files")
    in_git = is_git_work_tree(root)
    listed = repo_file_modes(root, in_git=in_git)
    links = links_checked_out_as_files(root) if in_git else set()
    progress.phase("scan", total=len(listed), label="files")
    for path, st_mode in listed.items():
        info = FileInfo(path=path, mode=0o120000 if path in links else _git_mode(st_mode))
        hit = import_name(path, roots) if info.is_python else None
        if hit is not None:
            info.module, info.root = hit
            modules.setdefault(hit[0], path)
        files[path] = info
    progress.step("files", len(listed))
    index = RepoIndex(root=root, roots=roots, files=files, modules=modules)
    if in_git:  # text is what the commits store: the clean side of eol
        converted = [p for p in converted_paths(root, list(files)) if p in files]
        index._bytes.update(clean_contents(root, converted))
    return index

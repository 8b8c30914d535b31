"""Facts shared by the rules, computed once per tree: where the namespace lives, the
declared groups, the README group sentence, the group directories, every registration.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, replace
from functools import cached_property

from migrate.index.registry import Registration, registrations
from migrate.index.targets import Resolver
from migrate.index.tree import CodeTree
from migrate.layout.names import (
    KERNELS_PKG,
    LEGACY_PKG,
    LICENSE_NAMES,
    OPS_PKG,
    README_SENTENCE,
)
from migrate.layout.signals import Signals, signals_of
from migrate.layout.tests import group_test_dirs
from migrate.suggest.draft import draft_plan


@dataclass(frozen=True)
class Listed:
    names: tuple[str, ...]
    path: str
    line: int
    lines: dict[str, int]  # name -> line of its mention

    def where(self, name: str) -> tuple[str, int]:
        """(path, line) of `name`'s mention, else of the list itself."""
        return self.path, self.lines.get(name, self.line)


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


class Context:
    def __init__(self, tree: CodeTree) -> None:
        self.tree = tree
        self.resolver = Resolver(tree)
        self.cache: dict[str, object] = {}  # for facts owned by one rule module

    @property
    def legacy_draft(self):
        """Where `migrate suggest` would put each legacy file (None without a legacy package)."""
        if "legacy_draft" not in self.cache:
            has_legacy = self.legacy_dir is not None
            draft = draft_plan(self.tree, LEGACY_PKG, self) if has_legacy else None
            self.cache["legacy_draft"] = draft
        return self.cache["legacy_draft"]

    # -- layout ------------------------------------------------------------
    @cached_property
    def kernels_dir(self) -> str | None:
        return self.tree.package_dir(KERNELS_PKG)

    @cached_property
    def ops_dir(self) -> str | None:
        return self.tree.package_dir(OPS_PKG)

    @cached_property
    def legacy_dir(self) -> str | None:
        return self.tree.package_dir(LEGACY_PKG)

    def under(self, directory: str | None) -> list[str]:
        return self.tree.files_under(directory) if directory else []

    def python_under(self, directory: str | None) -> list[str]:
        return [p for p in self.under(directory) if p.endswith(".py")]

    @cached_property
    def group_dirs(self) -> dict[str, str]:
        """Directories directly under ops/ (name -> path), ignoring caches."""
        out: dict[str, str] = {}
        if not self.ops_dir:
            return out
        prefix = self.ops_dir + "/"
        for p in self.under(self.ops_dir):
            rest = p[len(prefix) :]
            if "/" in rest:
                name = rest.split("/", 1)[0]
                if name != "__pycache__":
                    out.setdefault(name, prefix + name)
        return out

    def group_of(self, path: str) -> str | None:
        """The group directory holding `path` (under ops/<group>/), else None."""
        if not self.ops_dir or not path.startswith(self.ops_dir + "/"):
            return None
        rest = path[len(self.ops_dir) + 1 :]
        return rest.split("/", 1)[0] if "/" in rest else None

    # -- declared groups ---------------------------------------------------
    @cached_property
    def declared_groups(self) -> Listed | None:
        """`_GROUPS = (...)` in ops/__init__.py, when present and literal."""
        path = self.tree.modules.get(OPS_PKG)
        mod = self.tree.ast(path) if path else None
        if mod is None:
            return None
        for stmt in mod.body:
            if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                if any(isinstance(t, ast.Name) and t.id == "_GROUPS" for t in targets):
                    try:
                        names = ast.literal_eval(stmt.value)
                    except (ValueError, TypeError, SyntaxError):
                        return None
                    lines = {}
                    for e in getattr(stmt.value, "elts", []):
                        if isinstance(e, ast.Constant):
                            lines.setdefault(e.value, e.lineno)
                    return Listed(tuple(names), path, stmt.lineno, lines)
        return None

    @cached_property
    def readme_path(self) -> str | None:
        if not self.kernels_dir:
            return None
        p = f"{self.kernels_dir}/README.md"
        return p if self.tree.exists(p) else None

    @cached_property
    def readme_groups(self) -> Listed | None:
        if not self.readme_path:
            return None
        text = self.tree.text(self.readme_path) or ""
        m = README_SENTENCE.search(text)
        if not m:
            return None
        names, lines = [], {}
        for g in re.finditer(r"`([^`]+)`", m.group(1)):
            names.append(g.group(1))
            lines.setdefault(g.group(1), _line_of(text, m.start(1) + g.start()))
        return Listed(tuple(names), self.readme_path, _line_of(text, m.start()), lines)

    @cached_property
    def groups(self) -> set[str]:
        """The real groups: `_GROUPS` when declared, else the group directories."""
        if self.declared_groups:
            return set(self.declared_groups.names)
        return {g for g, d in self.group_dirs.items() if self.tree.exists(f"{d}/__init__.py")}

    def test_dirs(self) -> dict[tuple[str, str], str]:
        """(ops|benchmark, name) -> directory for test/registered/kernels/{ops,benchmark}/*."""
        return group_test_dirs(self.tree.paths)

    # -- registrations -----------------------------------------------------
    @cached_property
    def registrations(self) -> list[tuple[str, Registration]]:
        """(registering group, registration) for every group file that registers specs."""
        out = []
        for path in self.python_under(self.ops_dir):
            group = self.group_of(path)
            text = self.tree.text(path) or ""
            if group is None or ("KernelSpec" not in text and "register_fused_op" not in text):
                continue
            mod = self.tree.ast(path)
            name = self.tree.module_of(path)
            if mod is None or name is None:
                continue
            is_pkg = path.endswith("__init__.py")
            for reg in registrations(mod, path, name, is_pkg):
                if reg.kind == "fused":
                    out.extend((group, r) for r in self._expand_fused(reg, mod, name, is_pkg))
                else:
                    out.append((group, reg))
        return out

    def _expand_fused(self, reg: Registration, mod: ast.Module, name: str, is_pkg: bool):
        """One registration per `forward_<backend>` of the instance's class."""
        found = self.resolver.class_of(name, reg.fused_class) if reg.fused_class else None
        cls = self.resolver.class_node(*found) if found is not None else None
        if cls is None or reg.target is None:
            return [reg]
        op, backends = None, []
        for stmt in cls.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if stmt.name.startswith("forward_"):
                    backends.append(stmt.name[len("forward_") :])
            elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                is_op = any(isinstance(t, ast.Name) and t.id == "op" for t in targets)
                if is_op and isinstance(stmt.value, ast.Constant):
                    op = stmt.value.value if isinstance(stmt.value.value, str) else None
        if not backends:
            return [replace(reg, op=op)]
        return [
            replace(reg, op=op, backend=b, target=f"{reg.target}.forward_{b}") for b in backends
        ]

    # -- vendored trees ----------------------------------------------------
    @cached_property
    def vendored_dirs(self) -> tuple[str, ...]:
        """Directories below the kernel packages that carry their own LICENSE/COPYING/AUTHORS:
        vendored upstream trees, preserved as they are (never reorganized incidentally)."""
        out = set()
        for top in (self.kernels_dir, self.legacy_dir):
            for p in self.under(top):
                d, _, base = p.rpartition("/")
                if d != top and base.split(".", 1)[0].upper() in LICENSE_NAMES:
                    out.add(d + "/")
        return tuple(sorted(out))

    def is_vendored(self, path: str) -> bool:
        return path.startswith(self.vendored_dirs) if self.vendored_dirs else False

    # -- operator modules --------------------------------------------------
    @cached_property
    def operator_modules(self) -> list[tuple[str, str]]:
        """(path, group) for each implementation module inside a group."""
        out = []
        for path in self.python_under(self.ops_dir):
            group = self.group_of(path)
            base = path.rsplit("/", 1)[-1]
            if group is None or base in ("__init__.py", "conftest.py") or base.startswith("test_"):
                continue
            if not self.is_vendored(path):
                out.append((path, group))
        return out

    def signals(self, path: str) -> Signals | None:
        """Computation signals of a module (cached); None when it is not text."""
        key = f"signals:{path}"
        if key not in self.cache:
            text = self.tree.text(path)
            self.cache[key] = signals_of(text) if text is not None else None
        return self.cache[key]

    def lower(self, path: str) -> str:
        """Lowercased text (cached) for substring prefilters."""
        key = f"lower:{path}"
        if key not in self.cache:
            self.cache[key] = (self.tree.text(path) or "").lower()
        return self.cache[key]

    def operator_signals(self, hint: tuple[str, ...] = (), groups=None):
        """(path, group, signals) of operator modules whose lowercased text contains one of
        the `hint` substrings (a cheap prefilter: most modules are never tokenized)."""
        for path, group in self.operator_modules:
            if groups is not None and group not in groups:
                continue
            if hint and not any(h in self.lower(path) for h in hint):
                continue
            sig = self.signals(path)
            if sig is not None:
                yield path, group, sig

"""THE target resolver: a `module:attr.path` target, statically, as `resolve_target` would.

Shared by KO204 (`rules`, on the tree a plan would leave) and verify's registry-targets
check (on HEAD's index): both ask `Resolver(tree).problem(target)` of any `CodeTree`.

A target resolves when its module exists in the tree and its first attribute is bound at
the module's top level (def, class, assignment, import); a dotted rest is checked against
the class (or the class of a top-level instance) when that class is visible. Modules with
a module-level `__getattr__` are dynamic: only an `_EXPORTS` table they read is followed.
Bindings, classes and instances are the code facts (`index.facts`), not a second reading.
"""

from __future__ import annotations

import ast
import re

from migrate.index.exports import lazy_table, owner_module
from migrate.index.facts import TARGET, CodeFacts
from migrate.index.registry import registrations
from migrate.index.tree import CodeTree

_PLAIN_BASES = {"object", "BaseFusedOp"}


def _defined_at_column_0(text: str, name: str) -> bool:
    pattern = rf"^(?:(?:async\s+)?def|class)\s+{re.escape(name)}\b|^{re.escape(name)}\s*[:=][^=]"
    return re.search(pattern, text, re.M) is not None


class Resolver:
    """`problem(target)` is None when the target resolves, else why it does not."""

    def __init__(self, tree: CodeTree) -> None:
        self.tree = tree

    def _facts(self, module: str) -> CodeFacts | None:
        path = self.tree.modules.get(module)
        return self.tree.facts(path) if path else None

    def problem(self, target: str, depth: int = 0) -> str | None:
        module, _, attr = target.partition(":")
        if not self.tree.is_module(module.split(".", 1)[0]):
            return None  # another distribution (sgl_kernel, flashinfer): not in this tree
        if not self.tree.is_module(module):
            return f"module {module} does not exist"
        if not attr or depth > 4:
            return None
        head, *rest = attr.split(".")
        path = self.tree.modules.get(module)
        if path is None:  # namespace package: only submodules are reachable
            if self.tree.is_module(f"{module}.{head}"):
                return None
            return f"{module} is a namespace package without {head!r}"
        if not rest and _defined_at_column_0(self.tree.text(path) or "", head):
            return None  # text fast path: a column-0 def/class/assignment binds at top level
        f = self.tree.facts(path)
        if f is None:
            return None  # unparsable: reported elsewhere, not guessed here
        b = f.bindings.get(head)
        if b is None:
            if f.getattr_hook:
                return self._exports_problem(module, head, depth)
            if f.star_imports or f.star_unresolved or self.tree.is_module(f"{module}.{head}"):
                return None
            return f"{head!r} is not defined at the top level of {module} ({path})"
        if b.kind == "from":
            src, name = b.module, b.imported
            if src is None or self.tree.is_module(f"{src}.{name}"):
                return None
            if src in self.tree.modules:
                inner = self.problem(f"{src}:{'.'.join([name, *rest])}", depth + 1)
                return f"{head!r} is imported by {module} but {inner}" if inner else None
            return None
        if rest:
            return self._member_problem(module, f, head, rest[0])
        return None

    def _exports_problem(self, module: str, head: str, depth: int) -> str | None:
        """A dynamic module serves `head` through its lazy-export table (index/exports.py):
        the owner must have it; a closed table without it lacks it."""
        path = self.tree.modules[module]
        tree = self.tree.ast(path)
        table = lazy_table(tree) if tree is not None else None
        if table is None:
            return None
        if head not in table.entries:
            return f"{head!r} is not in {module}._EXPORTS" if table.closed else None
        dest = owner_module(table.entries[head], module, self.tree.is_module)
        inner = self.problem(dest if ":" in dest else f"{dest}:{head}", depth + 1)
        return f"{module}._EXPORTS[{head!r}] -> {dest}: {inner}" if inner else None

    def class_of(self, module: str, name: str) -> tuple[str, str] | None:
        """(module, class name) of the class `name` is bound to in `module`, when visible
        (defined there, or imported from where it is defined)."""
        f = self._facts(module)
        b = f.bindings.get(name) if f is not None else None
        if b is None:
            return None
        if b.kind == "class":
            return module, name
        if b.kind == "from" and b.module:
            sf = self._facts(b.module)
            sb = sf.bindings.get(b.imported) if sf is not None else None
            if sb is not None and sb.kind == "class":
                return b.module, b.imported
        return None

    def class_node(self, module: str, name: str) -> ast.ClassDef | None:
        """The class statement itself (for readers of its body, e.g. fused-op expansion)."""
        path = self.tree.modules.get(module)
        tree = self.tree.ast(path) if path else None
        for node in ast.walk(tree) if tree is not None else ():
            if isinstance(node, ast.ClassDef) and node.name == name:
                return node
        return None

    def _member_problem(self, module: str, f: CodeFacts, head: str, member: str) -> str | None:
        b = f.bindings[head]
        cls = None
        if b.kind == "class":
            cls = (module, head)
        elif b.kind == "assign" and head in f.instances:
            cls = self.class_of(module, f.instances[head])
        if cls is None:
            return None
        return self._class_member_problem(*cls, member, head)

    def _class_member_problem(self, module: str, cls: str, member: str, head: str):
        seen = 0
        while cls is not None and seen < 5:
            seen += 1
            f = self._facts(module)
            if f is None or cls not in f.classes:
                return None
            if member in f.classes[cls]:
                return None
            others = [x for x in f.class_bases[cls] if x.split(".")[-1] not in _PLAIN_BASES]
            if not others:
                return f"{head}: class {cls} has no member {member!r}"
            nxt = self.class_of(module, others[0]) if len(others) == 1 else None
            if nxt is None:
                return None  # inherited from something we cannot see: do not guess
            module, cls = nxt
        return None


def registry_targets(tree: CodeTree, path: str) -> list[tuple[int, str]]:
    """(line, "module:attr") of every registry target a file spells: `target=` and
    `"pkg.mod:attr"` literals (code facts) and the targets its KernelSpec registrations
    evaluate to (f-strings over tables, `_EXPORTS` loops, `__name__`-relative targets)."""
    facts = tree.facts(path)
    if facts is None:
        return []
    out = list(facts.targets)
    known = {t for _, t in out}
    text = tree.text(path) or ""
    module = tree.module_of(path)
    if module and "KernelSpec" in text:
        mod = tree.ast(path)
        for reg in registrations(mod, path, module, path.endswith("__init__.py")) if mod else []:
            target = reg.target
            if reg.kind != "fused" and target and TARGET.match(target) and target not in known:
                known.add(target)
                out.append((reg.line, target))
    return sorted(out)

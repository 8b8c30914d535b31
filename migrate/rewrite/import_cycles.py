"""Refuse, at plan time, a result with a new module-level import cycle that makes an
import fail (`tools/__init__.py` does `from pkg import run`; the plan moves `pkg.helpers`
to `tools.helpers`, which `pkg` imports before it defines `run`).

Only edges the plan creates can close a new cycle: the import-time edges of every file
the ChangeSet edits or writes (importing `a.b.c` runs `a` and `a.b` first, so ancestors
count) are compared with the file's old edges, relocated. For each new edge `u -> v` a
path `v -> ... -> u` in the new tree is searched; a cycle found is then executed
statically (module-level statements in order; function bodies, `TYPE_CHECKING` blocks
and imports guarded by `except ImportError` aside) from each of its modules: a
`from X import n` while `X` is still initializing and `n` is neither bound yet nor a
submodule is the failure Python would raise. The refusal names the cycle module by
module, the statement that fails, and a fix.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from migrate.changes import ChangeSet
from migrate.errors import Diagnostic, Pos
from migrate.index.facts import code_facts
from migrate.index.repo import RepoIndex
from migrate.index.star_exports import star_names
from migrate.index.tree import module_name
from migrate.materialize import materialize, move_map
from migrate.relocate import Relocation
from migrate.rewrite.import_time import Event, Key, events, key


@dataclass
class _Modules:
    """Own modules of one tree: name -> path, events parsed once (or found in `known`:
    the events of texts the rewrite workers parsed already, by `import_time.key`)."""

    paths: dict[str, str]
    text: object  # path -> text
    known: dict[Key, list[Event]] = field(default_factory=dict)
    cache: dict[str, list[Event]] = field(default_factory=dict)
    alls: dict[str, tuple[str, ...] | None] = field(default_factory=dict)

    def events(self, module: str) -> list[Event]:
        if module not in self.cache:
            path = self.paths[module]
            package = module if path.endswith("__init__.py") else module.rpartition(".")[0]
            text = self.text(path) or ""
            found = self.known.get(key(text, package)) if self.known else None
            self.cache[module] = found if found is not None else events(text, package)
        return self.cache[module]

    def all_names(self, module: str) -> tuple[str, ...] | None:
        """The module's literal `__all__` (None: it has none), read only for a module a
        star import reaches (`star_exports.star_names`)."""
        if module not in self.alls:
            path = self.paths[module]
            facts = code_facts(self.text(path) or "", module, path.endswith("__init__.py"))
            self.alls[module] = facts.all_names if facts is not None else None
        return self.alls[module]

    def edges(self, module: str) -> dict[str, int]:
        """Own modules (and their ancestor packages) imported at import time -> line."""
        out: dict[str, int] = {}
        for ev in self.events(module):
            if ev.kind == "bind" or ev.module is None:
                continue
            targets = [ev.module]
            if ev.kind == "from":
                targets += [f"{ev.module}.{n}" for n, _ in ev.names]
            for t in targets:
                parts = t.split(".")
                for i in range(1, len(parts) + 1):
                    name = ".".join(parts[:i])
                    if name in self.paths and name != module:
                        out.setdefault(name, ev.line)
        return out


def _own(paths, roots, text, known) -> _Modules:
    mods = {}
    for path in paths:
        for root in roots:
            name = module_name(path, root)
            if name is not None:
                mods.setdefault(name, path)
    return _Modules(mods, text, known)


class _Failed(Exception):
    def __init__(self, module: str, event: Event, target: str, name: str, star: bool = False):
        super().__init__(module)
        self.module, self.event, self.target, self.name = module, event, target, name
        self.star = star  # `from target import *`, whose `__all__` lists `name`


def _simulate(entry: str, mods: _Modules) -> _Failed | None:
    """Import `entry` statically; the first failing `from X import n`, else None."""
    done: set[str] = set()
    running: set[str] = set()
    defined: dict[str, set[str]] = {}
    unknown: set[str] = set()  # modules whose names a star import of a module not ours bound

    def load(name: str) -> None:
        parts = name.split(".")
        for i in range(1, len(parts) + 1):
            run(".".join(parts[:i]))

    def run(m: str) -> None:
        if m not in mods.paths or m in done or m in running:
            return
        running.add(m)
        defined[m] = set()
        for ev in mods.events(m):
            if ev.kind == "bind":
                defined[m].update(local for _, local in ev.names)
            elif ev.kind == "import":
                load(ev.module)
                defined[m].update(local for _, local in ev.names)
            else:
                load(ev.module)
                for n, local in ev.names:
                    sub = f"{ev.module}.{n}"
                    if n == "*":  # what the star gives of the names bound so far
                        if ev.module not in mods.paths or ev.module in unknown:
                            unknown.add(m)
                        if ev.module in mods.paths:
                            given = defined.get(ev.module, set())
                            # its `__all__`, once the module has assigned it
                            listed = mods.all_names(ev.module) if "__all__" in given else None
                            if ev.module in running and ev.module not in unknown:
                                _listed_but_unbound(m, ev, mods, given, listed)
                            defined[m].update(star_names(given, listed))
                        continue
                    if sub in mods.paths:
                        load(sub)
                    elif (
                        ev.module in running
                        and ev.module not in unknown
                        and n not in defined.get(ev.module, set())
                        and not ev.guarded
                    ):
                        raise _Failed(m, ev, ev.module, n)
                    defined[m].add(local)
        running.discard(m)
        done.add(m)
        parent = m.rpartition(".")[0]
        if parent in defined:
            defined[parent].add(m.rpartition(".")[2])

    try:
        load(entry)
    except _Failed as failed:
        return failed
    except RecursionError:  # pragma: no cover - a pathological chain: not our call
        return None
    return None


def _listed_but_unbound(m: str, ev: Event, mods: _Modules, given, listed) -> None:
    """A star import of a module still initializing reads every name its literal
    `__all__` lists (a submodule is imported): one not bound yet raises AttributeError."""
    if listed is None or ev.guarded:
        return
    for name in listed:
        if name not in given and f"{ev.module}.{name}" not in mods.paths:
            raise _Failed(m, ev, ev.module, name, star=True)


def _path(mods: _Modules, start: str, goal: str) -> list[str] | None:
    """Shortest own-module import path start -> ... -> goal in the new tree."""
    prev: dict[str, str | None] = {start: None}
    queue = deque([start])
    while queue:
        m = queue.popleft()
        if m == goal:
            out = []
            node: str | None = m
            while node is not None:
                out.append(node)
                node = prev[node]
            return list(reversed(out))
        for nxt in mods.edges(m):
            if nxt not in prev:
                prev[nxt] = m
                queue.append(nxt)
    return None


def cycle_problems(
    index: RepoIndex, rel: Relocation, cs: ChangeSet, roots, known: dict | None = None
) -> list[Diagnostic]:
    """`known`: import-time events already computed, by `import_time.key` (the python
    pass's workers give those of every text they parsed); anything else is parsed here."""
    touched = {e.path for e in cs.edits} | {p for p in cs.writes if p.endswith(".py")}
    touched = {p for p in touched if p.endswith(".py")}
    if not touched:
        return []
    tree = materialize(cs, index)
    new = _own(tree.paths, roots, tree.text, known or {})
    old = _own(index.files, roots, index.text, known or {})
    back = {v: k for k, v in move_map(cs).items()}
    path_module = {p: m for m, p in new.paths.items()}
    old_module: dict[str, str] = {}
    for m, p in old.paths.items():
        old_module.setdefault(p, m)  # the first module naming the path, as a scan would
    problems: list[Diagnostic] = []
    seen: set[frozenset[str]] = set()
    for path in sorted(touched):
        u = path_module.get(path)
        if u is None or not tree.exists(path):
            continue
        old_path = back.get(path, path)
        old_u = old_module.get(old_path)
        before = set()
        if old_u is not None and index.text(old_path) is not None:
            before = {rel.dotted(t) or t for t in old.edges(old_u)}  # ancestors included
        for v, line in sorted(new.edges(u).items()):
            if v in before or u.startswith(v + "."):
                continue  # an old edge, or u's own ancestor (run before u anyway)
            cycle = _path(new, v, u)
            if cycle is None or frozenset(cycle) in seen:
                continue
            seen.add(frozenset(cycle))
            failure = next((f for f in map(lambda m: _simulate(m, new), cycle) if f), None)
            if failure is not None:
                problems.append(_diagnostic(new, path, line, [u, *cycle], failure))
    return problems


def _diagnostic(mods: _Modules, path: str, line: int, cycle: list[str], f: _Failed):
    fpath = mods.paths[f.module]
    chain = " -> ".join(cycle)
    outside = f.module.rpartition(".")[0] or f.module
    return Diagnostic(
        Pos(path, line, 1),
        f"the plan creates an import cycle that fails on import: {chain}; "
        f"{fpath}:{f.event.line} runs `from {f.target} import {'*' if f.star else f.name}` "
        f"while {f.target} is still initializing ({f.name}"
        f"{', which its __all__ lists,' if f.star else ''} is not bound yet). "
        f"Fix: import {f.name} inside the "
        f"functions of {f.module} that use it (a function-local import), or choose a "
        f"target whose packages do not import {f.target} (outside {outside})",
    )

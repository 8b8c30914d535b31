"""What every static check may read: both revisions, the relocation, the plan."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from migrate.changes import ChangeSet
from migrate.plan import Plan
from migrate.relocate import Relocation
from migrate.verify.codetree import CodeTree


@dataclass
class VerifyContext:
    repo_dir: Path
    base_rev: str
    head_rev: str
    head_dir: Path  # a worktree at HEAD
    head: CodeTree
    base_dir: Path | None = None  # a worktree at BASE
    base: CodeTree | None = None
    plans: list[Plan] = field(default_factory=list)
    relocations: list[Relocation] = field(default_factory=list)
    changesets: list[ChangeSet] = field(default_factory=list)  # reproduced; empty by --plan
    touched: set[str] = field(default_factory=set)  # paths changed in BASE..HEAD (HEAD side)
    exclude: set[str] = field(default_factory=set)  # plan files and the like: never scanned
    cache: dict = field(default_factory=dict)  # facts of BASE kept across verify calls

    def head_path(self, base_path: str) -> str:
        """A BASE path at HEAD, through every relocation."""
        for rel in self.relocations:
            base_path = rel.files.get(base_path, base_path)
        return base_path

    def at_base(self, found: list[tuple], scan, key) -> set:
        """What a check that found `found` (tuples, the path first) at HEAD finds at BASE:
        `scan(base_tree, base_paths)` run on the BASE files of those paths only (BASE is
        parsed only where HEAD has a problem), each problem as `key(problem)` spells it."""
        if self.base is None or not found:
            return set()
        return {key(x) for x in scan(self.base, self.base_paths(p for p, *_ in found))}

    def path_now(self, path: str) -> str:
        """A path spelled at BASE (a file or a directory) as HEAD spells it."""
        return self._through(path, Relocation.path)

    def dotted_now(self, dotted: str) -> str:
        """A dotted name spelled at BASE as HEAD spells it."""
        return self._through(dotted, Relocation.dotted)

    def target_now(self, target: str) -> str:
        """A `module:attr` registry target spelled at BASE as HEAD spells it."""
        return self._through(target, Relocation.target)

    def _through(self, value: str, step) -> str:
        for rel in self.relocations:
            value = step(rel, value) or value
        return value

    def symbol_sources(self) -> dict[str, set[str]]:
        """HEAD path -> BASE paths of the modules whose symbols the plans move into it."""
        out: dict[str, set[str]] = {}
        if self.base is None:
            return out
        for rel in self.relocations:
            for (mod, _), dst in rel.symbols.items():
                head_path = self.head.modules.get(self.dotted_now(dst))
                base_path = self.base.modules.get(mod)
                if head_path and base_path:
                    out.setdefault(head_path, set()).add(base_path)
        return out

    def base_paths(self, head_paths) -> set[str]:
        """The BASE paths of HEAD paths (through every relocation, backwards)."""
        out = set()
        for p in head_paths:
            for rel in reversed(self.relocations):
                back = {new: old for old, new in rel.files.items()}
                p = back.get(p, p)
            out.add(p)
        return out

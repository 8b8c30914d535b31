"""Where a kernel test goes: its group's directory, or one output per group (a split).

A test's group is the group of the kernels it imports (legacy modules already placed by
the drafter, or `sglang.kernels.ops.<group>`); without kernel imports, its computation.
A test exercising several groups is split by test unit when each unit uses one group.
"""

from __future__ import annotations

import ast
from collections import Counter
from dataclasses import dataclass

from migrate.index.imports import absolute, imports_of
from migrate.layout.ci import ci_registrations
from migrate.layout.classify import INFRA, classify_source
from migrate.layout.names import group_of_module
from migrate.layout.tests import (
    KERNEL_TESTS,
    MANUAL_DIR,
    group_test_dir,
    is_benchmark_name,
    kernel_test_path,
)


@dataclass(frozen=True)
class SplitDraft:
    """A test file exercising several groups: one output per group, by test unit."""

    file: str
    outputs: tuple[tuple[str, str, tuple[str, ...]], ...]  # (path, group, take)
    reason: str


class TestPlacement:
    """Mixin of `Drafter`: uses its `tree`, `ctx`, `legacy_dir`, `module_group`, `splits`,
    `decisions`, `free()` and `add()`."""

    __test__ = False  # not a pytest class

    def test_group(self, path: str) -> tuple[str | None, float, str]:
        """The group a test belongs to: that of the kernels it imports, else its computation."""
        mod, text = self.tree.ast(path), self.tree.text(path) or ""
        votes: Counter = Counter()
        if mod is not None:
            name = self.tree.module_of(path) or "tests._"
            for ref in imports_of(mod, name, False):
                for cand in ref.candidates():
                    g = self.module_group.get(cand) or group_of_module(cand)
                    if g:
                        votes[g] += 1
                        break
        if votes:
            ranked = votes.most_common()
            (g, n), total = ranked[0], sum(votes.values())
            why = "imports kernels of " + ", ".join(f"{k} ({v})" for k, v in ranked)
            if len(ranked) > 1:
                why += "; tests several groups"
                return g, round(min(0.55, n / total), 2), why
            return g, 0.95, why
        c = classify_source(text, self.tree.module_of(path) or "")
        if c.group in (None, INFRA):
            return None, 0.0, "imports no kernel; no computation signal"
        return c.group, round(c.confidence * 0.8, 2), f"computation: {c.evidence}"

    def _kernel_name_groups(self, mod: ast.Module, path: str) -> dict[str, str]:
        """Local name -> group for every kernel a test imports by name."""
        current = self.tree.module_of(path) or "tests._"
        out = {}
        for stmt in mod.body:
            if isinstance(stmt, ast.ImportFrom):
                src = absolute(stmt.module, stmt.level, current, False)
                g = self.module_group.get(src) or group_of_module(src)
                for a in stmt.names:
                    if g:
                        out[a.asname or a.name] = g
        return out

    def split_units(self, path: str) -> dict[str, list[str]]:
        """Group -> top-level test classes/functions that use only that group's kernels."""
        mod = self.tree.ast(path)
        if mod is None:
            return {}
        names = self._kernel_name_groups(mod, path)
        units: dict[str, list[str]] = {}
        for node in mod.body:
            is_test = node.__class__.__name__ in ("FunctionDef", "AsyncFunctionDef", "ClassDef")
            if not is_test or not node.name.lower().startswith("test"):
                continue
            used = Counter(
                names[n.id] for n in ast.walk(node) if isinstance(n, ast.Name) and n.id in names
            )
            if len(used) == 1:
                units.setdefault(next(iter(used)), []).append(node.name)
        return units

    def try_split(self, path: str, why: str) -> bool:
        """Draft a `splits:` entry for a test of several groups; False when not separable."""
        units = self.split_units(path)
        if len(units) < 2:
            return False
        top, base = self._tests_root(path), path.rsplit("/", 1)[-1]
        ranked = sorted(units, key=lambda g: (-len(units[g]), g))
        outputs = []
        for i, g in enumerate(ranked):
            dst, _ = self.free(f"{group_test_dir('ops', g, top)}/{base}", "/")
            take = ("rest",) if i == 0 else tuple(units[g])
            outputs.append((dst, g, take))
        self.splits.append(SplitDraft(path, tuple(outputs), why))
        return True

    def test_file(self, path: str, bench: bool) -> None:
        group, conf, why = self.test_group(path)
        base = path.rsplit("/", 1)[-1]
        bench = bench or is_benchmark_name(base)
        mod = self.tree.ast(path)
        registered = bool(mod and ci_registrations(mod))
        top = self._tests_root(path)
        if "several groups" in why and not bench and self.try_split(path, why):
            return
        if bench and not registered:
            dst_dir, what = f"{top}{MANUAL_DIR}", "benchmark"
        else:
            kind = "benchmark" if bench else "ops"
            dst_dir = group_test_dir(kind, group or "REVIEW_GROUP", top)
            what = "benchmark" if bench else "test"
        dst, note = self.free(f"{dst_dir}/{base}", "/")
        notes = [note]
        if not registered and not bench:
            notes.append("no CI registration: add register_*_ci or move to test/manual/kernels/")
        if group is None:
            notes.append("group unknown")
        self.add(path, dst, "path", what, group, conf, why, note=notes)

    def _tests_root(self, path: str) -> str:
        t = kernel_test_path(path)
        if t is not None:
            return t.root
        for p in self.tree.paths:
            i = p.find("test/registered/")
            if i >= 0:
                return p[:i]
        return ""

    def outside_tests(self) -> None:
        """Kernel tests under test/registered/kernels/ that are not in a group directory."""
        groups = self.ctx.groups | {d.group for d in self.decisions if d.group}
        for p in self.tree.paths:
            t = kernel_test_path(p) if KERNEL_TESTS in p else None
            if not t or not p.endswith(".py") or p.startswith(self.legacy_dir + "/"):
                continue
            if t.is_package_file or (t.in_group_dir and t.group in groups):
                continue
            self.test_file(p, bench=t.parts[0] == "benchmark" or t.base.startswith("bench_"))

"""Draft the moves that take a legacy kernel package into logical groups.

Every file of the legacy package gets a destination: operator modules go to
`sglang.kernels.ops.<group>` by their computation (see `classify.py`), shared build
infrastructure and C++ sources to `sglang.kernels.jit`, tuning data beside the module
that loads it, tests to `test/registered/kernels/{ops,benchmark}/<group>/`. Kernel tests
already under `test/registered/kernels/` but outside a group directory move too.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from migrate.errors import Diagnostic, MigrateError, Pos
from migrate.layout.ci import main_block
from migrate.layout.classify import INFRA, Classification, classify_source
from migrate.layout.names import JIT_PKG, KNOWN_GROUPS, OPS_PKG
from migrate.layout.tests import is_test_file
from migrate.suggest.tests_placement import SplitDraft, TestPlacement

SOURCE_EXT = (".cu", ".cuh", ".cpp", ".cc", ".c", ".h", ".hpp", ".cuh.in", ".inc")
SOURCE_DIRS = ("csrc", "include", "cuda", "cpp", "src")
TEST_DIRS = ("tests", "test")
BENCH_DIRS = ("benchmark", "benchmarks", "bench")


@dataclass(frozen=True)
class Decision:
    src: str  # dotted module/package, or a repo path for path moves
    dst: str
    kind: str  # module | package | path
    what: str  # operator | infrastructure | data | test | benchmark | helper
    group: str | None
    confidence: float
    reason: str
    evidence: str = ""
    note: str = ""

    @property
    def review(self) -> bool:
        return self.confidence < 0.6 or bool(self.note)


@dataclass(frozen=True)
class OpIdRename:
    src: str
    dst: str
    where: str  # file:line of the registration
    note: str = ""


@dataclass
class Draft:
    legacy: str
    roots: tuple[str, ...]
    decisions: list[Decision]
    groups_add: list[str]
    delete: list[str]
    op_ids: list[OpIdRename] = field(default_factory=list)
    splits: list[SplitDraft] = field(default_factory=list)


def _strip_jit(name: str) -> str:
    return re.sub(r"^_?jit_", "", name) or name


class Drafter(TestPlacement):
    """Decides every file's destination. `tree` is the tree protocol (files, modules, text,
    ast); `facts` are the rules' facts of that tree (`rules.context.Context`: its `groups`,
    `group_dirs` and `registrations`), passed in so that suggest does not import rules."""

    def __init__(self, tree, legacy: str, facts) -> None:
        self.tree, self.legacy = tree, legacy
        self.ctx = facts
        d = tree.package_dir(legacy)
        if d is None:
            raise MigrateError(Diagnostic(Pos("."), f"package {legacy} not found in the tree"))
        self.legacy_dir = d
        self.prefix = d[: len(d) - len(legacy.replace(".", "/"))]  # "python/" or ""
        self.decisions: list[Decision] = []
        self.taken: set[str] = set(tree.modules) | set(tree.paths)
        self.module_group: dict[str, str] = {}  # legacy module -> chosen group
        self.splits: list[SplitDraft] = []

    # -- naming --------------------------------------------------------------
    def pkg_path(self, dotted: str) -> str:
        return self.prefix + dotted.replace(".", "/")

    def _taken(self, name: str, sep: str) -> bool:
        if name in self.taken:
            return True
        if sep == ".":
            return self.tree.is_module(name)
        return bool(self.tree.files_under(name))

    def free(self, name: str, sep: str = ".") -> tuple[str, str]:
        """`name`, or `name_2`, `name_3`... when taken; the note says it was renamed."""
        head, _, base = name.rpartition(sep)
        stem, dot, ext = base.partition(".") if sep == "/" else (base, "", "")
        cand, i = name, 2
        while self._taken(cand, sep):
            cand = f"{head}{sep}{stem}_{i}{dot}{ext}"
            i += 1
        self.taken.add(cand)
        return cand, ("" if cand == name else f"{name} exists: renamed")

    def add(self, src, dst, kind, what, group, confidence, reason, evidence="", note="") -> None:
        """Record one decision (fields in `Decision`'s order); `note` may be a list of
        notes, the empty ones dropped."""
        if isinstance(note, list):
            note = "; ".join(filter(None, note))
        self.decisions.append(
            Decision(src, dst, kind, what, group, confidence, reason, evidence, note)
        )

    # -- legacy package --------------------------------------------------------
    def run(self) -> Draft:
        children: dict[str, list[str]] = {}
        files: list[str] = []
        base = self.legacy_dir + "/"
        for p in self.tree.files_under(self.legacy_dir):
            if "__pycache__" in p or p.endswith((".pyc", ".pyo")):
                continue
            rest = p[len(base) :]
            if "/" in rest:
                children.setdefault(rest.split("/", 1)[0], []).append(p)
            else:
                files.append(p)
        mods = [p for p in files if p.endswith(".py") and not p.endswith("/__init__.py")]
        for p in sorted(mods, key=lambda p: p.rsplit("/", 1)[1].startswith("test_")):
            self.top_module(p)
        for name, paths in sorted(children.items(), key=lambda kv: kv[0] in TEST_DIRS + BENCH_DIRS):
            self.child_dir(name, paths)
        for p in files:
            if not p.endswith(".py"):
                self.infra_path(p, "non-Python file of the legacy package", review=True)
        self.outside_tests()
        used = {d.group for d in self.decisions if d.group and d.what in ("operator", "data")}
        existing = self.ctx.groups
        groups_add = sorted(g for g in used if g not in existing and g != INFRA)
        roots = tuple(r for r in self.tree.roots if r != ".") or (".",)
        return Draft(
            self.legacy,
            roots,
            self.decisions,
            groups_add,
            [self.legacy],
            self.op_id_renames(),
            self.splits,
        )

    def op_id_renames(self) -> list[OpIdRename]:
        """Registered op ids that are not `<group>.<name>` of their registering group."""
        out: dict[str, OpIdRename] = {}
        ids = {(reg.op, reg.backend) for _, reg in self.ctx.registrations if reg.op}
        for group, reg in self.ctx.registrations:
            if not reg.op or reg.op.split(".", 1)[0] == group or reg.op in out:
                continue
            name = reg.op.split(".", 1)[-1]
            dst = f"{group}.{name}"
            clash = (dst, reg.backend) in ids
            note = f"{dst} already has a {reg.backend} kernel: pick another name" if clash else ""
            out[reg.op] = OpIdRename(reg.op, dst, f"{reg.path}:{reg.line}", note)
        return list(out.values())

    def top_module(self, path: str) -> None:
        module = self.tree.module_of(path)
        stem = module.rsplit(".", 1)[1]
        if stem.startswith("test_"):
            self.test_file(path, bench=False)
            return
        text = self.tree.text(path) or ""
        c = classify_source(text, module)
        if stem == "__main__" or c.group == INFRA:
            dst, note = self.free(f"{JIT_PKG}.{stem}")
            is_infra = c.group == INFRA
            why = c.reason if is_infra else "package entry point"
            conf = c.confidence if is_infra else 0.7
            self.add(module, dst, "module", "infrastructure", INFRA, conf, why, c.evidence, note)
            return
        group = c.group or "elementwise"
        self.module_group[module] = group
        dst, note = self.free(f"{OPS_PKG}.{group}.{_strip_jit(stem)}")
        notes = [note, "" if c.group else "no computation signal: group guessed"]
        mod = self.tree.ast(path)
        if mod is not None and main_block(mod) is not None:
            notes.append(
                "has an `if __name__ == '__main__':` entry point (KO503): move it to "
                "test/manual/kernels/ in a separate commit"
            )
        self.add(
            module, dst, "module", "operator", group, c.confidence, c.reason, c.evidence, notes
        )

    def child_dir(self, name: str, paths: list[str]) -> None:
        if name in TEST_DIRS:
            for p in paths:
                self.test_file(p, bench=False) if is_test_file(p) else self.helper(p)
            return
        if name in BENCH_DIRS:
            for p in paths:
                self.test_file(p, bench=True) if p.endswith(".py") else self.helper(p)
            return
        pys = [p for p in paths if p.endswith(".py")]
        directory = f"{self.legacy_dir}/{name}"
        sources = sum(p.endswith(SOURCE_EXT) for p in paths)
        if name in SOURCE_DIRS or sources > len(pys):
            self.infra_path(directory, "C++/CUDA sources of the JIT build")
            return
        if not pys:
            self.data_dir(directory, name, self.legacy_dir)
            return
        self.subpackage(name, directory, paths)

    def subpackage(self, name: str, directory: str, paths: list[str]) -> None:
        package = f"{self.legacy}.{name}"
        votes: list[tuple[str, Classification]] = []
        for p in paths:
            if p.endswith(".py") and not p.endswith("__init__.py"):
                mod = self.tree.module_of(p) or p
                votes.append((mod, classify_source(self.tree.text(p) or "", mod)))
        if not votes:  # only __init__.py: judge it
            init = f"{directory}/__init__.py"
            votes = [(package, classify_source(self.tree.text(init) or "", package))]
        tally = Counter(c.group for _, c in votes if c.group and c.group != INFRA)
        if name in KNOWN_GROUPS or name in self.ctx.groups:
            # a package named after a group is that group
            tally = Counter({name: len(votes)})
            votes = [
                (m, Classification(name, 0.9, "package named after its group", c.evidence))
                for m, c in votes
            ]
        if not tally:
            dst, note = self.free(f"{JIT_PKG}.{name}")
            why = "no operator module inside"
            self.add(package, dst, "package", "infrastructure", INFRA, 0.5, why, note=note)
            return
        group, n = tally.most_common(1)[0]
        agree = [c for _, c in votes if c.group == group]
        conf = round(min(c.confidence for c in agree) * n / len(votes), 2)
        dissent = [f"{m} looks like {c.group}" for m, c in votes if c.group != group]
        evidence = "; ".join(f"{m.rsplit('.', 1)[1]}: {c.evidence}" for m, c in votes if c.evidence)
        for m, _ in votes:
            self.module_group[m] = group
        if name == group and self.ctx.group_dirs.get(group):
            self.split_into_group(group, directory, paths, conf, evidence, dissent)
            return
        dst = f"{OPS_PKG}.{group}" if name == group else f"{OPS_PKG}.{group}.{_strip_jit(name)}"
        dst, note = self.free(dst)
        why = (
            agree[0].reason
            if name != group
            else f"package named after its group; {agree[0].reason}"
        )
        self.add(package, dst, "package", "operator", group, conf, why, evidence, [note, *dissent])

    def split_into_group(self, group, directory, paths, conf, evidence, dissent) -> None:
        """A legacy package named like an existing group: its modules join that group."""
        for p in paths:
            rest = p[len(directory) + 1 :]
            if p.endswith("/__init__.py") and "/" not in rest:
                continue
            if "/" in rest:  # nested data/package directory: carried as a path
                sub = rest.split("/", 1)[0]
                src = f"{directory}/{sub}"
                if any(d.src == src for d in self.decisions):
                    continue
                dst, note = self.free(self.pkg_path(f"{OPS_PKG}.{group}") + f"/{sub}", "/")
                why = "kept beside the modules that load it"
                self.add(src, dst, "path", "data", group, conf, why, note=note)
                continue
            module = self.tree.module_of(p)
            if module is None:
                continue
            stem = _strip_jit(module.rsplit(".", 1)[1])
            dst, note = self.free(f"{OPS_PKG}.{group}.{stem}")
            why = f"joins the existing {group} group"
            self.add(
                module, dst, "module", "operator", group, conf, why, evidence, [note, *dissent]
            )

    def data_dir(self, directory: str, name: str, parent: str) -> None:
        """Tuning/data directory: travels with the module that names it."""
        users = []
        for p in self.tree.files_under(parent):
            if p.endswith(".py") and p.count("/") == parent.count("/") + 1:
                text = self.tree.text(p) or ""
                if f'"{name}"' in text or f"'{name}'" in text or f"{name}/" in text:
                    users.append(self.tree.module_of(p))
        groups = Counter(self.module_group.get(u) for u in users if self.module_group.get(u))
        if not groups:
            self.infra_path(
                directory, f"data directory {name}/ no operator module names", review=True
            )
            return
        group = groups.most_common(1)[0][0]
        dst, note = self.free(self.pkg_path(f"{OPS_PKG}.{group}") + f"/{name}", "/")
        why = f"loaded by {', '.join(sorted(filter(None, users)))} (relative lookup)"
        self.add(directory, dst, "path", "data", group, 0.9, why, note=note)

    def infra_path(self, path: str, reason: str, review: bool = False) -> None:
        rel = path[len(self.legacy_dir) + 1 :]
        dst, note = self.free(self.pkg_path(JIT_PKG) + "/" + rel, "/")
        conf = 0.5 if review else 0.9
        self.add(path, dst, "path", "infrastructure", INFRA, conf, reason, note=note)

    def helper(self, path: str) -> None:
        rel = path[len(self.legacy_dir) + 1 :].split("/", 1)[1]
        dst, note = self.free(self.prefix + "sglang/test/kernels/" + rel, "/")
        why = "shared test helper: sglang.test.kernels"
        self.add(path, dst, "path", "helper", None, 0.5, why, note=note)


def draft_plan(tree, legacy: str, facts) -> Draft:
    """The draft for legacy package `legacy` of `tree`; `facts` as for `Drafter`."""
    return Drafter(tree, legacy, facts).run()

"""The relocation map: the one answer to "what is this called now?".

Dotted names (`module`, `dotted`, `target`), paths repo- or root-relative (`path`,
`spelled_path`) and registered op ids (`op_id`). Every consumer (the rewriter, verify's
old-names check, `stale`, `fix`, the report's leftovers through `migrate.oldnames`) asks it.

Built from a validated plan and the index. Package moves expand to every file of the
package (Python and data files); a module move nested in a package move overrides it
for that module (longest prefix wins); path moves carry non-Python files; symbol moves
send one top-level definition to another module. A `delete:` package nested in a
package move retires that part instead (longest prefix wins here too): its files are not
moved, and its name relocates nowhere, so importers follow its `__init__` re-exports.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from migrate.index.repo import RepoIndex, root_of_path
from migrate.index.tree import module_name
from migrate.plan.model import Plan


def _prefix_lookup(table: dict[str, str], name: str, sep: str) -> tuple[str, str] | None:
    """Longest key of `table` equal to `name` or a `sep`-bounded prefix of it."""
    probe = name
    while True:
        if probe in table:
            return probe, table[probe] + name[len(probe) :]
        cut = probe.rfind(sep)
        if cut <= 0:
            return None
        probe = probe[:cut]


def module_to_path(name: str, root: str, package: bool) -> str:
    rel = name.replace(".", "/") + ("/__init__.py" if package else ".py")
    return rel if root in (".", "") else f"{root}/{rel}"


@dataclass
class Relocation:
    """Resolved moves. Module names are dotted; paths are repo-relative posix."""

    modules: dict[str, str] = field(default_factory=dict)  # module/package prefix -> new
    symbols: dict[tuple[str, str], str] = field(default_factory=dict)  # (mod, sym) -> new mod
    # symbols that only re-export lazily (PEP 562 `_EXPORTS`): users follow, nothing moves
    reexports: set[tuple[str, str]] = field(default_factory=set)
    files: dict[str, str] = field(default_factory=dict)  # every moved file: old path -> new
    path_prefixes: dict[str, str] = field(default_factory=dict)  # plan path moves + packages
    moved_modules: dict[str, str] = field(default_factory=dict)  # every moved module, exact
    op_ids: dict[str, str] = field(default_factory=dict)  # registered op id -> new op id
    # `delete:` packages inside a moved package: they win over the move for what they hold
    retired: set[str] = field(default_factory=set)  # dotted package names
    retired_dirs: set[str] = field(default_factory=set)  # their directories

    def _retired(self, hit: tuple[str, str] | None, name: str, retired: set[str], sep: str):
        """`hit` unless a retired prefix of `name` is longer than the prefix it matched."""
        if hit is None or not retired:
            return hit
        probe = name
        while len(probe) > len(hit[0]):
            if probe in retired:
                return None
            cut = probe.rfind(sep)
            if cut <= 0:
                break
            probe = probe[:cut]
        return hit

    def module(self, name: str) -> str | None:
        """New dotted name for module/package `name` or anything inside it, else None."""
        hit = self._retired(_prefix_lookup(self.modules, name, "."), name, self.retired, ".")
        return hit[1] if hit else None

    def dotted(self, name: str) -> str | None:
        """Relocate a dotted reference that may end in attributes (`pkg.mod.func.attr`).

        Symbol moves win over module moves for `mod.sym[...]`.
        """
        parts = name.split(".")
        for i in range(len(parts) - 1, 0, -1):
            key = (".".join(parts[:i]), parts[i])
            if key in self.symbols:
                return ".".join([self.symbols[key], *parts[i:]])
        return self.module(name)

    def target(self, target: str) -> str | None:
        """Relocate a `module:attr.path` registry/entry-point target."""
        if ":" not in target:
            return self.dotted(target)
        mod, attr = target.split(":", 1)
        head = attr.split(".", 1)[0]
        if (mod, head) in self.symbols:
            return f"{self.symbols[(mod, head)]}:{attr}"
        new = self.module(mod)
        return f"{new}:{attr}" if new else None

    def path(self, path: str) -> str | None:
        """New location of a repo-relative file or directory path (or a path inside one)."""
        if path in self.files:
            return self.files[path]
        key = path.rstrip("/")
        hit = _prefix_lookup(self.path_prefixes, key, "/")
        hit = self._retired(hit, key, self.retired_dirs, "/")
        return hit[1] if hit else None

    def spelled_path(self, token: str, roots: tuple[str, ...]) -> tuple[str, bool] | None:
        """(new spelling, exact) of a path spelled repo-relative or relative to one of
        `roots` (`sglang/jit_kernel/a.cuh` under root `python`), in the same form; `exact`
        is False when the new location left that root (then spelled repo-relative)."""
        new = self.path(token)
        if new is not None:
            return new, True
        for root in roots:
            if root in (".", ""):
                continue
            new = self.path(f"{root}/{token}")
            if new is not None:
                if new.startswith(root + "/"):
                    return new[len(root) + 1 :], True
                return new, False
        return None

    def covering_prefix(self, path: str) -> str | None:
        """The moved directory (a `path_prefixes` key) above moved file `path` that already
        says where it goes, or None: a regex of old spellings needs only the directory."""
        new = self.files.get(path)
        cut = path.rfind("/")
        while new is not None and cut > 0:
            head = path[:cut]
            dst = self.path_prefixes.get(head)
            if dst is not None:
                return head if dst + path[cut:] == new else None
            cut = path.rfind("/", 0, cut)
        return None

    def covering_prefixes(self, paths) -> dict[str, str | None]:
        """`covering_prefix` of each of `paths`, with the climb to the nearest moved
        directory done once per directory (30,000 files of one moved tree: 100 climbs)."""
        nearest: dict[str, str | None] = {"": None}  # directory -> nearest prefix key
        out: dict[str, str | None] = {}
        for path in paths:
            new = self.files.get(path)
            d = path.rpartition("/")[0]
            if new is None:
                out[path] = None
                continue
            if d not in nearest:
                chain, probe = [], d
                while probe not in nearest and probe not in self.path_prefixes:
                    chain.append(probe)
                    probe = probe.rpartition("/")[0]
                found = nearest.get(probe, probe)
                for c in chain:
                    nearest[c] = found
                nearest.setdefault(probe, found)
            head = nearest[d]
            out[path] = (
                head
                if head is not None and self.path_prefixes[head] + path[len(head) :] == new
                else None
            )
        return out

    def old_module(self, new: str) -> str | None:
        """The module that moved to `new`, or None (not cached: `build_relocation` fills
        `moved_modules` as it goes)."""
        return next((o for o, n in self.moved_modules.items() if n == new), None)

    def op_id(self, op_id: str) -> str | None:
        """The new id of a registered op id the plan renames, else None."""
        return self.op_ids.get(op_id)


def _root_of(index: RepoIndex, name: str) -> str:
    """The import root that holds module or package `name`."""
    path = index.modules.get(name) or index.modules[index.submodules(name)[0]]
    return index.files[path].root or "."


def build_relocation(plan: Plan, index: RepoIndex) -> Relocation:
    """Expand the plan's moves against the index. Assumes `validate_plan` passed.

    Every move becomes a path rule (a file, or a directory prefix); each file follows
    the rule with the longest matching source, whatever kind of move made it. So a
    module or path move nested in a package move overrides it for what it names.
    """
    rel = Relocation(op_ids={o.src: o.dst for o in plan.op_ids})
    rules: dict[str, str] = {}  # source path (file or directory) -> target path
    path_rules: set[str] = set()  # the rules that path moves made
    stub_rules: dict[str, str] = {}  # `mod.pyi` beside a moved `mod.py`: moves with it
    for mv in plan.moves:
        if mv.is_symbol:
            mod, sym = mv.src.split(":")
            rel.symbols[(mod, sym)] = mv.dst
        elif mv.is_path:
            src, dst = mv.src.rstrip("/"), mv.dst.rstrip("/")
            rel.path_prefixes[src] = dst
            rules[src] = dst
            path_rules.add(src)
        else:
            rel.modules[mv.src] = mv.dst
            root = _root_of(index, mv.src)
            if index.is_package(mv.src):
                src_dir = index.package_dir(mv.src)
                dst_dir = module_to_path(mv.dst, root, package=True).rsplit("/", 1)[0]
                rel.path_prefixes[src_dir] = dst_dir
                rules[src_dir] = dst_dir
            else:
                src_path = index.modules[mv.src]
                dst_path = module_to_path(mv.dst, root, package=False)
                rules[src_path] = dst_path
                stub = src_path[:-3] + ".pyi"  # a module's stub is part of the module
                if src_path.endswith(".py") and stub in index.files:
                    stub_rules[stub] = dst_path[:-3] + ".pyi"

    for stub, dst in stub_rules.items():
        rules.setdefault(stub, dst)  # a move that names the stub itself wins
    for name in plan.delete:
        d = index.package_dir(name)
        if d is not None and _prefix_lookup(rules, d, "/") is not None:
            rel.retired.add(name)
            rel.retired_dirs.add(d)
    by_path: set[str] = set()  # files that a path move carries
    for src in rules:
        for f in [src] if src in index.files else index.files_under(src):
            hit = rel._retired(_prefix_lookup(rules, f, "/"), f, rel.retired_dirs, "/")
            if hit is not None:
                rel.files[f] = hit[1]
                if hit[0] in path_rules:
                    by_path.add(f)

    for old_path, new_path in rel.files.items():
        info = index.files.get(old_path)
        if info is not None and info.module:
            new_root = root_of_path(index.roots, new_path)  # a path move may change roots
            new_mod = module_name(new_path, new_root) if new_root is not None else None
            if new_mod:
                rel.moved_modules[info.module] = new_mod
                if old_path in by_path and new_mod != info.module:
                    # a Python module moved by path is a module move: its importers follow
                    rel.modules.setdefault(info.module, new_mod)
    return rel


def plan_relocation(plan: Plan, index: RepoIndex | None = None) -> Relocation:
    """The relocation a plan implies from its text alone, for trees where the old names no
    longer exist (a branch to fix, a stale check): module moves become prefixes under
    every root, as a package directory and as a `.py` file.

    With the index of a tree already in the new layout, submodules found under a new
    name are known under their old name too.
    """
    rel = Relocation(op_ids={o.src: o.dst for o in plan.op_ids})
    for mv in plan.moves:
        if mv.is_path:
            rel.path_prefixes[mv.src.rstrip("/")] = mv.dst.rstrip("/")
        elif mv.is_symbol:
            mod, sym = mv.src.split(":")
            rel.symbols[(mod, sym)] = mv.dst
        else:
            rel.modules[mv.src] = mv.dst
            rel.moved_modules[mv.src] = mv.dst
            for root in plan.roots:
                old_dir = module_to_path(mv.src, root, True).rsplit("/", 1)[0]
                new_dir = module_to_path(mv.dst, root, True).rsplit("/", 1)[0]
                rel.path_prefixes[old_dir] = new_dir
                rel.files[module_to_path(mv.src, root, False)] = module_to_path(mv.dst, root, False)
            for mod in index.modules if index is not None else ():
                if mod.startswith(mv.dst + "."):
                    rel.moved_modules[mv.src + mod[len(mv.dst) :]] = mod
    return rel

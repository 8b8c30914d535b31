"""Which moved modules hold Triton kernels, which functions to record, which tests to run.

Moves come from git's rename detection between BASE and HEAD and, with a plan, from the
plan's relocation (computed on the BASE tree). Every recorded function gets one op id, its
HEAD spelling `new.module:function`, so calls from both runs pair up.
"""

from __future__ import annotations

import ast
import posixpath
import re
from dataclasses import dataclass, field
from fnmatch import fnmatch
from pathlib import Path

from migrate.findings import Finding
from migrate.git import run_git
from migrate.git.reads import ls_names, read_texts, renames
from migrate.index.tree import module_name
from migrate.parity.model import MovedModule, warning
from migrate.parity.source import (
    ModuleFacts,
    imported_names,
    kernels_reached,
    read_module,
    torch_ops_path,
)

_CONFIGS = re.compile(r"""["']configs["'/]""")
_TEST_FILE = re.compile(r"(^|/)(test_[^/]*|[^/]*_test)\.py$")


@dataclass
class Discovery:
    modules: list[MovedModule] = field(default_factory=list)
    targets: dict[str, dict[str, dict[str, str]]] = field(default_factory=dict)  # side->mod->fn->op
    tests: dict[str, list[str]] = field(default_factory=dict)  # side -> test files
    test_path_map: dict[str, str] = field(default_factory=dict)  # BASE test path -> HEAD path
    path_moves: dict[str, str] = field(default_factory=dict)  # every moved file, old -> new
    roots: dict[str, list[str]] = field(default_factory=dict)  # side -> import roots
    warnings: list[Finding] = field(default_factory=list)


def infer_root(path: str, files: set[str]) -> str:
    """Parent of the topmost regular package holding `path` ('.' for the repo root)."""
    d = posixpath.dirname(path)
    while d and f"{d}/__init__.py" in files:
        d = posixpath.dirname(d)
    return d or "."


def _module_of(path: str, files: set[str], roots: list[str] | None) -> tuple[str | None, str]:
    cands = sorted(roots, key=lambda r: (r in (".", ""), -len(r))) if roots else []
    for r in cands:
        name = module_name(path, r)
        if name:
            return name, r
    r = infer_root(path, files)
    return module_name(path, r), r


def _registered(repo: Path, rev: str, modules: list[str]) -> dict[str, set[str]]:
    """`module:attr` registry targets naming `modules` anywhere in the tree at `rev`."""
    if not modules:
        return {}
    alt = "|".join(re.escape(m) for m in sorted(modules))
    pattern = rf"({alt}):[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*"
    out = run_git(repo, "grep", "-h", "-o", "-E", "-e", pattern, rev, "--", "*.py", ok=(0, 1))
    found: dict[str, set[str]] = {}
    for line in out.decode("utf-8", "replace").splitlines():
        hit = line.split(":", 1)[1] if line.startswith(f"{rev}:") else line
        mod, _, attr = hit.rpartition(":")
        found.setdefault(mod, set()).add(attr)
    return found


def _entry_points(facts: ModuleFacts, registered: set[str]) -> set[str]:
    """What a caller can reach in one module, as attribute paths the recorder wraps: public
    functions, registry targets (`fn`, `Class.method`, `_INSTANCE.forward_triton`), the
    `forward_<backend>` methods of fused ops, and `torch.ops.<ns>.<name>` of the custom ops
    it registers with torch.library."""
    functions = set(facts.wrappers + facts.private_functions)
    found = set(facts.wrappers) | set(facts.fused_methods)
    for attr in registered:
        head = attr.split(".", 1)[0]
        if attr in functions or ("." in attr and head in facts.top_names):
            found.add(attr)
    found |= {torch_ops_path(q) for q in facts.custom_ops}
    return found


def _kernels_of(facts: ModuleFacts, entry: str) -> list[str]:
    """Kernels an entry point reaches: through its function, class member or op impl."""
    if entry in facts.kernels_of:
        return facts.kernels_of[entry]
    if entry.startswith("torch.ops."):
        impls = [f for q, f in facts.custom_ops.items() if torch_ops_path(q) == entry and f]
        return sorted({k for f in impls for k in facts.kernels_of.get(f, [])})
    owner, _, attr = entry.partition(".")
    node = facts.members.get(entry)
    if node is None and owner in facts.instances:  # `_INSTANCE.method`: through its class
        node = facts.members.get(f"{facts.instances[owner]}.{attr}")
    return kernels_reached(facts, node) if node is not None else []


def _relevant(imports: set[str], modules: set[str]) -> bool:
    """Does a file importing `imports` exercise one of `modules` (or its direct package)?"""
    parents = {m.rpartition(".")[0] for m in modules}
    return bool(imports & (modules | parents))


def _find_tests(
    repo: Path, rev: str, files: set[str], modules: set[str], roots: list[str] | None
) -> list[str]:
    cands = sorted(p for p in files if _TEST_FILE.search(p))
    texts = read_texts(repo, rev, cands)
    keys = {m.rpartition(".")[2] for m in modules} | {m.rpartition(".")[0] for m in modules}
    tests = []
    for path, text in texts.items():
        if not any(k.rpartition(".")[2] in text for k in keys):
            continue
        mod, _ = _module_of(path, files, roots)
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        if _relevant(imported_names(tree, mod or "", path.endswith("__init__.py")), modules):
            tests.append(path)
    return sorted(tests)


def discover(
    repo: Path,
    base: str,
    head: str,
    relocation=None,
    roots: list[str] | None = None,
    only: list[str] | None = None,
) -> Discovery:
    """Everything parity needs to know about the move from `base` to `head` (both shas)."""
    out = Discovery()
    files = {"base": set(ls_names(repo, base)), "head": set(ls_names(repo, head))}
    path_moves = renames(repo, base, head)
    if relocation is not None:
        for old, new in relocation.files.items():
            if old in files["base"] and new in files["head"]:
                path_moves.setdefault(old, new)

    # Module pairs: every moved .py file, named under its import root on each side.
    pairs: dict[str, tuple[str, str, str]] = {}  # old mod -> (new mod, old path, new path)
    side_roots: dict[str, set[str]] = {"base": set(), "head": set()}
    for old_path, new_path in sorted(path_moves.items()):
        if not (old_path.endswith(".py") and new_path.endswith(".py")):
            continue
        old_mod, old_root = _module_of(old_path, files["base"], roots)
        new_mod, new_root = _module_of(new_path, files["head"], roots)
        if old_mod and new_mod:
            pairs[old_mod] = (new_mod, old_path, new_path)
            side_roots["base"].add(old_root)
            side_roots["head"].add(new_root)

    srcs_base = read_texts(repo, base, [p[1] for p in pairs.values()])
    srcs_head = read_texts(repo, head, [p[2] for p in pairs.values()])
    facts: dict[str, tuple[ModuleFacts, ModuleFacts]] = {}
    for old_mod, (new_mod, old_path, new_path) in pairs.items():
        fb = read_module(srcs_base.get(old_path, ""), old_mod, old_path.endswith("__init__.py"))
        fh = read_module(srcs_head.get(new_path, ""), new_mod, new_path.endswith("__init__.py"))
        if fb is not None and fh is not None:
            facts[old_mod] = (fb, fh)

    kernel_mods = {m for m, (fb, fh) in facts.items() if fb.kernels or fh.kernels}
    new_kernel_mods = {pairs[m][0] for m in kernel_mods}
    chosen = set(kernel_mods)
    for m, (_, fh) in facts.items():  # wrapper modules that import a moved kernel module
        new_mod, _, new_path = pairs[m]
        if "." not in new_mod or _TEST_FILE.search(new_path) or new_path.endswith("conftest.py"):
            continue  # tests, benchmarks and scripts are callers, not wrappers
        if m not in chosen and fh.wrappers and fh.imports & new_kernel_mods:
            chosen.add(m)

    if only:  # a focused run: keep modules whose old or new name matches a pattern
        chosen = {
            m for m in chosen if any(fnmatch(n, pat) for pat in only for n in (m, pairs[m][0]))
        }
    reg_head = _registered(repo, head, [pairs[m][0] for m in chosen])
    reg_base = _registered(repo, base, sorted(chosen))
    out.targets = {"base": {}, "head": {}}
    for old_mod in sorted(chosen):
        new_mod, old_path, new_path = pairs[old_mod]
        fb, fh = facts[old_mod]
        head_fns = _entry_points(fh, reg_head.get(new_mod, set()))
        base_fns = _entry_points(fb, reg_base.get(old_mod, set()))
        # kernels are recorded when a test launches one itself (`_kernel[grid](...)`)
        out.targets["head"][new_mod] = {
            f: f"{new_mod}:{f}" for f in sorted(head_fns | set(fh.kernels))
        }
        out.targets["base"][old_mod] = {
            f: f"{new_mod}:{f}" for f in sorted(base_fns | set(fb.kernels))
        }
        out.modules.append(
            MovedModule(
                old=old_mod,
                new=new_mod,
                old_path=old_path,
                new_path=new_path,
                kernels=sorted(fh.kernels),
                wrappers=sorted(head_fns),
                kernels_of={f: _kernels_of(fh, f) for f in sorted(head_fns)},
                uses_configs=bool(_CONFIGS.search(srcs_base.get(old_path, ""))),
            )
        )
        if fb.kernels != fh.kernels:
            why = f"{new_mod}: kernels differ across the move: BASE {fb.kernels} HEAD {fh.kernels}"
            out.warnings.append(warning("kernels", why, new_path))

    if relocation is not None:  # symbol moves: one function sent to another module
        for (mod, sym), new_mod in sorted(relocation.symbols.items()):
            if mod in facts and (facts[mod][0].kernels or facts[mod][0].kernels_of):
                op = f"{new_mod}:{sym}"
                out.targets["base"].setdefault(mod, {})[sym] = op
                out.targets["head"].setdefault(new_mod, {})[sym] = op

    out.roots = {
        "base": sorted(roots or side_roots["base"] or {"."}),
        "head": sorted(roots or side_roots["head"] or {"."}),
    }
    found = {
        side: _find_tests(repo, rev, files[side], set(out.targets[side]), roots)
        for side, rev in (("base", base), ("head", head))
    }
    # Both sides run the same tests: each side's finds plus the other side's, moved back.
    inverse = {new: old for old, new in path_moves.items()}
    out.tests = {
        "base": sorted(
            set(found["base"]) | {inverse.get(h, h) for h in found["head"]} & files["base"]
        ),
        "head": sorted(
            set(found["head"]) | {path_moves.get(b, b) for b in found["base"]} & files["head"]
        ),
    }
    out.path_moves = path_moves
    for p in out.tests["base"]:
        out.test_path_map[p] = path_moves.get(p, p)
    if chosen and not out.tests["head"]:
        out.warnings.append(warning("coverage", "no test at HEAD imports a moved kernel module"))
    return out

"""Replay a real SGLang regrouping between two released wheels with `migrate`.

The move map is built from the two trees by content, never by hand: a file under
`sglang/kernels/ops/` that is gone from the newer tree moved to the new-only file with the
same bytes (or, for a module whose imports were edited in the same release, the same
base name and mostly the same text). A directory whose every file went to one new
directory under the same names is one move; a group package that the map empties
entirely is removed. The plan is applied to the older tree; `result_checks` then judges
the result with checks that do not share the engine's reasoning.
"""

from __future__ import annotations

import ast
import difflib
import hashlib
import posixpath
import re
from collections import defaultdict
from pathlib import Path

OPS_DIR = "sglang/kernels/ops"
SIMILAR = 0.6


def _files(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in (root / OPS_DIR).rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }


def content_moves(old_root: Path, new_root: Path) -> dict[str, str]:
    """old path -> new path for every file of the old ops tree that moved, by content."""
    old, new = _files(old_root), _files(new_root)
    gone = sorted(p for p in old if p not in new)
    fresh = sorted(p for p in new if p not in old)
    by_hash = defaultdict(list)
    for p in fresh:
        by_hash[hashlib.sha1(new[p]).hexdigest()].append(p)
    moves, taken = {}, set()
    for p in gone:
        same = [q for q in by_hash.get(hashlib.sha1(old[p]).hexdigest(), []) if q not in taken]
        named = [q for q in same if posixpath.basename(q) == posixpath.basename(p)]
        if named or same:
            moves[p] = (named or same)[0]
            taken.add(moves[p])
    for p in gone:
        if p in moves or not p.endswith(".py"):
            continue
        cands = [
            q for q in fresh if q not in taken and posixpath.basename(q) == posixpath.basename(p)
        ]
        scored = [(difflib.SequenceMatcher(None, old[p], new[q]).ratio(), q) for q in cands]
        if scored and max(scored)[0] >= SIMILAR:
            moves[p] = max(scored)[1]
            taken.add(moves[p])
    _loaders_follow_data(old, new, moves)
    return moves


def _loaders_follow_data(old, new, moves) -> None:
    """A moved `configs/` directory takes the modules that load it beside it (to the
    same-named new module there), as the release did when it split a loader off."""
    config_dirs = {}
    for f, t in moves.items():
        if "/configs/" in f and "/configs/" in t:
            config_dirs[f.split("/configs/")[0]] = t.split("/configs/")[0]
    for old_dir, new_dir in config_dirs.items():
        for f, text in old.items():
            if posixpath.dirname(f) != old_dir or not f.endswith(".py") or f in moves:
                continue
            looks = b"__file__" in text and b'"configs"' in text
            target = f"{new_dir}/{posixpath.basename(f)}"
            if looks and target in new and target not in moves.values() and target not in old:
                moves[f] = target


def _dotted(path: str) -> str:
    path = path[: -len("/__init__.py")] if path.endswith("/__init__.py") else path[:-3]
    return path.replace("/", ".")


def collapse(moves: dict[str, str], old_files: set[str]) -> list[tuple[str, str]]:
    """The moves as plan entries: whole directories where every file went the same way,
    dotted for Python packages and modules, paths for data."""
    entries: list[tuple[str, str]] = []
    covered: set[str] = set()
    dirs = sorted({posixpath.dirname(p) for p in moves}, key=lambda d: d.count("/"))
    for d in dirs:
        if any(d == c or d.startswith(c + "/") for c in covered):
            continue
        under = [f for f in old_files if f.startswith(d + "/")]
        if len(under) < 2 or not all(f in moves for f in under):
            continue
        new_dir = moves[under[0]][: len(moves[under[0]]) - len(under[0]) + len(d)]
        if all(moves[f] == new_dir + f[len(d) :] for f in under):
            covered.add(d)
            if f"{d}/__init__.py" in under:
                entries.append((_dotted(d + "/__init__.py"), _dotted(new_dir + "/__init__.py")))
            else:
                entries.append((d + "/", new_dir + "/"))
    for f, t in sorted(moves.items()):
        if any(f.startswith(c + "/") for c in covered):
            continue
        if f.endswith(".py") and not f.endswith("/__init__.py"):
            entries.append((_dotted(f), _dotted(t)))
        else:
            entries.append((f, t))
    return entries


def groups_of(root: Path) -> list[str]:
    text = (root / OPS_DIR / "__init__.py").read_text()
    for node in ast.parse(text).body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "_GROUPS":
            return list(ast.literal_eval(node.value))
    raise ValueError("no _GROUPS")


def plan_text(old_root: Path, new_root: Path) -> tuple[str, dict]:
    """The replay plan and what it was built from."""
    moves = content_moves(old_root, new_root)
    old_files = set(_files(old_root))
    entries = collapse(moves, old_files)
    old_groups, new_groups = groups_of(old_root), groups_of(new_root)
    removed = []
    for g in old_groups:
        if g in new_groups:
            continue
        pkg = [f for f in old_files if f.startswith(f"{OPS_DIR}/{g}/")]
        if pkg and all(f in moves or f.endswith("/__init__.py") for f in pkg):
            removed.append(g)
    added = sorted({t.split("/")[3] for t in moves.values() if t.count("/") > 3} - set(old_groups))
    # a package the map empties whose __init__ the newer release no longer has is deleted
    new_files = set(_files(new_root))
    deleted = sorted(
        _dotted(f)
        for f in old_files
        if f.endswith("/__init__.py")
        and f not in moves
        and f not in new_files
        and f.count("/") > 4
        and all(
            g in moves or g.endswith("/__init__.py")
            for g in old_files
            if g.startswith(f.rsplit("/", 1)[0] + "/")
        )
    )
    lines = ["version: 1", "roots: [.]", "moves:"]
    lines += [f"  - from: {s}\n    to: {d}" for s, d in entries]
    if removed or added:
        lines.append("groups:")
        if removed:
            lines.append(f"  remove: [{', '.join(removed)}]")
        if added:
            lines.append(f"  add: [{', '.join(added)}]")
    if deleted:
        lines.append(f"delete: [{', '.join(deleted)}]")
    facts = {
        "files": len(moves),
        "entries": len(entries),
        "removed": removed,
        "added": added,
        "deleted": deleted,
    }
    return "\n".join(lines) + "\n", facts


_IMPORT = re.compile(r"^\s*(?:from\s+(sglang\.[\w.]+)\s+import|import\s+(sglang\.[\w.]+))", re.M)


def unresolved_imports(root: Path) -> set[tuple[str, str]]:
    """(file, module) of absolute `sglang.*` imports naming no module or package."""
    mods = set()
    for p in root.rglob("*.py"):
        rel = p.relative_to(root).with_suffix("").as_posix()
        name = rel[: -len("/__init__")] if rel.endswith("/__init__") else rel
        mods.add(name.replace("/", "."))
    packages = {".".join(m.split(".")[:i]) for m in mods for i in range(1, m.count(".") + 1)}
    known = mods | packages
    out = set()
    for p in root.rglob("*.py"):
        for m in _IMPORT.finditer(p.read_text(errors="replace")):
            name = m.group(1) or m.group(2)
            if name not in known:
                out.add((p.relative_to(root).as_posix(), name))
    return out


def _texts(root: Path):
    for p in root.rglob("*"):
        if p.is_file() and ".git" not in p.parts and p.suffix in (".py", ".md", ".toml", ".txt"):
            yield p, p.read_text(errors="replace")


def _group_dirs(root: Path) -> set[str]:
    return {p.name for p in (root / OPS_DIR).iterdir() if (p / "__init__.py").exists()}


def _readme_groups(root: Path) -> list[str]:
    text = (root / "sglang/kernels/README.md").read_text()
    m = re.search(r"Operator groups \(all populated\):((?:\s*`\w+`[,.]?(?: and)?)+)", text)
    return re.findall(r"`(\w+)`", m.group(1)) if m else []


def _lookup_targets(root: Path) -> set[str]:
    """Every directory or file a loader's path expression names in the tree at `root`."""
    from migrate.index import build_index
    from migrate.rewrite.data_paths import _Paths

    index = build_index(root, (".",))
    out = set()
    for path in index.python_files():
        text = index.text(path) or ""
        if "__file__" not in text:
            continue
        tree = ast.parse(text)
        for _, _, t in _Paths(tree, path, index).lookups(tree):
            if not path.startswith(t + "/"):  # the loader's own ancestors are not data
                out.add(t)
    return out


def _registered_ops(root: Path) -> list[str]:
    from migrate.rules.context import Context
    from migrate.rules.load import repo_tree

    return [reg.op for _, reg in Context(repo_tree(root)[1]).registrations if reg.op]


def _ko(root: Path, rule: str) -> int:
    from migrate.rules.load import repo_tree
    from migrate.rules.registry import run_rules

    return sum(f.check == rule for f in run_rules(repo_tree(root)[1]))


def result_checks(base: Path, head: Path, moved_modules: dict, old_ops: list, configs) -> dict:
    """Judge the result tree by text, imports, rules and loaders (not by the engine)."""
    left_names = 0
    left_ops = 0
    names = re.compile(
        r"(?<![\w.])(?:" + "|".join(re.escape(m) for m in sorted(moved_modules)) + r")(?![\w])"
    )
    ops = re.compile(r"""["'`](?:""" + "|".join(re.escape(o) for o in old_ops) + r""")["'`]""")
    for _, text in _texts(head):
        left_names += len(names.findall(text))
        left_ops += len(ops.findall(text)) if old_ops else 0
    before = {m for _, m in unresolved_imports(base)}
    after = {m for _, m in unresolved_imports(head)}
    targets = _lookup_targets(head)
    misplaced = [c for c in configs if not any(c == t or c.startswith(t + "/") for t in targets)]
    groups = groups_of(head)
    registered = set(old_ops) & set(_registered_ops(head))
    return {
        "old_op_ids_registered": len(registered),
        "old_module_names_left": left_names,
        "old_op_ids_left": left_ops,
        "new_unresolved_imports": sorted(after - before),
        "unresolved_imports_base": len(before),
        "unresolved_registry_targets": _ko(head, "KO204"),
        "unresolved_registry_targets_base": _ko(base, "KO204"),
        "groups_equal_dirs": set(groups) == _group_dirs(head),
        "groups_equal_readme": sorted(groups) == sorted(_readme_groups(head)),
        "configs_moved": len(configs),
        "configs_not_where_loader_looks": misplaced,
    }

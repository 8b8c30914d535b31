"""Check a parsed plan against the repository: every problem, positioned, in one pass."""

from __future__ import annotations

import ast
import difflib
import os
from collections import defaultdict
from pathlib import Path

from migrate.errors import Diagnostic, Pos
from migrate.index.repo import RepoIndex
from migrate.plan.model import Plan
from migrate.plan.validate_groups import group_removal_problems
from migrate.relocate import build_relocation


def _did_you_mean(name: str, candidates) -> str:
    match = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.75)
    return f" (did you mean {match[0]}?)" if match else ""


def top_level_names(source: str) -> set[str]:
    """Names bound by top-level definitions and assignments of a module."""
    names: set[str] = set()
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                if isinstance(t, ast.Name):
                    names.add(t.id)
    return names


def _escapes(index: RepoIndex, path: str) -> bool:
    """True when `path` (or a symlink on the way) resolves outside the repository."""
    full = (index.root / path).resolve()
    return os.path.commonpath([full, index.root]) != str(index.root)


def validate_plan(plan: Plan, index: RepoIndex) -> list[Diagnostic]:
    errors: list[Diagnostic] = []

    def err(pos: Pos, msg: str) -> None:
        errors.append(Diagnostic(pos, msg))

    for root in plan.roots:
        if root != "." and not any(p.startswith(root + "/") for p in index.files):
            err(plan.positions.get("roots", Pos(plan.path, 1, 1)), f"root {root!r} holds no files")

    targets: dict[str, Pos] = {}
    sources_moved: set[str] = set()
    module_names = set(index.modules) | index.packages
    for mv in plan.moves:
        if mv.is_path:
            src = mv.src.rstrip("/")
            if _escapes(index, src) or _escapes(index, mv.dst.rstrip("/")):
                err(mv.src_pos, f"move {mv.src!r} -> {mv.dst!r} leaves the repository (symlink)")
                continue
            if src not in index.files and not index.files_under(src):
                err(
                    mv.src_pos,
                    f"move source {mv.src} does not exist"
                    + _did_you_mean(
                        src, {p.rsplit("/", 1)[0] for p in index.files} | set(index.files)
                    ),
                )
                continue
            key = mv.dst.rstrip("/")
            if key == src or key.startswith(src + "/"):
                err(mv.dst_pos, f"move target {mv.dst} is inside its own source {mv.src}")
                continue
            sources_moved.add(src)
            dst_exists = key in index.files or bool(index.files_under(key))
        elif mv.is_symbol:
            mod, sym = mv.src.split(":")
            if mod not in index.modules:
                err(
                    mv.src_pos,
                    f"move source module {mod} does not exist" + _did_you_mean(mod, index.modules),
                )
                continue
            text = index.text(index.modules[mod]) or ""
            try:
                names = top_level_names(text)
            except SyntaxError as exc:
                err(
                    Pos(index.modules[mod], exc.lineno or 0, exc.offset or 0),
                    f"cannot parse {mod}: {exc.msg}",
                )
                continue
            if sym not in names:
                err(
                    mv.src_pos,
                    f"{sym!r} is not a top-level definition of {mod}" + _did_you_mean(sym, names),
                )
                continue
            key = f"{mv.dst}:{sym}"
            dst_exists = False
            if mv.dst in index.modules:
                dst_text = index.text(index.modules[mv.dst]) or ""
                try:
                    dst_exists = sym in top_level_names(dst_text)
                except SyntaxError:
                    dst_exists = False
        else:
            if mv.src not in module_names:
                err(
                    mv.src_pos,
                    f"move source {mv.src} does not exist" + _did_you_mean(mv.src, module_names),
                )
                continue
            if mv.dst == mv.src or mv.dst.startswith(mv.src + "."):
                err(mv.dst_pos, f"move target {mv.dst} is inside its own source {mv.src}")
                continue
            sources_moved.add(mv.src)
            key = mv.dst
            dst_exists = mv.dst in module_names and not any(
                mv.dst == s or mv.dst.startswith(s + ".") for s in sources_moved
            )
        if key in targets:
            err(mv.dst_pos, f"two moves to one target {mv.dst} (first at line {targets[key].line})")
            continue
        targets[key] = mv.dst_pos
        if dst_exists:
            err(mv.dst_pos, f"move target {mv.dst} already exists")

    rel = None
    if not errors:
        rel = build_relocation(plan, index)
        errors.extend(_check_file_collisions(plan, index, rel))

    op_from: dict[str, Pos] = {}
    for op in plan.op_ids:
        if op.src in op_from:
            err(op.pos, f"op id {op.src} renamed twice (first at line {op_from[op.src].line})")
        op_from[op.src] = op.pos

    outputs: dict[str, Pos] = {}
    for sp in plan.splits:
        if sp.file not in index.files:
            err(
                sp.pos,
                f"split file {sp.file} does not exist"
                + _did_you_mean(sp.file, [p for p in index.files if p.endswith(".py")]),
            )
        for out in sp.into:
            if out.path in outputs:
                err(out.pos, f"split output {out.path} used twice")
            elif out.path in index.files and out.path != sp.file:
                err(out.pos, f"split output {out.path} already exists")
            outputs[out.path] = out.pos

    for name, pos in zip(plan.delete, plan.delete_pos, strict=False):
        if not index.is_package(name):
            err(pos, f"delete target {name} is not a package" + _did_you_mean(name, index.packages))
    if not errors and plan.delete and rel is not None:
        errors.extend(_check_deletes_emptied(plan, index, rel))
    if rel is not None:
        errors.extend(group_removal_problems(plan, index, rel))
    return errors


def _check_file_collisions(plan: Plan, index: RepoIndex, rel) -> list[Diagnostic]:
    by_target: dict[str, list[str]] = defaultdict(list)
    for old, new in rel.files.items():
        by_target[new].append(old)
    out = _file_dir_conflicts(plan, index, rel) + _submodules_left(plan, index, rel)
    moved = set(rel.files)
    for new, olds in sorted(by_target.items()):
        if len(olds) > 1:
            out.append(
                Diagnostic(
                    Pos(plan.path, 1, 1),
                    f"{len(olds)} files would move to {new}: {', '.join(olds)}",
                )
            )
        elif new in index.files and new not in moved:
            out.append(
                Diagnostic(
                    _move_pos_for(plan, olds[0], index), f"moving {olds[0]} would overwrite {new}"
                )
            )
    return out


def _gitlinks(root) -> list[str]:
    """Submodule paths of the work tree (gitlinks in the index); none outside git."""
    from migrate.git.runner import run_git

    out = run_git(root, "ls-files", "-s", "-z", check=False)
    found = []
    for rec in out.split(b"\0"):
        if rec.startswith(b"160000 "):
            found.append(rec.split(b"\t", 1)[1].decode("utf-8", "surrogateescape"))
    return found


def _submodules_left(plan: Plan, index: RepoIndex, rel) -> list[Diagnostic]:
    """A submodule inside a moved directory would stay behind, its gitlink at the old path."""
    if not rel.files:
        return []
    moved_dirs = {old.rpartition("/")[0] for old in rel.files}
    out = []
    for link in _gitlinks(index.root):
        parent = link.rpartition("/")[0]
        if parent in moved_dirs or any(d.startswith(link + "/") for d in moved_dirs):
            out.append(
                Diagnostic(
                    _move_pos_for(plan, link, index),
                    f"submodule {link} is inside a directory the plan moves; moving "
                    "submodules is not supported (move it with `git mv` first)",
                )
            )
    return out


def _kind(index: RepoIndex, path: str) -> str:
    return "symlink" if (index.root / path).is_symlink() else "file"


def _file_dir_conflicts(plan: Plan, index: RepoIndex, rel) -> list[Diagnostic]:
    """A moved file needs every parent to be a directory, and its own path not to be one.

    A file (or symlink) left at a parent of a target would be silently replaced by a
    directory in git's tree, and a target at a path where files stay would bury them.
    """
    moved = set(rel.files)
    final = (set(index.files) - moved) | set(rel.files.values())
    dirs: set[str] = set()
    for p in final:
        parts = p.split("/")
        dirs.update("/".join(parts[:i]) for i in range(1, len(parts)))
    out = []
    for old, new in sorted(rel.files.items()):
        parts = new.split("/")
        for i in range(1, len(parts)):
            parent = "/".join(parts[:i])
            if parent in final:
                what = _kind(index, parent) if parent in index.files else "moved file"
                out.append(
                    Diagnostic(
                        _move_pos_for(plan, old, index),
                        f"moving {old} to {new} needs {parent} to be a directory, "
                        f"but it is a {what}",
                    )
                )
                break
        if new in dirs:
            out.append(
                Diagnostic(
                    _move_pos_for(plan, old, index),
                    f"moving {old} to {new}: {new} is a directory that still holds files",
                )
            )
    return out


def _move_pos_for(plan: Plan, path: str, index: RepoIndex) -> Pos:
    mod = index.module_of(path) or ""
    best = None
    for mv in plan.moves:
        src = mv.src.split(":")[0].rstrip("/")
        if (
            path == src or path.startswith(src + "/") or mod == src or mod.startswith(src + ".")
        ) and (best is None or len(src) > len(best[0])):
            best = (src, mv.pos)
    return best[1] if best else Pos(plan.path, 1, 1)


def _check_deletes_emptied(plan: Plan, index: RepoIndex, rel) -> list[Diagnostic]:
    """A deleted legacy package must hold nothing but `__init__.py` files once moves ran."""
    split_sources = {sp.file for sp in plan.splits}
    out = []
    for name, pos in zip(plan.delete, plan.delete_pos, strict=False):
        d = index.package_dir(name)
        left = [
            f
            for f in index.files_under(d)
            if f not in rel.files
            and f not in split_sources
            and Path(f).name != "__init__.py"
            and "__pycache__" not in f
        ]
        if left:
            shown = ", ".join(left[:8]) + (f" and {len(left) - 8} more" if len(left) > 8 else "")
            out.append(
                Diagnostic(
                    pos,
                    f"delete {name}: {len(left)} file(s) would be lost "
                    f"(no move covers them): {shown}",
                )
            )
    return out

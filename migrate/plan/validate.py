"""Check a parsed plan against the repository: every problem, positioned, in one pass."""

from __future__ import annotations

import ast
import difflib
import os
import sys
from collections import defaultdict
from pathlib import Path

from migrate.errors import Diagnostic, Pos
from migrate.index.repo import RepoIndex
from migrate.plan.load import keyword_part
from migrate.plan.model import Plan
from migrate.plan.shadowing import shadowing_problems
from migrate.plan.validate_groups import group_removal_problems
from migrate.relocate import Relocation, build_relocation


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


def _path_move(mv, index: RepoIndex, err, sources_moved: set[str]):
    """A path move's target key and whether it exists; None after an error."""
    src = mv.src.rstrip("/")
    if _escapes(index, src) or _escapes(index, mv.dst.rstrip("/")):
        err(mv.src_pos, f"move {mv.src!r} -> {mv.dst!r} leaves the repository (symlink)")
        return None
    if src not in index.files and not index.files_under(src) and not _submodules_at(index, src):
        err(
            mv.src_pos,
            f"move source {mv.src} does not exist"
            + _did_you_mean(src, {p.rsplit("/", 1)[0] for p in index.files} | set(index.files)),
        )
        return None
    dst = mv.dst.rstrip("/")
    if dst == src or dst.startswith(src + "/"):
        err(mv.dst_pos, f"move target {mv.dst} is inside its own source {mv.src}")
        return None
    sources_moved.add(src)
    key = dst
    dst_exists = key in index.files or bool(index.files_under(key))
    return key, dst_exists


def _symbol_move(mv, index: RepoIndex, err):
    """A symbol move's target key and whether it exists; None after an error."""
    mod, sym = mv.src.split(":")
    if mod not in index.modules:
        err(
            mv.src_pos,
            f"move source module {mod} does not exist" + _did_you_mean(mod, index.modules),
        )
        return None
    text = index.text(index.modules[mod]) or ""
    try:
        names = top_level_names(text)
    except SyntaxError as exc:
        err(
            Pos(index.modules[mod], exc.lineno or 0, exc.offset or 0),
            f"cannot parse {mod}: {exc.msg}",
        )
        return None
    if sym not in names:
        err(
            mv.src_pos,
            f"{sym!r} is not a top-level definition of {mod}" + _did_you_mean(sym, names),
        )
        return None
    key = f"{mv.dst}:{sym}"
    dst_exists = False
    if mv.dst in index.modules:
        dst_text = index.text(index.modules[mv.dst]) or ""
        try:
            dst_exists = sym in top_level_names(dst_text)
        except SyntaxError:
            dst_exists = False
    return key, dst_exists


def _dotted_move(mv, module_names: set[str], err, sources_moved: set[str]):
    """A module or package move's target key and whether it exists; None after an error."""
    if mv.src not in module_names:
        err(
            mv.src_pos,
            f"move source {mv.src} does not exist" + _did_you_mean(mv.src, module_names),
        )
        return None
    if mv.dst == mv.src or mv.dst.startswith(mv.src + "."):
        err(mv.dst_pos, f"move target {mv.dst} is inside its own source {mv.src}")
        return None
    sources_moved.add(mv.src)
    key = mv.dst
    dst_exists = mv.dst in module_names and not any(
        mv.dst == s or mv.dst.startswith(s + ".") for s in sources_moved
    )
    return key, dst_exists


def _check_moves(plan: Plan, index: RepoIndex, err) -> None:
    """Every move's source exists, its target is not inside it, and no two moves (nor a
    move and an existing name) share a target."""
    targets: dict[str, Pos] = {}
    sources_moved: set[str] = set()
    module_names = set(index.modules) | index.packages
    for mv in plan.moves:
        if mv.is_path:
            found = _path_move(mv, index, err, sources_moved)
        elif mv.is_symbol:
            found = _symbol_move(mv, index, err)
        else:
            found = _dotted_move(mv, module_names, err, sources_moved)
        if found is None:
            continue
        key, dst_exists = found
        top = mv.dst.split(".")[0].split(":")[0]
        if not mv.is_path and top in sys.stdlib_module_names and top not in module_names:
            err(
                mv.dst_pos,
                f"move target {mv.dst} shadows the standard library module {top}: every "
                f"`import {top}` run from the import root would find it instead",
            )
            continue
        if key in targets:
            err(mv.dst_pos, f"two moves to one target {mv.dst} (first at line {targets[key].line})")
            continue
        targets[key] = mv.dst_pos
        if dst_exists:
            err(mv.dst_pos, f"move target {mv.dst} already exists")


def validate_plan(plan: Plan, index: RepoIndex) -> tuple[list[Diagnostic], Relocation | None]:
    """(every problem of `plan` against `index`, the relocation the checks ran on).

    The relocation is built once, here, as soon as the moves are known to be sound; the
    pipeline goes on with this one instead of building it again. It is None only when
    there are problems that stop it from being built."""
    errors: list[Diagnostic] = []

    def err(pos: Pos, msg: str) -> None:
        errors.append(Diagnostic(pos, msg))

    for root in plan.roots:
        if root != "." and not any(p.startswith(root + "/") for p in index.files):
            err(root.pos, f"root {root!r} holds no files")

    errors.extend(_check_name_limits(plan, index))
    if errors:  # an over-long name cannot even be looked up on disk
        return errors, None

    _check_moves(plan, index, err)
    rel = None
    if not errors:
        rel = build_relocation(plan, index)
        errors.extend(_check_file_collisions(plan, index, rel))
        errors.extend(_check_modules_stay_importable(plan, index, rel))
        errors.extend(
            shadowing_problems(plan, index, rel, lambda p: _move_dst_pos_for(plan, p, index))
        )
        errors.extend(_check_target_limits(plan, index, rel))

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

    for name in plan.delete:
        if not index.is_package(name):
            err(
                name.pos,
                f"delete target {name} is not a package" + _did_you_mean(name, index.packages),
            )
    if not errors and plan.delete and rel is not None:
        errors.extend(_check_deletes_emptied(plan, index, rel))
    if rel is not None:
        errors.extend(group_removal_problems(plan, index, rel))
    return errors, rel


def _check_file_collisions(plan: Plan, index: RepoIndex, rel) -> list[Diagnostic]:
    out = _file_dir_conflicts(plan, index, rel) + _submodules_in_the_way(plan, index, rel)
    targets = set(rel.files.values())
    shared = len(targets) < len(rel.files)  # else no two files share a target
    clash = {new for new in targets & index.files.keys() if new not in rel.files}
    if shared or clash:  # the sources of the few that clash, in the moves' order
        by_target: dict[str, list[str]] = defaultdict(list)
        for old, new in rel.files.items():
            if shared or new in clash:
                by_target[new].append(old)
        clash |= {new for new, olds in by_target.items() if len(olds) > 1}
    for new in sorted(clash):
        olds = by_target[new]
        if len(olds) > 1:
            out.append(
                Diagnostic(
                    _move_pos_for(plan, olds[-1], index),
                    f"{len(olds)} files would move to {new}: {', '.join(olds)}",
                )
            )
        elif new in index.files and new not in rel.files:
            out.append(
                Diagnostic(
                    _move_pos_for(plan, olds[0], index), f"moving {olds[0]} would overwrite {new}"
                )
            )
    return out


def _submodules_at(index: RepoIndex, path: str) -> bool:
    """Is `path` a submodule, or a directory holding one (a path move may name it)?"""
    return any(link == path or link.startswith(path + "/") for link in index.gitlinks)


def _submodules_in_the_way(plan: Plan, index: RepoIndex, rel) -> list[Diagnostic]:
    """Submodules move with their package (the engine's `submodules` pass); refused: a
    file moved into a submodule that stays (its files are another repository's), and a
    submodule whose new path is taken."""
    from migrate.git.submodules import checkout_problems

    links = sorted(index.gitlinks)
    moving = {link: rel.path(link) for link in links if rel.path(link) not in (None, link)}
    staying = [link for link in links if link not in moving]
    targets = set(rel.files.values())
    out = []
    for link in staying:
        inside = sorted(t for t in targets if t == link or t.startswith(link + "/"))
        if inside:
            old = next(o for o, n in rel.files.items() if n == inside[0])
            out.append(
                Diagnostic(
                    _move_pos_for(plan, old, index),
                    f"moving {old} to {inside[0]} puts it inside submodule {link}, "
                    "which the plan does not move (its files belong to its own repository)",
                )
            )
    for link, new in moving.items():
        pos = _move_pos_for(plan, link, index)
        out += [Diagnostic(pos, why) for why in checkout_problems(index.root, link)]
        kept = (new in index.files and new not in rel.files) or new in staying
        under = [p for p in index.files_under(new) if p not in rel.files]
        taken = kept or new in targets or under or any(t.startswith(new + "/") for t in targets)
        if taken:
            out.append(
                Diagnostic(
                    _move_pos_for(plan, link, index),
                    f"submodule {link} would move to {new}, which is already taken",
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
    dirs = _directories(final)
    out = []
    first: dict[str, str | None] = {}  # a target's directory -> `_first_file_parent`
    for old in sorted(rel.files):  # keys: the items' order, cheaper to sort
        new = rel.files[old]
        d = new.rpartition("/")[0]  # the parents of `new` are its directory's and it
        parent = first[d] if d in first else first.setdefault(d, _first_file_parent(new, final))
        if parent is not None:
            what = _kind(index, parent) if parent in index.files else "moved file"
            out.append(
                Diagnostic(
                    _move_pos_for(plan, old, index),
                    f"moving {old} to {new} needs {parent} to be a directory, but it is a {what}",
                )
            )
        if new in dirs:
            out.append(
                Diagnostic(
                    _move_pos_for(plan, old, index),
                    f"moving {old} to {new}: {new} is a directory that still holds files",
                )
            )
    return out


def _directories(paths) -> set[str]:
    """Every directory holding one of `paths` (a parent seen once stops the climb)."""
    dirs: set[str] = set()
    for p in paths:
        d = p.rpartition("/")[0]
        while d and d not in dirs:
            dirs.add(d)
            d = d.rpartition("/")[0]
    return dirs


def _first_file_parent(path: str, files: set[str]) -> str | None:
    """The shallowest parent of `path` that is one of `files`, or None."""
    cut = path.find("/")
    while cut != -1:
        if path[:cut] in files:
            return path[:cut]
        cut = path.find("/", cut + 1)
    return None


def _move_pos_for(plan: Plan, path: str, index: RepoIndex) -> Pos:
    mod = index.module_of(path) or ""
    best = None
    for mv in plan.moves:
        src = mv.src.split(":")[0].rstrip("/")
        pkg = None if mv.is_path or mv.is_symbol else index.package_dir(src)
        inside = bool(pkg) and path.startswith(pkg + "/")  # a non-Python path in a package
        if (
            path == src
            or path.startswith(src + "/")
            or mod == src
            or mod.startswith(src + ".")
            or inside
        ) and (best is None or len(src) > len(best[0])):
            best = (src, mv.pos)
    return best[1] if best else Pos(plan.path, 1, 1)


def _check_deletes_emptied(plan: Plan, index: RepoIndex, rel) -> list[Diagnostic]:
    """A deleted legacy package must hold nothing but `__init__.py` files once moves ran
    (a file that symbol moves leave with nothing of its own counts as moved), and no
    submodule the plan leaves in it: deleting it would discard another repository's
    checkout, and leaving it would keep the package."""
    from migrate.rewrite.symbols import emptied_by_symbol_moves

    split_sources = {sp.file for sp in plan.splits}
    if plan.delete and rel.symbols:
        split_sources |= emptied_by_symbol_moves(index, rel)
    links = sorted(index.gitlinks) if plan.delete else []
    out = []
    for name in plan.delete:
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
                    name.pos,
                    f"delete {name}: {len(left)} file(s) would be lost "
                    f"(no move covers them): {shown}",
                )
            )
        for link in links:
            if link.startswith(d + "/") and rel.path(link) in (None, link):
                out.append(
                    Diagnostic(
                        name.pos,
                        f"delete {name}: submodule {link} is inside it and the plan does not "
                        f"move it (remove it first with `git rm {link}`, or move it out with "
                        "a path move)",
                    )
                )
    return out


def _check_modules_stay_importable(plan: Plan, index: RepoIndex, rel) -> list[Diagnostic]:
    """A moved Python module must land under an import root with an importable name.

    Otherwise its importers would break with nothing to rewrite them to (a path move
    out of `python/`, a target directory named `class` or `my-ops`).
    """
    from migrate.index.repo import root_of_path
    from migrate.index.tree import module_name

    out = []
    for old in sorted(rel.files):  # keys: the items' order, cheaper to sort
        new = rel.files[old]
        info = index.files.get(old)
        if info is None or not info.module:
            continue
        root = root_of_path(index.roots, new)
        new_mod = module_name(new, root) if root is not None else None
        if root is None:
            shown = ", ".join(index.roots)
            out.append(
                Diagnostic(
                    _move_dst_pos_for(plan, old, index),
                    f"moving {old} to {new} takes module {info.module} out of every import "
                    f"root ({shown}); its importers could not be rewritten",
                )
            )
        elif new_mod is None or (kw := keyword_part(new_mod)) is not None:
            why = f"the Python keyword {kw!r}" if new_mod else "a part that is not an identifier"
            out.append(
                Diagnostic(
                    _move_dst_pos_for(plan, old, index),  # only for a problem: it scans moves
                    f"moving {old} to {new}: its module name under {root} has {why}; "
                    f"module {info.module} would not be importable",
                )
            )
    return out


def _limits(index: RepoIndex) -> tuple[int, int, int]:
    """(NAME_MAX, PATH_MAX) in bytes for the repository's file system, and the length in
    bytes of the repository's own path (checked once, not once per file)."""
    try:
        name_max = os.pathconf(index.root, "PC_NAME_MAX")
        path_max = os.pathconf(index.root, "PC_PATH_MAX")
    except (OSError, ValueError, AttributeError):
        name_max, path_max = 255, 4096
    return name_max, path_max, len(os.fsencode(str(index.root)))


def _too_long(path: str, limits: tuple[int, int, int]) -> str | None:
    name_max, path_max, root_len = limits
    raw = os.fsencode(path)
    if len(raw) > name_max:  # else no part of it can be too long
        for part in path.split("/"):
            n = len(os.fsencode(part))
            if n > name_max:
                shown = part if len(part) <= 40 else part[:40] + "..."
                return f"the name {shown} is {n} bytes (this file system allows {name_max})"
    n = root_len + (1 + len(raw) if path not in ("", ".") else 0)  # the full path's length
    if n >= path_max:
        return f"the full path is {n} bytes (this file system allows {path_max - 1})"
    return None


def _check_name_limits(plan: Plan, index: RepoIndex) -> list[Diagnostic]:
    """Every path the plan spells must fit the file system, before anything touches it."""
    limits = _limits(index)
    spelled: list[tuple[str, str, Pos]] = []  # (as written, as a path, where)
    for mv in plan.moves:
        for name, pos in ((mv.src, mv.src_pos), (mv.dst, mv.dst_pos)):
            mod = name.split(":")[0]
            spelled.append((name, mod.rstrip("/") if "/" in mod else mod.replace(".", "/"), pos))
    for sp in plan.splits:
        spelled.append((sp.file, sp.file, sp.pos))
        spelled.extend((out.path, out.path, out.pos) for out in sp.into)
    out = []
    for name, path, pos in spelled:
        why = _too_long(path, limits)
        if why:
            shown = name if len(name) <= 60 else name[:60] + "..."
            out.append(Diagnostic(pos, f"{shown}: {why}"))
    return out


def _check_target_limits(plan: Plan, index: RepoIndex, rel) -> list[Diagnostic]:
    """Every file a move creates must fit the file system (a deep package under a long root)."""
    limits = _limits(index)
    name_max, path_max, root_len = limits
    longest = max(  # in bytes: an ASCII path's length is its size
        (len(p) if p.isascii() else len(os.fsencode(p)) for p in rel.files.values()), default=0
    )
    if longest <= name_max and root_len + 1 + longest < path_max:
        return []  # no target, nor any name in one, is that long
    out = []
    for old in sorted(rel.files):  # keys: the items' order, cheaper to sort
        new = rel.files[old]
        why = _too_long(new, limits)
        if why:
            out.append(Diagnostic(_move_dst_pos_for(plan, old, index), f"moving {old}: {why}"))
    return out


def _move_dst_pos_for(plan: Plan, path: str, index: RepoIndex) -> Pos:
    """The `to:` position of the move that carries `path` (longest source wins)."""
    pos = _move_pos_for(plan, path, index)
    return next((mv.dst_pos for mv in plan.moves if mv.pos == pos), pos)

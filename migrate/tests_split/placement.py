"""Where moved and split test files land, checked against the kernel test layout rules.

Numerical kernel tests belong in `test/registered/kernels/ops/<group>/`, CI benchmarks
in `test/registered/kernels/benchmark/<group>/`; a plan that sends one elsewhere still
runs, so this is a warning the reviewer sees, not an error.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from migrate.errors import Diagnostic, Pos
from migrate.index import RepoIndex
from migrate.plan.model import Plan
from migrate.relocate import build_relocation
from migrate.tests_split.inventory import is_test_name
from migrate.tests_split.registrations import parse_registrations

OPS = "test/registered/kernels/ops/"
BENCH = "test/registered/kernels/benchmark/"
ALSO_OK = ("test/registered/unit/kernels/", "test/manual/kernels/")
KERNEL_REF = re.compile(r"\bsglang\.(jit_kernel|kernels)\b|\bsgl_kernel\b")


def known_groups(plan: Plan, index: RepoIndex) -> set[str]:
    groups = set(plan.groups_add)
    ops_dir = index.package_dir("sglang.kernels.ops")
    if ops_dir:
        for f in index.files_under(ops_dir):
            parts = f[len(ops_dir) + 1 :].split("/")
            if len(parts) > 1 and not parts[0].startswith(("_", ".")):
                groups.add(parts[0])
    return groups


def is_kernel_test(path: str, text: str | None) -> bool:
    return "jit_kernel" in path or "/kernels/" in path or bool(text and KERNEL_REF.search(text))


def is_benchmark(path: str) -> bool:
    p = PurePosixPath(path)
    return p.name.startswith("bench") or "benchmark" in p.parts


def check_destination(dst: str, registered: bool, bench: bool, groups: set[str]) -> str | None:
    """Why `dst` breaks the layout rules for a kernel test, or None."""
    if dst.startswith("python/") and registered:
        return f"{dst}: no registered test may live under python/ (use test/registered/)"
    base = BENCH if bench else OPS
    if dst.startswith(base):
        rest = dst[len(base) :].split("/")
        if len(rest) < 2:
            return f"{dst}: kernel tests go in a group directory, {base}<group>/"
        if groups and rest[0] not in groups:
            return f"{dst}: {rest[0]!r} is not an ops group ({', '.join(sorted(groups))})"
        return None
    if dst.startswith(ALSO_OK) and not (registered and dst.startswith("test/manual/")):
        return None
    kind = "benchmark" if bench else "kernel test"
    return f"{dst}: a {kind} belongs in {base}<group>/"


def _move_pos(plan: Plan, index: RepoIndex, path: str) -> Pos:
    mod = index.module_of(path) or ""
    best: tuple[int, Pos] | None = None
    for mv in plan.moves:
        src = mv.src.split(":")[0].rstrip("/")
        hit = path == src or path.startswith(src + "/") or mod == src or mod.startswith(src + ".")
        if hit and (best is None or len(src) > best[0]):
            best = (len(src), mv.pos)
    return best[1] if best else Pos(plan.path, 1, 1)


def placement_warnings(plan: Plan, index: RepoIndex) -> list[Diagnostic]:
    """A warning for each moved or split-out kernel test the plan puts in the wrong place."""
    rel = build_relocation(plan, index)
    groups = known_groups(plan, index)
    out: list[Diagnostic] = []

    def check(src: str, dst: str, pos: Pos) -> None:
        text = index.text(src) if src in index.files else None
        try:
            registered = bool(text and parse_registrations(text, src))
        except SyntaxError:
            registered = False
        if not (is_test_name(src) or is_test_name(dst) or registered):
            return
        if not is_kernel_test(src, text):
            return
        why = check_destination(dst, registered, is_benchmark(src) or is_benchmark(dst), groups)
        if why:
            out.append(Diagnostic(pos, why, "warning"))

    split_sources = {sp.file for sp in plan.splits}
    for old, new in sorted(rel.files.items()):
        if old.endswith(".py") and old not in split_sources:
            check(old, new, _move_pos(plan, index, old))
    for sp in plan.splits:
        for o in sp.into:
            check(sp.file, o.path, o.pos)
    return out

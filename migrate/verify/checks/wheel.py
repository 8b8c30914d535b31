"""Every file the BASE wheel ships, the HEAD wheel ships too, at its relocated path.

A `package-data` glob written for the old layout (`configs/*` where the files now sit a
level deeper, or a path naming the old package) silently drops tuning files; only a
built wheel shows it. Both wheels are built from the packaging root (the directory with
pyproject.toml or setup.py: the repo top, or e.g. `python/`) by `wheelbuild`.

When neither revision builds, the check could not run (exit 3, never a failed
migration); when BASE builds and HEAD does not, the migration broke the build: FAIL.
"""

from __future__ import annotations

import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from migrate.verify.context import VerifyContext
from migrate.verify.result import FAIL, NOT_RUN, SKIP, CheckResult, Finding
from migrate.verify.wheelbuild import CannotBuild, wheel_files

NAME = "wheel-contents"
CONFIGS = ("pyproject.toml", "setup.py", "setup.cfg", "MANIFEST.in")


def packaging_root(tree: Path) -> Path | None:
    for cand in [tree, tree / "python", *sorted(p for p in tree.iterdir() if p.is_dir())]:
        if (cand / "setup.py").is_file() or (cand / "pyproject.toml").is_file():
            return cand
    return None


def _build(root: Path, out: Path) -> list[str] | CannotBuild:
    try:
        return wheel_files(root, out)
    except CannotBuild as exc:
        return exc


def _glob_line(root: Path) -> tuple[str, int]:
    """The packaging file and line that declares package data, for the finding."""
    for name in CONFIGS:
        p = root / name
        if p.is_file():
            for i, line in enumerate(p.read_text(errors="replace").splitlines(), 1):
                if "package-data" in line or "package_data" in line or "include" in line:
                    return name, i
    return CONFIGS[0], 0


def repo_path(files: set[str], prefix: str, wheel_path: str) -> str | None:
    for cand in (f"{prefix}{wheel_path}", f"{prefix}src/{wheel_path}"):
        if cand in files:
            return cand
    return None


def check(ctx: VerifyContext) -> CheckResult:
    if ctx.base_dir is None:
        return CheckResult(NAME, SKIP, summary="no BASE tree")
    base_root, head_root = packaging_root(ctx.base_dir), packaging_root(ctx.head_dir)
    if base_root is None or head_root is None:
        return CheckResult(NAME, SKIP, summary="no pyproject.toml or setup.py found")
    prefix = base_root.relative_to(ctx.base_dir).as_posix()
    prefix = "" if prefix == "." else prefix + "/"
    with tempfile.TemporaryDirectory(prefix="migrate-wheel-") as tmp:
        outs = [Path(tmp) / "base", Path(tmp) / "head"]
        key = ("wheel", ctx.base_rev)
        with ThreadPoolExecutor(2) as pool:
            base_job = None if key in ctx.cache else pool.submit(_build, base_root, outs[0])
            head_built = pool.submit(_build, head_root, outs[1]).result()
            if base_job is not None:
                ctx.cache[key] = base_job.result()
        base_built = ctx.cache[key]
    if isinstance(base_built, CannotBuild):
        return CheckResult(NAME, NOT_RUN, summary=f"no BASE wheel could be built: {base_built}")
    if isinstance(head_built, CannotBuild):
        where = head_root.relative_to(ctx.head_dir).as_posix()
        msg = f"BASE builds a wheel, HEAD does not: {head_built}"
        return CheckResult(NAME, FAIL, [Finding(where, 0, NAME, msg)])
    base_files, head_files = base_built, head_built
    head_set = set(head_files)
    base_index, head_index = set(ctx.base.index.files), set(ctx.head.index.files)
    config, line = _glob_line(head_root)
    findings = []
    for w in sorted(base_files):
        old = repo_path(base_index, prefix, w)
        new = old
        for rel in ctx.relocations:
            new = rel.path(new) or new if new else new
        if old is not None and new not in head_index:
            continue  # the plan removed it
        lead = old[: len(old) - len(w)] if old else prefix  # what repo_path put before w
        new_w = new[len(lead) :] if new and new.startswith(lead) else w
        if new_w not in head_set:
            moved = f" (moved from {old})" if old and new != old else ""
            findings.append(
                Finding(
                    new or w,
                    0,
                    NAME,
                    f"{new_w}{moved} is missing from the HEAD wheel",
                    f"check the package-data globs in {prefix}{config}:{line}",
                )
            )
    return CheckResult.of(
        NAME, findings, f"BASE wheel {len(base_files)} files, HEAD wheel {len(head_files)}"
    )

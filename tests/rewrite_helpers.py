"""Helpers for the rewrite tests: assertCodemod-style before/after over a real tmp repo,
and applying a whole ChangeSet to a scratch tree (moves, edits, writes, removals).

Every case runs twice: `changes()` applies the ChangeSet to a scratch copy and runs the
rewriter again on it (`fix_changes`, the plan's reference rewrite on a tree already in the
new layout); the second run must find nothing more to edit.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

from migrate.changes import ChangeSet
from migrate.index import build_index
from migrate.materialize import materialize
from migrate.pipeline import prepare
from migrate.rewrite.engine import plan_changes
from migrate.rewrite.fix_mode import fix_changes

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "golden" / "rewrite"


def dedent(s: str) -> str:
    return textwrap.dedent(s).lstrip("\n")


def plan_yaml(moves: list[tuple[str, str]], extra: str = "", roots=None) -> str:
    lines = ["version: 1"]
    if roots:
        lines.append("roots: [" + ", ".join(roots) + "]")
    lines.append("moves:")
    for src, dst in moves:
        lines += [f"  - from: {src}", f"    to: {dst}"]
    return "\n".join(lines) + "\n" + extra


def changes(make_repo, files: dict, moves, extra: str = "", roots=None, **kw):
    """(Prepared, ChangeSet) for `files` and a plan of `moves` (plan kept outside the repo)."""
    repo = make_repo({k: dedent(v) if isinstance(v, str) else v for k, v in files.items()})
    plan = repo.parent / f"{repo.name}-plan.yaml"
    plan.write_text(plan_yaml(moves, extra, roots))
    prep = prepare(plan, repo)
    cs = plan_changes(prep, **kw)
    skip = kw.get("skip_unparsable", False)
    assert_second_run_changes_nothing(prep, cs, repo.parent / f"{repo.name}-applied", skip)
    return prep, cs


def assert_second_run_changes_nothing(
    prep, cs: ChangeSet, scratch: Path, skip_unparsable: bool = False
) -> None:
    """Apply `cs` to a copy of the repo at `scratch`; the rewriter run on it edits nothing."""
    shutil.copytree(prep.index.root, scratch, ignore=shutil.ignore_patterns(".git"))
    apply_changeset(scratch, prep, cs)
    assert second_run_edits(prep, scratch, skip_unparsable) == []


def second_run_edits(prep, applied: Path, skip_unparsable: bool = False) -> list[str]:
    """The edits the rewriter still makes on `applied`, the tree the first run produced."""
    again = fix_changes(prep.plan, build_index(applied, prep.plan.roots), skip_unparsable)
    return [f"{e.path}:{e.line} {e.old!r} -> {e.new!r}" for e in again.edits]


def new_text(prep, cs: ChangeSet, new_path: str) -> str:
    """`new_path`'s text in the tree the ChangeSet leaves (the one materializer)."""
    return materialize(cs, prep.index).text(new_path)


def assert_rewrite(make_repo, files: dict, moves, path: str, expected: str, **kw):
    """Before/after for one file (`path` is where the file ends up)."""
    prep, cs = changes(make_repo, files, moves, **kw)
    assert new_text(prep, cs, path) == dedent(expected)
    return prep, cs


def apply_changeset(root: Path, prep, cs: ChangeSet) -> None:
    """Write the ChangeSet's materialized tree over the tree at `root` (bytes-exact)."""
    tree = materialize(cs, prep.index)
    changes = tree.changes()
    staged = {new: tree.read_bytes(new) for _, new in changes if new is not None}
    for old, new in changes:
        if old is not None and old != new:
            (root / old).unlink()
    for new, data in staged.items():
        (root / new).parent.mkdir(parents=True, exist_ok=True)
        (root / new).write_bytes(data)
    for d in sorted((p for p in root.rglob("*") if p.is_dir()), key=lambda p: -len(p.parts)):
        if d.is_dir() and not any(d.iterdir()):
            shutil.rmtree(d)


def run_check(root, module: str) -> None:
    res = subprocess.run(
        [sys.executable, "-c", f"import {module} as m; m.check()"],
        cwd=root,
        capture_output=True,
        text=True,
    )
    assert res.returncode == 0, res.stderr


def rewrite_and_run(
    make_repo, tmp_path, files: dict, moves, module: str, extra: str = "", roots=None
):
    """Apply the plan (`moves` plus `extra` plan YAML) to a scratch copy, execute
    `module.check()`, and prove a second run finds nothing more. A run with an error note
    is one apply refuses: no tree to execute. Returns (prep, cs, out)."""
    prep, cs = changes(make_repo, files, moves, extra, roots)
    errors = [str(n) for n in cs.notes if n.severity == "error"]
    assert not errors, errors
    out = tmp_path / "out"
    shutil.copytree(prep.index.root, out, ignore=shutil.ignore_patterns(".git"))
    apply_changeset(out, prep, cs)
    run_check(out, module)
    again = fix_changes(prep.plan, build_index(out, prep.plan.roots))
    assert again.edits == [], [(e.path, e.old, e.new) for e in again.edits]
    return prep, cs, out


@dataclass
class GoldenCase:
    """golden/rewrite/<name>/: the files before, the plan, the module that checks itself."""

    files: dict[str, str]
    moves: list[tuple[str, str]]
    extra: str  # plan YAML besides version, roots and moves (delete, op_ids, ...)
    roots: list[str] | None
    checked: str | None  # path of the module defining `check()`

    @property
    def module(self) -> str:
        return self.checked[:-3].replace("/", ".")


def golden_case(name: str) -> GoldenCase:
    """The cases are the goldens: tests/test_rewrite_golden.py compares their output with
    after/ and edits.txt; the form tests execute them (one source for both)."""
    import yaml

    here = GOLDEN_DIR / name
    files = {
        p.relative_to(here / "before").as_posix(): p.read_text()
        for p in sorted((here / "before").rglob("*"))
        if p.is_file()
    }
    checked = [k for k, v in files.items() if "\ndef check():" in "\n" + v]
    plan = yaml.safe_load((here / "plan.yaml").read_text())
    rest = {k: v for k, v in plan.items() if k not in ("version", "roots", "moves")}
    roots = plan.get("roots")
    return GoldenCase(
        files,
        [(m["from"], m["to"]) for m in plan.get("moves") or []],
        yaml.safe_dump(rest, sort_keys=False) if rest else "",
        None if roots in (None, ["."]) else roots,
        checked[0] if len(checked) == 1 else None,
    )


def run_golden_case(make_repo, tmp_path, name: str):
    """(prep, cs, out, case): golden `name` applied to a scratch copy, its checked
    module executed, a second run changing nothing."""
    case = golden_case(name)
    prep, cs, out = rewrite_and_run(
        make_repo, tmp_path, case.files, case.moves, case.module, case.extra, case.roots
    )
    return prep, cs, out, case


def undefined_names(root) -> list[str]:
    """ruff's F821 (undefined name, string and lazy annotations included) on a tree: an
    oracle that shares no code with the rewriter."""
    return _ruff(root, "F821")


def unused_imports(root) -> list[str]:
    """ruff's F401 (an import nothing uses, string annotations read) on a tree."""
    return _ruff(root, "F401")


def unsorted_imports(root) -> list[str]:
    """ruff's I001 (an import block isort/ruff would sort differently) on a tree."""
    return _ruff(root, "I001")


def _ruff(root, code: str) -> list[str]:
    ruff = Path(sys.executable).with_name("ruff")
    res = subprocess.run(
        [str(ruff), "check", "--isolated", "--no-cache", "--select", code,
         "--output-format", "concise", "."],
        cwd=root, capture_output=True, text=True,
    )  # fmt: skip
    assert res.returncode in (0, 1), res.stderr
    return [ln for ln in res.stdout.splitlines() if code in ln]

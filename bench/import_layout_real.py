"""Import layout on real projects: ruff's I001 and the comments of every import, on each
file a plan's `migrate apply` edited, before against after.

    .venv/bin/python bench/import_layout_real.py                 # every project below
    .venv/bin/python bench/import_layout_real.py jinja2 attrs    # some of them
    .venv/bin/python bench/import_layout_real.py --keep DIR ...  # keep the migrated trees

Each project is the sdist of `tests/realprojects.py` (downloaded once, cached, never
committed) with its plan from `tests/fixtures/real/<name>.yaml` (symbol moves whose
callers bind the losing module, `from pkg import mod; mod.sym`, and module moves). ruff
runs from the tree's root, so the project's own `[tool.ruff]` isort settings decide;
without one, ruff's defaults at this tool's line length (`isort_config.DEFAULT_LINE`).

A defect is printed for:
- `I001 new`: an import block of an edited file that ruff finds sorted before and not
  after (counted per file: ruff reports one I001 per unsorted block);
- `sorted`: a file whose unsorted blocks the migration sorted (the user's layout);
- `comment lost` / `comment moved`: a comment of an import statement (on its lines, or a
  comment line right above it inside its block) missing after, or now on the line of
  other names (an entry's trailing comment follows its name; a respelled name counts as
  its old name when it is the only change on that line).
A statement the migration removed whole takes its comments along (not a defect).
"""

from __future__ import annotations

import argparse
import ast
import io
import json
import shutil
import subprocess
import sys
import tempfile
import tokenize
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from helpers import git, init_repo  # noqa: E402
from realprojects import Project, tree  # noqa: E402

from migrate.rewrite.isort_config import DEFAULT_LINE  # noqa: E402

PLANS = ROOT / "tests" / "fixtures" / "real"
PROJECTS = {
    "jinja2": Project("jinja2", "3.1.4", "jinja2", "src"),
    "click": Project("click", "8.1.7", "click", "src"),
    "pluggy": Project("pluggy", "1.5.0", "pluggy", "src"),
    "attrs": Project("attrs", "24.2.0", "attr", "src"),
    "cachetools": Project("cachetools", "5.5.0", "cachetools", "src"),
    "more-itertools": Project("more-itertools", "10.5.0", "more_itertools", "."),
    "idna": Project("idna", "3.10", "idna", "."),
    "toolz": Project("toolz", "1.0.0", "toolz", "."),
    "jmespath": Project("jmespath", "1.0.1", "jmespath", "."),
    "platformdirs": Project("platformdirs", "4.3.6", "platformdirs", "src"),
}
RUFF = Path(sys.executable).parent / "ruff"


def has_ruff_config(where: Path) -> bool:
    for name in (".ruff.toml", "ruff.toml"):
        if (where / name).exists():
            return True
    py = where / "pyproject.toml"
    return py.exists() and "[tool.ruff" in py.read_text("utf-8")


def i001(where: Path, files: list[str]) -> dict[str, list[tuple[int, int]]]:
    """file -> the (start, end) rows of each block ruff finds unsorted."""
    out: dict[str, list[tuple[int, int]]] = {f: [] for f in files}
    if not files:
        return out
    cmd = [str(RUFF), "check", "--no-cache", "--no-fix", "--select", "I001"]
    if not has_ruff_config(where):
        cmd += ["--isolated", "--line-length", str(DEFAULT_LINE)]
    cmd += ["--output-format", "json", *files]
    run = subprocess.run(cmd, cwd=where, capture_output=True, text=True)
    for d in json.loads(run.stdout or "[]"):
        rel = Path(d["filename"]).resolve().relative_to(where.resolve()).as_posix()
        out.setdefault(rel, []).append((d["location"]["row"], d["end_location"]["row"]))
    return out


def _comments(text: str) -> list[tuple[int, str]]:
    try:
        toks = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return []
    return [(t.start[0], t.string.strip()) for t in toks if t.type == tokenize.COMMENT]


def import_comments(text: str) -> list[tuple[str, str, frozenset[str], str | None]]:
    """(comment, where, names, scope): every comment on an import statement's lines (`where`:
    `entry` on a line naming some of its names, else `head` / `close` / `inner`), or a
    comment line right above it (`above`); `names`: the names on that line (entries),
    else the statement's names; `scope`: the top-level definition holding it (None: the
    module's own imports)."""
    try:
        tree_ = ast.parse(text)
    except SyntaxError:
        return []
    lines = text.splitlines()
    by_line = dict(_comments(text))
    out = []
    for top in tree_.body:
        scope = getattr(top, "name", None)  # a function-local import: its definition's
        for node in ast.walk(top):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                out += _of(node, scope, lines, by_line)
    return out


def _of(node, scope, lines, by_line) -> list[tuple[str, str, frozenset[str], str | None]]:
    out = []
    every = frozenset(a.asname or a.name for a in node.names)
    rows = range(node.lineno, node.end_lineno + 1)
    on_line: dict[int, set[str]] = {}
    for a in node.names:
        on_line.setdefault(a.lineno, set()).add(a.asname or a.name)
    for r in rows:
        if r not in by_line:
            continue
        if r in on_line and node.end_lineno != node.lineno:
            out.append((by_line[r], "entry", frozenset(on_line[r]), scope))
        elif r == node.lineno:
            out.append((by_line[r], "head", every, scope))
        elif r == node.end_lineno:
            out.append((by_line[r], "close", every, scope))
        else:
            out.append((by_line[r], "inner", every, scope))
    r = node.lineno - 1
    while r >= 1 and lines[r - 1].lstrip().startswith("#"):
        out.append((by_line.get(r, lines[r - 1].strip()), "above", every, scope))
        r -= 1
    return out


def _bound(text: str) -> set[str]:
    try:
        tree_ = ast.parse(text)
    except SyntaxError:
        return set()
    return {
        a.asname or a.name
        for n in ast.walk(tree_)
        if isinstance(n, (ast.Import, ast.ImportFrom))
        for a in n.names
    }


def _defined(text: str) -> set[str]:
    try:
        return {getattr(n, "name", None) for n in ast.parse(text).body} - {None}
    except SyntaxError:
        return set()


def comment_defects(before: str, after: str) -> list[str]:
    old, new = import_comments(before), import_comments(after)
    still = _bound(after)
    defined = _defined(after)
    left = Counter(n[0] for n in new)
    out = []
    for c, where, names, scope in old:
        if scope is not None and scope not in defined:
            continue  # its definition moved out (symbol move): its imports went along
        if left[c] > 0:
            left[c] -= 1
            same = [n for n in new if n[0] == c]
            if where == "entry" and not any(names & n[2] for n in same) and names <= still:
                out.append(
                    f"comment moved: {c!r} was on {sorted(names)}, now on "
                    f"{[sorted(n[2]) for n in same]}"
                )
            continue
        if where in ("entry",) and not (names & still):
            continue  # its names were removed: the comment went with them
        if not (names & still):
            continue  # the statement was removed whole
        if c in after:
            out.append(f"comment left the imports ({where} {sorted(names)}): {c!r}")
        else:
            out.append(f"comment lost ({where} {sorted(names)}): {c!r}")
    return out


def _migrate(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "migrate.cli", *args], cwd=ROOT, capture_output=True, text=True
    )


def check(name: str, keep: Path | None) -> dict:
    p = PROJECTS[name]
    pristine = tree(p)
    tmp = Path(tempfile.mkdtemp(prefix=f"layout-{name}-")) if keep is None else keep / name
    where = tmp / p.stem
    if where.exists():
        shutil.rmtree(where)
    shutil.copytree(pristine, where, ignore=shutil.ignore_patterns(".complete"))
    init_repo(where)
    base = git(where, "rev-parse", "HEAD").strip()
    res = _migrate("apply", str(PLANS / f"{name}.yaml"), "--repo", str(where))
    if res.returncode != 0:
        return {"project": name, "error": (res.stdout + res.stderr)[-2000:]}
    pairs = []  # (old path, new path) of each edited .py file
    for line in git(where, "diff", "--name-status", "-M", base, "HEAD").splitlines():
        status, *paths = line.split("\t")
        if status[0] in "MR" and paths[-1].endswith(".py"):
            old, new = paths[0], paths[-1]
            if git(where, "show", f"{base}:{old}") != (where / new).read_text("utf-8"):
                pairs.append((old, new))
    after = i001(where, [n for _, n in pairs])
    before = i001(pristine, [o for o, _ in pairs])  # ruff writes nothing (--no-cache)
    defects, rows = [], []
    for old, new in pairs:
        b, a = len(before.get(old, [])), len(after.get(new, []))
        rows.append((new, b, a))
        if a > b:
            defects.append(f"{new}: I001 new ({b} -> {a} unsorted blocks at {after[new]})")
        elif a < b:
            defects.append(f"{new}: sorted ({b} -> {a} unsorted blocks)")
        text_b = (pristine / old).read_text("utf-8")
        text_a = (where / new).read_text("utf-8")
        defects += [f"{new}: {d}" for d in comment_defects(text_b, text_a)]
    if keep is None:
        shutil.rmtree(tmp)
    return {
        "project": name,
        "files": len(pairs),
        "before": sum(b for _, b, _ in rows),
        "after": sum(a for _, _, a in rows),
        "defects": defects,
        "tree": str(where) if keep else None,
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("names", nargs="*", default=sorted(PROJECTS))
    ap.add_argument("--keep", type=Path)
    args = ap.parse_args()
    print("| project | edited files | I001 blocks before | after | defects |")
    print("|---|---|---|---|---|")
    results = [check(n, args.keep) for n in args.names]
    for r in results:
        if "error" in r:
            print(f"| {r['project']} | apply failed | | | |")
            continue
        print(
            f"| {r['project']} | {r['files']} | {r['before']} | {r['after']} | "
            f"{len(r['defects'])} |"
        )
    for r in results:
        for d in r.get("defects", []):
            print(f"{r['project']}: {d}")
        if "error" in r:
            print(f"{r['project']}: apply failed:\n{r['error']}")


if __name__ == "__main__":
    main()

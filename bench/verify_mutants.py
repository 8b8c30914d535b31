"""Mutation benchmark of `migrate verify`: inject one defect into a correct migration and
count how often verify says anything but PASS.

    .venv/bin/python bench/verify_mutants.py [--trees sample,invoke,sglang] [--per-class N]
        [--json out.json]

Run by hand, never in tests. Trees: kernels_sample/ with plans/sample-jit-to-ops.yaml
(plus a variant of it whose pyproject lists its packages explicitly), invoke 3.0.3 (sdist,
tests/test_real_project_invoke.py) with its reorganisation plan, and the real SGLang 0.5.15
wheel tree (tests/realtrees.py) with plans/sglang-0.5.15-jit-to-ops.yaml. Each tree is
migrated once by `apply_plan` (the real engine); that migration must PASS.

Two defect models, both honest about what verify could know:
- *engine bug* (the static classes): the defect is what the engine would have written,
  so reproducing the step commits reproduces it too and only the checks on HEAD can see
  it. Built as one commit on top of HEAD, verified with `--allow-foreign` (the commit
  itself is not held against the result). The reproduction of the unchanged step commits
  is computed once per tree and reused (`verify(reproduced=...)`), as is BASE's parsed
  tree: both are pure functions of objects that the mutant does not change.
- *history* (hand edit, constant change in a moved kernel, foreign commit): the defect is
  in the commits; the range is verified as is, without `--allow-foreign`.

Mutant commits are written with git plumbing only (no checkout). Sites are enumerated
deterministically and sampled evenly (at most --per-class per class and tree).
"""

from __future__ import annotations

import argparse
import ast
import functools
import json
import posixpath
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from migrate.git import BLAME_FILE, GitObjects, parse_trailers  # noqa: E402
from migrate.git_steps import apply_plan, plan_changeset  # noqa: E402
from migrate.git_steps.apply import blame_contents  # noqa: E402
from migrate.git_steps.message import blame_message  # noqa: E402
from migrate.index.imports import absolute  # noqa: E402
from migrate.verify import verify  # noqa: E402
from migrate.verify.reproduce import reproduce_all  # noqa: E402

GIT = ["git", "-c", "user.name=bench", "-c", "user.email=bench@example.invalid"]


def git(repo: Path, *args: str) -> str:
    return subprocess.run(
        [*GIT, *args], cwd=repo, check=True, capture_output=True, text=True
    ).stdout.strip()


@dataclass
class Tree:
    name: str
    repo: Path
    base: str
    head: str
    plan: Path
    objs: GitObjects
    reproduced: tuple = ()
    cache: dict = field(default_factory=dict)
    wheel: bool = False  # the tree has packaging the wheel check can build

    listings: dict = field(default_factory=dict)  # commit -> its listing, read once

    def listing(self, rev: str | None = None):
        """A commit's listing, read once (each read is one `git ls-tree -r` of the whole
        tree: per file on SGLang, the sites took longer than the mutants)."""
        rev = rev or self.head
        if rev not in self.listings:
            self.listings[rev] = self.objs.ls_tree(rev)
        return self.listings[rev]

    def text(self, path: str, rev: str | None = None) -> str | None:
        listing = self.listing(rev)
        if path not in listing:
            return None
        return self.objs.read(listing[path][1]).decode("utf-8", "replace")

    def head_files(self) -> list[str]:
        return sorted(self.listing())


@dataclass
class Mutant:
    cls: str
    tree: str
    where: str
    make: Callable[[Tree], str]  # -> the HEAD commit of the mutated range
    history: bool = False  # verify the range as is (no --allow-foreign)
    rewrites: bool = False  # it rewrites the step commits: reproduce them again
    wheel: bool = False


# --- writing mutant commits -------------------------------------------------------------
def on_top(t: Tree, changes: dict[str, bytes | None], message: str) -> str:
    """A commit on HEAD with `changes` (path -> bytes, or None to delete; a trailing '/'
    deletes a directory)."""
    listing = dict(t.listing())
    for path, data in changes.items():
        if data is None:
            if path.endswith("/"):
                for p in [p for p in listing if p.startswith(path)]:
                    del listing[p]
            else:
                listing.pop(path, None)
        else:
            mode = listing.get(path, (0o100644, ""))[0]
            listing[path] = (mode, t.objs.write_blob(data))
    return t.objs.commit_tree(t.objs.write_tree(listing), t.head, message)


def rewritten_history(t: Tree, step: str, path: str, old: str, new: str) -> str:
    """Replay the step commits with `old` -> `new` in `path` from the `step` commit on (a
    hand edit amended into it and rebased through); the blame commit is regenerated."""
    shas = git(t.repo, "rev-list", "--reverse", f"{t.base}..{t.head}").split()
    parent, started, made = t.base, False, []
    for sha in shas:
        message = t.objs.message(sha)
        trailers = parse_trailers(message)
        listing = dict(t.objs.ls_tree(sha))
        if trailers.step == "blame-ignore-revs":
            listing, data = blame_contents(
                t.objs, parent, made, trailers.plan_path, trailers.plan_sha256
            )
            mode = listing.get(BLAME_FILE, (0o100644, ""))[0]
            listing = {**listing, BLAME_FILE: (mode, t.objs.write_blob(data))}
            message = blame_message(made, trailers.plan_path, trailers.plan_sha256)
        else:
            started = started or trailers.step == step
            if started and path in listing:
                text = t.objs.read(listing[path][1]).decode("utf-8", "surrogateescape")
                if old in text:
                    text = text.replace(old, new, 1)
                    data = text.encode("utf-8", "surrogateescape")
                    listing[path] = (listing[path][0], t.objs.write_blob(data))
        parent = t.objs.commit_tree(t.objs.write_tree(listing), parent, message)
        if trailers.step != "blame-ignore-revs":
            made.append(parent)
    return parent


def step_sha(t: Tree, step: str) -> str | None:
    for sha in git(t.repo, "rev-list", "--reverse", f"{t.base}..{t.head}").split():
        tr = parse_trailers(t.objs.message(sha))
        if tr and tr.step == step:
            return sha
    return None


def changed_in(t: Tree, sha: str) -> list[str]:
    out = git(t.repo, "diff-tree", "--no-commit-id", "-r", "--name-only", "--no-renames", sha)
    return sorted(p for p in out.split("\n") if p)


# --- sites ------------------------------------------------------------------------------
def _parse(text: str | None) -> ast.Module | None:
    try:
        return ast.parse(text) if text else None
    except SyntaxError:
        return None


def relocated_names(t: Tree) -> dict[str, str]:
    """new dotted -> old dotted of every module the plan moved."""
    prep = t.reproduced[1][0]
    rel = prep.relocation
    return {new: old for old, new in {**rel.moved_modules, **rel.modules}.items()}


def touched_py(t: Tree) -> list[str]:
    out = git(t.repo, "diff", "--name-only", "--no-renames", t.base, t.head)
    head = set(t.head_files())
    return sorted(p for p in out.split("\n") if p.endswith(".py") and p in head)


def sites_revert_import(t: Tree) -> list[Mutant]:
    back = relocated_names(t)
    out = []
    for path in touched_py(t):
        text = t.text(path)
        for i, line in enumerate(text.splitlines(), 1):
            m = re.match(r"\s*(?:from|import)\s+([\w.]+)", line)
            if not m:
                continue
            name = m.group(1)
            hit = next((n for n in sorted(back, key=len, reverse=True)
                        if name == n or name.startswith(n + ".")), None)  # fmt: skip
            if hit:
                old_line = line.replace(hit, back[hit], 1)

                def make(t, path=path, line=line, old_line=old_line):
                    text = t.text(path).replace(line, old_line, 1)
                    return on_top(t, {path: text.encode()}, "revert one rewritten import")

                out.append(Mutant("revert-import", t.name, f"{path}:{i}", make))
    return out


def _module_of(t: Tree, path: str) -> str | None:
    index = t.reproduced[1][0].index
    for root in index.roots:
        prefix = "" if root in (".", "") else root + "/"
        if path.startswith(prefix) and path.endswith(".py"):
            mod = path[len(prefix) : -3].replace("/", ".")
            return mod[: -len(".__init__")] if mod.endswith(".__init__") else mod
    return None


def _module_paths(t: Tree) -> dict[str, str]:
    out = {}
    for p in t.head_files():
        m = _module_of(t, p)
        if m:
            out[m] = p
    return out


def _from_imported_chains(t: Tree, paths: list[str]):
    """(path, line, local name, module, attr) for `from P import M` + `M.attr` uses."""
    modules = _module_paths(t)
    for path in paths:
        tree = _parse(t.text(path))
        if tree is None:
            continue
        bound = {}
        current = _module_of(t, path) or ""
        for node in tree.body:
            if isinstance(node, ast.ImportFrom):
                pkg = absolute(node.module, node.level, current, path.endswith("__init__.py"))
                for a in node.names if pkg else []:
                    full = f"{pkg}.{a.name}"
                    if full in modules:
                        bound[a.asname or a.name] = (full, node)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in bound
            ):
                full, imp = bound[node.value.id]
                yield path, node.lineno, node.value.id, full, node.attr, imp


def _top_def(text: str, name: str) -> tuple[int, int] | None:
    tree = _parse(text)
    for node in tree.body if tree else []:
        defs = (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)
        if isinstance(node, defs) and node.name == name:
            start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            return start, node.end_lineno
    return None


def sites_stale_chain(t: Tree) -> list[Mutant]:
    """A symbol move that leaves `mod.attr` behind: `attr`'s definition leaves `mod` for a
    new sibling module; the `mod.attr` use (through `from pkg import mod`) stays."""
    modules = _module_paths(t)
    out, seen = [], set()
    for path, line, _name, full, attr, _imp in _from_imported_chains(t, t.head_files()):
        mpath = modules[full]
        key = (full, attr)
        text = t.text(mpath)
        span = _top_def(text, attr) if text else None
        if key in seen or not span:
            continue
        seen.add(key)

        def make(t, mpath=mpath, span=span):
            lines = t.text(mpath).splitlines(keepends=True)
            moved = "".join(lines[span[0] - 1 : span[1]])
            rest = "".join(lines[: span[0] - 1] + lines[span[1] :])
            new = (
                mpath[:-3] + "_moved.py"
                if not mpath.endswith("__init__.py")
                else (mpath.rsplit("/", 1)[0] + "/_moved.py")
            )
            return on_top(t, {mpath: rest.encode(), new: moved.encode()}, "move a symbol")

        out.append(Mutant("stale-attr-chain", t.name, f"{path}:{line} {full}.{attr}", make))
    return out


def sites_rebind_root(t: Tree) -> list[Mutant]:
    """`from P import M` becomes `import P as M`: the name now binds the parent package."""
    out, seen = [], set()
    for path, _line, name, full, attr, imp in _from_imported_chains(t, touched_py(t)):
        if (path, name) in seen or len(imp.names) != 1:
            continue
        parent = full.rpartition(".")[0]
        parent_text = t.text(_module_paths(t).get(parent, ""))
        if parent_text and re.search(rf"\b{re.escape(attr)}\b", parent_text):
            continue  # the package itself has the name: not a defect
        seen.add((path, name))
        text = t.text(path)
        old = ast.get_source_segment(text, imp)
        new = f"import {parent} as {name}"

        def make(t, path=path, old=old, new=new):
            return on_top(
                t, {path: t.text(path).replace(old, new, 1).encode()}, "rebind a root name"
            )

        out.append(Mutant("rebind-root", t.name, f"{path}:{imp.lineno} {name}", make))
    return out


def sites_stale_string(t: Tree) -> list[Mutant]:
    """A dotted string (a patch target or any literal) naming a moved module, reverted."""
    back = relocated_names(t)
    out = []
    for path in touched_py(t):
        text = t.text(path)
        for m in re.finditer(r"""(["'])([A-Za-z_][\w.]*)\1""", text):
            s = m.group(2)
            hit = next((n for n in sorted(back, key=len, reverse=True)
                        if s == n or s.startswith(n + ".")), None)  # fmt: skip
            if not hit:
                continue
            line = text.count("\n", 0, m.start()) + 1
            stale = m.group(0).replace(hit, back[hit], 1)
            start, end = m.span()

            def make(t, path=path, start=start, end=end, stale=stale):
                text = t.text(path)
                return on_top(
                    t, {path: (text[:start] + stale + text[end:]).encode()}, "stale string"
                )

            kind = "patch" if "patch" in text[max(0, m.start() - 40) : m.start()] else "string"
            out.append(Mutant("stale-patch-string", t.name, f"{path}:{line} ({kind})", make))
    return out


def sites_drop_config(t: Tree) -> list[Mutant]:
    prep = t.reproduced[1][0]
    out = []
    for new in sorted(prep.relocation.files.values()):
        if not new.endswith(".py") and new in set(t.head_files()):

            def make(t, new=new):
                return on_top(t, {new: None}, "drop a moved file")

            out.append(Mutant("drop-config", t.name, new, make))
    return out


def sites_drop_test_case(t: Tree) -> list[Mutant]:
    cs = t.reproduced[2][0]
    out = []
    for path, (kind, _text) in sorted(cs.writes.items()):
        if kind != "tests":
            continue
        text = t.text(path)
        tree = _parse(text)
        for node in tree.body if tree else []:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and (
                node.name.startswith("test") or node.name.startswith("Test")
            ):

                def make(t, path=path, name=node.name):
                    text = t.text(path)
                    start, end = _top_def(text, name)
                    lines = text.splitlines(keepends=True)
                    rest = "".join(lines[: start - 1] + lines[end:])
                    return on_top(t, {path: rest.encode()}, "drop a test case")

                out.append(Mutant("drop-test-case", t.name, f"{path}::{node.name}", make))
    return out


def sites_registry_target(t: Tree) -> list[Mutant]:
    """A `module:attr` target string literal (not a docstring) pointed at a missing name."""
    out = []
    target = re.compile(r"^([A-Za-z_][\w.]*\.\w+):([A-Za-z_][\w.]*)$")
    for path in sorted(p for p in t.head_files() if p.endswith(".py")):
        text = t.text(path)
        tree = _parse(text) if text and ":" in text else None
        if tree is None:
            continue
        docs = {
            id(n.value)
            for n in ast.walk(tree)
            if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)
        }
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
                continue
            m = target.match(node.value)
            if id(node) in docs or not m or m.group(1).split(".")[0] not in _own_tops(t):
                continue
            seg = ast.get_source_segment(text, node)
            bad = seg.replace(node.value, f"{m.group(1)}:{m.group(2)}_nowhere", 1)

            def make(t, path=path, seg=seg, bad=bad):
                text = t.text(path).replace(seg, bad, 1)
                return on_top(t, {path: text.encode()}, "target nowhere")

            out.append(Mutant("registry-target-nowhere", t.name, f"{path}:{node.lineno}", make))
    return out


def _own_tops(t: Tree) -> set[str]:
    return {m.split(".")[0] for m in t.reproduced[1][0].index.modules}


def sites_deleted_group(t: Tree) -> list[Mutant]:
    files = t.head_files()
    inits = [p for p in files if re.search(r"kernels/ops/__init__\.py$", p)]
    out = []
    for init in inits:
        ops = init.rsplit("/", 1)[0]
        text = t.text(init)
        m = re.search(r"_GROUPS\s*=\s*\(([^)]*)\)", text)
        groups = re.findall(r'"(\w+)"', m.group(1)) if m else []
        for g in groups:
            if not any(p.startswith(f"{ops}/{g}/") for p in files):
                continue

            def make(t, ops=ops, g=g):
                return on_top(t, {f"{ops}/{g}/": None}, "delete a group package")

            out.append(Mutant("groups-names-deleted-group", t.name, f"{ops}/{g}/", make))
    return out


def sites_foreign(t: Tree) -> list[Mutant]:
    out = []
    for i, (path, data) in enumerate(
        [("NOTES.txt", b"a note\n"), ("README.md", None), (".editorconfig", b"root = true\n")]
    ):

        def make(t, path=path, data=data, i=i):
            if data is None:
                old = t.text(path) or ""
                data = (old + "\nEdited by hand.\n").encode()
            return on_top(t, {path: data}, f"a hand-written commit {i}")

        out.append(Mutant("foreign-commit", t.name, path, make, history=True))

    # a merge of a side branch that adds a file
    def merge(t):
        side = t.objs.commit_tree(
            t.objs.write_tree(
                {**t.objs.ls_tree(t.head), "side.py": (0o100644, t.objs.write_blob(b"X = 1\n"))}
            ),
            t.head,
            "side work",
        )
        tree = git(t.repo, "rev-parse", f"{side}^{{tree}}")
        return git(t.repo, "commit-tree", tree, "-p", t.head, "-p", side, "-m", "merge side")

    out.append(Mutant("foreign-commit", t.name, "merge adding side.py", merge, history=True))
    return out


def sites_hand_edit(t: Tree) -> list[Mutant]:
    out = []
    for step in ("code", "string", "prose", "tests"):
        sha = step_sha(t, step)
        if not sha:
            continue
        for path in changed_in(t, sha)[:6]:
            text = t.text(path, sha)
            if not text or "\n" not in text:
                continue
            first = text.split("\n", 1)[0]

            def make(t, step=step, path=path, first=first):
                return rewritten_history(t, step, path, first + "\n", first + "  # hand\n")

            out.append(Mutant("hand-edit-mechanical", t.name, f"{step}:{path}", make,
                              history=True, rewrites=True))  # fmt: skip
    return out


def sites_constant(t: Tree) -> list[Mutant]:
    sha = step_sha(t, "relocate")
    out = []
    for path in changed_in(t, sha) if sha else []:
        text = t.text(path, sha) if path.endswith(".py") else None
        tree = _parse(text)
        if tree is None:
            continue
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and type(node.value) in (int, float)
                and not isinstance(node.value, bool)
            ):
                line = text.splitlines()[node.lineno - 1]
                seg = ast.get_source_segment(text, node)
                if not seg or line.count(seg) != 1:
                    continue
                new_line = line.replace(seg, repr(node.value * 2 + 1), 1)

                def make(t, path=path, line=line, new_line=new_line):
                    return rewritten_history(t, "relocate", path, line, new_line)

                out.append(Mutant("change-constant", t.name, f"{path}:{node.lineno}", make,
                                  history=True, rewrites=True))  # fmt: skip
                break
    return out


def sites_drop_package(t: Tree) -> list[Mutant]:
    """Drop one package the migration created from an explicit `packages = [...]`."""
    out = []
    for path in t.head_files():
        if not path.endswith("pyproject.toml"):
            continue
        text = t.text(path)
        m = re.search(r"packages = \[([^\]]*)\]", text)
        base_text = t.text(path, t.base) or ""
        for name in re.findall(r'"([\w.]+)"', m.group(1)) if m else []:
            if f'"{name}"' in base_text or ".ops." not in name:
                continue

            def make(t, path=path, name=name):
                text = t.text(path).replace(f'"{name}", ', "", 1).replace(f'"{name}"', "", 1)
                return on_top(t, {path: text.encode()}, "drop a package")

            out.append(Mutant("drop-package-from-list", t.name, name, make, wheel=True))
    return out


def _single_bindings(tree: ast.Module):
    """(statement, enclosing `if TYPE_CHECKING:` or None) of every module-level statement
    binding exactly one name: a one-name import, `NAME = ...`, `NAME: T = ...`."""

    def one(stmt):
        if isinstance(stmt, (ast.Import, ast.ImportFrom)) and len(stmt.names) == 1:
            a = stmt.names[0]
            if a.name != "*" and getattr(stmt, "module", None) != "__future__":
                return a.asname or a.name.split(".")[0]
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target = stmt.targets[0]
            return target.id if isinstance(target, ast.Name) else None
        if isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            return stmt.target.id if isinstance(stmt.target, ast.Name) else None
        return None

    for node in tree.body:
        test = getattr(node, "test", None)
        if isinstance(node, ast.If) and getattr(test, "id", getattr(test, "attr", "")) == (
            "TYPE_CHECKING"
        ):
            for stmt in node.body:
                if one(stmt):
                    yield stmt, one(stmt), node
        elif one(node):
            yield node, one(node), None


def _undefined_by_ruff(texts: list[str]) -> list[set[str]]:
    """For each text, the names ruff's F821 (undefined name, lazy and string annotations
    included) reports: an oracle sharing no code with verify. One ruff run for all."""
    ruff = ROOT / ".venv" / "bin" / "ruff"
    if not ruff.exists() or not texts:
        return [set() for _ in texts]
    out: list[set[str]] = [set() for _ in texts]
    with tempfile.TemporaryDirectory(prefix="migrate-f821-") as d:
        for i, text in enumerate(texts):
            Path(d, f"m{i}.py").write_text(text)
        cmd = [str(ruff), "check", "--isolated", "--no-cache", "--select", "F821",
               "--output-format", "json", "--exit-zero", d]  # fmt: skip
        res = subprocess.run(cmd, capture_output=True, text=True, check=True)
        for hit in json.loads(res.stdout or "[]"):
            m = re.search(r"`([^`]+)`", hit["message"])
            if m:
                out[int(Path(hit["filename"]).stem[1:])].add(m.group(1))
    return out


def sites_lost_lazy_name(t: Tree) -> list[Mutant]:
    """A symbol move that does not carry a module-level name its code reads only later
    (Defect B: humanize's `Num`, bound under `if TYPE_CHECKING:` and read in lazy
    annotations): one single-name module-level binding of a written or edited file is
    dropped. Kept only where ruff's F821 then reports the name and nothing reads it at
    import time (`unbound_at_import` of the mutated text is silent on it): importing
    still works, which is the class import-time-names cannot see."""
    from migrate.index.unbound import unbound_at_import

    cands = []
    for path in touched_py(t):
        text = t.text(path)
        tree = _parse(text)
        if tree is None or "import *" in text:
            continue
        lines = text.splitlines(keepends=True)
        mod, pkg = _module_of(t, path), path.endswith("__init__.py")
        for stmt, name, block in _single_bindings(tree):
            keep = lines[: stmt.lineno - 1] + lines[stmt.end_lineno :]
            if block is not None and len(block.body) == 1:
                indent = lines[stmt.lineno - 1][: stmt.col_offset]
                keep.insert(stmt.lineno - 1, indent + "pass\n")
            mutated = "".join(keep)
            cands.append((path, stmt.lineno, name, mutated, mod, pkg))
    undefined = _undefined_by_ruff([c[3] for c in cands])
    out = []
    for (path, line, name, mutated, mod, pkg), names in zip(cands, undefined, strict=True):
        if name not in names:
            continue  # bound elsewhere too, or never read: no defect
        tree = _parse(mutated)
        if tree is None or name in {n for _, n in unbound_at_import(tree, mod, pkg)}:
            continue  # read at import time: import-time-names' class

        def make(t, path=path, mutated=mutated):
            return on_top(t, {path: mutated.encode()}, "drop a name only later code reads")

        out.append(Mutant("lost-lazy-name", t.name, f"{path}:{line} {name}", make))
    return out


@functools.cache
def _imported(text: str | None, mod: str, is_package: bool) -> tuple[str, ...]:
    """The modules a module's top-level import statements name (and each `from` name as
    a possible submodule), once per text: `_reached` follows every module again for each
    import statement it tries to drop (on SGLang, minutes of parsing)."""
    tree = _parse(text)
    pkg = mod if is_package else mod.rpartition(".")[0]
    out: list[str] = []
    for stmt in tree.body if tree else []:
        if isinstance(stmt, ast.Import):
            out += [a.name for a in stmt.names]
        elif isinstance(stmt, ast.ImportFrom):
            base = stmt.module or ""
            if stmt.level:
                up = pkg.split(".")[: len(pkg.split(".")) - stmt.level + 1]
                base = ".".join([*up, *([base] if base else [])])
            out += [base, *(f"{base}.{a.name}" for a in stmt.names)]
    return tuple(out)


def _reached(texts: dict[str, str], modules: dict[str, str], start: str) -> set[str]:
    """The modules importing `start` runs, read from the module-level import statements
    (the bench's own reading, not verify's: it only says a site is a real defect)."""
    seen, todo = set(), [start]
    while todo:
        mod = todo.pop()
        if mod in seen or mod not in modules:
            continue
        seen.add(mod)
        todo.append(mod.rpartition(".")[0])
        todo += _imported(texts.get(modules[mod]), mod, modules[mod].endswith("__init__.py"))
    return seen


def sites_unreached_module(t: Tree) -> list[Mutant]:
    """A package `__init__` the migration wrote loses one module-level import of its own
    code, so importing the package no longer runs a module it ran (its registrations,
    `pkg.mod` as an attribute); only sites where a module really stops being run."""
    modules = {m: p for m, p in _module_paths(t).items()}
    paths = [p for p in touched_py(t) if p.endswith("__init__.py")]
    texts = {p: t.text(p) for p in modules.values()}
    out = []
    for path in paths:
        package = next((m for m, p in modules.items() if p == path), None)
        tree = _parse(texts[path])
        if package is None or tree is None:
            continue
        before = _reached(texts, modules, package)
        lines = texts[path].splitlines(keepends=True)
        for stmt in tree.body:
            if not isinstance(stmt, (ast.Import, ast.ImportFrom)):
                continue
            mutated = "".join(lines[: stmt.lineno - 1] + lines[stmt.end_lineno :])
            if before <= _reached({**texts, path: mutated}, modules, package):
                continue  # every module still runs: no defect

            def make(t, path=path, mutated=mutated):
                return on_top(t, {path: mutated.encode()}, "drop an import a package runs")

            out.append(Mutant("unreached-module", t.name, f"{path}:{stmt.lineno}", make))
    return out


_COMPOUND = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.If, ast.For, ast.While,
             ast.With, ast.Try, ast.AsyncFor, ast.AsyncWith, ast.Match)  # fmt: skip


def _ups(text: str) -> int:
    return text.count("dirname(") + text.count(".parent") + text.count("with_name(")


def _from_file(tree: ast.Module, text: str) -> dict[str, int]:
    """`__file__` and the module-level names bound from an expression that reads it or
    such a name (`HERE = os.path.dirname(__file__)`, `DATA = HERE / "d"`): how many
    directories up from the file each is (`dirname`, `.parent`, `with_name`)."""
    names = {"__file__": 0}
    for _ in range(3):
        for stmt in tree.body:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
                target = stmt.targets[0]
                reads = {n.id for n in ast.walk(stmt.value) if isinstance(n, ast.Name)}
                used = [names[n] for n in reads if n in names]
                if isinstance(target, ast.Name) and len(used) == 1:
                    seg = ast.get_source_segment(text, stmt.value) or ""
                    names[target.id] = used[0] + _ups(seg)
    return names


def sites_respell_data_path(t: Tree) -> list[Mutant]:
    """A path a moved or edited module finds next to itself, respelled one directory up
    (`"words.txt"` made `"../words.txt"`: what a data-path rewrite that misjudged the
    move would write). The bench's own reading: a string literal of a simple statement
    that reads `__file__` (or one module-level name bound from it) through one `dirname`,
    `.parent` or `with_name` in all, naming a HEAD file or directory beside the module, and only
    where the respelled path names nothing at HEAD."""
    head = set(t.head_files())
    names = head | {p.rsplit("/", i)[0] for p in head for i in range(1, p.count("/") + 1)}
    moved = {p for p in t.reproduced[1][0].relocation.files.values() if p.endswith(".py")}
    out = []
    for path in sorted((moved & head) | set(touched_py(t))):
        text = t.text(path) or ""
        tree = _parse(text) if "__file__" in text else None
        if tree is None:
            continue
        anchors, here = _from_file(tree, text), path.rpartition("/")[0]
        lines = text.splitlines(keepends=True)
        for stmt in ast.walk(tree):
            if not isinstance(stmt, ast.stmt) or isinstance(stmt, _COMPOUND):
                continue
            seg = ast.get_source_segment(text, stmt) or ""
            reads = {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name)} & set(anchors)
            if len(reads) != 1 or anchors[next(iter(reads))] + _ups(seg) != 1:
                continue
            for c in ast.walk(stmt):
                if (
                    not (isinstance(c, ast.Constant) and isinstance(c.value, str))
                    or c.lineno != c.end_lineno
                ):
                    continue
                lit, value = ast.get_source_segment(text, c) or "", c.value
                if not value or value.startswith(("/", ".")) or lit[:1] not in "'\"":
                    continue
                at = posixpath.normpath(posixpath.join(here, value))
                if (
                    at not in names
                    or posixpath.normpath(posixpath.join(here, "..", value)) in names
                ):
                    continue
                raw = lines[c.lineno - 1].encode()
                col = c.col_offset
                line = (
                    raw[:col] + (lit[0] + "../" + lit[1:]).encode() + raw[col + len(lit.encode()) :]
                ).decode()
                mutated = "".join([*lines[: c.lineno - 1], line, *lines[c.lineno :]])

                def make(t, path=path, mutated=mutated):
                    return on_top(
                        t, {path: mutated.encode()}, "respell a data path one directory up"
                    )

                out.append(Mutant("respell-data-path", t.name, f"{path}:{c.lineno} {value}", make))
    return out


CLASSES = [
    sites_revert_import,
    sites_stale_chain,
    sites_rebind_root,
    sites_stale_string,
    sites_drop_config,
    sites_drop_test_case,
    sites_constant,
    sites_hand_edit,
    sites_foreign,
    sites_registry_target,
    sites_deleted_group,
    sites_drop_package,
    sites_lost_lazy_name,
    sites_unreached_module,
    sites_respell_data_path,
]


def sample_evenly(items: list, n: int) -> list:
    if len(items) <= n:
        return items
    step = len(items) / n
    return [items[int(i * step)] for i in range(n)]


# --- trees ------------------------------------------------------------------------------
def _committed(src: Path, dst: Path, edit=None, ignore=()) -> Path:
    skip = shutil.ignore_patterns("__pycache__", "*.pyc", ".git", *ignore)
    shutil.copytree(src, dst, ignore=skip)
    if edit:
        edit(dst)
    git(dst, "init", "-q", "-b", "main")
    git(dst, "add", "-A")
    git(dst, "commit", "-qm", "base")
    return dst


def explicit_packages(root: Path) -> None:
    """The sample's pyproject with `packages = [...]` listing every package (as many real
    projects do), so a package the migration creates must be added to it."""
    py = root / "python"
    pkgs = sorted(
        ".".join(p.parent.relative_to(py).parts)
        for p in py.rglob("__init__.py")
        if "test" not in p.parts
    )
    toml = py / "pyproject.toml"
    text = toml.read_text()
    find = text.index("[tool.setuptools.packages.find]")
    end = text.index("\n\n", find)
    listed = ", ".join(f'"{p}"' for p in pkgs)
    toml.write_text(text[:find] + f"[tool.setuptools]\npackages = [{listed}]" + text[end:])


def make_tree(name: str, work: Path | None) -> tuple[Path | None, Path, bool]:
    """(repo, plan, wheel buildable); no repo is made when `work` is None."""
    if work is None:
        if name == "invoke":
            from test_real_project_invoke import PLAN

            return None, PLAN, False
        plans = {"sglang": "sglang-0.5.15-jit-to-ops.yaml"}
        return None, ROOT / "plans" / plans.get(name, "sample-jit-to-ops.yaml"), False
    if name in ("sample", "sample-explicit"):
        edit = explicit_packages if name == "sample-explicit" else None
        repo = _committed(ROOT / "kernels_sample", work / name, edit)
        return repo, ROOT / "plans" / "sample-jit-to-ops.yaml", True
    if name == "invoke":
        from realprojects import tree as project_tree
        from test_real_project_invoke import INVOKE, PLAN

        return _committed(project_tree(INVOKE), work / name, ignore=(".complete",)), PLAN, False
    if name == "sglang":
        import realtrees

        src = realtrees.sglang_tree("0.5.15")
        return _committed(src, work / name), ROOT / "plans" / "sglang-0.5.15-jit-to-ops.yaml", False
    raise SystemExit(f"unknown tree {name}")


def engine_memo():
    """The real engine, run once per identical input tree (it is deterministic); apply,
    reproduce and verify are given it as their engine."""
    memo = {}

    def cached(prep, durations=None):
        import hashlib

        index = prep.index
        h = hashlib.sha1(prep.plan.sha256.encode())
        for p in sorted(index.files):
            h.update(p.encode() + b"\0" + hashlib.sha1(index.read_bytes(p)).digest())
        key = h.hexdigest()
        if key not in memo:
            memo[key] = plan_changeset(prep)
        return memo[key]

    return cached


ENGINE = engine_memo()


def failing(res) -> list[str]:
    out = [f"commit:{c.step}" for c in res.commits if c.status == "FAIL"]
    out += [c.name for c in res.static_checks if c.status == "FAIL"]
    out += [f"not-run:{c.name}" for c in res.static_checks if c.status == "COULD-NOT-RUN"]
    return out


def run_tree(
    name: str, work: Path, per_class: int, log, applied: str = "", only: set[str] = frozenset()
) -> list[dict]:
    """`applied` ("PATH:BASE"): a repo where this tree's plan is already applied on BASE
    (a scratch repo: mutant commits are written into it, no branch moves), to skip apply."""
    t0 = time.perf_counter()
    if applied:
        path, _, base = applied.rpartition(":")
        repo, plan, buildable = Path(path), make_tree(name, None)[1], name.startswith("sample")
    else:
        repo, plan, buildable = make_tree(name, work)
        base = git(repo, "rev-parse", "HEAD")
        # the real SGLang plan makes two organization-rule errors apply refuses by default
        apply_plan(plan, repo, allow_rule_errors=name == "sglang", engine=ENGINE)
    head = git(repo, "rev-parse", "HEAD")
    t = Tree(name, repo, base, head, plan, GitObjects(repo), wheel=buildable)
    apply_s = time.perf_counter() - t0
    t.reproduced = reproduce_all(repo, base, head, None, ENGINE)
    rows = []
    wheel = buildable and name == "sample"
    # the reproduction and caches are reused (a plain verify says the same: test_verify's
    # test_a_cache_kept_across_calls_changes_no_result); this warms them for the mutants
    clean = verify(
        repo,
        f"{base}..{head}",
        wheel_check=wheel,
        reproduced=t.reproduced,
        base_cache=t.cache,
        engine=ENGINE,
    )
    rows.append({"tree": name, "class": "(correct migration)", "where": "HEAD",
                 "status": clean.status, "failing": failing(clean),
                 "apply_s": round(apply_s, 1)})  # fmt: skip
    log(f"[{name}] correct migration: {clean.status} {failing(clean)} (apply {apply_s:.0f} s)")
    per_gen = []
    for gen in CLASSES:
        found = [m for m in gen(t) if not only or m.cls in only]
        if found and (name != "sample-explicit" or gen is sites_drop_package):
            per_gen.append(sample_evenly(found, per_class))
    # round robin over the classes: a run stopped early (the big tree) covers every class
    mutants = [ms[i] for i in range(per_class) for ms in per_gen if i < len(ms)]
    for m in mutants:
        t1 = time.perf_counter()
        try:
            sha = m.make(t)
            res = verify(
                repo,
                f"{base}..{sha}",
                wheel_check=m.wheel,
                allow_foreign=not m.history,
                reproduced=None if m.rewrites else t.reproduced,
                base_cache=t.cache,
                engine=ENGINE,
            )
            status, why = res.status, failing(res)
        except Exception as exc:  # a mutant verify cannot even read counts as survived
            status, why = "ERROR", [f"{type(exc).__name__}: {exc}"]
        rows.append({"tree": name, "class": m.cls, "where": m.where, "status": status,
                     "failing": why, "seconds": round(time.perf_counter() - t1, 1)})  # fmt: skip
        log(f"[{name}] {m.cls} {m.where}: {status} {why}")
    t.objs.close()
    return rows


def summary(rows: list[dict]) -> str:
    per = defaultdict(lambda: [0, 0])
    survivors = []
    for r in rows:
        if r["class"].startswith("("):
            continue
        per[r["class"]][1] += 1
        if r["status"] == "FAIL":
            per[r["class"]][0] += 1
        else:
            survivors.append(r)
    total_k = sum(k for k, _ in per.values())
    total = sum(n for _, n in per.values())
    lines = ["| class | killed / mutants | killed by (most often) |", "|---|---|---|"]
    for cls in sorted(per):
        by = defaultdict(int)
        for r in rows:
            if r["class"] == cls and r["status"] == "FAIL":
                for f in r["failing"]:
                    by[f] += 1
        top = ", ".join(f"{k} {v}" for k, v in sorted(by.items(), key=lambda kv: -kv[1])[:3])
        lines.append(f"| {cls} | {per[cls][0]} / {per[cls][1]} | {top} |")
    score = 100 * total_k / total if total else 0
    lines.append(f"| **all** | **{total_k} / {total}** ({score:.1f}%) | |")
    trees = defaultdict(lambda: [0, 0])
    for r in rows:
        if not r["class"].startswith("("):
            trees[r["tree"]][0] += r["status"] == "FAIL"
            trees[r["tree"]][1] += 1
    lines += ["", "Per tree (killed / mutants): "
              + ", ".join(f"{t} {k} / {n}" for t, (k, n) in trees.items())]  # fmt: skip
    clean = [r for r in rows if r["class"] == "(correct migration)"]
    lines += ["", "Correct migrations: " + ", ".join(f"{r['tree']} {r['status']}" for r in clean)]
    if survivors:
        lines += ["", "Survivors:", ""]
        lines += [f"- {r['tree']} {r['class']} `{r['where']}`: {r['status']} {r['failing']}"
                  for r in survivors]  # fmt: skip
    return "\n".join(lines)


def read_rows(path: Path) -> list[dict]:
    """Rows of a --json file, or of a run's log (one line per mutant, as `run_tree` logs
    it: what a run stopped at a deadline leaves)."""
    if path.suffix == ".json":
        return json.loads(path.read_text())
    rows = []
    for line in path.read_text().splitlines():
        m = re.match(r"^\[(\S+)\] (.*?): (PASS|FAIL|ERROR|COULD-NOT-RUN) (\[.*?\])", line)
        if not m:
            continue
        tree, what, status, failing = m.groups()
        cls, _, where = what.partition(" ")
        if what == "correct migration":
            cls, where = "(correct migration)", "HEAD"
        rows.append({"tree": tree, "class": cls, "where": where, "status": status,
                     "failing": ast.literal_eval(failing)})  # fmt: skip
    return rows


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--trees", default="sample,sample-explicit,invoke,sglang")
    ap.add_argument("--per-class", type=int, default=10)
    ap.add_argument("--sglang-per-class", type=int, default=3, help="the big tree: slow")
    ap.add_argument("--json", default=None)
    ap.add_argument("--classes", default="", help="only these classes (comma-separated)")
    ap.add_argument(
        "--summarize", nargs="+", metavar="JSON", help="only print the summary of earlier runs"
    )
    ap.add_argument(
        "--applied", action="append", default=[], metavar="TREE=PATH:BASE",
        help="reuse a repo where TREE's plan is applied on BASE (a scratch repo)",
    )  # fmt: skip
    args = ap.parse_args()
    if args.summarize:  # several runs (one per tree, say) make one table
        rows = {}  # a mutant two runs both sampled counts once (the later run's row)
        for f in args.summarize:
            for r in read_rows(Path(f)):
                rows[(r["tree"], r["class"], r["where"])] = r
        print(summary(list(rows.values())))
        return
    rows: list[dict] = []
    with tempfile.TemporaryDirectory(prefix="migrate-mutants-") as tmp:
        for name in args.trees.split(","):
            per = args.sglang_per_class if name == "sglang" else args.per_class
            reuse = dict(a.split("=", 1) for a in args.applied).get(name, "")
            only = set(filter(None, args.classes.split(",")))
            rows += run_tree(name, Path(tmp), per, lambda s: print(s, flush=True), reuse, only)
            if args.json:
                Path(args.json).write_text(json.dumps(rows, indent=1))
    print(summary(rows))


if __name__ == "__main__":
    main()

"""Differential fuzzer of binding forms (issue 12): does `apply` exit 0 only on a tree that
behaves exactly as before, and does `verify` PASS exactly those trees?

    .venv/bin/python bench/fuzz_bindings.py [--programs N] [--seed S] [--jobs J]
        [--keep DIR] [--json out.json] [--shrink]

Each program is a small real package, written from a seed: a module `pkg.core.mod` (a
function with a private helper, a decorator, a class, a constant, a function that calls
the first one, a dict and its reader), users that bind it in one of the issue's forms
(`from pkg.core import mod`, `as m`, `from . import mod`, `from .. import mod`, `import
pkg.core.mod`, `as m`, `from pkg import core` + `core.mod`, `import pkg.core as c` +
`c.mod`, `import pkg` + `pkg.core.mod`, a re-export or star re-export through the package
`__init__`, a star import, a direct `from pkg.core.mod import func`), placed at module
level, in a function, in a class body, under TYPE_CHECKING or in try/except ImportError,
using it in one of the issue's ways (call, assignment, decorator, annotation, default
argument, mock.patch.object, mocker.patch.object, monkeypatch.setattr, getattr/hasattr,
setattr, vars()[...], and the string targets `mock.patch("pkg.core.mod.func")`,
`mocker.patch("pkg.core.mod.Klass.kind")`, `monkeypatch.setattr("pkg.core.mod.func", v)`,
`patch.dict("pkg.core.mod.TABLE", ...)`, `importlib.import_module("pkg.core.mod")`, each
observed through the binding) and with a scope twist (the name rebound by a parameter, an
assignment, a later import or a `global`), plus a package `__init__` that rebinds a
submodule's name (T45's form) and a sibling `pkg.core.side` that uses mod through
relative imports. The plan is one of: module move, package move (rename), package retire
(module moves + delete), symbol move with its private helper (one, two or three
symbols), or a mixed plan: a symbol move out of mod together with a move of mod itself,
of `pkg.core.side`, of the whole package, or the package's retirement.

The oracle, per program, in a real git repository in a tmp dir: run `main.py` (each user's
probe prints return values, patch effects, which object a name is); `migrate run --dry-run`;
`migrate apply`; run `main.py` again; `migrate verify BASE..HEAD`. An apply that exits 0
must leave identical output and verify must PASS; a refusal (exit 2 or 3, nothing written)
is allowed but counted, and the dry run must have said the same. The worst case is a
verify PASS on a tree whose output changed ("false PASS").

`--shrink` re-runs a failing program with each user alone to name the minimal form.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import textwrap
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

# ---------------------------------------------------------------- the generated package

MOD = '''\
"""The module the plan moves (or takes symbols from)."""

VALUE = 7


def _helper(x):
    return x * 2


def func(x=1):
    return ("func", _helper(x) + 5)


def deco(f):
    f.tagged = ("deco", _helper(1))
    return f


class Klass:
    kind = "klass"


def other():
    return ("other", func(3), VALUE)


TABLE = {"a": 1}


def lookup(k):
    return TABLE.get(k, "missing")
'''

ALT = '''\
"""A module with the same names, for rebinding twists."""


def func(x=1):
    return ("alt", x)
'''

TOOLS = '''\
"""A submodule whose name the package __init__ rebinds (T45's form)."""


class Helper:
    @staticmethod
    def f():
        return "helper-f"


def f():
    return "module-f"
'''

SIDE = '''\
"""A sibling module of mod that uses its symbols through relative imports."""

from . import mod
from .mod import Klass, func


def probe():
    return ("side", func(2), mod.other(), Klass.kind, mod.deco(lambda: 0).tagged, mod.lookup("a"))
'''

SUPPORT = '''\
"""Harness helpers (not part of the package the plan moves)."""

import ast
import inspect
import sys
import typing


class Fake:
    """Stands for whatever a rebound name is: every attribute is itself, a call says so."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return self

    def __call__(self, *args, **kwargs):
        return "fake"


FAKE = Fake()


def hints(fn):
    """get_type_hints as a type checker sees them: TYPE_CHECKING blocks executed."""
    module = sys.modules[fn.__module__]
    ns = dict(vars(module))
    tree = ast.parse(inspect.getsource(module))
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            code = compile(ast.Module(body=node.body, type_ignores=[]), module.__file__, "exec")
            exec(code, ns)
    return typing.get_type_hints(fn, globalns=ns)


def report(name, probe):
    if isinstance(probe, BaseException):
        print(name, "import raised", type(probe).__name__)
        return
    try:
        print(name, repr(probe()))
    except Exception as e:  # noqa: BLE001 - the harness reports every failure as output
        print(name, "raised", type(e).__name__)
'''

# Binding forms: (name, where the user file lives, statement lines, local name, expression
# that reaches pkg.core.mod, or None for the direct forms that bind `func` etc. themselves).
# where: "out" = users/, "core" = pkg/core/, "inner" = pkg/core/inner/.
MODULE_BINDINGS = {
    "from-import": ("out", ["from pkg.core import mod"], "mod", "mod"),
    "from-import-as": ("out", ["from pkg.core import mod as m"], "m", "m"),
    "relative-dot": ("core", ["from . import mod"], "mod", "mod"),
    "relative-dot-as": ("core", ["from . import mod as m"], "m", "m"),
    "relative-dotdot": ("inner", ["from .. import mod"], "mod", "mod"),
    "import-dotted": ("out", ["import pkg.core.mod"], "pkg", "pkg.core.mod"),
    "import-dotted-as": ("out", ["import pkg.core.mod as m"], "m", "m"),
    "from-parent-attr": (
        "out",
        ["from pkg import core", "import pkg.core.mod"],
        "core",
        "core.mod",
    ),
    # the alias names an intermediate package: `c.mod.func()`
    "import-parent-as": ("out", ["import pkg.core as c", "import pkg.core.mod"], "c", "c.mod"),
    # the root package alone, the submodule loaded by name: `pkg.core.mod.func()`
    "import-root": (
        "out",
        ["import pkg", 'importlib.import_module("pkg.core.mod")'],
        "pkg",
        "pkg.core.mod",
    ),
}
DIRECT_BINDINGS = {
    "from-mod-import": ("out", ["from pkg.core.mod import func, deco, Klass"]),
    "reexport-init": ("out", ["from pkg.core import func, deco, Klass"]),
    "reexport-init-relative": ("inner", ["from .. import func, deco, Klass"]),
    "star-import": ("out", ["from pkg.core.mod import *"]),
    "star-reexport-init": ("out", ["from pkg.core import *"]),
}
PLACEMENTS = ("module", "function", "class", "type-checking", "try-except")
MODULE_USES = (
    "call",
    "assign",
    "decorator",
    "annotation",
    "default",
    "patch-object",
    "mocker-patch-object",
    "monkeypatch",
    "getattr",
    "setattr",
    "vars",
    # string targets: the dotted name is in a literal, the probe reads through the binding
    "patch-string",
    "mocker-patch-string",
    "monkeypatch-string",
    "patch-dict",
    "import-module",
)
DIRECT_USES = ("call", "assign", "decorator", "annotation", "default")
TWISTS = ("none", "parameter", "assignment", "later-import", "global")
PLANS = (
    "module-move",
    "package-move",
    "package-retire",
    "symbol-move",
    # mixed plans: a symbol move out of pkg.core.mod together with a move of mod itself,
    # of its sibling pkg.core.side, of the package, or the package's retirement
    "symbol+module-move",
    "symbol+side-move",
    "symbol+package-move",
    "symbol+package-retire",
)


def _use_block(use: str, e: str) -> list[str]:
    """Statements that compute R from the module expression `e` (or the direct names when
    `e` is empty)."""
    p = f"{e}." if e else ""
    if use == "call":
        return [f"R = {p}func(2)"]
    if use == "assign":
        return [f"F = {p}func", "R = F(3)"]
    if use == "decorator":
        return [f"@{p}deco", "def _g():", "    return 1", "R = (_g.tagged, _g())"]
    if use == "annotation":
        return [
            f"def _g(a: {p}Klass) -> {p}Klass:",
            "    return a",
            f'R = (_g.__annotations__["a"].kind, _g.__annotations__["return"] is {p}Klass)',
        ]
    if use == "default":
        return [f"def _g(f={p}func):", "    return f(4)", "R = _g()"]
    if use == "patch-object":
        return [
            f'with mock.patch.object({e}, "func", return_value="P"):',
            f"    R = ({e}.func(1), {e}.other())",
        ]
    if use == "mocker-patch-object":
        return [
            f'with mocker.patch.object({e}, "func", return_value="MK"):',
            f"    R = ({e}.func(1), {e}.other())",
        ]
    if use == "monkeypatch":
        return [
            "with MonkeyPatch.context() as monkeypatch:",
            f'    monkeypatch.setattr({e}, "func", lambda *a: "MP")',
            f"    R = ({e}.func(), {e}.other())",
        ]
    if use == "getattr":
        return [f'R = (getattr({e}, "func")(5), hasattr({e}, "func"), hasattr({e}, "nope"))']
    if use == "setattr":
        return [
            f"_orig = {e}.func",
            f'setattr({e}, "func", lambda *a: "S")',
            f"R = ({e}.func(), {e}.other())",
            f'setattr({e}, "func", _orig)',
        ]
    if use == "vars":
        return [f'R = vars({e})["func"](6)']
    if use == "patch-string":
        return [
            'with mock.patch("pkg.core.mod.func", return_value="PS"):',
            f"    R = ({e}.func(1), {e}.other())",
        ]
    if use == "mocker-patch-string":
        return [
            'with mocker.patch("pkg.core.mod.Klass.kind", "MKS"):',
            f"    R = ({e}.Klass.kind, {e}.func(1))",
        ]
    if use == "monkeypatch-string":
        return [
            "with MonkeyPatch.context() as monkeypatch:",
            '    monkeypatch.setattr("pkg.core.mod.func", lambda *a: "MPS")',
            f"    R = ({e}.func(), {e}.other())",
        ]
    if use == "patch-dict":
        return [
            'with patch.dict("pkg.core.mod.TABLE", {"b": 2}):',
            f'    R = ({e}.lookup("b"), {e}.TABLE.get("b"))',
            f'R = (R, {e}.lookup("b"))',
        ]
    if use == "import-module":
        return [
            '_m = importlib.import_module("pkg.core.mod")',
            f"R = (_m.func(2), _m.Klass.kind, _m.lookup('a'), _m is {e})",
        ]
    raise ValueError(use)


def _twist_block(twist: str, local: str, e: str, level: str) -> list[str]:
    """Statements computing R2 where `local` is rebound: the use must NOT follow the move."""
    p = f"{e}." if e else ""
    if twist == "parameter":
        return [f"def _sc({local}):", f"    return {p}func()", "R2 = _sc(Fake())"]
    if twist == "assignment":
        return ["def _sc():", f"    {local} = Fake()", f"    return {p}func()", "R2 = _sc()"]
    if twist == "later-import" and level == "module":
        return [f"from fuzzsupport import FAKE as {local}", f"R2 = {p}func()"]
    if twist == "later-import":
        return [
            "def _sc():",
            f"    from fuzzsupport import FAKE as {local}",
            f"    return {p}func()",
            "R2 = _sc()",
        ]
    if twist == "global" and level == "module":
        return [
            "def _sc():",
            f"    global {local}",
            f"    _saved = {local}",
            f"    {local} = Fake()",
            "    try:",
            f"        return {p}func()",
            "    finally:",
            f"        {local} = _saved",
            "R2 = _sc()",
        ]
    return ["R2 = None"]


@dataclass
class User:
    """One user module: a binding form x placement x use x scope twist."""

    name: str
    binding: str
    placement: str
    use: str
    twist: str

    @property
    def where(self) -> str:
        b = MODULE_BINDINGS.get(self.binding) or DIRECT_BINDINGS[self.binding]
        return b[0]

    @property
    def path(self) -> str:
        d = {"out": "users", "core": "pkg/core", "inner": "pkg/core/inner"}[self.where]
        return f"{d}/{self.name}.py"

    @property
    def import_name(self) -> str:
        return self.path[:-3].replace("/", ".")

    def label(self) -> str:
        return f"{self.binding}/{self.placement}/{self.use}/{self.twist}"

    def source(self) -> str:
        direct = self.binding in DIRECT_BINDINGS
        if direct:
            stmts, local, e = DIRECT_BINDINGS[self.binding][1], "func", ""
        else:
            _, stmts, local, e = MODULE_BINDINGS[self.binding]
        head = [
            f'"""Fuzz user {self.label()}."""',
            "",
            "import importlib",
            "from unittest import mock",
            "from unittest.mock import patch",
            "import unittest.mock as mocker",
            "from pytest import MonkeyPatch",
            "from typing import TYPE_CHECKING",
            "from fuzzsupport import FAKE, Fake, hints",
            "",
        ]
        if self.placement == "type-checking":
            use = [
                f'def _g(a: "{e + "." if e else ""}Klass") -> int:',
                "    return 1",
                'R = hints(_g)["a"].kind',
            ]
            body = ["if TYPE_CHECKING:", *_indent(stmts), "", *use]
            twist = _twist_block(self.twist, local, e, "module") if self.twist != "global" else []
            body += twist or ["R2 = None"]
            return _join(head + body + ["", "", "def probe():", "    return (R, R2)"])
        use = _use_block(self.use, e)
        if self.placement == "module":
            body = [*stmts, "", *use, *_twist_block(self.twist, local, e, "module")]
            tail = ["def probe():", "    return (R, R2)"]
        elif self.placement == "try-except":
            none = f"{local} = None" if not direct else "func = deco = Klass = None"
            body = ["try:", *_indent(stmts), "except ImportError:", f"    {none}", "", *use]
            body += _twist_block(self.twist, local, e, "module")
            tail = ["def probe():", "    return (R, R2)"]
        elif self.placement == "function":
            inner = [*stmts, *use, *_twist_block(self.twist, local, e, "function")]
            body = []
            tail = ["def probe():", *_indent(inner), "    return (R, R2)"]
        else:  # class
            inner = [*stmts, *use, *_twist_block(self.twist, local, e, "class")]
            body = ["class Holder:", *_indent(inner)]
            tail = ["def probe():", "    return (Holder.R, Holder.R2)"]
        return _join(head + body + ["", ""] + tail)


def _indent(lines: list[str]) -> list[str]:
    return ["    " + x if x else "" for x in lines]


def _join(lines: list[str]) -> str:
    return "\n".join(lines) + "\n"


@dataclass
class Program:
    seed: int
    plan_kind: str
    init_form: str  # pkg/core/__init__.py: empty, reexport, star-reexport
    rebinding: bool  # pkg/core/__init__.py rebinds `tools` (T45)
    target: str  # where the module / package goes (symbol-move: where the symbols go)
    symbols: list[str] = field(default_factory=list)
    users: list[User] = field(default_factory=list)
    symbol_target: str = ""  # a mixed plan's symbol target
    side: bool = False  # pkg/core/side.py: a sibling using mod through relative imports

    def files(self) -> dict[str, str]:
        init = {
            "empty": '"""Core."""\n',
            "reexport": (
                '"""Core."""\n\nfrom .mod import Klass, deco, func\n\n'
                '__all__ = ["Klass", "deco", "func"]\n'
            ),
            "star-reexport": '"""Core."""\n\nfrom .mod import *  # noqa: F403\n',
        }[self.init_form]
        if self.rebinding:
            init += "from .tools import Helper as tools\n"
        files = {
            "fuzzsupport.py": SUPPORT,
            "pkg/__init__.py": '"""Fuzz package."""\n',
            "pkg/alt.py": ALT,
            "pkg/other/__init__.py": '"""An existing package."""\n',
            "pkg/core/__init__.py": init,
            "pkg/core/mod.py": MOD,
            "pkg/core/inner/__init__.py": '"""Inner."""\n',
            "users/__init__.py": "",
        }
        if self.side:
            files["pkg/core/side.py"] = SIDE
        if self.rebinding:
            files["pkg/core/tools.py"] = TOOLS
            files["users/rebind.py"] = textwrap.dedent(
                '''\
                """The package rebinds `tools` to a class: both spellings name the class."""

                import pkg.core
                from pkg.core import tools as ppt


                def probe():
                    return (ppt.f(), pkg.core.tools.f())
                '''
            )
        for u in self.users:
            files[u.path] = u.source()
        main = ['"""Entry: every user\'s observable behaviour, one line each."""', ""]
        main.append("from fuzzsupport import report")
        names = [(u.name, u.import_name) for u in self.users]
        if self.rebinding:
            names.append(("rebind", "users.rebind"))
        if self.side:
            names.append(("side", "pkg.core.side"))
        for short, mod in names:
            main += [
                "",
                "try:",
                f"    import {mod} as {short}",
                "except Exception as e:  # noqa: BLE001",
                f'    report("{short}", e)',
                "else:",
                f'    report("{short}", {short}.probe)',
            ]
        files["main.py"] = _join(main)
        return files

    def plan(self) -> str:
        lines = ["version: 1", "roots: [.]", "moves:"]
        kind = self.plan_kind.removeprefix("symbol+")
        if kind != "symbol-move":
            for s in self.symbols:
                lines += [f"  - from: pkg.core.mod:{s}", f"    to: {self.symbol_target}"]
        if kind == "side-move":
            lines += ["  - from: pkg.core.side", f"    to: {self.target}"]
        elif kind == "module-move":
            lines += ["  - from: pkg.core.mod", f"    to: {self.target}"]
            if self.rebinding:
                tdir = self.target.rsplit(".", 1)[0]
                tdir = "pkg.fresh" if tdir == "pkg.core" else tdir
                lines += ["  - from: pkg.core.tools", f"    to: {tdir}.tools"]
        elif kind == "package-move":
            lines += ["  - from: pkg.core", f"    to: {self.target}"]
        elif kind == "package-retire":
            for path in sorted(self.files()):
                if path.startswith("pkg/core/") and not path.endswith("__init__.py"):
                    mod = path[:-3].replace("/", ".")
                    lines += [f"  - from: {mod}", f"    to: {self.target}{mod[len('pkg.core') :]}"]
            lines.append("delete: [pkg.core]")
            return _join(lines)
        else:
            for s in self.symbols:
                lines += [f"  - from: pkg.core.mod:{s}", f"    to: {self.target}"]
        return _join(lines)

    def describe(self) -> dict:
        return {
            "seed": self.seed,
            "plan": self.plan_kind,
            "target": self.target,
            "symbols": self.symbols,
            "symbol_target": self.symbol_target,
            "init": self.init_form,
            "rebinding": self.rebinding,
            "side": self.side,
            "users": {u.name: u.label() for u in self.users},
        }


def generate(seed: int, n_users: int = 6) -> Program:
    """The program of `seed`: a plan kind, an `__init__` form and `n_users` users."""
    rng = random.Random(seed)
    plan_kind = rng.choice(PLANS)
    kind = plan_kind.removeprefix("symbol+")
    init_form = rng.choice(("empty", "empty", "reexport", "star-reexport"))
    rebinding = kind in ("module-move", "package-move") and rng.random() < 0.3
    side = kind == "side-move" or rng.random() < 0.25
    symbols: list[str] = []
    symbol_target = ""
    if kind == "module-move":
        target = rng.choice(("pkg.core.newmod", "pkg.fresh.mod", "pkg.other.newmod"))
    elif kind == "side-move":
        target = rng.choice(("pkg.engine.side", "pkg.core.inner.side", "pkg.other.side"))
    elif kind == "package-move":
        target = rng.choice(("pkg.engine", "pkg.lib.core", "pkg.other.core"))
    elif kind == "package-retire":
        target = rng.choice(("pkg.engine", "pkg.other"))
    else:
        target = rng.choice(("pkg.core.newmod", "pkg.fresh.util", "pkg.other.util"))
    if plan_kind.startswith("symbol"):
        # not `func` alone: it shares `_helper` with `deco`, a refusal by design ("move
        # _helper explicitly or make it public"), which would hide every user's form
        symbols = rng.choice(
            (["func", "deco"], ["func", "deco", "Klass"], ["Klass"], ["TABLE"], ["TABLE", "lookup"])
        )
    if kind != "symbol-move" and symbols:
        # outside the package when the package moves or is retired; never the module target
        pick = ["pkg.newmod", "pkg.fresh.util", "pkg.other.util"]
        if kind in ("module-move", "side-move"):
            pick.append("pkg.core.newmod")
        symbol_target = rng.choice([t for t in pick if t != target])
    users = []
    for i in range(n_users):
        direct = rng.random() < 0.3
        binding = rng.choice(sorted(DIRECT_BINDINGS if direct else MODULE_BINDINGS))
        if binding.startswith(("reexport", "star-reexport")) and init_form == "empty":
            init_form = rng.choice(("reexport", "star-reexport"))
        if binding == "star-reexport-init" and init_form != "star-reexport":
            binding = "reexport-init"
        placement = rng.choice(PLACEMENTS)
        if binding.startswith("star") and placement in ("function", "class"):
            placement = "module"  # `import *` is only allowed at module level
        use = rng.choice(DIRECT_USES if direct else MODULE_USES)
        twist = rng.choice(TWISTS)
        if direct and binding.startswith("star") and twist != "none":
            twist = "none"  # a star binds every name: a rebinding twist would hide the use
        users.append(User(f"u{i}", binding, placement, use, twist))
    return Program(
        seed, plan_kind, init_form, rebinding, target, symbols, users, symbol_target, side
    )


# ---------------------------------------------------------------- the oracle


@dataclass
class Outcome:
    seed: int
    program: dict
    verdict: str  # same, wrong-tree, refused, invalid, dry-run-mismatch, crash
    apply_rc: int | None = None
    dry_rc: int | None = None
    verify_rc: int | None = None
    verify_summary: str = ""
    before: str = ""
    after: str = ""
    detail: str = ""
    shrunk: list[str] = field(default_factory=list)


def _run(args: list[str], cwd: Path, timeout: int = 300) -> subprocess.CompletedProcess:
    env = dict(
        os.environ, PYTHONDONTWRITEBYTECODE="1", OMP_NUM_THREADS="1", MIGRATE_NO_PROGRESS="1"
    )
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env)


def _git(repo: Path, *args: str) -> str:
    return _run(["git", *args], repo).stdout.strip()


def _migrate(repo: Path, *args: str) -> subprocess.CompletedProcess:
    return _run([sys.executable, "-m", "migrate.cli", *args], repo)


def _write_repo(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    for cmd in (
        ["init", "-q", "-b", "main"],
        ["config", "user.name", "fuzz"],
        ["config", "user.email", "fuzz@example.invalid"],
        ["config", "commit.gpgsign", "false"],
        ["add", "-A"],
        ["commit", "-q", "-m", "base"],
    ):
        _git(root, *cmd)


def _observe(repo: Path) -> str:
    r = _run([sys.executable, "-B", "main.py"], repo, timeout=120)
    return r.stdout + (
        f"[exit {r.returncode}] {r.stderr.strip().splitlines()[-1:]}" if r.returncode else ""
    )


def check(program: Program, workdir: Path) -> Outcome:
    """Run the oracle on `program` in a fresh repository under `workdir`."""
    repo = workdir / "repo"
    _write_repo(repo, program.files())
    plan = workdir / "plan.yaml"
    plan.write_text(program.plan(), encoding="utf-8")
    out = Outcome(program.seed, program.describe(), "same")
    out.before = _observe(repo)
    if "raised" in out.before or "[exit" in out.before:
        out.verdict, out.detail = "invalid", "BASE does not run cleanly (a generator bug)"
        return out
    base = _git(repo, "rev-parse", "HEAD")
    dry = _migrate(repo, "run", str(plan), "--dry-run")
    out.dry_rc = dry.returncode
    applied = _migrate(repo, "apply", str(plan))
    out.apply_rc = applied.returncode
    if applied.returncode != 0:
        head = _git(repo, "rev-parse", "HEAD")
        status = _git(repo, "status", "--porcelain")
        out.verdict = "refused" if applied.returncode in (2, 3) else "crash"
        out.detail = _tail(applied.stderr + applied.stdout)
        if head != base or status:
            out.verdict, out.detail = "crash", "refusal wrote something: " + out.detail
        if dry.returncode == 0 and applied.returncode in (2, 3):
            out.verdict = "dry-run-mismatch"
        return out
    if dry.returncode != 0:
        out.verdict, out.detail = "dry-run-mismatch", _tail(dry.stderr + dry.stdout)
    out.after = _observe(repo)
    ver = _migrate(repo, "verify", f"{base}..HEAD", "--plan", str(plan), "--no-wheel", "-q")
    out.verify_rc = ver.returncode
    out.verify_summary = _tail(
        "\n".join(x for x in (ver.stdout + ver.stderr).splitlines() if "FAIL" in x or "error" in x)
    )
    if out.after != out.before:
        out.verdict = "wrong-tree"
        out.detail = _diff(out.before, out.after)
    elif out.verdict == "same" and ver.returncode != 0:
        out.verdict = "verify-false-fail"
    return out


def _tail(text: str, n: int = 12) -> str:
    return "\n".join(text.strip().splitlines()[-n:])


def _diff(a: str, b: str) -> str:
    al, bl = a.splitlines(), b.splitlines()
    rows = [f"- {x}\n+ {y}" for x, y in zip(al, bl, strict=False) if x != y]
    if len(al) != len(bl):
        rows.append(f"(lines {len(al)} -> {len(bl)})")
    return "\n".join(rows)


def shrink(program: Program, workdir: Path) -> list[str]:
    """The users that fail alone (each with the program's plan and __init__)."""
    bad = []
    for i, u in enumerate(program.users):
        side = program.plan_kind == "symbol+side-move"
        one = Program(**{**program.__dict__, "users": [u], "rebinding": False, "side": side})
        o = check(one, workdir / f"shrink{i}")
        if o.verdict not in ("same", "invalid"):
            bad.append(f"{u.label()}: {o.verdict} {o.detail.splitlines()[:2]}")
    if program.rebinding or program.side:
        one = Program(**{**program.__dict__, "users": []})
        o = check(one, workdir / "shrink-package")
        if o.verdict not in ("same", "invalid"):
            bad.append(f"rebinding/side: {o.verdict} {o.detail.splitlines()[:2]}")
    return bad


def fuzz(
    seeds: list[int],
    jobs: int = 2,
    keep: Path | None = None,
    do_shrink: bool = False,
    n_users: int = 6,
) -> list[Outcome]:
    tmp = Path(tempfile.mkdtemp(prefix="fuzz-bindings-"))

    def one(seed: int) -> Outcome:
        program = generate(seed, n_users)
        wd = tmp / f"s{seed}"
        try:
            o = check(program, wd)
            if do_shrink and o.verdict not in ("same", "invalid"):
                o.shrunk = shrink(program, wd)
        except subprocess.TimeoutExpired as e:
            o = Outcome(seed, program.describe(), "crash", detail=f"timeout {e.cmd}")
        if keep is not None and o.verdict not in ("same",):
            shutil.copytree(wd, keep / f"s{seed}", dirs_exist_ok=True)
        return o

    try:
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            return list(pool.map(one, seeds))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def table(outcomes: list[Outcome]) -> str:
    """The summary: per plan kind, programs / applied / refused / wrong trees / verify."""
    kinds = sorted({o.program["plan"] for o in outcomes})
    cols = (
        "programs",
        "applied",
        "refused",
        "wrong-tree",
        "false-PASS",
        "false-FAIL",
        "mismatch",
        "crash",
        "invalid",
    )
    rows = ["| plan | " + " | ".join(cols) + " |", "|---" * (len(cols) + 1) + "|"]
    for k in [*kinds, "all"]:
        sel = [o for o in outcomes if k == "all" or o.program["plan"] == k]
        c = {
            "programs": len(sel),
            "applied": sum(o.apply_rc == 0 for o in sel),
            "refused": sum(o.verdict == "refused" for o in sel),
            "wrong-tree": sum(o.verdict == "wrong-tree" for o in sel),
            "false-PASS": sum(o.verdict == "wrong-tree" and o.verify_rc == 0 for o in sel),
            "false-FAIL": sum(o.verdict == "verify-false-fail" for o in sel),
            "mismatch": sum(o.verdict == "dry-run-mismatch" for o in sel),
            "crash": sum(o.verdict == "crash" for o in sel),
            "invalid": sum(o.verdict == "invalid" for o in sel),
        }
        rows.append(f"| {k} | " + " | ".join(str(c[x]) for x in cols) + " |")
    return "\n".join(rows)


AXES = ("binding", "placement", "use", "twist")


def coverage(outcomes: list[Outcome]) -> str:
    """How many users exercised each binding, placement, use and twist (and how many of
    them were in programs that applied with identical output)."""
    counts: dict[str, list[int]] = {}
    for o in outcomes:
        ok = o.verdict == "same"
        for label in o.program["users"].values():
            for axis, v in zip(AXES, label.split("/"), strict=True):
                c = counts.setdefault(f"{axis}:{v}", [0, 0])
                c[0] += 1
                c[1] += ok
    return "\n".join(
        f"{k:32} {n:4} users, {ok:4} in programs proven same"
        for k, (n, ok) in sorted(counts.items())
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--programs", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0, help="first seed; programs use seed..seed+N-1")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--users", type=int, default=6, help="users per program")
    ap.add_argument("--keep", type=Path, help="copy every program that is not 'same' here")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--shrink", action="store_true")
    a = ap.parse_args(argv)
    seeds = list(range(a.seed, a.seed + a.programs))
    outcomes = fuzz(seeds, a.jobs, a.keep, a.shrink, a.users)
    for o in outcomes:
        if o.verdict != "same":
            p = o.program
            where = (
                f"plan {p['plan']} -> {p['target']} {p['symbols']} {p['symbol_target']}, "
                f"init {p['init']}, side {p['side']}"
            )
            print(f"seed {o.seed} {o.verdict} ({where})")
            for line in (o.detail or o.verify_summary).splitlines()[:8]:
                print("   ", line)
            for s in o.shrunk:
                print("    alone:", s)
    print(table(outcomes))
    print(coverage(outcomes))
    if a.json:
        a.json.write_text(json.dumps([asdict(o) for o in outcomes], indent=1))
    bad = [
        o for o in outcomes if o.verdict in ("wrong-tree", "crash", "dry-run-mismatch", "invalid")
    ]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

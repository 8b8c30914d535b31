"""The code-facts layer on the index, and its one relative-import resolver.

The defect pinned here: for `from ...x import y` climbing above the top package, the
rewriter said "unresolvable" while rules, verify and parity answered `x`. Now every stage
resolves through `index.imports.resolve_relative` and all agree it is unresolvable.
"""

from __future__ import annotations

import ast
import gc
from textwrap import dedent

import pytest

from migrate.changes import ChangeSet
from migrate.index import build_index
from migrate.index.facts import code_facts, prefetch_facts
from migrate.index.imports import absolute, imports_of, resolve_relative
from migrate.materialize import materialize
from migrate.parity.source import imported_names, read_module
from migrate.rewrite import relative
from migrate.verify.checks.imports import unresolved
from migrate.verify.codetree import CodeTree

BEYOND = "from ...x import y\n"  # in pkg/sub/a.py: package pkg.sub, two dots is pkg, three is above


@pytest.mark.parametrize(
    ("package", "level", "module", "expected"),
    [
        ("pkg.sub", 1, "x", "pkg.sub.x"),
        ("pkg.sub", 2, "x", "pkg.x"),
        ("pkg.sub", 2, None, "pkg"),
        ("pkg.sub", 3, "x", None),  # above the top package
        ("pkg", 2, None, None),
        ("", 1, "x", None),  # a top-level module has no parent package
        (None, 1, "x", None),  # outside the import roots
        ("pkg", 0, "x", "x"),
    ],
)
def test_the_one_resolver(package, level, module, expected):
    assert resolve_relative(package, level, module) == expected
    assert relative.resolve(package, level, module) == expected  # the rewriter's is the same


def test_beyond_top_relative_imports_are_unresolvable_everywhere(make_repo):
    repo = make_repo(
        {
            "pkg/__init__.py": "",
            "pkg/sub/__init__.py": "",
            "pkg/sub/a.py": BEYOND + "from ..ok import z\n",
            "pkg/ok.py": "z = 1\n",
            "x.py": "y = 1\n",
        }
    )
    index = build_index(repo)
    # rules: the import list has no `x`
    tree = materialize(ChangeSet(), index)  # the rules' view of the same tree
    refs = imports_of(tree.ast("pkg/sub/a.py"), "pkg.sub.a", False)
    assert [r.module for r in refs] == ["pkg.ok"]
    assert absolute("x", 3, "pkg.sub.a", False) == ""
    # the facts layer (verify's and the rules' trees share it)
    facts = index.facts("pkg/sub/a.py")
    assert (
        facts is tree.facts("pkg/sub/a.py") or facts.imports == tree.facts("pkg/sub/a.py").imports
    )
    assert [i.module for i in facts.imports] == ["pkg.ok"]
    assert facts.unresolved_relative == [(1, "...x")]
    assert "y" in facts.bindings and facts.bindings["y"].module is None
    # verify: reported as a broken import, never read as `x` (which exists and binds y)
    found = unresolved(CodeTree(index))
    assert found == [("pkg/sub/a.py", 1, "...x", "")]
    # parity: the imported modules do not include `x` / `x.y`
    names = imported_names(ast.parse(BEYOND), "pkg.sub.a", False)
    assert not names & {"x", "x.y"}
    assert read_module(BEYOND, "pkg.sub.a").imports == set()


def test_bindings_all_dynamic_and_registrations():
    text = (
        "import pkg.mod\n"
        "import pkg.other as o\n"
        "from pkg import sub as s, thing\n"
        "from . import sibling\n"
        "from .impl import *\n"
        "try:\n    from fast import f\nexcept ImportError:\n    f = None\n"
        "__all__ = ['f', 'thing']\n"
        "__all__ += ['s']\n"
        "globals()['late'] = 1\n"
        "class K(Base):\n    x = 1\n    def m(self):\n        from pkg import deep\n"
        "INST = K()\n"
        "def __getattr__(name):\n    raise AttributeError(name)\n"
        "register_cuda_ci(est_time=10, suite='s')\n"
        'SPEC = dict(target="pkg.mod:f")\n'
        "if __name__ == '__main__':\n    main()\n"
    )
    facts = code_facts(text, "pkg.api", False)
    b = facts.bindings
    assert b["pkg"].target == "pkg" and b["o"].target == "pkg.other"
    assert b["s"].target == "pkg.sub" and b["thing"].target == "pkg.thing"
    assert b["sibling"].target == "pkg.sibling"
    assert b["f"].kind == "assign"  # the except branch rebinds it; both bind at import time
    assert facts.all_names == ("f", "thing", "s")
    assert facts.star_imports == ["pkg.impl"] and facts.getattr_hook and facts.dynamic
    assert facts.writes_globals
    assert facts.classes["K"] == {"x", "m"} and facts.class_bases["K"] == ["Base"]
    assert facts.instances["INST"] == "K"
    assert facts.binding("deep", "K.m").target == "pkg.deep" and facts.binding("deep") is None
    assert facts.ci_registrations == [(20, "cuda")]
    assert facts.targets == [(21, "pkg.mod:f")]
    assert facts.main_line == 22
    assert facts.definitions == {"K": 13, "__getattr__": 18}
    assert code_facts("def broken(:\n", "m", False) is None


def test_targets_and_fused_ops_are_listed_in_source_walk_order_with_one_walk():
    """Imports, targets and fused ops are read on attrs' walk, which reaches a def's
    decorators and return annotation (and a class's decorators) before its body; they are
    still listed as a plain walk of the tree meets them (the body first), as before the
    two walks were one (the lists below are what the two-walk code gave)."""
    text = (
        '@register(target="pkg.a:dec")\n'
        'def f(x="pkg.a:default") -> "pkg.a:ret":\n'
        '    y = "pkg.a:body"\n'
        '    register_fused_op(_OP, __name__, "BODY")\n'
        "\n\n"
        '@deco("pkg.a:cls_dec")\n'
        '@register_fused_op(_OP, __name__, "DEC")\n'
        'class C(Base, meta="pkg.a:kw"):\n'
        '    z = "pkg.a:cls_body"\n'
        "\n"
        '    @deco("pkg.a:body")\n'
        '    def m(self) -> "pkg.a:m_ret":\n'
        "        import pkg.inner\n"
        '        return "pkg.a:m_body"\n'
    )
    facts = code_facts(text, "pkg.b", False)
    assert facts.targets == [
        (2, "pkg.a:default"),
        (3, "pkg.a:body"),
        (1, "pkg.a:dec"),
        (2, "pkg.a:ret"),
        (9, "pkg.a:kw"),
        (10, "pkg.a:cls_body"),
        (15, "pkg.a:m_body"),
        (12, "pkg.a:body"),
        (13, "pkg.a:m_ret"),
        (7, "pkg.a:cls_dec"),
    ]
    assert facts.fused == [(4, "BODY"), (8, "DEC")]
    assert [(i.module, i.local) for i in facts.imports] == [("pkg.inner", True)]


def test_ko204_and_verify_share_one_target_resolver(make_repo):
    """Every target KO204 finds broken (literal, f-string table loop, `_EXPORTS`, class
    member) verify's registry check finds too, with the same reason."""
    from rules_fixtures import FIXTURES, _files, fixture_tree

    from migrate.rules import run_rules
    from migrate.verify.checks.registry import unresolved as unresolved_targets

    files = {**_files(FIXTURES / "_base"), **_files(FIXTURES / "unresolved_target" / "bad")}
    repo = make_repo({p: f.read_text(encoding="utf-8") for p, f in files.items()})
    rules = [f for f in run_rules(fixture_tree("unresolved_target", "bad")) if f.check == "KO204"]
    assert len(rules) == 5
    found, _ = unresolved_targets(CodeTree(build_index(repo, ("python", "."))))
    verify = {(p, t): why for p, _, t, why in found}
    for f in rules:
        target = f.message.split()[1]
        assert (f.file, target) in verify, f.message
        assert f.message.endswith(verify[(f.file, target)])


def test_facts_parsed_in_a_pool_are_the_facts_parsed_one_by_one(make_repo):
    """verify parses a whole tree on every core (`prefetch_facts`); what the workers
    compute must be exactly what `facts(path)` computes in process, for every file kind:
    relative imports, star imports, `globals()` writes, attribute chains, names unbound at
    import time, bad syntax. The binding walk does not travel (most of the bytes): read
    from pooled facts, it is walked again from the text and equals the one in process."""
    kinds = [
        "from . import b\nfrom .b import *\nX = b.f()\n",
        "import os\nglobals()['Y'] = 1\ndef g():\n    from ..up import z\n    return z.w\n",
        "import pkg.a as m\nclass C:\n    v = m.X + nowhere\nsys.modules['q'] = m\n",
        "def broken(:\n",
        "def f():\n    from .. import *\n    return globals().update(a=1)\n",
    ]
    files = {"pkg/__init__.py": "from .a import X\n"}
    for i in range(60):
        files[f"pkg/sub{i % 3}/__init__.py"] = ""
        files[f"pkg/sub{i % 3}/m{i}.py"] = kinds[i % len(kinds)]
    repo = make_repo(files)
    pooled, serial = build_index(repo), build_index(repo)
    paths = pooled.python_files()
    prefetch_facts(pooled, paths, workers=2)
    assert gc.isenabled()  # the collector, paused while the results arrived, is back
    cached = pooled.__dict__["_code_facts"]
    assert set(cached) == set(paths)  # the pool did the parsing, not `facts` below
    assert all(f is None or f._model is None for f in cached.values())  # not carried
    assert all(pooled.facts(p) == serial.facts(p) for p in paths)
    assert cached["pkg/sub1/m1.py"].writes_globals and cached["pkg/sub0/m3.py"] is None
    assert cached["pkg/sub2/m2.py"].attrs.dynamic and cached["pkg/sub0/m0.py"].attrs.stars
    assert cached["pkg/sub2/m2.py"].unbound == [(3, "nowhere"), (4, "sys")]
    nested = cached["pkg/sub1/m4.py"].attrs  # found inside a def, by the same walk
    assert nested.stars == ["pkg"] and nested.dynamic
    for p in paths:  # the binding walk, rebuilt on first read, is the in-process one
        here = serial.facts(p)
        assert (here and here.scope_model) == (pooled.facts(p) and pooled.facts(p).scope_model)
    assert cached["pkg/sub0/m0.py"].scope_model.scopes  # a real model, not an empty one


ONE_WALK = """\
from pkg import mod
import pkg.other as other
try:
    from pkg import fast
except ImportError:
    fast = None
else:
    fast = fast


def f(mod=None):
    import pkg.inner as inner
    return inner.g(), other.h(), mod.y  # the parameter, not the module


class C:
    def m(self):
        return mod.x
"""


def test_one_binding_walk_serves_the_facts_verify_and_the_rewriter(make_repo):
    """`index.bindings.scope_model` is the one binding walk: the facts' module bindings
    and per-function scopes, verify's import-only view for attribute chains and the
    rewriter's binding-based uses are all read from it, once per file."""
    from migrate.index.bindings import find_uses
    from migrate.relocate import Relocation
    from migrate.rewrite.engine import python_job

    repo = make_repo({"pkg/__init__.py": "", "pkg/user.py": ONE_WALK})
    index = build_index(repo)
    facts = index.facts("pkg/user.py")
    model = facts.scope_model
    assert index.facts("pkg/user.py").scope_model is model  # cached per file
    # the facts: import-time bindings (the textually last one wins) and function scopes
    assert facts.bindings["mod"].target == "pkg.mod"
    assert facts.bindings["other"].target == "pkg.other"
    assert (facts.bindings["fast"].kind, facts.bindings["fast"].line) == ("assign", 8)
    assert set(facts.bindings) == {"mod", "other", "fast", "f", "C"}
    assert facts.scopes == {"f": {"inner": facts.scopes["f"]["inner"]}}
    assert facts.scopes["f"]["inner"].target == "pkg.inner"
    # verify's attribute chains: names bound only by imports, scope by scope
    assert facts.attrs.bindings == {"mod": "pkg.mod", "other": "pkg.other"}
    chains = {(r.target, r.attrs) for r in facts.attrs.refs}
    assert chains == {("pkg.inner", ("g",)), ("pkg.other", ("h",)), ("pkg.mod", ("x",))}
    # the rewriter: its job's walk is the same model, and the uses resolve through it
    job = python_job(index, Relocation(), "pkg/user.py")
    assert job.scopes == model
    uses = find_uses(model, job.ast, job.text, frozenset({"pkg.mod", "pkg.other"}))
    found = {(u.module, u.attr, ONE_WALK[u.span[0] : u.span[1]]) for u in uses}
    assert found == {("pkg.other", "h", "other"), ("pkg.mod", "x", "mod")}


RICH = """\
import a.b as c, d
from .. import e as f
from g import *
@dec(x, *y, **z)
async def h(p, /, q: int = 1, *r, s=lambda t=2: t, **u) -> "ret":
    global G
    async with m() as (v, w):
        async for i in aiter(): yield i
    await n
    nonlocal_names = [k async for k in x if k]
    return {**u, "a": 1}, {1, 2}, (y := 3), x[1:2, ::3], not -x, a < b <= c, a and b
class K(B, metaclass=M):
    x: int = 1
    def m(self):
        nonlocal_var = 1
        def inner():
            nonlocal nonlocal_var
            del nonlocal_var
try:
    pass
except* (E, F) as err:
    raise X from err
else:
    assert q, "msg"
finally:
    pass
match cmd:
    case [1, *rest] | {"k": v, **kw} if v: pass
    case Point(x=0, y=_) as pt: pass
    case None | True | 1.5 | -1 | b"x" | "s" "t": pass
f"{a!r:>{w}} {b=}"
x = yield_ = (lambda: (yield))
while x: break
else: pass
for (a, *b) in c: continue
@property
def p(): return ...
"""


def test_the_walk_reads_every_field_that_holds_a_node(make_repo):
    """`Visitor.generic_visit` reads only the fields the ASDL signature types as nodes:
    on real sources and every syntax form above, no other field holds one."""
    import pathlib

    from migrate.index.bindings import _INERT, node_fields

    roots = [pathlib.Path(__file__).parent.parent / d for d in ("migrate", "kernels_sample")]
    texts = [RICH] + [p.read_text() for r in roots for p in sorted(r.rglob("*.py"))]
    seen = set()
    for text in texts:
        for node in ast.walk(ast.parse(text)):
            cls = type(node)
            seen.add(cls)
            read = {name for name, _ in node_fields(cls, ())}
            for name in set(cls._fields) - read:
                value = getattr(node, name, None)
                values = value if isinstance(value, list) else [value]
                assert not any(isinstance(v, ast.AST) for v in values), (cls.__name__, name)
            kept = {name for name, _ in node_fields(cls, _INERT)}
            for name in read - kept:  # typed as a skipped kind: only skipped nodes there
                value = getattr(node, name)
                values = value if isinstance(value, list) else [value]
                assert all(isinstance(v, _INERT) for v in values), (cls.__name__, name)
    assert {ast.MatchClass, ast.TryStar, ast.NamedExpr, ast.FormattedValue} <= seen


def test_deferred_unbound_read_in_the_pool_is_the_one_read_in_process(make_repo):
    """verify's prefetch also reads deferred-names' answer (`deferred_unbound`) for the
    files it names, on the parse and binding walk the workers made the facts from: it
    must be what the tree reads in process, where a star import or `globals()` writes
    make it empty, and what does not parse has none."""
    kinds = [
        "from __future__ import annotations\ndef f(x: Num) -> 'Pair':\n    return gone\n",
        "from .b import *\ndef g():\n    return missing\n",
        "globals()['Y'] = 1\ndef h():\n    return Y + nope\n",
        "def broken(:\n",
        "import os\nclass C:\n    def m(self) -> 'C':\n        return os.sep + later\nlater = 1\n",
        "def k():\n    return unknown_at_call\nX = also_unknown\n",
    ]
    files = {"pkg/__init__.py": "", "pkg/b.py": "Z = 1\n"}
    for i in range(60):
        files[f"pkg/m{i}.py"] = kinds[i % len(kinds)]
    repo = make_repo(files)
    pooled, serial = build_index(repo), build_index(repo)
    paths = pooled.python_files()
    asked = frozenset(paths[::2])
    prefetch_facts(pooled, paths, workers=2, deferred=asked)
    assert set(pooled.__dict__["_deferred_unbound"]) == asked  # read by the workers
    for p in paths:
        assert pooled.deferred_unbound(p) == serial.deferred_unbound(p), p
    assert serial.deferred_unbound("pkg/m0.py") == [(2, "Num"), (2, "Pair"), (3, "gone")]
    assert serial.deferred_unbound("pkg/m1.py") == []  # a star import: names unknown
    assert serial.deferred_unbound("pkg/m2.py") == []  # globals() writes
    assert serial.deferred_unbound("pkg/m3.py") == []  # does not parse
    assert serial.deferred_unbound("pkg/m4.py") == []  # `later` is bound by then
    assert serial.deferred_unbound("pkg/m5.py") == [(2, "unknown_at_call")]  # not X's


def test_import_effect_is_what_importing_does_beyond_defining_names():
    """THE predicate verify's import-reach and the rewriter's kept bindings share: a
    module-level call or a store into an attribute or item (inside if/try/with, a
    `finally` too); defs, classes, constants, imports, a `__main__` or `TYPE_CHECKING`
    block and an `except` handler are no effect."""
    quiet = (
        '"""Doc."""\nimport os\nfrom typing import TYPE_CHECKING\n\nLIMIT = 3\nNAMES: list = []\n\n'
        "def f():\n    f.x = 1\n\n\nclass C:\n    pass\n\n\nif TYPE_CHECKING:\n    os.getcwd()\n"
        "try:\n    import json\nexcept ImportError:\n    print('no json')\n\n"
        'if __name__ == "__main__":\n    f()\n'
    )
    assert code_facts(quiet, "pkg.m", False).import_effect is None
    for loud, effect in [
        ("init()\n", "init()"),
        ("import os\nos.environ['X'] = '1'\n", "os.environ['X'] = '1'"),
        ("REGISTRY = {}\nREGISTRY['a'] += 1\n", "REGISTRY['a'] += 1"),
        ("import sys\nsys.flag: int = 1\n", "sys.flag: int = 1"),
        ("try:\n    pass\nfinally:\n    setup()\n", "setup()"),
        ("with lock:\n    register(\n        1,\n    )\n", "register(1)"),
    ]:
        assert code_facts(loud, "pkg.m", False).import_effect == effect, loud


def test_a_module_level_decorator_is_an_import_effect():
    """A decorator on a module-level def or class runs as the module is imported
    (typically a registration: `@register("op")`, `@torch.library.custom_op(...)`), and so
    does one on a method of a module-level class (at class creation): each counts, as the
    decorator's source. Object builders (`triton.jit`, `torch.jit.script`,
    `torch.compile`) count too: keeping an import is behaviour-safe, losing a
    registration is not."""
    for loud, effect in [
        (
            'from pkg.ops import register\n\n@register("op")\ndef f():\n    pass\n',
            "@register('op')",
        ),
        ("from pkg import registry\n\n@registry.add\nclass K:\n    pass\n", "@registry.add"),
        (
            "import torch\n\n@torch.library.custom_op('x::f', mutates_args=())\ndef f(a):\n"
            "    return a\n",
            "@torch.library.custom_op('x::f', mutates_args=())",
        ),
        (
            "import typer\napp = typer.Typer()\n\n@app.command()\ndef go():\n    pass\n",
            "@app.command()",
        ),
        ("import triton\n\n@triton.jit\ndef k(x):\n    pass\n", "@triton.jit"),
        ("import torch\n\n@torch.compile\ndef k(x):\n    pass\n", "@torch.compile"),
        ("import torch\n\n@torch.jit.script\ndef k(x):\n    pass\n", "@torch.jit.script"),
        ("from functools import wraps\n\n@wraps(print)\n@hook\ndef f():\n    pass\n", "@hook"),
        ("class C:\n    @register\n    def m(self):\n        pass\n", "@register"),
        (
            "class C:\n    class D:\n        @on('x')\n        def m(self):\n            pass\n",
            "@on('x')",
        ),
        ("if True:\n    @register\n    def f():\n        pass\n", "@register"),
        # bound by the module itself, not the standard library's: its own code runs
        (
            "def dataclass(c):\n    REG.append(c)\n    return c\n\n"
            "@dataclass\nclass K:\n    x: int\n",
            "@dataclass",
        ),
        (
            "from pkg.util import dataclass\n\n@dataclass(frozen=True)\nclass K:\n    x: int\n",
            "@dataclass(frozen=True)",
        ),
        ("import attr as functools\n\n@functools.wraps\ndef f():\n    pass\n", "@functools.wraps"),
    ]:
        assert code_facts(loud, "pkg.m", False).import_effect == effect, loud


def test_a_decorator_that_only_wraps_or_defines_is_no_import_effect():
    """The standard library's pure decorators (resolved through the module's imports,
    under any spelling: `functools.cache`, `from functools import cache as memo`), a
    property's own `.setter`, and decorators that never run on import (on a function
    nested in a def, in a `TYPE_CHECKING` or `__main__` block) are no effect."""
    quiet = dedent(
        """
        import abc
        import contextlib
        import dataclasses
        import enum
        import functools
        import typing
        from dataclasses import dataclass
        from functools import cache as memo
        from typing import TYPE_CHECKING, overload


        @dataclass
        class A:
            x: int


        @dataclasses.dataclass(frozen=True)
        class B:
            x: int


        @enum.unique
        class E(enum.Enum):
            a = 1


        @typing.runtime_checkable
        @typing.final
        class P(typing.Protocol, abc.ABC):
            @property
            def v(self):
                return 1

            @v.setter
            def v(self, value):
                pass

            @staticmethod
            def s():
                pass

            @classmethod
            def c(cls):
                pass

            @abc.abstractmethod
            def a(self):
                pass

            @functools.cached_property
            def p(self):
                return 1


        @functools.total_ordering
        class O:
            pass


        @overload
        def f(x: int) -> int: ...
        @functools.lru_cache(maxsize=None)
        @functools.wraps(print)
        @functools.cache
        @memo
        @functools.singledispatch
        def f(x):
            @register
            def inner():
                pass

            return x


        @contextlib.contextmanager
        def cm():
            yield


        @contextlib.asynccontextmanager
        async def acm():
            yield


        if TYPE_CHECKING:
            @register
            def g():
                pass

        if __name__ == "__main__":
            @register
            def h():
                pass
        """
    )
    assert code_facts(quiet, "pkg.m", False).import_effect is None

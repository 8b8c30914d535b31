"""A moved definition whose decorator runs the project's own code at import (a registry:
`@register("relu")`) keeps running when the old module is imported: the old module
imports it back (`from .activations import relu as relu`, the explicit re-export form
that ruff's F401 accepts), else the new module, imported by nothing, never registers it
(trial23 T29, the SGLang shape of ops registered by decorators). A decorator of the
standard library or a builtin changes nothing at import: no import back. Each result is
executed and rewritten a second time (`rewrite_and_run`).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from rewrite_helpers import changes, dedent, new_text, rewrite_and_run

REGISTRY = """
REGISTRY = {}


def register(name):
    def deco(fn):
        REGISTRY[name] = fn
        return fn

    return deco
"""
OPS = """
import functools

from .registry import register


@register("relu")
def relu(x):
    return max(x, 0)


@functools.lru_cache(maxsize=None)
def square(x):
    return x * x


@register("gelu")
def gelu(x):
    return x
"""
CHECK = """
import pkg


def check():
    assert sorted(pkg.REGISTRY) == ["gelu", "relu"], pkg.REGISTRY
    assert pkg.REGISTRY["relu"](-1) == 0
"""
FILES = {
    "pkg/__init__.py": "from .registry import REGISTRY\nfrom . import ops\n",
    "pkg/registry.py": REGISTRY,
    "pkg/ops.py": OPS,
    "app/__init__.py": "",
    "app/check.py": CHECK,
}


def _f401(path: Path) -> str:
    ruff = Path(sys.executable).with_name("ruff")
    res = subprocess.run(
        [str(ruff), "check", "--isolated", "--no-cache", "--select", "F401", str(path)],
        capture_output=True,
        text=True,
    )
    return res.stdout if res.returncode else ""


def test_a_registered_definition_moved_to_a_new_module_is_imported_back(make_repo, tmp_path):
    prep, cs, out = rewrite_and_run(
        make_repo, tmp_path, FILES, [("pkg.ops:relu", "pkg.activations")], "app.check"
    )
    ops = (out / "pkg/ops.py").read_text()
    assert "from .activations import relu as relu\n" in ops
    assert "def relu" not in ops and "def relu" in (out / "pkg/activations.py").read_text()
    assert _f401(out / "pkg/ops.py") == ""


def test_a_definition_with_a_standard_library_decorator_is_not_imported_back(make_repo):
    prep, cs = changes(make_repo, FILES, [("pkg.ops:square", "pkg.maths")])
    ops = new_text(prep, cs, "pkg/ops.py")
    assert "maths" not in ops and "def square" not in ops
    assert "import functools" not in ops  # only the moved code used it


def test_a_registered_definition_that_needs_its_old_module_is_a_warning(make_repo):
    """Importing it back would be an import cycle (the new module imports the old one
    for `SCALE`). An own-code decorator need not register anything (jmespath's
    `@with_str_method` only adds `__str__`, and its real-project plan was refused), so
    the plan goes ahead with a warning naming the decorator; verify's import-reach check
    judges the result."""
    ops = OPS.replace("    return max(x, 0)", "    return max(x, 0) * SCALE") + "\nSCALE = 2\n"
    prep, cs = changes(make_repo, dict(FILES, **{"pkg/ops.py": ops}), [("pkg.ops:relu", "pkg.act")])
    warned = [str(n) for n in cs.notes if "@register" in str(n)]
    assert len(warned) == 1 and "import cycle" in warned[0] and "warning" in warned[0]
    assert "def relu" not in new_text(prep, cs, "pkg/ops.py")


def test_the_old_module_already_importing_the_new_one_adds_nothing(make_repo, tmp_path):
    files = dict(FILES, **{"pkg/activations.py": "def elu(x):\n    return x\n"})
    files["pkg/ops.py"] = "from .activations import elu\n" + dedent(OPS)
    prep, cs, out = rewrite_and_run(
        make_repo, tmp_path, files, [("pkg.ops:relu", "pkg.activations")], "app.check"
    )
    ops = (out / "pkg/ops.py").read_text()
    assert "relu as relu" not in ops and "from .activations import elu\n" in ops


SUBCLASS_FILES = {
    "pkg/__init__.py": "from . import ops\n",
    "pkg/base.py": dedent(
        """
        REGISTRY = {}


        class Meta(type):
            def __init__(cls, name, bases, ns):
                super().__init__(name, bases, ns)
                REGISTRY[name.lower()] = cls


        class Op:
            def __init_subclass__(cls, **kw):
                super().__init_subclass__(**kw)
                REGISTRY[cls.__name__] = cls


        class Mid(Op):
            pass
        """
    ),
    "pkg/ops.py": dedent(
        """
        import enum

        from pkg.base import Meta, Mid, Op


        class Relu(Op):
            pass


        class Gelu(Mid):
            pass


        class Tanh(metaclass=Meta):
            pass


        class Kind(enum.Enum):
            A = 1


        class Plain:
            pass


        def other():
            return 1
        """
    ),
    "app/__init__.py": "",
    "app/check.py": dedent(
        """
        import pkg
        from pkg.base import REGISTRY


        def check():
            assert sorted(REGISTRY) == ["Gelu", "Mid", "Relu", "tanh"], REGISTRY
        """
    ),
}


def test_a_class_its_own_bases_or_metaclass_register_is_imported_back(make_repo, tmp_path):
    """trial24 V1: a class whose base (or a base of it) of the project's own code defines
    `__init_subclass__`, or whose metaclass is the project's own, runs that code as it is
    defined, like a decorator: the old module imports it back. A class with only a
    standard-library base (`enum.Enum`) or none is not imported back."""
    moves = [(f"pkg.ops:{n}", "pkg.acts") for n in ("Relu", "Gelu", "Tanh", "Kind", "Plain")]
    prep, cs, out = rewrite_and_run(make_repo, tmp_path, SUBCLASS_FILES, moves, "app.check")
    ops = (out / "pkg/ops.py").read_text()
    back = "".join(f"from pkg.acts import {n} as {n}\n" for n in ("Gelu", "Relu", "Tanh"))
    assert ops.startswith(back), ops
    assert _f401(out / "pkg/ops.py") == ""
    assert "Kind" not in ops and "Plain" not in ops

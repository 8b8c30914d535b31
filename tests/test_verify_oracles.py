"""verify's oracles for what the other checks cannot see: the chains inside string
annotations, the files a module finds next to itself, and the modules importing a
package runs. Each HEAD is written by hand (a broken result the engine might make), so
the oracle is tested apart from the engine."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import git
from rewrite_helpers import dedent, plan_yaml

from migrate.verify import verify


def hand_made(repo: Path, tmp_path: Path, moves, head: dict[str, str | None]):
    """Commit `head` (path -> text, None removes) on `repo` by hand and verify it against
    the plan of `moves`: the static checks judge the tree as the plan describes it."""
    plan = tmp_path / "plan.yaml"
    plan.write_text(plan_yaml(moves))
    base = git(repo, "rev-parse", "HEAD").strip()
    for path, text in head.items():
        target = repo / path
        if text is None:
            shutil.rmtree(target) if target.is_dir() else target.unlink()
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(dedent(text))
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "by hand")
    return verify(repo, f"{base}..HEAD", str(plan), wheel_check=False, allow_foreign=True)


def found(result, check: str) -> list[tuple[str, int, str, str]]:
    (res,) = [c for c in result.static_checks if c.name == check]
    return [(f.file, f.line, f.severity, f"{f.message} {f.fix}") for f in res.findings]


COND = {"pkg/__init__.py": "", "pkg/sub/__init__.py": "", "pkg/sub/cond.py": "class X: ...\n"}


def test_a_string_annotation_naming_a_module_that_moved_away_fails(make_repo, tmp_path):
    """Review23 R2: `r"sub.cond.X"` left after `pkg.sub.cond` moved raises AttributeError
    in `typing.get_type_hints`; attributes-resolve read code chains only and said PASS.
    A `Literal[...]`'s strings and an `Annotated[...]`'s metadata are values, not read;
    a string already broken at BASE is a warning."""
    use = """\
        from typing import Annotated, Literal as L
        import pkg.sub.cond
        from pkg import sub

        def a(x: r"sub.cond.X", m: L["sub.cond.X"], y: Annotated[int, "sub.cond.X"]) -> "{r}":
            z: "list['sub.cond.X']" = []
            return x, z

        def old(x: "sub.gone.Y"):
            return x
        """
    repo = make_repo({**COND, "pkg/use.py": dedent(use.format(r="sub.cond.X"))})
    result = hand_made(
        repo,
        tmp_path,
        [("pkg.sub.cond", "pkg.sub.conditions")],
        {
            "pkg/sub/cond.py": None,
            "pkg/sub/conditions.py": "class X: ...\n",
            "pkg/use.py": use.replace("import pkg.sub.cond", "import pkg.sub.conditions").format(
                r="sub.conditions.X"
            ),
        },
    )
    hits = found(result, "attributes-resolve")
    errors = sorted((f, line) for f, line, sev, _ in hits if sev == "error")
    assert errors == [("pkg/use.py", 5), ("pkg/use.py", 6)], hits
    assert [(line, sev) for _, line, sev, _ in hits if "gone" in _] == [(9, "warning")]
    assert not result.ok


DATA = {
    "pkg/__init__.py": "",
    "pkg/old/__init__.py": "",
    "pkg/old/words.txt": "a b c\n",
    "pkg/old/res/r.txt": "r\n",
    "pkg/old/mod.py": dedent(
        """\
        import os
        import pkgutil
        from importlib import resources
        from pathlib import Path

        HERE = os.path.dirname(os.path.abspath(__file__))
        WORDS = Path(__file__).with_name("words.txt")
        RES = resources.files(__package__) / "res" / "r.txt"
        BLOB = pkgutil.get_data(__package__, "res/r.txt")
        CONFIGS = os.path.join(HERE, "configs", "x.json")
        """
    ),
}


def test_a_module_moved_without_the_data_it_finds_next_to_itself_fails(make_repo, tmp_path):
    """Trial23 T25/T27: `Path(__file__).with_name("words.txt")` in a module moved without
    its data raises FileNotFoundError on import, and verify said PASS. Every lookup that
    found a file or directory at BASE must find one at HEAD; `configs/x.json`, which names
    nothing at BASE either (made at run time), is a warning."""
    repo = make_repo(DATA)
    moved = {
        "pkg/old/mod.py": None,
        "pkg/new/__init__.py": "",
        "pkg/new/mod.py": DATA["pkg/old/mod.py"],
    }
    result = hand_made(repo, tmp_path, [("pkg.old.mod", "pkg.new.mod")], moved)
    hits = found(result, "data-lookups")
    assert sorted((f, line, sev) for f, line, sev, _ in hits) == [
        ("pkg/new/mod.py", 7, "error"),
        ("pkg/new/mod.py", 8, "error"),
        ("pkg/new/mod.py", 9, "error"),
        ("pkg/new/mod.py", 10, "warning"),
    ], hits
    assert "pkg/old/words.txt was found at BASE" in hits[0][3]
    assert not result.ok


def test_data_moved_with_its_module_passes(make_repo, tmp_path):
    """The same move with the data beside it (and a symbol move whose function reads a
    file next to its new module) finds every lookup: no finding."""
    repo = make_repo(DATA)
    moved = {
        "pkg/old/mod.py": None,
        "pkg/old/words.txt": None,
        "pkg/old/res": None,
        "pkg/new/__init__.py": "",
        "pkg/new/mod.py": DATA["pkg/old/mod.py"],
        "pkg/new/words.txt": "a b c\n",
        "pkg/new/res/r.txt": "r\n",
    }
    result = hand_made(repo, tmp_path, [("pkg.old.mod", "pkg.new.mod")], moved)
    assert [sev for *_, sev, _ in found(result, "data-lookups")] == ["warning"]
    assert next(c for c in result.static_checks if c.name == "data-lookups").status == "PASS"


def test_a_symbol_moved_away_from_the_data_it_reads_fails(make_repo, tmp_path):
    """A function moved into a module of another directory reads `words.txt` next to its
    new module: the lookup its source module made at BASE is judged."""
    repo = make_repo(
        {
            "pkg/__init__.py": "",
            "pkg/a/__init__.py": "",
            "pkg/a/words.txt": "w\n",
            "pkg/a/src.py": dedent(
                """\
                from pathlib import Path


                def words():
                    return Path(__file__).with_name("words.txt").read_text()


                def other():
                    return 1
                """
            ),
            "pkg/b/__init__.py": "",
        }
    )
    head = {
        "pkg/a/src.py": "def other():\n    return 1\n",
        "pkg/b/dst.py": (
            "from pathlib import Path\n\n\n"
            'def words():\n    return Path(__file__).with_name("words.txt").read_text()\n'
        ),
    }
    result = hand_made(repo, tmp_path, [("pkg.a.src:words", "pkg.b.dst")], head)
    assert [(f, sev) for f, _, sev, _ in found(result, "data-lookups")] == [
        ("pkg/b/dst.py", "error")
    ]


REGISTRY = {
    "pkg/__init__.py": "from .registry import REGISTRY\nfrom . import ops\n",
    "pkg/registry.py": dedent(
        """\
        REGISTRY = {}


        def register(name):
            def deco(fn):
                REGISTRY[name] = fn
                return fn

            return deco
        """
    ),
    "pkg/ops.py": dedent(
        """\
        from .registry import register


        @register("relu")
        def relu(x):
            return max(x, 0)


        def plain(x):
            return x


        @register("gelu")
        def gelu(x):
            return x
        """
    ),
}
GELU = 'from .registry import register\n\n\n@register("gelu")\ndef gelu(x):\n    return x\n'


def test_a_registration_moved_where_importing_the_package_no_longer_runs_it_fails(
    make_repo, tmp_path
):
    """Trial23 T29: `@register("relu") def relu` moved from `pkg.ops` (which
    `pkg/__init__` imports) into a new `pkg.activations` that nothing imports: importing
    `pkg` no longer registers relu, and verify said PASS. A plain def moved the same way
    (`plain`, to `pkg.helpers`) loses nothing."""
    repo = make_repo(REGISTRY)
    head = {
        "pkg/ops.py": GELU,
        "pkg/activations.py": (
            'from .registry import register\n\n\n@register("relu")\n'
            "def relu(x):\n    return max(x, 0)\n"
        ),
        "pkg/helpers.py": "def plain(x):\n    return x\n",
    }
    moves = [("pkg.ops:relu", "pkg.activations"), ("pkg.ops:plain", "pkg.helpers")]
    result = hand_made(repo, tmp_path, moves, head)
    ((path, _, severity, message),) = found(result, "import-reach")
    assert (path, severity) == ("pkg/activations.py", "error")
    assert "importing pkg no longer runs pkg.activations" in message
    assert "at BASE importing pkg ran pkg.ops" in message
    assert not result.ok


def test_a_registration_still_imported_by_its_package_passes(make_repo, tmp_path):
    """The same move with `pkg.ops` importing relu back (or the package importing the
    new module) keeps the registration: no finding."""
    repo = make_repo(REGISTRY)
    head = {
        "pkg/ops.py": "from .activations import relu  # noqa: F401\n" + GELU,
        "pkg/activations.py": (
            'from .registry import register\n\n\n@register("relu")\n'
            "def relu(x):\n    return max(x, 0)\n"
        ),
    }
    result = hand_made(repo, tmp_path, [("pkg.ops:relu", "pkg.activations")], head)
    assert found(result, "import-reach") == []


def test_a_module_its_package_no_longer_imports_after_a_move_fails(make_repo, tmp_path):
    """A module move whose importer in the package `__init__` was dropped: importing
    `pkg.old` ran `pkg.old.ops` at BASE, and importing it at HEAD runs nothing of it."""
    repo = make_repo(
        {**REGISTRY, "pkg/__init__.py": "", "pkg/old/__init__.py": "from . import ops\n"}
    )
    repo_ops = REGISTRY["pkg/ops.py"].replace("from .registry", "from pkg.registry")
    git(repo, "mv", "pkg/ops.py", "pkg/old/ops.py")
    (repo / "pkg/old/ops.py").write_text(repo_ops)
    git(repo, "commit", "-qam", "ops in pkg.old")
    head = {"pkg/old/ops.py": None, "pkg/new/__init__.py": "", "pkg/new/ops.py": repo_ops}
    head["pkg/old/__init__.py"] = ""
    result = hand_made(repo, tmp_path, [("pkg.old.ops", "pkg.new.ops")], head)
    ((path, _, severity, message),) = found(result, "import-reach")
    assert (path, severity) == ("pkg/new/ops.py", "error")
    assert "importing pkg.old no longer runs pkg.new.ops (pkg.old.ops at BASE)" in message


def test_a_module_moved_to_another_package_need_not_run_its_old_package(make_repo, tmp_path):
    """SGLang 0.5.15: `sglang.jit_kernel.dsa` moved to `sglang.kernels.ops.attention.dsa`;
    importing it ran its parent `sglang.jit_kernel` at BASE, and at HEAD runs its new
    parent instead: the plan's design, not a lost module (it was a false FAIL)."""
    repo = make_repo(
        {
            "pkg/__init__.py": "",
            "pkg/old/__init__.py": "X = 1\n",
            "pkg/old/sub/__init__.py": "Y = 2\n",
            "pkg/new/__init__.py": "",
        }
    )
    head = {"pkg/old/sub": None, "pkg/new/sub/__init__.py": "Y = 2\n"}
    result = hand_made(repo, tmp_path, [("pkg.old.sub", "pkg.new.sub")], head)
    assert found(result, "import-reach") == []


FORMS = {
    "pkg/__init__.py": "",
    "pkg/old/__init__.py": "",
    "pkg/old/words.txt": "a b c\n",
    "pkg/old/mod.json": "{}\n",
    "pkg/old/res/r.txt": "r\n",
    "pkg/old/mod.py": dedent(
        """\
        import os
        from importlib.resources import files
        from pathlib import Path

        HERE = os.path.dirname(__file__)
        WORDS = files("pkg.old") / "words.txt"
        CONF = Path(__file__).with_suffix(".json")
        RES = os.path.join(HERE, f"res/{os.sep}")
        R = f"{HERE}/res/r.txt"
        CERT = files("certifi") / "cacert.pem"
        STEM = os.path.splitext(__file__)[0] + ".json"
        """
    ),
}


def test_lookups_by_package_name_suffix_and_f_string_are_judged(make_repo, tmp_path):
    """Stop 23's open T27 forms: `files("pkg.old") / "words.txt"` (respelled to the new
    package, whose directory lacks the file), `Path(__file__).with_suffix(".json")` and
    `splitext(__file__)[0] + ".json"` (the module's own name), and paths in f-strings
    (`f"{HERE}/res/r.txt"`, `join(HERE, f"res/{x}")`: up to the first placeholder). The
    package moved without its data: each is an error; a package that is not the
    repository's (`files("certifi")`) is not judged."""
    repo = make_repo(FORMS)
    head = {
        "pkg/old/__init__.py": None,
        "pkg/old/mod.py": None,
        "pkg/new/__init__.py": "",
        "pkg/new/mod.py": FORMS["pkg/old/mod.py"].replace('"pkg.old"', '"pkg.new"'),
    }
    result = hand_made(repo, tmp_path, [("pkg.old", "pkg.new")], head)
    hits = found(result, "data-lookups")
    assert sorted((f, line, sev) for f, line, sev, _ in hits) == [
        ("pkg/new/mod.py", line, "error") for line in (6, 7, 8, 9, 11)
    ], hits
    messages = " ".join(m for *_, m in hits)
    assert "pkg/old/mod.json was found at BASE" in messages
    assert "pkg/new/words.txt" in messages and "pkg/old/words.txt was found" in messages


def test_lookups_by_package_name_suffix_and_f_string_pass_with_their_data(make_repo, tmp_path):
    """The same move with the data beside the new module: every lookup finds its file."""
    repo = make_repo(FORMS)
    head = {
        "pkg/old": None,
        "pkg/new/__init__.py": "",
        "pkg/new/words.txt": "a b c\n",
        "pkg/new/mod.json": "{}\n",
        "pkg/new/res/r.txt": "r\n",
        "pkg/new/mod.py": FORMS["pkg/old/mod.py"].replace('"pkg.old"', '"pkg.new"'),
    }
    result = hand_made(repo, tmp_path, [("pkg.old", "pkg.new")], head)
    assert found(result, "data-lookups") == []


SUBCLASSES = {
    "pkg/__init__.py": "from . import ops\n",
    "pkg/base.py": dedent(
        """\
        REGISTRY = {}


        class Op:
            def __init_subclass__(cls, **kw):
                super().__init_subclass__(**kw)
                REGISTRY[cls.__name__] = cls


        class Meta(type):
            pass


        class WithMeta(metaclass=Meta):
            pass


        class Mid(Op):
            pass
        """
    ),
    "pkg/ops.py": dedent(
        """\
        from pkg import base
        from pkg.base import Mid, WithMeta


        class Relu(Mid):
            pass


        class Gelu(base.Op):
            pass


        class Tanh(WithMeta):
            pass


        class Plain(object):
            pass
        """
    ),
}


def test_a_subclass_registered_by_its_base_moved_where_nothing_imports_it_fails(
    make_repo, tmp_path
):
    """Stop 23's open T29 form: a class whose base registers it (`__init_subclass__`,
    through a base of a base, by name or `module.Base`) or whose base has a metaclass
    runs that code as it is defined; moved into a module that importing `pkg` no longer
    runs, the registration is lost. A class with no such base loses nothing."""
    repo = make_repo(SUBCLASSES)
    head = {"pkg/ops.py": "from pkg import base  # noqa: F401\n"}
    moves = []
    for i, name in enumerate(("Relu", "Gelu", "Tanh", "Plain")):
        head[f"pkg/e{i}.py"] = (
            "from pkg import base\nfrom pkg.base import Mid, WithMeta  # noqa: F401\n\n\n"
            + SUBCLASSES["pkg/ops.py"].split("\n\n\n")[i + 1].strip()
            + "\n"
        )
        moves.append((f"pkg.ops:{name}", f"pkg.e{i}"))
    result = hand_made(repo, tmp_path, moves, head)
    hits = found(result, "import-reach")
    assert [(f, sev) for f, _, sev, _ in hits] == [
        ("pkg/e0.py", "error"),
        ("pkg/e1.py", "error"),
        ("pkg/e2.py", "error"),
    ], hits
    assert "Relu, moved there from pkg.ops, runs pkg.base.Op.__init_subclass__" in hits[0][3]
    assert "metaclass" in hits[2][3]


def test_a_lookup_the_move_respelled_to_name_nothing_fails(make_repo, tmp_path):
    """A module moved with its data whose lookup the rewrite respelled wrongly
    (`"words.txt"` made `"../words.txt"`): no BASE lookup has the new text, but the
    file's counterpart has as many lookups and the same-placed one found words.txt at
    BASE, so it is an error, not a made-at-run-time warning."""
    repo = make_repo(DATA)
    text = DATA["pkg/old/mod.py"].replace('with_name("words.txt")', 'with_name("../words.txt")')
    moved = {
        "pkg/old": None,
        "pkg/new/__init__.py": "",
        "pkg/new/mod.py": text,
        "pkg/new/words.txt": "a b c\n",
        "pkg/new/res/r.txt": "r\n",
    }
    result = hand_made(repo, tmp_path, [("pkg.old", "pkg.new")], moved)
    hits = found(result, "data-lookups")
    assert [(line, sev) for _, line, sev, _ in hits] == [(7, "error"), (10, "warning")], hits
    assert "pkg/old/words.txt was found at BASE by the same lookup, spelled words.txt" in hits[0][3]


def test_a_module_the_moves_left_inert_need_not_run(make_repo, tmp_path):
    """Trial24 T47 (platformdirs plan B): `pkg.api:A` moved to `pkg.base`, the package now
    imports it from there, and `pkg/api.py` keeps only its docstring, `from __future__` and
    a standard-library import: nothing imports it at HEAD and running it would do nothing,
    so nothing is lost (it was a false FAIL). If what is left still acts on import (a
    call), not running it is a loss."""
    left = '"""API."""\nfrom __future__ import annotations\n\nimport os\n'
    api = left + "\n\nclass A:\n    X = os.sep\n"
    repo = make_repo({"pkg/__init__.py": "from .api import A\n", "pkg/api.py": api})
    head = {
        "pkg/__init__.py": "from .base import A\n",
        "pkg/api.py": left,
        "pkg/base.py": "import os\n\n\nclass A:\n    X = os.sep\n",
    }
    moves = [("pkg.api:A", "pkg.base")]
    assert found(hand_made(repo, tmp_path, moves, head), "import-reach") == []

    repo = make_repo({"pkg/__init__.py": "from .api import A\n", "pkg/api.py": api})
    head["pkg/api.py"] = left + "os.environ.setdefault('PKG', '1')\n"
    ((path, _, severity, message),) = found(hand_made(repo, tmp_path, moves, head), "import-reach")
    assert (path, severity) == ("pkg/api.py", "error")
    assert "importing pkg no longer runs pkg.api" in message


REEXPORTED = {
    "pkg/__init__.py": "from .mod import func\n",
    "pkg/mod.py": "def func():\n    return 1\n\n\ndef other():\n    return 2\n",
}
REEXPORTED_HEAD = {
    "pkg/__init__.py": "from .newmod import func\n",
    "pkg/mod.py": "def other():\n    return 2\n",
    "pkg/newmod.py": "def func():\n    return 1\n",
}


def test_a_module_left_with_only_definitions_need_not_run(make_repo, tmp_path):
    """f12 F3 (bench/fuzz_bindings.py seed 2817, a false FAIL): every name the package's
    `__init__` imported from pkg.mod moved to pkg.newmod, so importing pkg no longer runs
    pkg.mod, which keeps only defs: running it does nothing, nothing is lost. Left with a
    class whose definition runs code (`metaclass=`), or a module-level call, it is a loss."""
    moves = [("pkg.mod:func", "pkg.newmod")]
    assert (
        found(hand_made(make_repo(REEXPORTED), tmp_path, moves, REEXPORTED_HEAD), "import-reach")
        == []
    )
    for left in ("class K(metaclass=abc.ABCMeta):\n    pass\n", "print('loaded')\n"):
        head = dict(REEXPORTED_HEAD, **{"pkg/mod.py": "import abc\n\n\n" + left})
        hits = found(hand_made(make_repo(REEXPORTED), tmp_path, moves, head), "import-reach")
        assert [(p, sev) for p, _, sev, _ in hits] == [("pkg/mod.py", "error")], (left, hits)
        assert "importing pkg no longer runs pkg.mod" in hits[0][3]


def test_a_submodule_no_import_binds_any_more_fails(make_repo, tmp_path):
    """f12 F3's other half (a false PASS once import-reach let a module of defs go):
    `import pkg` then `pkg.mod.other()` worked at BASE because pkg's `from .mod import
    func` imported pkg.mod; at HEAD pkg imports func from pkg.newmod, nothing imports
    pkg.mod and the chain raises AttributeError. An error at the read. No finding once
    the file imports pkg.mod itself (at any level), nor where at BASE the chain already
    relied on some other importer."""
    user = "import pkg\n\n\ndef check():\n    return pkg.mod.other() + pkg.func()\n"
    moves = [("pkg.mod:func", "pkg.newmod")]
    base = dict(REEXPORTED, **{"use.py": user})
    ((path, line, sev, message),) = found(
        hand_made(make_repo(base), tmp_path, moves, REEXPORTED_HEAD), "attributes-resolve"
    )
    assert (path, line, sev) == ("use.py", 5, "error")
    assert (
        "pkg.mod.other: nothing this file imports imports pkg.mod, so it is no attribute of pkg"
        in message
    )
    fixed = user.replace("    return", "    import pkg.mod\n\n    return")
    head = dict(REEXPORTED_HEAD, **{"use.py": fixed})
    assert found(hand_made(make_repo(base), tmp_path, moves, head), "attributes-resolve") == []
    base = dict(base, **{"pkg/__init__.py": "def func():\n    return 1\n"})
    head = dict(REEXPORTED_HEAD, **{"pkg/__init__.py": "def func():\n    return 1\n"})
    moves = [("pkg.mod:other", "pkg.newmod")]
    head["pkg/newmod.py"], head["pkg/mod.py"] = REEXPORTED["pkg/mod.py"], ""
    head["use.py"] = user.replace("pkg.mod.other", "pkg.newmod.other")
    assert found(hand_made(make_repo(base), tmp_path, moves, head), "attributes-resolve") == []


def test_a_name_no_star_gave_at_base_is_not_a_new_unbound_read(make_repo, tmp_path):
    """Trial24 A1: `pkg.src` does `from pkg.common import *` and its `greet` reads gettext's
    `_` (installed into builtins by `pkg/__init__`); moved to `pkg.dst`, the read is as
    unbound as it was at BASE, where the star import hid the file's names: a warning (it
    was a false FAIL). Where the star did give the name at BASE, its loss is an error."""
    greet = 'def greet():\n    return _("hello") + str(base())\n'
    tree = {
        "pkg/__init__.py": 'import gettext\n\ngettext.install("pkg")\n',
        "pkg/common.py": "def base():\n    return 0\n",
        "pkg/src.py": "from pkg.common import *\n\n\n" + greet,
    }
    head = {
        "pkg/src.py": "from pkg.common import *\n\n\ndef other():\n    return 1\n",
        "pkg/dst.py": "from pkg.common import base\n\n\n" + greet,
    }
    moves = [("pkg.src:greet", "pkg.dst")]
    result = hand_made(make_repo(tree), tmp_path, moves, head)
    ((path, _, severity, message),) = found(result, "deferred-names")
    assert (path, severity) == ("pkg/dst.py", "warning")
    assert "already so at BASE" in message

    tree["pkg/common.py"] += '\n\ndef _(s):\n    return s\n\n\n__all__ = ["base", "_"]\n'
    result = hand_made(make_repo(tree), tmp_path, moves, head)
    ((path, _, severity, message),) = found(result, "deferred-names")
    assert (path, severity) == ("pkg/dst.py", "error")


LOOKUP = "def by_name(name):\n    return globals()[name]()\n"
LOCALES = {
    "pkg/__init__.py": "",
    "pkg/mod.py": "class English:\n    pass\n\n\n" + LOOKUP,
    "main.py": 'from pkg import mod\n\nprint(mod.by_name("English"))\n',
}


def test_a_moved_function_reading_globals_sees_its_new_module_namespace(make_repo, tmp_path):
    """Trial25 T51 (arrow's `get_locale_by_class_name`): a function that looks names up in
    `globals()`, moved to another module, reads that module's namespace, which lacks the
    classes it found at BASE: the tree raises KeyError and verify said PASS. A name it
    reads by a literal key that the new module binds is no finding; the same loss under
    a function that stays (the class moved out from under it) is an error too."""
    head = {
        "pkg/mod.py": "class English:\n    pass\n",
        "pkg/lookup.py": "def by_name(name):\n    return globals()[name]()\n",
        "main.py": 'from pkg import lookup\n\nprint(lookup.by_name("English"))\n',
    }
    result = hand_made(make_repo(LOCALES), tmp_path, [("pkg.mod:by_name", "pkg.lookup")], head)
    ((path, line, severity, message),) = found(result, "deferred-names")
    assert (path, line, severity) == ("pkg/lookup.py", 2, "error"), message
    assert "globals()" in message and "English" in message
    assert not result.ok

    tree = {
        "pkg/__init__.py": "",
        "pkg/mod.py": "def helper():\n    return 1\n\n\ndef f():\n"
        + '    return globals()["helper"]()\n',
        "main.py": "from pkg import mod\n\nprint(mod.f())\n",
    }
    moved = {
        "pkg/mod.py": "",
        "pkg/new.py": tree["pkg/mod.py"],
        "main.py": "from pkg import new\n\nprint(new.f())\n",
    }
    moves = [("pkg.mod:f", "pkg.new"), ("pkg.mod:helper", "pkg.new")]
    assert found(hand_made(make_repo(tree), tmp_path, moves, moved), "deferred-names") == []

    stays = {
        "pkg/mod.py": "def by_name(name):\n    return globals()[name]()\n",
        "pkg/locale.py": "class English:\n    pass\n",
    }
    result = hand_made(make_repo(LOCALES), tmp_path, [("pkg.mod:English", "pkg.locale")], stays)
    ((path, line, severity, message),) = found(result, "deferred-names")
    assert (path, line, severity) == ("pkg/mod.py", 2, "error"), message


def test_a_module_no_longer_importing_a_source_whose_import_calls_code_fails(make_repo, tmp_path):
    """Trial25 T53c: `pkg.state` ends with a module-level call `init()`; its `init` and
    `reset` move to `pkg.resets`, so `main`'s `from pkg import state` became
    `from pkg import resets` and nothing imports `pkg.state` any more: the call never runs
    (NameError) and import-reach, which judged packages only, said PASS. A module that
    stops importing one whose import only defines names is no finding."""
    state = "import sys\n\n\ndef init():\n    global orig\n    orig = sys.stdout\n\n\n"
    state += "def reset():\n    return orig is sys.stdout\n"
    tree = {
        "pkg/__init__.py": "",
        "pkg/state.py": state + "\n\ninit()\n",
        "main.py": "from pkg import state\n\nprint(state.reset())\n",
    }
    head = {
        "pkg/state.py": "from pkg.resets import init\n\ninit()\n",
        "pkg/resets.py": state,
        "main.py": "from pkg import resets\n\nprint(resets.reset())\n",
    }
    moves = [("pkg.state:init", "pkg.resets"), ("pkg.state:reset", "pkg.resets")]
    result = hand_made(make_repo(tree), tmp_path, moves, head)
    ((path, _, severity, message),) = found(result, "import-reach")
    assert (path, severity) == ("main.py", "error"), message
    assert "pkg.state" in message and "init()" in message
    assert not result.ok

    tree["pkg/state.py"] = state
    head["pkg/state.py"] = ""
    assert found(hand_made(make_repo(tree), tmp_path, moves, head), "import-reach") == []


def test_a_source_whose_effect_runs_only_as_a_script_is_no_loss(make_repo, tmp_path):
    """The shared predicate (`index.facts.import_effect`): a `__main__` block never runs
    on import, so a module that stops importing a source whose only call sits there
    loses nothing (it was a finding while import-reach read every `if` body)."""
    state = "def init():\n    return 1\n\n\ndef reset():\n    return 2\n"
    tree = {
        "pkg/__init__.py": "",
        "pkg/state.py": state + '\n\nif __name__ == "__main__":\n    init()\n',
        "main.py": "from pkg import state\n\nprint(state.reset())\n",
    }
    head = {
        "pkg/state.py": 'from pkg.resets import init\n\nif __name__ == "__main__":\n    init()\n',
        "pkg/resets.py": state,
        "main.py": "from pkg import resets\n\nprint(resets.reset())\n",
    }
    moves = [("pkg.state:init", "pkg.resets"), ("pkg.state:reset", "pkg.resets")]
    assert found(hand_made(make_repo(tree), tmp_path, moves, head), "import-reach") == []


# -- old names by binding: a chain whose head is rebound is not the moved module -------

REBOUND_TREE = {
    "pkg/__init__.py": "",
    "pkg/core/__init__.py": "",
    "pkg/core/mod.py": "def func():\n    return 'mod'\n",
    "users/__init__.py": "",
    "other.py": dedent(
        """\
        import contextlib


        class Fake(Exception):
            \"\"\"Stands for whatever a rebound name is: every attribute is itself.\"\"\"

            def __getattr__(self, name):
                if name.startswith("__"):
                    raise AttributeError(name)
                return self

            def __call__(self):
                return "fake"


        FAKE = Fake()
        pkg = None  # a module-level name `pkg` that is not the package


        @contextlib.contextmanager
        def ctx():
            yield FAKE
        """
    ),
    "main.py": "from users import u\n\nprint(u.R, u.R2)\n",
}
REBOUND_HEAD = (
    "import pkg.core.mod\nfrom other import FAKE, Fake, ctx\n\nR = pkg.core.mod.func()\n\n\n"
)

# Each form rebinds `pkg` where `pkg.core.mod.func()` is read: Python reads the chain
# from that binding, never from the package, so the move must leave it (the engine does:
# its uses are found by binding) and verify must not call it an old name left behind.
REBINDINGS = {
    "parameter": "def f(pkg):\n    return pkg.core.mod.func()\n\n\nR2 = f(FAKE)\n",
    "assignment": "def f():\n    pkg = FAKE\n    return pkg.core.mod.func()\n\n\nR2 = f()\n",
    "later-import": "from other import FAKE as pkg\n\nR2 = pkg.core.mod.func()\n",
    "later-import-in-function": (
        "def f():\n    from other import FAKE as pkg\n\n    return pkg.core.mod.func()\n\n\n"
        "R2 = f()\n"
    ),
    "global": (
        "def f():\n    global pkg\n    saved = pkg\n    pkg = FAKE\n    try:\n"
        "        return pkg.core.mod.func()\n    finally:\n        pkg = saved\n\n\nR2 = f()\n"
    ),
    "comprehension": "R2 = [pkg.core.mod.func() for pkg in (FAKE,)][0]\n",
    "lambda": "R2 = (lambda pkg: pkg.core.mod.func())(FAKE)\n",
    "class-body": "class C:\n    pkg = FAKE\n    R2 = pkg.core.mod.func()\n\n\nR2 = C.R2\n",
    "except-as": "try:\n    raise Fake()\nexcept Fake as pkg:\n    R2 = pkg.core.mod.func()\n",
    "with-as": "with ctx() as pkg:\n    R2 = pkg.core.mod.func()\n",
    "walrus": "if (pkg := FAKE) is not None:\n    R2 = pkg.core.mod.func()\n",
    "for-target": "for pkg in (FAKE,):\n    R2 = pkg.core.mod.func()\n",
}
REBOUND_MOVE = [("pkg.core.mod", "pkg.engine.mod")]


def _run_main(repo: Path) -> str:
    out = subprocess.run(
        [sys.executable, "-B", "main.py"], cwd=repo, capture_output=True, text=True, check=True
    )
    return out.stdout


def _applied(make_repo, tmp_path, files: dict[str, str]) -> tuple[Path, str, Path]:
    from migrate.git_steps import apply_plan

    repo = make_repo(files)
    plan = tmp_path / "plan.yaml"
    plan.write_text(plan_yaml(REBOUND_MOVE))
    base = git(repo, "rev-parse", "HEAD").strip()
    before = _run_main(repo)
    apply_plan(plan, repo)
    assert _run_main(repo) == before, "the move changed what the program does"
    return repo, base, plan


@pytest.mark.parametrize("form", sorted(REBINDINGS))
def test_a_chain_whose_head_is_rebound_is_no_old_name(make_repo, tmp_path, form):
    """Trial25 A3 (bench/fuzz_bindings.py): old-names read `pkg.core.mod.func()` by its
    spelling, so a chain whose head a parameter, an assignment, a later import, `global`,
    a comprehension or lambda parameter, a class-body name, `except ... as`, `with ... as`,
    a walrus or a for-target rebinds was an old name left behind: verify FAILed a correct
    tree. It is a reference only when the head is bound to the package there."""
    repo, base, plan = _applied(
        make_repo, tmp_path, {**REBOUND_TREE, "users/u.py": REBOUND_HEAD + REBINDINGS[form]}
    )
    assert _run_main(repo) == "mod fake\n"  # the rebound chain is not the module
    text = (repo / "users/u.py").read_text()
    assert "R = pkg.engine.mod.func()" in text and REBINDINGS[form] in text, text
    result = verify(repo, f"{base}..HEAD", str(plan), wheel_check=False)
    assert found(result, "old-names") == []
    assert result.ok, [(c.name, c.status) for c in result.static_checks if c.status != "PASS"]


LEFTOVERS = '''\
"""Chains that do reach the package: each still names the old module (pkg.core.mod)."""  # left

import pkg.engine.mod
import pkg.core.mod  # left
from other import FAKE

R = pkg.core.mod.func()  # left
pkg: object  # an annotation alone binds nothing here
R0 = pkg.core.mod.func()  # left


def f(x):
    return pkg.core.mod.func()  # left


def g():
    return [pkg.core.mod.func() for x in (1,)]  # left


def h():
    from reexport import pkg

    return pkg.core.mod.func()  # left


def unbound_here():
    import other

    return other, pkg.core.mod  # left


if FAKE is None:
    pkg = FAKE
R2 = pkg.core.mod.func()  # left


class C:
    if FAKE is None:
        pkg = FAKE
    R = pkg.core.mod.func()  # left


pkg = FAKE
for _ in range(2):
    R3 = pkg.core.mod.func()  # left
    import pkg.engine.mod
'''
# Apart: a function that rebinds the module's `pkg` by an import makes every module-level
# read of it a possible reference, whatever the module's own code bound it to.
LEFTOVERS_GLOBAL = """\
from other import FAKE

pkg = FAKE


def restore():
    global pkg
    import pkg.engine.mod


restore()
R = pkg.core.mod.func()  # left
"""
# A module imported at run time may be the package: the file does not show which.
LEFTOVERS_RUNTIME = """\
import importlib
import sys


def by_import_module():
    pkg = importlib.import_module("pkg")
    return pkg.core.mod.func()  # left


pkg = sys.modules["pkg"]
R = pkg.core.mod.func()  # left
"""
# Names bound by what the walk does not follow: a star import, a write to `globals()`.
LEFTOVERS_STAR = """\
from other import FAKE

pkg = FAKE
from reexport import *  # noqa: E402, F403  (binds pkg: the package)

R = pkg.core.mod.func()  # left
"""
LEFTOVERS_GLOBALS = """\
import importlib

from other import FAKE

pkg = FAKE
globals()["pkg"] = importlib.import_module("pkg")
R = pkg.core.mod.func()  # left
"""


def test_a_chain_whose_head_may_be_the_package_is_still_an_old_name(make_repo, tmp_path):
    """The controls of the binding reading: a chain whose head is bound to the package
    (at module level, read from a function, a comprehension, through a re-export), bound
    by nothing the file shows, only annotated (`pkg: object`), rebound only on some ways
    to the read (an `if` branch, a class body's branch, a loop's later pass, a function
    declaring it `global`), to a module imported at run time (`importlib.import_module`,
    `sys.modules[...]`) or by a star import or a `globals()` write may be the moved
    module, so it stays an old name left behind; so does every spelling in a docstring
    or an import statement. Not one false PASS."""
    repo, base, plan = _applied(
        make_repo, tmp_path, {**REBOUND_TREE, "users/u.py": REBOUND_HEAD + "R2 = None\n"}
    )
    (repo / "users/left.py").write_text(LEFTOVERS)
    (repo / "users/left_global.py").write_text(LEFTOVERS_GLOBAL)
    (repo / "users/left_runtime.py").write_text(LEFTOVERS_RUNTIME)
    (repo / "users/left_star.py").write_text(LEFTOVERS_STAR)
    (repo / "users/left_wglobals.py").write_text(LEFTOVERS_GLOBALS)
    (repo / "reexport.py").write_text("import pkg.engine.mod  # noqa: F401\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "a branch written against the old layout")
    result = verify(repo, f"{base}..HEAD", str(plan), wheel_check=False, allow_foreign=True)
    expected = [
        (f"users/{name}.py", i)
        for name, text in (
            ("left", LEFTOVERS),
            ("left_global", LEFTOVERS_GLOBAL),
            ("left_runtime", LEFTOVERS_RUNTIME),
            ("left_star", LEFTOVERS_STAR),
            ("left_wglobals", LEFTOVERS_GLOBALS),
        )
        for i, line in enumerate(text.splitlines(), 1)
        if line.endswith("# left")
    ]
    hits = found(result, "old-names")
    assert sorted((f, line) for f, line, *_ in hits) == expected
    assert {sev for _, _, sev, _ in hits} == {"error"} and not result.ok


def test_module_copies_identical_at_base_are_no_finding_when_both_are_edited(make_repo, tmp_path):
    """f12 F4 (bench/fuzz_bindings.py seed 1000: two users with the same form): two modules
    identical at BASE, both respelled alike by a module move, were 'identical module
    copies' (single-module FAIL): the copy is not the migration's. A copy the migration
    makes (one of the two changed to the other's text) still fails."""
    user = "from pkg.old import mod\n\nX = mod.f()\n"
    tree = {"pkg/__init__.py": "", "pkg/old.py": "def f():\n    return 1\n"}
    tree |= {"pkg/u1.py": user, "pkg/u2.py": user}
    moved = user.replace("pkg.old import mod", "pkg import new as mod")
    head = {"pkg/old.py": None, "pkg/new.py": tree["pkg/old.py"]}
    head |= {"pkg/u1.py": moved, "pkg/u2.py": moved}
    result = hand_made(make_repo(tree), tmp_path, [("pkg.old", "pkg.new")], head)
    assert found(result, "single-module") == []

    tree["pkg/u2.py"] = user + "Y = 2\n"
    result = hand_made(make_repo(tree), tmp_path, [("pkg.old", "pkg.new")], head)
    assert [f[0] for f in found(result, "single-module")] == ["pkg/u1.py"]


def test_a_module_no_longer_importing_a_source_whose_definition_registers_fails(
    make_repo, tmp_path
):
    """A module-level decorator runs as its module is imported: `pkg.kernels`' staying
    `scale` is `@register`ed; `helper` moves to `pkg.newmod` and `main` (by hand) imports
    only that now, so the registry stays empty and verify FAILs. The same tree with a pure
    decorator (`functools.lru_cache`) on `scale` is no finding."""
    registry = "OPS = {}\n\n\ndef register(name):\n    return lambda fn: OPS.setdefault(name, fn)\n"
    kernels = "import functools\n\nfrom pkg.registry import register\n\n\n"
    kernels += '@register("scale")\ndef scale(x):\n    return 2 * x\n'
    helper = "\n\ndef helper(x):\n    return x + 1\n"
    main = "from pkg.registry import OPS\nfrom pkg import {m}\n\nprint({m}.helper(1), OPS)\n"
    tree = {
        "pkg/__init__.py": "",
        "pkg/registry.py": registry,
        "pkg/kernels.py": kernels + helper,
        "main.py": main.format(m="kernels"),
    }
    head = {
        "pkg/kernels.py": kernels,
        "pkg/newmod.py": helper.lstrip(),
        "main.py": main.format(m="newmod"),
    }
    moves = [("pkg.kernels:helper", "pkg.newmod")]
    result = hand_made(make_repo(tree), tmp_path, moves, head)
    ((path, _, severity, message),) = found(result, "import-reach")
    assert (path, severity) == ("main.py", "error"), message
    assert "pkg.kernels" in message and "@register('scale')" in message
    assert not result.ok

    pure = kernels.replace('@register("scale")', "@functools.lru_cache")
    tree["pkg/kernels.py"], head["pkg/kernels.py"] = pure + helper, pure
    assert found(hand_made(make_repo(tree), tmp_path, moves, head), "import-reach") == []


def test_a_module_bound_by_import_module_whose_symbol_left_fails(make_repo, tmp_path):
    """f12 F2, verify's side: `_m = importlib.import_module("pkg.mod")` binds `_m` to
    pkg.mod as `import pkg.mod as _m` would, so `_m.Klass` left behind after Klass moved
    to pkg.newmod (an AttributeError at run time) FAILs attributes-resolve; before, the
    chain was not followed and verify said PASS. Controls: a name pkg.mod still has, and
    a literal with a `package` argument (relative: not followed), are no finding."""
    tree = {
        "pkg/__init__.py": "",
        "pkg/mod.py": "class Klass:\n    kind = 1\n\n\ndef func():\n    return 2\n",
        "use.py": (
            "import importlib\n\n"
            '_m = importlib.import_module("pkg.mod")\n'
            '_r = importlib.import_module(".mod", "pkg")\n\n\n'
            "def read():\n    return _m.Klass.kind, _m.func(), _r.Klass\n"
        ),
    }
    head = {
        "pkg/mod.py": "def func():\n    return 2\n",
        "pkg/newmod.py": "class Klass:\n    kind = 1\n",
    }
    result = hand_made(make_repo(tree), tmp_path, [("pkg.mod:Klass", "pkg.newmod")], head)
    hits = found(result, "attributes-resolve")
    assert [(f, line) for f, line, sev, _ in hits if sev == "error"] == [("use.py", 8)], hits
    assert "Klass" in hits[0][3]


STAR_USER = """\
try:
    from pkg.mod import *
except ImportError:
    Klass = func = None

print(Klass.kind, func())
"""


def test_a_name_a_star_with_an_except_fallback_no_longer_gives_fails(make_repo, tmp_path):
    """f12 F6 (a false PASS): `try: from pkg.mod import *` / `except ImportError: Klass =
    None`, read `Klass`; pkg.mod:Klass moves to pkg.newmod and nothing imports it into the
    user: the star no longer gives it and the handler does not run (NameError at import).
    The handler's binding does not hide the loss. Control: the star still gives it."""
    tree = {
        "pkg/__init__.py": "",
        "pkg/mod.py": "class Klass:\n    kind = 1\n\n\ndef func():\n    return 2\n",
        "use.py": STAR_USER,
    }
    moves = [("pkg.mod:Klass", "pkg.newmod")]
    head = {
        "pkg/mod.py": "def func():\n    return 2\n",
        "pkg/newmod.py": "class Klass:\n    kind = 1\n",
    }
    result = hand_made(make_repo(tree), tmp_path, moves, head)
    ((path, line, severity, message),) = found(result, "import-time-names")
    assert (path, line, severity) == ("use.py", 6, "error")
    assert "Klass" in message and "pkg.mod" in message

    kept = {**head, "pkg/mod.py": "from pkg.newmod import Klass\n\n\n" + head["pkg/mod.py"]}
    result = hand_made(make_repo(tree), tmp_path, moves, kept)
    assert found(result, "import-time-names") == []


CLASS_USER = """\
class Holder:
    from pkg import mod

    def run(self):
        return Holder.mod.func()

    def later(self):
        def inner():
            return self.mod.func()

        return inner()

    @staticmethod
    def alone(mod):
        return mod.func()


def outside():
    return Holder.mod.func()
"""


def test_a_chain_through_a_class_level_import_that_no_longer_resolves_fails(make_repo, tmp_path):
    """f12 (a false PASS): `class Holder: from pkg import mod` read as `Holder.mod.func()`
    and as `self.mod.func()` (from a closure in a method too) after pkg.mod:func moved
    out: attributes-resolve followed chains from import-bound names only and said PASS.
    A staticmethod's parameter is no receiver; a file storing an attribute `mod` anywhere
    (an instance attribute may hide the class's) is not judged. Control: the reads
    respelled through the new module pass."""
    tree = {
        "pkg/__init__.py": "",
        "pkg/mod.py": "def func():\n    return 1\n",
        "use.py": CLASS_USER,
    }
    moves = [("pkg.mod:func", "pkg.newmod")]
    head = {"pkg/mod.py": "X = 1\n", "pkg/newmod.py": "def func():\n    return 1\n"}
    result = hand_made(make_repo(tree), tmp_path, moves, head)
    got = [(p, line, sev) for p, line, sev, _ in found(result, "attributes-resolve")]
    assert got == [("use.py", 5, "error"), ("use.py", 9, "error"), ("use.py", 19, "error")]

    fixed = CLASS_USER.replace("from pkg import mod", "from pkg import mod, newmod")
    fixed = fixed.replace("Holder.mod.", "Holder.newmod.").replace("self.mod.", "self.newmod.")
    result = hand_made(make_repo(tree), tmp_path, moves, {**head, "use.py": fixed})
    assert found(result, "attributes-resolve") == []

    hidden = CLASS_USER + "\n\ndef hide(o):\n    o.mod = None\n"
    result = hand_made(make_repo(tree), tmp_path, moves, {**head, "use.py": hidden})
    assert found(result, "attributes-resolve") == []


def test_a_from_import_of_moved_names_the_old_module_still_binds_is_a_warning(make_repo, tmp_path):
    """T64: `from pkg.mod import sym, aux` left at HEAD, where pkg.mod imports both back
    from pkg.newmod for its own code, resolves: a warning naming the binding (old-names
    read `pkg.mod.sym` spellings so, but judged the from-import form an error). Where
    pkg.mod binds only one of them, the import fails: an error."""
    base = {
        "pkg/__init__.py": "",
        "pkg/mod.py": "def sym():\n    return 1\n\n\ndef aux():\n    return 2\n\n\n"
        "def other():\n    return sym() + aux()\n",
        "use.py": "from pkg.mod import sym, aux\n\nX = sym() + aux()\n",
    }
    moves = [("pkg.mod:sym", "pkg.newmod"), ("pkg.mod:aux", "pkg.newmod")]
    head = {
        "pkg/mod.py": (
            "from pkg.newmod import aux, sym\n\n\ndef other():\n    return sym() + aux()\n"
        ),
        "pkg/newmod.py": "def sym():\n    return 1\n\n\ndef aux():\n    return 2\n",
    }
    ((path, line, severity, message),) = found(
        hand_made(make_repo(base), tmp_path, moves, head), "old-names"
    )
    assert (path, line, severity) == ("use.py", 1, "warning")
    assert "pkg.mod still binds sym, aux at HEAD, so it resolves there" in message
    head["pkg/mod.py"] = "from pkg.newmod import sym\n\n\ndef other():\n    return sym()\n"
    ((path, line, severity, _),) = found(
        hand_made(make_repo(base), tmp_path, moves, head), "old-names"
    )
    assert (path, line, severity) == ("use.py", 1, "error")

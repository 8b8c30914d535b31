"""Symbol moves: the definition moves with its imports and private helpers; references follow."""

import pytest
from rewrite_helpers import changes, dedent, new_text

from migrate.errors import MigrateError

SRC = """
import math

from .util import cached, helper

SCALE = 2


# The fast path.
@cached
def rmsnorm(x):
    return _impl(x) * SCALE


def _impl(x):
    return helper(math.sqrt(x))


def layer(x):
    return rmsnorm(x)
"""
BASE = {
    "pkg/__init__.py": "",
    "pkg/old/__init__.py": "",
    "pkg/old/norm.py": SRC,
    "pkg/old/util.py": "def helper(x):\n    return x\ncached = lambda f: f\n",
    "pkg/new/__init__.py": "",
    "pkg/new/ln.py": '"""Layernorm."""\nimport os\n\nEPS = 1e-6\n',
    "app/use.py": (
        "import pkg.old.norm\nfrom pkg.old.norm import rmsnorm, layer\n"
        'pkg.old.norm.rmsnorm(1)\npatch("pkg.old.norm.rmsnorm")\n'
    ),
}


def test_symbol_moves_into_new_module_with_helper_and_imports(make_repo):
    src = SRC.replace("@cached\n", "").replace(" * SCALE", "")
    files = dict(BASE, **{"pkg/old/norm.py": src})
    prep, cs = changes(make_repo, files, [("pkg.old.norm:rmsnorm", "pkg.new.fused")])
    assert cs.writes["pkg/new/fused.py"] == (
        "code",
        dedent(
            """
            import math

            from pkg.old.util import helper


            # The fast path.
            def rmsnorm(x):
                return _impl(x)


            def _impl(x):
                return helper(math.sqrt(x))
            """
        ),
    )
    # math and helper were only used by the moved code: they leave with it.
    assert new_text(prep, cs, "pkg/old/norm.py") == dedent(
        """
        from pkg.new.fused import rmsnorm

        from .util import cached

        SCALE = 2


        def layer(x):
            return rmsnorm(x)
        """
    )


def test_public_names_the_symbol_uses_are_imported_from_the_old_module(make_repo):
    src = SRC.replace("@cached\n", "").split("\n\ndef layer")[0] + "\n"
    files = dict(BASE, **{"pkg/old/norm.py": src})
    prep, cs = changes(make_repo, files, [("pkg.old.norm:rmsnorm", "pkg.new.fused")])
    assert "from pkg.old.norm import SCALE\n" in cs.writes["pkg/new/fused.py"][1]
    assert "import" not in new_text(prep, cs, "pkg/old/norm.py").split("SCALE = 2")[1]


def test_symbol_move_into_existing_module_and_references(make_repo):
    files = dict(
        BASE, **{"pkg/old/norm.py": SRC.replace(" * SCALE", "").replace("SCALE = 2\n", "")}
    )
    # the patch in a file of its own: a file that patches the symbol on its old module
    # keeps reading it there (tests/test_patch_targets.py)
    files["app/use.py"] = files["app/use.py"].replace('patch("pkg.old.norm.rmsnorm")\n', "")
    files["app/t.py"] = 'patch("pkg.old.norm.rmsnorm")\n'
    prep, cs = changes(make_repo, files, [("pkg.old.norm:rmsnorm", "pkg.new.ln")])
    ln = new_text(prep, cs, "pkg/new/ln.py")
    assert ln.startswith(
        '"""Layernorm."""\nimport math\nimport os\n\nfrom pkg.old.util import cached, helper\n'
    )
    assert ln.endswith(
        "EPS = 1e-6\n\n\n# The fast path.\n@cached\ndef rmsnorm(x):\n"
        "    return _impl(x)\n\n\ndef _impl(x):\n"
        "    return helper(math.sqrt(x))\n"
    )
    use = new_text(prep, cs, "app/use.py")
    # the added import of own code goes right after its binding: sorting it above
    # `pkg.old.norm` would run the two modules in another order (import_layout._place)
    assert use == (
        "import pkg.old.norm\nimport pkg.new.ln\n"
        "from pkg.new.ln import rmsnorm\nfrom pkg.old.norm import layer\n"
        "pkg.new.ln.rmsnorm(1)\n"
    )
    # norm's `layer` still calls rmsnorm, so norm binds it (imported back): the patch
    # stays on norm, where `layer` reads it (tests/test_patch_targets.py), with a warning
    # that names the read respelled to the new module.
    assert cs.edits_for("app/t.py") == []
    (note,) = [n for n in cs.notes if n.pos.file == "app/t.py"]
    assert note.severity == "warning" and "in layer" in note.message
    assert "app/use.py:3" in note.message


def test_private_helper_shared_with_staying_code_is_refused(make_repo):
    src = SRC + "\n\ndef other(x):\n    return _impl(x)\n"
    files = dict(BASE, **{"pkg/old/norm.py": src})
    with pytest.raises(MigrateError) as exc:
        changes(make_repo, files, [("pkg.old.norm:rmsnorm", "pkg.new.fused")])
    assert "private helper _impl" in str(exc.value) and "other" in str(exc.value)


def test_import_cycle_is_refused(make_repo):
    # rmsnorm needs the public SCALE from norm; norm's `layer` needs rmsnorm back.
    with pytest.raises(MigrateError) as exc:
        changes(make_repo, dict(BASE), [("pkg.old.norm:rmsnorm", "pkg.new.fused")])
    assert "import cycle" in str(exc.value)


def test_patch_object_of_a_moved_symbol_the_old_module_still_binds_stays_there(make_repo):
    """Changed deliberately (stop 23, T11): the patch used to follow the symbol, for review,
    and so missed `layer`, left in norm, which calls it through norm's globals."""
    src = SRC.replace("@cached\n", "").replace(" * SCALE", "")
    files = dict(BASE, **{"pkg/old/norm.py": src})
    files["app/t.py"] = (
        "import pkg.old.norm as nm\nfrom unittest import mock\n\n"
        'mock.patch.object(nm, "rmsnorm")\nmonkeypatch.setattr(nm, "layer", None)\n'
    )
    prep, cs = changes(make_repo, files, [("pkg.old.norm:rmsnorm", "pkg.new.fused")])
    assert cs.edits_for("app/t.py") == []
    (note,) = [n for n in cs.notes if n.pos.file == "app/t.py"]
    assert (note.pos.line, note.severity) == (4, "warning")
    assert "kept on pkg.old.norm" in note.message and "in layer" in note.message


def test_parent_relative_import_of_a_moved_symbol_in_a_subpackage(make_repo):
    """`from ..util import helper` two levels down reaches the symbol's old module too."""
    files = dict(
        BASE,
        **{
            "pkg/old/sub/__init__.py": "",
            "pkg/old/sub/router.py": "from ..util import helper\n\nvalue = helper(3)\n",
            "pkg/old/sub/other.py": "from . import router\nfrom ..norm import layer\n",
        },
    )
    prep, cs = changes(make_repo, files, [("pkg.old.util:helper", "pkg.new.helpers")])
    assert new_text(prep, cs, "pkg/old/sub/router.py") == (
        "from pkg.new.helpers import helper\n\nvalue = helper(3)\n"
    )
    # A relative import that does not reach the moved symbol is never touched.
    assert cs.edits_for("pkg/old/sub/other.py") == []


@pytest.mark.parametrize("head", ["", '"""Norms."""\n'])
def test_a_moved_first_statement_that_the_module_still_uses(make_repo, head):
    """The moved definition opens its module (nothing but a docstring above it) and the
    module's own code still calls it: the import back goes where the definition was. Its
    insertion and the cut begin at one offset; the dry run took them for overlapping
    edits and refused a valid plan (exit 2)."""
    files = {
        "pkg/__init__.py": "",
        "pkg/conf.py": head + "def g():\n    return 2\n\n\ndef f():\n    return g()\n",
    }
    prep, cs = changes(make_repo, files, [("pkg.conf:g", "pkg.consts")])
    assert cs.writes["pkg/consts.py"] == ("code", "def g():\n    return 2\n")
    assert new_text(prep, cs, "pkg/conf.py") == (
        head + "from pkg.consts import g\n\n\ndef f():\n    return g()\n"
    )


STATE = "COUNTER = 0\n\n\ndef bump():\n    global COUNTER\n    COUNTER += 1\n    return COUNTER\n"


@pytest.mark.parametrize(
    ("moved", "message"),
    [
        # bump stays and would rebind pkg.state's own copy: pkg.consts.COUNTER stays 0
        ("COUNTER", "pkg.state rebinds COUNTER (`global COUNTER` in bump)"),
        # bump moves and would rebind pkg.consts' copy: pkg.state.COUNTER stays 0
        ("bump", "the moved bump rebinds COUNTER (`global COUNTER`), which stays in pkg.state"),
    ],
)
def test_a_global_rebound_across_the_move_is_refused(make_repo, moved, message):
    """A module-level name one side of the move rebinds by `global` splits into two
    copies: every reader of the other module's copy sees its old value (trial23 T33: the
    suite's `state.COUNTER == 2` became `consts.COUNTER == 2`, 0 after two bumps; apply 0,
    verify PASS)."""
    files = {"pkg/__init__.py": "", "pkg/state.py": STATE}
    with pytest.raises(MigrateError) as exc:
        changes(make_repo, files, [(f"pkg.state:{moved}", "pkg.consts")])
    assert message in str(exc.value)


def test_a_global_of_a_name_that_moves_along_is_fine(make_repo):
    files = {"pkg/__init__.py": "", "pkg/state.py": STATE + "\n\ndef other():\n    return 1\n"}
    prep, cs = changes(
        make_repo, files, [("pkg.state:COUNTER", "pkg.consts"), ("pkg.state:bump", "pkg.consts")]
    )
    assert "global COUNTER" in cs.writes["pkg/consts.py"][1]


OVERLOADED = """import typing as t


@t.overload
def command(name: str) -> str: ...


@t.overload
def command(name: None = None) -> None: ...


def command(name=None):
    return name


def other():
    return 1
"""


def test_the_overloads_of_a_moved_function_move_with_it(make_repo):
    """`@overload` variants are top-level definitions of the same name: only the last one
    moved, the stubs stayed, and `pkg.deco.command` became the last stub (typing's
    dummy, which raises when called); the moved function lost its signatures (trial23 T39)."""
    files = {"pkg/__init__.py": "", "pkg/deco.py": OVERLOADED}
    prep, cs = changes(make_repo, files, [("pkg.deco:command", "pkg.commands")])
    moved = cs.writes["pkg/commands.py"][1]
    assert moved.count("def command(") == 3 and moved.count("@t.overload") == 2
    assert moved.startswith("import typing as t\n")
    left = new_text(prep, cs, "pkg/deco.py")
    assert "command" not in left and "def other():" in left


PLUGINS_STATE = {
    "pkg/__init__.py": "",
    "pkg/registry.py": "HANDLERS = {}\n",
    "pkg/plugins.py": 'from pkg import registry\n\nregistry.HANDLERS["plugin"] = len\n',
    "pkg/state.py": "import pkg.plugins\n\n\ndef init():\n    return pkg.plugins\n\n\n"
    "def kept():\n    return 1\n",
    "pkg/use.py": "from pkg import state\nfrom pkg.registry import HANDLERS\n\n\n"
    "def check():\n    assert state.kept() == 1 and sorted(HANDLERS) == {expected}\n",
}


def test_an_import_only_moved_code_used_stays_when_its_import_runs_code(make_repo, tmp_path):
    """The source's last import of pkg.plugins, whose import registers a handler, was
    removed with `init`, the only code reading it: importing pkg.state stopped
    registering (verify's import-reach FAILed it). It stays, marked for ruff's F401, and
    the dry run says why (executed; a second run changes nothing). A module whose import
    only defines names is removed as before (the control)."""
    from rewrite_helpers import rewrite_and_run

    files = {
        **PLUGINS_STATE,
        "pkg/use.py": PLUGINS_STATE["pkg/use.py"].format(expected='["plugin"]'),
    }
    moves = [("pkg.state:init", "pkg.newmod")]
    _, cs, out = rewrite_and_run(make_repo, tmp_path / "a", files, moves, "pkg.use")
    assert (out / "pkg/state.py").read_text() == (
        "import pkg.plugins  # noqa: F401\n\n\ndef kept():\n    return 1\n"
    )
    (note,) = [n for n in cs.notes if n.pos.file == "pkg/state.py"]
    assert note.severity == "warning" and "runs `registry.HANDLERS['plugin'] = len`" in note.message

    files["pkg/plugins.py"] = "from pkg import registry\n\nNAME = 'plugin'\n"
    files["pkg/use.py"] = PLUGINS_STATE["pkg/use.py"].format(expected="[]")
    _, cs, out = rewrite_and_run(make_repo, tmp_path / "b", files, moves, "pkg.use")
    assert (out / "pkg/state.py").read_text() == "def kept():\n    return 1\n"
    assert not [n for n in cs.notes if n.pos.file == "pkg/state.py"]


def test_adjacent_names_leaving_a_multiline_all_are_cut_as_one(make_repo):
    """boltons 24.0.0's strutils (t12 T58): `'gzip_bytes', 'gunzip_bytes',` side by side
    at the end of a line of a multi-line `__all__`, both moving: the two cuts overlapped
    (the second took the blank before its element) and the plan was refused ('another
    rewrite of these lines cannot be combined with it', exit 2)."""
    files = {
        "pkg/__init__.py": "",
        "pkg/s.py": """
            __all__ = ['keep', 'gzip_bytes', 'gunzip_bytes',
                       'other']


            def keep():
                pass


            def gzip_bytes():
                pass


            def gunzip_bytes():
                pass


            def other():
                pass
            """,
    }
    moves = [("pkg.s:gzip_bytes", "pkg.gz"), ("pkg.s:gunzip_bytes", "pkg.gz")]
    prep, cs = changes(make_repo, files, moves)
    assert new_text(prep, cs, "pkg/s.py").startswith("__all__ = ['keep',\n           'other']\n")


def test_the_import_a_source_gets_back_goes_below_its_header_comments(make_repo):
    """colorama 0.4.6's win32 (t12 T60): STDOUT moved out of a module with no import and
    no docstring, which reads it still; the import it gets back was written on line 1,
    above the copyright comment. Above a shebang it breaks the script, above a coding
    cookie the file's decoding: it goes below the header's comment block."""
    files = {
        "pkg/__init__.py": "",
        "pkg/w.py": (
            "#!/usr/bin/env python\n# -*- coding: utf-8 -*-\n# Copyright header.\n\n"
            "# from winbase.h\nSTDOUT = -11\n\nOTHER = 1\n\n\ndef f(x=STDOUT):\n    return x\n"
        ),
        "pkg/v.py": "# -*- coding: utf-8 -*-\nSTDOUT = -11\n\n\ndef f(x=STDOUT):\n    return x\n",
    }
    moves = [("pkg.w:STDOUT", "pkg.handles"), ("pkg.v:STDOUT", "pkg.handles2")]
    prep, cs = changes(make_repo, files, moves)
    assert new_text(prep, cs, "pkg/w.py").startswith(
        "#!/usr/bin/env python\n# -*- coding: utf-8 -*-\n# Copyright header.\n\n"
        "from pkg.handles import STDOUT\n\nOTHER = 1\n"
    )
    # a cookie right above the moved code stays: it is the file's, not the definition's
    assert new_text(prep, cs, "pkg/v.py").startswith(
        "# -*- coding: utf-8 -*-\nfrom pkg.handles2 import STDOUT\n\n\ndef f("
    )
    assert new_text(prep, cs, "pkg/handles2.py") == "STDOUT = -11\n"

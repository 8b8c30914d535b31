"""A patch of a moved symbol, by binding (`rewrite/patch_targets.py`).

A patch replaces a name in one namespace. When the old module still binds the moved
symbol (it imports it back because code left there calls it), a patch of the old module
keeps patching the old module, with a warning naming what reads the symbol from the new
module; when the old module no longer binds it, the patch follows it to the new module.
Each result is executed (`check()` patches and calls through the old module's code) and
the rewrite is run a second time (`rewrite_and_run`).
"""

from __future__ import annotations

from rewrite_helpers import dedent, rewrite_and_run, run_check

NORM = """
import math


def rmsnorm(x):
    return _impl(x)


def _impl(x):
    return math.sqrt(x)


def layer(x):
    return rmsnorm(x)
"""
FILES = {
    "pkg/__init__.py": "",
    "pkg/old/__init__.py": "",
    "pkg/old/norm.py": NORM,
    "pkg/new/__init__.py": "",
}
MOVE = [("pkg.old.norm:rmsnorm", "pkg.new.fused")]

# Every patch form of `norm.rmsnorm`, each seen by `layer`, which stays in norm and calls
# rmsnorm through norm's globals (the packaging 24.2 shape: tags.platform_tags calls
# mac_platforms, and its test monkeypatches tags.mac_platforms).
PATCHES = """
from unittest import mock

import pkg.old.norm as nm
from pkg.old import norm


def fake(x):
    return "fake"


def check():
    assert nm.layer(4) == 2.0
    with mock.patch.object(nm, "rmsnorm", fake):
        assert nm.layer(4) == "fake"
    with mock.patch("pkg.old.norm.rmsnorm", fake):
        assert norm.layer(4) == "fake"
    real = norm.rmsnorm
    setattr(norm, "rmsnorm", fake)
    assert nm.layer(4) == "fake"
    nm.rmsnorm = real
    assert nm.layer(4) == 2.0
    norm.rmsnorm = fake
    assert norm.layer(4) == "fake"
    norm.rmsnorm = real
"""


OTHER = """
from pkg.old import norm


def check():
    assert norm.rmsnorm(9) == 3.0
"""


def test_a_patch_stays_on_the_old_module_that_still_binds_the_symbol(make_repo, tmp_path):
    files = dict(FILES, **{"app/__init__.py": "", "app/t.py": PATCHES, "app/other.py": OTHER})
    prep, cs, out = rewrite_and_run(make_repo, tmp_path, files, MOVE, "app.t")
    # every patch target is left as written, and so is the read of the patched name in
    # the file that patches it (it reads the namespace it patches)
    assert (out / "app/t.py").read_text() == dedent(PATCHES)
    notes = [n for n in cs.notes if n.pos.file == "app/t.py"]
    assert len(notes) == 6, [n.message for n in notes]
    assert {n.severity for n in notes} == {"warning"}
    for n in notes:
        assert "kept on pkg.old.norm" in n.message and "in layer" in n.message, n.message
        # app/other.py reads it from the new module after the plan: named
        assert n.message.endswith("does not see this patch: app/other.py:5"), n.message
    assert sorted(n.pos.line for n in notes) == [13, 15, 18, 20, 22, 24]
    assert "fused.rmsnorm(9)" in (out / "app/other.py").read_text()
    run_check(out, "app.other")


def test_the_note_names_moved_code_that_reads_the_symbol_in_the_new_module(make_repo, tmp_path):
    """`twice`, moving along, calls rmsnorm through the NEW module's globals: a patch kept
    on the old module does not reach it, and the warning says so."""
    norm = NORM + "\n\ndef twice(x):\n    return rmsnorm(rmsnorm(x))\n"
    files = dict(FILES, **{"pkg/old/norm.py": norm, "app/__init__.py": ""})
    files["app/t.py"] = dedent(
        """
        from unittest import mock

        from pkg.old import norm


        def check():
            with mock.patch.object(norm, "rmsnorm", lambda x: -1):
                assert norm.layer(4) == -1
        """
    )
    moves = [*MOVE, ("pkg.old.norm:twice", "pkg.new.fused")]
    prep, cs, out = rewrite_and_run(make_repo, tmp_path, files, moves, "app.t")
    (note,) = [n for n in cs.notes if n.pos.file == "app/t.py"]
    assert "pkg.new.fused: twice" in note.message
    assert 'mock.patch.object(norm, "rmsnorm"' in (out / "app/t.py").read_text()


def test_a_patch_follows_the_symbol_when_the_old_module_no_longer_binds_it(make_repo, tmp_path):
    norm = NORM.split("\n\ndef layer")[0] + "\n"
    files = dict(FILES, **{"pkg/old/norm.py": norm, "app/__init__.py": ""})
    files["app/t.py"] = dedent(
        """
        from unittest import mock

        from pkg.old import norm


        def check():
            with mock.patch.object(norm, "rmsnorm", lambda x: -1):
                assert norm.rmsnorm(4) == -1
            with mock.patch("pkg.old.norm.rmsnorm", lambda x: -2):
                assert norm.rmsnorm(4) == -2
            assert norm.rmsnorm(4) == 2.0
        """
    )
    prep, cs, out = rewrite_and_run(make_repo, tmp_path, files, MOVE, "app.t")
    text = (out / "app/t.py").read_text()
    assert 'mock.patch.object(fused, "rmsnorm"' in text
    assert 'mock.patch("pkg.new.fused.rmsnorm"' in text
    assert not [n for n in cs.notes if n.pos.file == "app/t.py"]
    edits = [e for e in cs.edits if e.path == "app/t.py"]
    assert edits and {e.applicability for e in edits} == {"safe"}


CONF = """
import os

LIMIT = 3

WIDTH = None


def width():
    return WIDTH or 10
"""
RUNNER = """
from pkg import conf


def run():
    old = conf.WIDTH
    conf.WIDTH = 80
    try:
        return conf.width()
    finally:
        conf.WIDTH = old


def check():
    assert run() == 80 and conf.width() == 10
"""


def test_an_assignment_through_the_old_module_is_a_patch_of_it(make_repo, tmp_path):
    """click's CliRunner shape (t12's T22): `formatting.FORCED_WIDTH = 80` around a call
    whose code reads FORCED_WIDTH through formatting's globals; the constant moves, and
    formatting imports it back."""
    files = {"pkg/__init__.py": "", "pkg/conf.py": CONF, "pkg/runner.py": RUNNER}
    prep, cs, out = rewrite_and_run(
        make_repo, tmp_path, files, [("pkg.conf:WIDTH", "pkg.consts")], "pkg.runner"
    )
    assert (out / "pkg/runner.py").read_text() == dedent(RUNNER)
    notes = [n for n in cs.notes if n.pos.file == "pkg/runner.py"]
    assert [n.pos.line for n in notes] == [6, 10]
    assert "reads it through its own globals in width;" in notes[0].message


def test_an_assignment_follows_a_moved_constant_its_old_module_no_longer_reads(make_repo, tmp_path):
    """Nothing left in conf reads LIMIT: conf no longer binds it, so the assignment
    goes to the new module, where `limit` (moved along) reads it."""
    conf = CONF + "\n\ndef limit():\n    return LIMIT\n"
    runner = dedent(
        """
        from pkg import conf


        def check():
            conf.LIMIT = 5
            assert conf.limit() == 5
        """
    )
    files = {"pkg/__init__.py": "", "pkg/conf.py": conf, "pkg/runner.py": runner}
    moves = [("pkg.conf:LIMIT", "pkg.consts"), ("pkg.conf:limit", "pkg.consts")]
    prep, cs, out = rewrite_and_run(make_repo, tmp_path, files, moves, "pkg.runner")
    text = (out / "pkg/runner.py").read_text()
    assert "    consts.LIMIT = 5\n    assert consts.limit() == 5\n" in text
    assert not [n for n in cs.notes if n.pos.file == "pkg/runner.py"]


# trial23 T22 (click 8.1.7's CliRunner: `formatting.FORCED_WIDTH = 80` around `invoke`):
# a module-level VALUE the old module reads through its own globals, replaced by plain
# assignment, augmented assignment, a tuple or `for` target, `setattr` and `del` through
# a relative and a function-local binding of the old module.
CONF_RW = """
import os

WIDTH = None


def width():
    return WIDTH or 10
"""
RUNNER_RW = """
from . import conf


def run():
    old = conf.WIDTH
    conf.WIDTH = 80
    conf.WIDTH += 1
    try:
        return conf.width()
    finally:
        conf.WIDTH = old


def local():
    from pkg import conf as c

    seen = []
    c.WIDTH, y = 6, 7
    seen.append(c.width())
    for c.WIDTH in (1, 2):
        seen.append(c.width())
    setattr(c, "WIDTH", 3)
    seen.append(c.width())
    del c.WIDTH
    c.WIDTH = None
    return seen, y


def check():
    assert run() == 81
    assert conf.width() == 10
    assert local() == ([6, 1, 2, 3], 7)
"""


def test_every_write_form_to_a_moved_value_through_the_old_module_stays_there(make_repo, tmp_path):
    """Each write replaces `WIDTH` in conf's namespace, where `width()` reads it: the
    writes keep their target (on main 2773476 they became `consts.WIDTH = 80` and
    `run()` returned 10: click's suite lost 14 tests, apply exit 0, verify PASS), each
    with the kept-patch warning."""
    files = {
        "pkg/__init__.py": "",
        "pkg/conf.py": CONF_RW,
        "pkg/runner.py": RUNNER_RW,
    }
    prep, cs, out = rewrite_and_run(
        make_repo, tmp_path, files, [("pkg.conf:WIDTH", "pkg.consts")], "pkg.runner"
    )
    assert (out / "pkg/runner.py").read_text() == dedent(RUNNER_RW)
    assert "from pkg.consts import WIDTH\n" in (out / "pkg/conf.py").read_text()
    notes = [n for n in cs.notes if n.pos.file == "pkg/runner.py"]
    assert sorted(n.pos.line for n in notes) == [6, 7, 11, 18, 20, 22, 24, 25]
    assert all("patch of pkg.conf.WIDTH kept on pkg.conf" in n.message for n in notes)


# colorama 0.4.6's shape (t12 T57): winterm binds `from . import win32` and reads
# `win32.STDOUT`; its tests replace that binding whole (`@patch('colorama.winterm.win32')`)
# and assert the mock's STDOUT was passed on. STDOUT moving to a new module, with win32
# still reading it (imported back), the read respelled `handles.STDOUT` escaped the patch:
# two tests failed, apply 0, verify PASS.
WIN32 = """
STDOUT = -11


def write(handle=STDOUT):
    return handle
"""
TERM = """
from . import win32


def out():
    return win32.write(win32.STDOUT)
"""
PATCHED_BINDING = """
from unittest import mock

from pkg import term


def check():
    assert term.out() == -11
    with mock.patch("pkg.term.win32") as fake:
        term.out()
        fake.write.assert_called_with(fake.STDOUT)
"""


def test_reads_through_a_patched_module_binding_stay_on_the_module_that_still_binds(
    make_repo, tmp_path
):
    files = {
        "pkg/__init__.py": "",
        "pkg/win32.py": WIN32,
        "pkg/term.py": TERM,
        "app/__init__.py": "",
        "app/t.py": PATCHED_BINDING,
    }
    prep, cs, out = rewrite_and_run(
        make_repo, tmp_path, files, [("pkg.win32:STDOUT", "pkg.handles")], "app.t"
    )
    assert (out / "pkg/term.py").read_text() == dedent(TERM)
    assert "from pkg.handles import STDOUT" in (out / "pkg/win32.py").read_text()
    (note,) = [n for n in cs.notes if n.pos.file == "pkg/term.py"]
    assert note.severity == "warning" and "pkg.term.win32" in note.message, note.message


def test_a_read_through_a_patched_module_binding_follows_when_the_old_module_lets_go(
    make_repo, tmp_path
):
    """The same binding patched whole, but win32 no longer reads STDOUT: the read must
    follow it to its new module, and the warning says the patch no longer reaches it."""
    files = {
        "pkg/__init__.py": "",
        "pkg/win32.py": "STDOUT = -11\n\n\ndef write(handle):\n    return handle\n",
        "pkg/term.py": TERM,
        "app/__init__.py": "",
        "app/t.py": PATCHED_BINDING.replace("fake.STDOUT", "-11"),
    }
    prep, cs, out = rewrite_and_run(
        make_repo, tmp_path, files, [("pkg.win32:STDOUT", "pkg.handles")], "app.t"
    )
    assert "win32.write(handles.STDOUT)" in (out / "pkg/term.py").read_text()
    (note,) = [n for n in cs.notes if n.pos.file == "pkg/term.py"]
    assert note.severity == "warning" and "no longer reaches" in note.message, note.message

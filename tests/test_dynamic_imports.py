"""A module name computed at run time under a package that loses modules gets a review
note (trial23 T26): no rewrite can follow `import_module(f"pkg.old.{name}")`, and after
the move it raises ModuleNotFoundError for the modules that left."""

from __future__ import annotations

from rewrite_helpers import changes

OTHER = """
import importlib


def load(name):
    return importlib.import_module("." + name, "pkg.old")


def load2(name):
    return importlib.import_module(f"pkg.old.{name}")


def load3(name):
    return __import__("pkg.old." + name, fromlist=["x"])


def load4(name):
    return importlib.import_module(name, package="pkg.old")


def fixed():
    return importlib.import_module("pkg.old.keep")


def elsewhere(name):
    return importlib.import_module(f"pkg.other.{name}")
"""
FILES = {
    "pkg/__init__.py": "",
    "pkg/old/__init__.py": "",
    "pkg/old/mod.py": "X = 1\n",
    "pkg/old/keep.py": "Y = 2\n",
    "pkg/old/other.py": OTHER,
    "pkg/other/__init__.py": "",
}


def test_a_computed_module_name_under_a_package_losing_modules_is_noted(make_repo):
    prep, cs = changes(make_repo, FILES, [("pkg.old.mod", "pkg.new.mod")])
    notes = [n for n in cs.notes if n.pos.file == "pkg/old/other.py"]
    assert [(n.pos.line, n.severity) for n in notes] == [(ln, "warning") for ln in (5, 9, 13, 17)]
    gone = "modules renamed in or moved out of pkg.old (mod -> pkg.new.mod)"
    assert all(gone in n.message for n in notes)
    assert cs.edits_for("pkg/old/other.py") == []


def test_no_note_when_the_package_moves_whole_or_loses_nothing(make_repo):
    prep, cs = changes(make_repo, FILES, [("pkg.old", "pkg.renamed")])
    assert not [n for n in cs.notes if "computed at run time" in n.message]
    files = dict(FILES, **{"pkg/third/__init__.py": "", "pkg/third/m.py": "Z = 3\n"})
    prep, cs = changes(make_repo, files, [("pkg.third.m", "pkg.fourth.m")])
    assert not [n for n in cs.notes if "computed at run time" in n.message]


def test_a_module_renamed_in_place_is_noted_too(make_repo):
    files = dict(FILES, **{"pkg/other/mod.py": "Z = 3\n"})
    prep, cs = changes(make_repo, files, [("pkg.other.mod", "pkg.other.mod2")])
    (note,) = [n for n in cs.notes if "computed at run time" in n.message]
    assert (note.pos.file, note.pos.line) == ("pkg/old/other.py", 25)
    assert "pkg.other (mod -> pkg.other.mod2)" in note.message


def test_call_prefilter_finds_what_the_regex_finds():
    """`_may_call` (substring tests, then `_CALL`) says what `_CALL.search` says."""
    from pathlib import Path

    import migrate
    from migrate.rewrite.dynamic_imports import _CALL, _may_call

    texts = [
        OTHER,
        "x = import_module (n)",
        "__import__\t(n)",
        "reimport_module(n)",
        "import_module",
    ]
    texts += [p.read_text() for p in Path(migrate.__file__).parent.rglob("*.py")]
    assert any(_may_call(t) for t in texts) and not all(_may_call(t) for t in texts)
    assert [_may_call(t) for t in texts] == [_CALL.search(t) is not None for t in texts]

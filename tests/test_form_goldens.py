"""Issue 12's forms whose golden case no other test executed, refused or read the dry run
of (docs/rewrite-forms.md lists every form with its golden and its tests): the rows B12,
P4, P5, P6, M10, M11, C4 and L6 there. Each case is a golden under golden/rewrite/ (compared
byte for byte by tests/test_rewrite_golden.py); here it is executed and run twice, or
refused through the CLI with nothing written."""

from __future__ import annotations

from helpers import GOLDEN, git, migrate_cli
from rewrite_helpers import (
    changes,
    golden_case,
    rewrite_and_run,
    run_golden_case,
    unsorted_imports,
    unused_imports,
)


def _repo_of(make_repo, name: str):
    """(repo, plan path) of golden `name`: its before tree committed in a fresh repo."""
    return make_repo(golden_case(name).files), GOLDEN / "rewrite" / name / "plan.yaml"


NO_SPELLING = "spelling-no-safe-spelling-refused"
DEFINES_LIB = "cannot rewrite `import pkg.mod` to `import lib.mod`: the file defines `lib` itself"


def test_no_safe_spelling_is_an_error_that_stops_apply(make_repo):
    """`import pkg.mod` -> `import lib.mod` in a file that binds `lib` itself: an error
    note at the import and no edit of the file; the dry run prints it and exits 1, apply
    exits 2 and writes nothing (HEAD, index and work tree unchanged)."""
    case = golden_case(NO_SPELLING)
    _, cs = changes(make_repo, case.files, case.moves, case.extra, case.roots)
    (note,) = [n for n in cs.notes if n.pos.file == "app/use.py"]
    assert note.severity == "error" and (note.pos.line, note.pos.col) == (1, 8)
    assert DEFINES_LIB in note.message
    assert not [e for e in cs.edits if e.path == "app/use.py"]
    repo, plan = _repo_of(make_repo, NO_SPELLING)
    head = git(repo, "rev-parse", "HEAD")
    for args, code in (([str(plan), "--dry-run"], 1), (["apply", str(plan)], 2)):
        res = migrate_cli(repo, *args)
        assert res.returncode == code, res.stdout + res.stderr
        assert f"app/use.py:1:8: error: {DEFINES_LIB}" in res.stdout + res.stderr
    assert git(repo, "rev-parse", "HEAD") == head and git(repo, "status", "--porcelain") == ""


GLOBAL_IMPORT = "spelling-global-import-in-a-function-refused"


def test_a_read_of_an_import_a_function_makes_global_is_an_error_that_stops_apply(make_repo):
    """d12 D3: `run()` reads `mod.func()`, where `mod` is bound only by `setup()`'s
    `global mod; from pkg import mod`. It was no use of the binding at all (left as
    written: apply 0, AttributeError at run time, verify PASS). Now it is, and has no
    safe spelling (an import beside the binding binds the new module in `setup` only):
    an error at the read; the read inside `setup` is respelled; apply exits 2 and
    writes nothing."""
    case = golden_case(GLOBAL_IMPORT)
    _, cs = changes(make_repo, case.files, case.moves, case.extra, case.roots)
    (note,) = [n for n in cs.notes if n.severity == "error"]
    assert (note.pos.file, note.pos.line, note.pos.col) == ("pkg/use.py", 10, 12)
    assert "the import a function makes global (line 3)" in note.message
    assert [(e.line, e.new) for e in cs.edits if e.path == "pkg/use.py"] == [
        (3, "from pkg import mod, newmod"),
        (5, "newmod"),
    ]
    repo, plan = _repo_of(make_repo, GLOBAL_IMPORT)
    head = git(repo, "rev-parse", "HEAD")
    res = migrate_cli(repo, "apply", str(plan))
    assert res.returncode == 2, res.stdout + res.stderr
    assert "cannot spell pkg.newmod" in res.stdout + res.stderr
    assert git(repo, "rev-parse", "HEAD") == head and git(repo, "status", "--porcelain") == ""


def test_a_class_level_binding_read_through_the_instance_follows_the_symbol(make_repo, tmp_path):
    """d12 D1: `class Holder: from pkg import mod` read in a method as `self.mod.func()`
    and in a classmethod as `cls.mod.Cls` was no use of the binding (left as written:
    apply 0, AttributeError at run time, verify PASS). The class body now imports the new
    module beside the old one and the reads go through it; `self.mod.other()`, which
    stays, keeps the old binding; a staticmethod's parameter `mod` is not the class's.
    Executed, run twice."""
    _, _, out, _ = run_golden_case(make_repo, tmp_path, "binding-class-level-through-self")
    text = (out / "pkg/use.py").read_text()
    assert text.startswith("class Holder:\n    from pkg import mod, newmod\n")
    assert "return self.newmod.func() + self.mod.other()\n" in text
    assert "return cls.newmod.Cls.kind\n" in text
    assert "def alone(mod):\n        return mod.func()\n" in text


def test_a_class_level_binding_read_through_the_class_name_follows_the_symbol(make_repo, tmp_path):
    """f12 (a false PASS): `class Holder: from pkg import mod` read as `Holder.mod.func()`
    in a method and in a module-level function, and as `self.mod.Cls` from a closure in
    a method, was no use of the binding: left as written, AttributeError at run time,
    apply 0, verify PASS. The reads now go through the new module the class body imports
    beside the old one; `Holder.mod.other()`, which stays, keeps it. Executed, run twice."""
    _, _, out, _ = run_golden_case(make_repo, tmp_path, "binding-class-level-through-class-name")
    text = (out / "pkg/use.py").read_text()
    assert text.startswith("class Holder:\n    from pkg import mod, newmod\n")
    assert "return Holder.newmod.func() + Holder.mod.other()\n" in text
    assert "return self.newmod.Cls.kind + Holder.newmod.func()\n" in text
    assert "return Holder.newmod.Cls.kind\n" in text


def test_a_class_binding_an_instance_attribute_may_hide_is_not_read_through_self(
    make_repo, tmp_path
):
    """The control of D1: `self.mod = Fake` in `__init__` hides the class's `mod`, so
    `self.mod.func()` is not read as the class-level import (rewriting it to
    `self.newmod.func()` would call the real function instead of Fake's). Executed."""
    files = golden_case("binding-class-level-through-self").files
    files["pkg/use.py"] = (
        "class Fake:\n    @staticmethod\n    def func():\n        return 'fake'\n\n\n"
        "class Holder:\n    from pkg import mod\n\n    def __init__(self):\n"
        "        self.mod = Fake\n\n    def run(self):\n        return self.mod.func()\n\n\n"
        "def check():\n    assert Holder().run() == 'fake'\n"
    )
    moves = golden_case("binding-class-level-through-self").moves
    _, _, out = rewrite_and_run(make_repo, tmp_path, files, moves, "pkg.use")
    assert "return self.mod.func()\n" in (out / "pkg/use.py").read_text()


def test_the_alias_a_collision_picks_is_said_in_the_dry_run(make_repo):
    """`newmod` is already bound in pkg/use.py: the import the move needs is aliased, and
    the dry run says so, naming the file (exit 0: a warning)."""
    repo, plan = _repo_of(make_repo, "binding-collision-alias")
    res = migrate_cli(repo, str(plan), "--dry-run")
    assert res.returncode == 0, res.stdout + res.stderr
    assert (
        "pkg/use.py: warning: imports pkg.newmod as `pkg_newmod`: "
        "`newmod` is already bound in this file"
    ) in res.stdout


def test_the_named_fix_of_a_refused_cycle_is_applied_and_runs(make_repo, tmp_path):
    """golden cycle-refused with the fix its refusal names (tools/__init__.py imports
    `run` inside the function that uses it): the same move makes the cycle pkg -> tools
    -> pkg, which imports fine, so it is applied; executed, run twice."""
    _, cs, out, _ = run_golden_case(make_repo, tmp_path, "cycle-fixed-by-a-function-local-import")
    assert not [n for n in cs.notes if n.severity == "error"], cs.notes
    assert (out / "pkg/__init__.py").read_text().startswith("from tools.helpers import helper\n")
    assert not (out / "pkg/helpers.py").exists()


def test_names_added_for_new_modules_are_merged_and_run(make_repo, tmp_path):
    """golden layout-own-order-added-names (only compared byte for byte before): the
    modules the moves need are merged into the block's `from pkg import ...` and the
    split-out statements sorted; executed, run twice, ruff's I001 finds nothing."""
    _, _, out, _ = run_golden_case(make_repo, tmp_path, "layout-own-order-added-names")
    assert unsorted_imports(out) == []
    app = (out / "app.py").read_text()
    assert app.startswith("import json\n\nfrom pkg import access, datetimes, types, utils\n")
    assert "from pkg.registry import classes as reg\n" in app


KEEPS_SUBMODULE = "symbol-init-reexport-keeps-submodule"


def test_an_init_whose_reexported_names_all_leave_a_submodule_keeps_importing_it(
    make_repo, tmp_path
):
    """f12 F3: `pkg/__init__.py`'s `from .mod import func, helper` also ran pkg.mod (its
    registry store) and bound `mod` in pkg. Both names move to pkg.newmod; the rewritten
    import alone would lose both (`pkg.mod.other()` after `import pkg`: AttributeError,
    apply 0). The __init__ keeps `from . import mod as mod`, sorted as ruff would, the
    statement's comment kept; executed, run twice; apply then verify PASSes, which FAILs
    the tree without the kept import (attributes-resolve, import-reach)."""
    case = golden_case(KEEPS_SUBMODULE)
    _, _, out = rewrite_and_run(
        make_repo, tmp_path, case.files, case.moves, "use", roots=case.roots
    )
    init = (out / "pkg/__init__.py").read_text()
    assert (
        "from . import mod as mod\nfrom .newmod import func, helper  # the public names\n" in init
    )
    assert unsorted_imports(out) == []
    repo, plan = _repo_of(make_repo, KEEPS_SUBMODULE)
    base = git(repo, "rev-parse", "HEAD").strip()
    assert migrate_cli(repo, "apply", str(plan)).returncode == 0
    res = migrate_cli(repo, "verify", f"{base}..HEAD", "--no-wheel")
    assert res.returncode == 0, res.stdout + res.stderr
    (repo / "pkg/__init__.py").write_text(init.replace("from . import mod as mod\n", ""))
    git(repo, "commit", "-qam", "drop the kept import by hand")
    res = migrate_cli(repo, "verify", f"{base}..HEAD", "--no-wheel")
    assert res.returncode == 1, res.stdout + res.stderr
    assert "use.py:6: pkg.mod.other: nothing this file imports imports pkg.mod" in res.stdout
    assert "importing pkg no longer runs pkg.mod" in res.stdout


KEEPS_EFFECT = "symbol-from-import-keeps-effect-module"


def test_a_from_import_whose_names_all_leave_a_module_that_acts_keeps_importing_it(
    make_repo, tmp_path
):
    """f12 F3 in a module that is no `__init__`: `from pkg.mod import func` was the file's
    only import of pkg.mod, whose import stores into its registry; func moves to
    pkg.newmod. The file keeps `import pkg.mod  # noqa: F401` (sorted as ruff would, F401
    clean) with a warning; executed, run twice. Where `pkg` is bound otherwise in the
    file, no such import is safe: an error, and apply exits 2 with nothing written."""
    case = golden_case(KEEPS_EFFECT)
    _, cs, out = rewrite_and_run(
        make_repo, tmp_path, case.files, case.moves, "use", roots=case.roots
    )
    (note,) = [n for n in cs.notes if n.pos.file == "use.py"]
    assert note.severity == "warning" and (note.pos.line, note.pos.col) == (3, 1)
    assert "keeps pkg.mod imported (`import pkg.mod`)" in note.message
    assert unsorted_imports(out) == [] and unused_imports(out) == []
    files = dict(case.files, **{"use.py": case.files["use.py"] + "\n\npkg = None\n"})
    _, cs = changes(make_repo, files, case.moves, case.extra, case.roots)
    (note,) = [n for n in cs.notes if n.pos.file == "use.py"]
    assert note.severity == "error" and "cannot keep pkg.mod imported" in note.message
    repo = make_repo(files)
    plan = tmp_path / "plan.yaml"
    plan.write_text((GOLDEN / "rewrite" / KEEPS_EFFECT / "plan.yaml").read_text())
    head = git(repo, "rev-parse", "HEAD")
    res = migrate_cli(repo, "apply", str(plan))
    assert res.returncode == 2 and "cannot keep pkg.mod imported" in res.stdout + res.stderr
    assert git(repo, "rev-parse", "HEAD") == head and git(repo, "status", "--porcelain") == ""

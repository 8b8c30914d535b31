"""A plan whose result has a new module-level import cycle that makes an import fail is
refused at plan time (exit 2, the cycle named module by module, a fix named, nothing
written); a new cycle that imports fine is not."""

from __future__ import annotations

import subprocess
import sys

import pytest
from helpers import git, migrate_cli
from rewrite_helpers import changes, golden_case, plan_yaml, rewrite_and_run

from migrate.errors import MigrateError

# The case is the golden golden/rewrite/cycle-refused/ (its edits.txt records the refusal).
FILES = golden_case("cycle-refused").files
MOVES = [("pkg.helpers", "tools.helpers")]


def test_failing_cycle_is_refused_with_the_cycle_and_a_fix(make_repo):
    with pytest.raises(MigrateError) as exc:
        changes(make_repo, FILES, MOVES)
    (d,) = exc.value.diagnostics
    assert d.pos.file == "pkg/__init__.py" and d.pos.line == 1
    assert "pkg -> tools -> pkg" in d.message
    assert "tools/__init__.py:1 runs `from pkg import run`" in d.message
    assert "function-local import" in d.message


def test_cli_exits_2_and_writes_nothing(make_repo, tmp_path):
    repo = make_repo(FILES)
    plan = tmp_path / "plan.yaml"
    plan.write_text(plan_yaml(MOVES))
    head = git(repo, "rev-parse", "HEAD")
    for args in ([str(plan), "--dry-run"], ["apply", str(plan)]):
        res = migrate_cli(repo, *args)
        assert res.returncode == 2, res.stdout + res.stderr
        assert "pkg -> tools -> pkg" in res.stdout + res.stderr
    assert git(repo, "rev-parse", "HEAD") == head and git(repo, "status", "--porcelain") == ""


def test_the_refused_result_really_fails_to_import(tmp_path):
    """The oracle: the tree the plan would give, written by hand, raises ImportError."""
    for rel, text in {
        "pkg/__init__.py": FILES["pkg/__init__.py"].replace(".helpers", "tools.helpers"),
        "tools/__init__.py": FILES["tools/__init__.py"],
        "tools/helpers.py": FILES["pkg/helpers.py"],
    }.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    res = subprocess.run([sys.executable, "-c", "import pkg"], cwd=tmp_path, capture_output=True)
    assert res.returncode == 1 and b"partially initialized module 'pkg'" in res.stderr


@pytest.mark.parametrize(
    "tools_init",
    [
        "import pkg\n",  # binds the module only: the cycle imports fine
        "def go():\n    from pkg import run\n\n    return run()\n",  # the named fix
    ],
)
def test_a_cycle_that_imports_fine_is_not_refused(make_repo, tmp_path, tools_init):
    files = dict(FILES, **{"tools/__init__.py": tools_init})
    _, cs, out = rewrite_and_run(make_repo, tmp_path, files, MOVES, "check")
    assert (out / "tools/helpers.py").exists()


def test_events_the_workers_hand_over_give_the_same_refusal(make_repo, monkeypatch):
    """The cycle check looks up the import-time events the rewrite workers computed from
    their parses (`import_time.key`); parsing every file itself gives the same refusal,
    and each handed-over entry is what a fresh parse of that text gives."""
    from migrate.rewrite import engine, import_cycles, import_time

    seen = {}

    def both(index, rel, cs, roots, known=None):
        seen["known"] = dict(known or {})
        seen["parsed"] = import_cycles.cycle_problems(index, rel, cs, roots, {})
        return import_cycles.cycle_problems(index, rel, cs, roots, known)

    monkeypatch.setattr(engine, "cycle_problems", both)
    with pytest.raises(MigrateError) as exc:
        changes(make_repo, FILES, MOVES)
    assert [d.message for d in exc.value.diagnostics] == [d.message for d in seen["parsed"]]
    assert seen["known"]
    checked = 0
    for path, text in FILES.items():
        module = path[: -len(".py")].replace("/", ".")
        package = module[: -len(".__init__")] if path.endswith("__init__.py") else module
        package = package if path.endswith("__init__.py") else package.rpartition(".")[0]
        found = seen["known"].get(import_time.key(text, package))
        if found is not None:
            assert found == import_time.events(text, package)
            checked += 1
    assert checked


STAR_FILES = {
    "pkg/__init__.py": ("from .ops import *\n\nfrom .recipes import *\n\nfrom . import curried\n"),
    "pkg/ops.py": "def apply(f, x):\n    return f(x)\n",
    "pkg/recipes.py": (
        "from pkg.ops import apply\n\n__all__ = ('partitionby',)\n\n\n"
        "def partitionby(seq):\n    return apply(list, seq)\n"
    ),
    "pkg/curried/__init__.py": "from pkg import apply, partitionby\n",
    "check.py": (
        "import pkg\nimport pkg.curried\n\n\ndef check():\n"
        "    assert pkg.partitionby('ab') == ['a', 'b'] == pkg.curried.partitionby('ab')\n"
    ),
}


def test_names_a_star_import_bound_are_bound_in_the_simulation(make_repo, tmp_path):
    """toolz's shape: `pkg/__init__` binds `apply` by `from .ops import *`, and its
    subpackage, imported at the end, does `from pkg import apply`. The star-import re-export
    of the moved `partitionby` adds the edge pkg -> pkg.partitioning, closing a cycle through
    pkg; the cycle imports fine (executed), so it is not refused: the static import counts
    the names a star import of our own module gives (it used to count none)."""
    _, cs, out = rewrite_and_run(
        make_repo, tmp_path, STAR_FILES, [("pkg.recipes:partitionby", "pkg.partitioning")], "check"
    )
    assert (
        "from .partitioning import partitionby as partitionby\n"
        in (out / "pkg/__init__.py").read_text()
    )


ALL_FILES = {
    "pkg/__init__.py": "from .core import *\nfrom .helpers import helper\nfrom .core import run\n",
    "pkg/core.py": "__all__ = ['other']\nother = 1\n\n\ndef run():\n    return 2\n",
    "pkg/helpers.py": "def helper():\n    return 1\n",
    "tools/__init__.py": "from pkg import run\n",
}


def test_a_star_import_gives_only_what_its_all_lists_in_the_simulation(make_repo, tmp_path):
    """`from .core import *` binds only `core.__all__` (`other`), not every public name:
    with `pkg.helpers` moved to `tools.helpers`, `tools/__init__` runs `from pkg import run`
    before `pkg` binds `run`, and the import fails (the oracle below); refused. The
    simulation counted every public name of `core` and passed it."""
    with pytest.raises(MigrateError) as exc:
        changes(make_repo, ALL_FILES, MOVES)
    (d,) = exc.value.diagnostics
    assert "tools/__init__.py:1 runs `from pkg import run`" in d.message, d.message
    result = {
        **ALL_FILES,
        "pkg/__init__.py": ALL_FILES["pkg/__init__.py"].replace(".helpers", "tools.helpers"),
        "tools/helpers.py": ALL_FILES["pkg/helpers.py"],
    }
    del result["pkg/helpers.py"]
    for rel, text in result.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    res = subprocess.run([sys.executable, "-c", "import pkg"], cwd=tmp_path, capture_output=True)
    assert res.returncode == 1 and b"cannot import name 'run'" in res.stderr, res.stderr


STAR_ALL_FILES = {
    "pkg/__init__.py": "",
    "pkg/a.py": '__all__ = ["fa"]\nimport pkg.c\n\n\ndef fa():\n    return pkg.c.helper()\n',
    "pkg/b.py": "from pkg.a import *\n\n\ndef other():\n    return fa()\n",
    "pkg/c.py": "def helper():\n    return 2\n\n\ndef keep():\n    return 3\n",
}


def test_a_star_import_of_a_module_still_initializing_fails_on_what_its_all_lists(
    make_repo, tmp_path
):
    """`from pkg.a import *` reads every name `pkg.a.__all__` lists: while `pkg.a` is
    still initializing, `fa` (listed, not bound yet) raises AttributeError. Moving
    `pkg.c:helper` into `pkg.b` makes `pkg.a` import `pkg.b` first thing: refused. The
    simulation counted the whole `__all__` as bound and applied a tree whose
    `import pkg.a` fails (exit 0; verify said FAIL no-new-cycles)."""
    with pytest.raises(MigrateError) as exc:
        changes(make_repo, STAR_ALL_FILES, [("pkg.c:helper", "pkg.b")])
    (d,) = exc.value.diagnostics
    assert "pkg/b.py:1 runs `from pkg.a import *`" in d.message, d.message
    assert "fa, which its __all__ lists, is not bound yet" in d.message, d.message
    result = {  # the tree the plan would give (the oracle)
        **STAR_ALL_FILES,
        "pkg/a.py": STAR_ALL_FILES["pkg/a.py"].replace("pkg.c", "pkg.b"),
        "pkg/b.py": STAR_ALL_FILES["pkg/b.py"] + "\n\ndef helper():\n    return 2\n",
    }
    for rel, text in result.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    res = subprocess.run([sys.executable, "-c", "import pkg.a"], cwd=tmp_path, capture_output=True)
    assert res.returncode == 1 and b"has no attribute 'fa'" in res.stderr, res.stderr


def test_a_star_import_before_the_all_is_assigned_gives_the_names_bound_so_far(make_repo, tmp_path):
    """The same cycle with `pkg.a` importing `pkg.b` BEFORE it assigns `__all__`: the
    star import finds no `__all__` yet and binds the public names bound so far (none), so
    the import works (executed) and the plan is not refused."""
    files = {
        **STAR_ALL_FILES,
        "pkg/a.py": 'import pkg.c\n\n__all__ = ["fa"]\n\n\ndef fa():\n    return pkg.c.helper()\n',
        "pkg/b.py": "from pkg.a import *\n\n\ndef other():\n    return 1\n",
        "check.py": "import pkg.a\n\n\ndef check():\n    assert pkg.a.fa() == 2\n",
    }
    _, _, out = rewrite_and_run(make_repo, tmp_path, files, [("pkg.c:helper", "pkg.b")], "check")
    assert "def helper():" in (out / "pkg/b.py").read_text()

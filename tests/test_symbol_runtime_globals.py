"""A symbol move whose code reads its module's globals at run time is refused: imported
into the new module, a global that a function rebinds (`global name`) is a copy taken once,
and `globals()` / `sys.modules[__name__]` would read the new module's namespace (trial25
T51 arrow, T53 colorama: apply exited 0 with a tree whose suite failed).
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from rewrite_helpers import changes, dedent, plan_yaml

from migrate.errors import MigrateError
from migrate.pipeline import prepare
from migrate.rewrite.engine import plan_changes

STATE = """import sys

{top}

def init(stream):
    global orig
    orig = stream


def reset():
    return orig


init(sys.stdout)
"""
MAIN = """import io
from pkg import state

s = io.StringIO()
state.init(s)
print(state.reset() is s)
"""


def _refusals(make_repo, files: dict, moves) -> list[str]:
    repo = make_repo({k: dedent(v) for k, v in files.items()})
    plan = repo.parent / f"{repo.name}-plan.yaml"
    plan.write_text(plan_yaml(moves))
    with pytest.raises(MigrateError) as exc:
        plan_changes(prepare(plan, repo))
    return [str(d) for d in exc.value.diagnostics]


@pytest.mark.parametrize("top", ["orig = None\n", ""], ids=["bound-at-top", "bound-by-global-only"])
def test_a_global_a_staying_function_rebinds_is_not_copied_into_the_new_module(make_repo, top):
    files = {"pkg/__init__.py": "", "pkg/state.py": STATE.format(top=top), "main.py": MAIN}
    root = make_repo(files)
    ran = subprocess.run([sys.executable, "main.py"], cwd=root, capture_output=True, text=True)
    assert ran.stdout == "True\n"  # the behaviour a copy in pkg.resets would lose
    [error] = _refusals(make_repo, files, [("pkg.state:reset", "pkg.resets")])
    assert error.startswith("pkg/state.py:")
    assert (
        "the moved code reads orig, which pkg.state rebinds at run time (`global orig` in init)"
        in error
    )


def test_the_moved_codes_own_global_is_not_imported_from_the_source(make_repo):
    """Control: a global only the moved code binds and reads is the new module's own."""
    files = {
        "pkg/__init__.py": "",
        "pkg/state.py": "def setup():\n    global seen\n    seen = 1\n    return seen\n\n\nX = 2\n",
        "main.py": "from pkg import state\n\nprint(state.setup())\n",
    }
    _, cs = changes(make_repo, files, [("pkg.state:setup", "pkg.setup")])
    text = cs.writes["pkg/setup.py"][1]
    assert "import" not in text and "global seen" in text


def test_a_staying_reader_of_a_global_the_moved_code_rebinds_refuses(make_repo):
    state = "def setup():\n    global seen\n    seen = 1\n\n\ndef peek():\n    return seen\n"
    files = {
        "pkg/__init__.py": "",
        "pkg/state.py": state,
        "main.py": "from pkg import state\n\nstate.setup()\nprint(state.peek())\n",
    }
    [error] = _refusals(make_repo, files, [("pkg.state:setup", "pkg.setup")])
    assert "the moved setup rebinds seen (`global seen`), which stays in pkg.state" in error


@pytest.mark.parametrize(
    "lookup",
    ["globals()[name]", "sys.modules[__name__].__dict__[name]"],
    ids=["globals", "sys-modules"],
)
def test_a_moved_definition_reading_its_module_namespace_is_refused(make_repo, lookup):
    mod = f"import sys\n\n\nclass English:\n    pass\n\n\ndef by_name(name):\n    return {lookup}\n"
    files = {
        "pkg/__init__.py": "",
        "pkg/mod.py": mod,
        "main.py": "from pkg import mod\n\nprint(mod.by_name('English'))\n",
    }
    [error] = _refusals(make_repo, files, [("pkg.mod:by_name", "pkg.lookup")])
    assert error.startswith("pkg/mod.py:9:1: error: cannot move pkg.mod:by_name to pkg.lookup")
    assert "reads its module's namespace at run time" in error


def test_a_rebound_globals_name_is_not_the_namespace(make_repo):
    files = {
        "pkg/__init__.py": "",
        "pkg/mod.py": "def globals():\n    return {}\n\n\ndef f():\n    return globals()\n",
        "main.py": "from pkg import mod\n\nprint(mod.f())\n",
    }
    _, cs = changes(make_repo, files, [("pkg.mod:f", "pkg.new")])
    assert "pkg/new.py" in cs.writes

"""A module the plan creates must not take a name its package already binds: importing
the submodule would replace the package's value by the module (toolz 1.0.0:
`toolz.recipes:partitionby -> toolz.partition` replaced the function `toolz.partition`,
given by `from .itertoolz import *`, and `toolz.curry(toolz.partition)` raised at import).
Refused at plan time, exit 2, nothing written; the usual `from .x import x` pattern is not.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from helpers import git, migrate_cli
from rewrite_helpers import changes, plan_yaml, rewrite_and_run

from migrate.errors import MigrateError

RECIPES = "def partitionby(seq):\n    return list(seq)\n"
STAR = {  # toolz's shape: the package's `partition` comes from a star import
    "pkg/__init__.py": "from .itertoolz import *\nfrom .recipes import *\n",
    "pkg/itertoolz.py": "__all__ = ('partition',)\n\n\ndef partition(n, seq):\n    return n\n",
    "pkg/recipes.py": RECIPES,
}
# A diamond of star imports one level down: `mid` star-imports `a` and `b`, both
# star-import `base`. `a`'s `__all__` leaves `partition` out; `b` has none, so `mid`
# (and `pkg`) get `partition` through `b`. A walk sharing one `seen` set met `base` a
# second time through `b`, counted nothing, and let the plan break the package.
DIAMOND = {
    "pkg/__init__.py": "from .mid import *\nfrom .recipes import *\n",
    "pkg/mid.py": "from .a import *\nfrom .b import *\n",
    "pkg/a.py": "from .base import *\n\n__all__ = ['x']\nx = 1\n",
    "pkg/b.py": "from .base import *\n",
    "pkg/base.py": "def partition(n, seq):\n    return n\n",
    "pkg/recipes.py": RECIPES,
}
OWN = {  # the package defines the name itself; a module move takes it
    "pkg/__init__.py": "from . import helpers\n\n\ndef run():\n    return helpers.go()\n",
    "pkg/helpers.py": "def go():\n    return 1\n",
}
CHECK = "import pkg\n\n\ndef check():\n    assert pkg.partition(2, 'ab') == 2, pkg.partition\n"


@pytest.mark.parametrize(
    ("files", "move", "said"),
    [
        (STAR, ("pkg.recipes:partitionby", "pkg.partition"), "by `from pkg.itertoolz import *`"),
        (OWN, ("pkg.helpers", "pkg.run"), "binds `run` at line 4 (def)"),
        (
            DIAMOND,
            ("pkg.recipes:partitionby", "pkg.partition"),
            "by `from pkg.mid import *` (from pkg.base)",
        ),
    ],
    ids=["star-import-gives-it", "package-defines-it", "diamond-of-star-imports"],
)
def test_a_new_module_named_like_a_package_binding_is_refused(
    make_repo, tmp_path, files, move, said
):
    with pytest.raises(MigrateError) as exc:
        changes(make_repo, files, [move])
    (d,) = exc.value.diagnostics
    assert said in d.message and "choose another module name" in d.message
    assert (d.pos.line, d.pos.col) == (4, 9)  # the move's `to:` value
    repo = make_repo(files)
    plan = tmp_path / "plan.yaml"
    plan.write_text(plan_yaml([move]))
    head = git(repo, "rev-parse", "HEAD")
    for args in ([str(plan), "--dry-run"], ["apply", str(plan)]):
        res = migrate_cli(repo, *args)
        assert res.returncode == 2 and said in res.stdout + res.stderr, res.stdout + res.stderr
    assert git(repo, "rev-parse", "HEAD") == head and git(repo, "status", "--porcelain") == ""


def test_the_diamond_really_gives_the_name(tmp_path):
    """The oracle for the diamond case: Python binds `pkg.partition` (the function)."""
    for rel, text in {**DIAMOND, "check.py": CHECK}.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    res = subprocess.run(
        [sys.executable, "-c", "import check; check.check()"], cwd=tmp_path, capture_output=True
    )
    assert res.returncode == 0, res.stderr


def test_the_refused_result_really_breaks_the_package(tmp_path):
    """The oracle: the tree the star case would give, written by hand: `pkg.partition`
    is the new module, no longer the function."""
    tree = dict(STAR, **{"pkg/partition.py": RECIPES, "pkg/recipes.py": "", "check.py": CHECK})
    tree["pkg/__init__.py"] += "from .partition import partitionby\n"
    for rel, text in tree.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    res = subprocess.run(
        [sys.executable, "-c", "import check; check.check()"], cwd=tmp_path, capture_output=True
    )
    assert res.returncode == 1 and b"'module' object is not callable" in res.stderr


def test_importing_the_name_from_the_new_module_itself_is_kept(make_repo, tmp_path):
    """`from .recipes import partitionby` -> `from .partitionby import partitionby`: the
    submodule loads, then the package rebinds the name (the usual pattern): not refused,
    and `pkg.partitionby` is the function (executed)."""
    files = {
        "pkg/__init__.py": "from .recipes import partitionby\n",
        "pkg/recipes.py": RECIPES,
        "check.py": CHECK.replace("partition(2, 'ab') == 2", "partitionby('ab') == ['a', 'b']"),
    }
    _, _, out = rewrite_and_run(
        make_repo, tmp_path, files, [("pkg.recipes:partitionby", "pkg.partitionby")], "check"
    )
    assert (out / "pkg/__init__.py").read_text() == "from .partitionby import partitionby\n"


def test_a_shadowing_the_tree_already_has_is_carried_not_refused(make_repo):
    """SGLang 0.5.15's `jit_kernel/dsa/__init__.py` binds the function
    `cutedsl_paged_mqa_logits` and then imports the submodule of that name: moving the
    whole package keeps that name in the same namespace, which the plan does not create."""
    init = "from .paged import cute\nfrom .cute import Runner\n"
    files = {
        "a/__init__.py": "",
        "a/dsa/__init__.py": init,
        "a/dsa/paged.py": "def cute():\n    return 1\n",
        "a/dsa/cute.py": "class Runner:\n    pass\n",
        "b/__init__.py": "",
    }
    _, cs = changes(make_repo, files, [("a.dsa", "b.dsa")])
    assert {m.new for m in cs.moves} >= {"b/dsa/cute.py", "b/dsa/__init__.py"}

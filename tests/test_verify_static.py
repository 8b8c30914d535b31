"""verify's static checks on HEAD vs BASE: attribute chains, import-time names, the
organization rules, git integrity. A finding counts only when it is new."""

from __future__ import annotations

import ast
import os
from pathlib import Path

from click.testing import CliRunner
from helpers import git, write_tree

from migrate.cli import main
from migrate.index.bindings import scope_model
from migrate.index.unbound import unbound_at_import, unbound_later
from migrate.verify import verify

MOVE = "version: 1\nmoves:\n  - from: pkg.old\n    to: pkg.new\n"


def cli(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def hand_migration(make_repo, tmp_path, base: dict, head: dict, plan: str = MOVE, gone=()):
    """BASE with `base`, one commit on top writing `head` and removing `gone`; the plan."""
    repo = make_repo(base)
    sha = git(repo, "rev-parse", "HEAD").strip()
    for p in gone:
        git(repo, "rm", "-rq", p)
    write_tree(repo, head)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "by hand")
    plan_file = tmp_path / "plan.yaml"
    plan_file.write_text(plan)
    return repo, sha, plan_file


def findings(repo: Path, base: str, plan: Path, check: str) -> dict[tuple[str, int], str]:
    result = verify(repo, f"{base}..HEAD", str(plan), wheel_check=False, allow_foreign=True)
    by_name = {c.name: c for c in result.static_checks}
    assert check in by_name, [(c.name, c.findings) for c in result.static_checks]
    return {(f.file, f.line): f.severity for f in by_name[check].findings}


STALE = "from pkg import mod\n\n\ndef use():\n    return mod.func() + mod.other()\n"


def test_a_symbol_move_leaving_mod_func_through_from_pkg_import_mod_fails(make_repo, tmp_path):
    """The real engine moves `pkg.mod:func` to `pkg.newmod`; `mod.func()` (reached through
    `from pkg import mod`) must fail verify whether or not the rewriter handles it."""
    repo = make_repo(
        {
            "pkg/__init__.py": "",
            "pkg/mod.py": "def func():\n    return 1\n\n\ndef other():\n    return 2\n",
            "pkg/user.py": STALE,
        }
    )
    plan = tmp_path / "plan.yaml"
    plan.write_text("version: 1\nmoves:\n  - from: pkg.mod:func\n    to: pkg.newmod\n")
    base = git(repo, "rev-parse", "HEAD").strip()
    assert cli("apply", str(plan), "--repo", str(repo)).exit_code == 0
    if (repo / "pkg/user.py").read_text() != STALE:  # the rewriter got it: as if it had not
        (repo / "pkg/user.py").write_text(STALE)
        git(repo, "commit", "-qam", "the stale call, as a rewriter that misses it leaves it")
    res = cli("verify", f"{base}..HEAD", "--repo", str(repo), "--no-wheel", "--allow-foreign")
    assert res.exit_code == 1, res.output
    assert "pkg/user.py:5: mod.func: module pkg.mod has no attribute func" in res.output
    assert "mod.other" not in res.output


BASE_TREE = {
    "pkg/__init__.py": "",
    "pkg/old/__init__.py": "",
    "pkg/old/mod.py": "def f():\n    return 1\n\n\ndef g():\n    return 2\n",
    "pkg/old/sub/__init__.py": "",
    "pkg/old/sub/deep.py": "K = 1\n",
    "pkg/lazy.py": "def __getattr__(name):\n    return name\n",
    "pkg/star.py": "from pkg.lazy import *  # noqa\n",
    "pkg/glob.py": "globals()['made'] = 1\n",
}


def test_attribute_chains_through_every_import_form_resolve_or_fail(make_repo, tmp_path):
    head = {
        "pkg/new/__init__.py": "",
        "pkg/new/mod.py": "def f():\n    return 1\n",  # g is gone
        "pkg/new/sub/__init__.py": "",
        "pkg/new/sub/deep.py": "K = 1\n",
        "pkg/lazy.py": BASE_TREE["pkg/lazy.py"],
        "pkg/star.py": BASE_TREE["pkg/star.py"],
        "pkg/glob.py": BASE_TREE["pkg/glob.py"],
        "pkg/new/rel.py": "from . import mod\nfrom .sub import deep as d\n\n"
        "A = mod.f()\nB = mod.g()\nC = d.K\nD = d.missing\n",
        "pkg/uses.py": (
            "import pkg.new.mod\n"
            "import pkg.new.sub.deep as deep\n"
            "from pkg.new import mod as m\n"
            "from unittest import mock\n"
            "import pkg\n"
            "from pkg import lazy, star, glob\n"
            "\n"
            "pkg.new.mod.f()\n"  # 8 ok
            "pkg.new.mod.g()\n"  # 9 broken
            "deep.K, deep.nope\n"  # 10 broken
            "getattr(m, 'g')\n"  # 11 broken
            "mock.patch.object(m, 'g')\n"  # 12 broken
            "mock.patch('pkg.new.mod.g')\n"  # 13 broken
            "mock.patch('pkg.new.mod.f')\n"  # 14 ok
            "lazy.anything, star.anything, glob.made\n"  # 15 dynamic: ok
            "pkg.new.sub.deep.K\n"  # 16 ok
            "\n"
            "def shadow(m):\n"
            "    return m.g\n"  # 19 a parameter, not the module
            "\n"
            "def local():\n"
            "    from pkg.new import mod as m2\n"
            "    return m2.g\n"  # 23 broken
            "\n"
            "def call():\n"
            "    return pkg.new.sub.deep()\n"  # 26 calls a module
        ),
    }
    repo, base, plan = hand_migration(make_repo, tmp_path, BASE_TREE, head, gone=["pkg/old"])
    assert findings(repo, base, plan, "attributes-resolve") == {
        ("pkg/new/rel.py", 5): "error",
        ("pkg/new/rel.py", 7): "error",
        ("pkg/uses.py", 9): "error",
        ("pkg/uses.py", 10): "error",
        ("pkg/uses.py", 11): "error",
        ("pkg/uses.py", 12): "error",
        ("pkg/uses.py", 13): "error",
        ("pkg/uses.py", 23): "error",
        ("pkg/uses.py", 26): "error",
    }


def test_a_patch_of_a_missing_attribute_passed_by_keyword_fails(make_repo, tmp_path):
    """d12 D2: `patch.object(target=m, attribute="g")`, `monkeypatch.setattr(m, name="g",
    value=v)`: the object and the name passed by keyword are read as the positional
    forms are (`index.bindings.named_call`, which the rewrite reads them by too)."""
    head = {
        "pkg/new/__init__.py": "",
        "pkg/new/mod.py": "def f():\n    return 1\n",  # g is gone
        "pkg/uses.py": (
            "from unittest import mock\n\nfrom pkg.new import mod as m\n\n"
            "mock.patch.object(target=m, attribute='g')\n"  # 5 broken
            "mock.patch.object(m, attribute='f')\n"  # 6 ok
            "def t(monkeypatch):\n"
            "    monkeypatch.setattr(m, name='g', value=1)\n"  # 8 broken
            "    monkeypatch.setattr(target=m, name='f', value=1)\n"  # 9 ok
        ),
    }
    repo, base, plan = hand_migration(make_repo, tmp_path, BASE_TREE, head, gone=["pkg/old"])
    assert findings(repo, base, plan, "attributes-resolve") == {
        ("pkg/uses.py", 5): "error",
        ("pkg/uses.py", 8): "error",
    }


def test_an_attribute_already_missing_at_base_is_a_warning(make_repo, tmp_path):
    base_tree = {**BASE_TREE, "pkg/user.py": "from pkg.old import mod\n\nmod.h()\n"}
    head = {
        "pkg/new/__init__.py": "",
        "pkg/new/mod.py": BASE_TREE["pkg/old/mod.py"],
        "pkg/new/sub/__init__.py": "",
        "pkg/new/sub/deep.py": "K = 1\n",
        "pkg/user.py": "from pkg.new import mod\n\nmod.h()\n",
    }
    repo, base, plan = hand_migration(make_repo, tmp_path, base_tree, head, gone=["pkg/old"])
    assert findings(repo, base, plan, "attributes-resolve") == {("pkg/user.py", 3): "warning"}


def test_names_read_at_import_time_that_nothing_binds():
    src = (
        "from __future__ import annotations\n"
        "import os\n"
        "X = os.sep + MISSING\n"  # 3
        "@decorator\n"  # 4
        "def f(a: Later = default):\n"  # 5 default (annotations are lazy)
        "    return undefined_in_body\n"
        "class C(Base):\n"  # 7
        "    y = X\n"
        "    z = y + nowhere\n"  # 9
        "try:\n    import fast\nexcept ImportError:\n    fast = None\n"
        "print(fast, [i for i in range(3)], len)\n"
    )
    names = {(line, n) for line, n in unbound_at_import(ast.parse(src))}
    assert names == {
        (3, "MISSING"),
        (4, "decorator"),
        (5, "default"),
        (7, "Base"),
        (9, "nowhere"),
    }


def test_a_written_file_that_reads_an_unbound_name_at_import_fails(make_repo, tmp_path):
    base_tree = {
        **BASE_TREE,
        "pkg/user.py": "from pkg.old.mod import f as helper\n\nVALUE = helper()\n",
        "pkg/legacy.py": "OLD = undefined_before\n",
    }
    head = {
        "pkg/new/__init__.py": "",
        "pkg/new/mod.py": BASE_TREE["pkg/old/mod.py"],
        "pkg/new/sub/__init__.py": "",
        "pkg/new/sub/deep.py": "K = 1\n",
        "pkg/user.py": "from pkg.new.mod import f\n\nVALUE = helper()\n",
        "pkg/legacy.py": "OLD = undefined_before\n\n",
    }
    repo, base, plan = hand_migration(make_repo, tmp_path, base_tree, head, gone=["pkg/old"])
    assert findings(repo, base, plan, "import-time-names") == {
        ("pkg/user.py", 3): "error",
        ("pkg/legacy.py", 1): "warning",
    }


def test_a_deleted_group_left_in_groups_fails_through_the_organization_rules(make_repo, tmp_path):
    ops = "python/sglang/kernels/ops"
    repo = make_repo(
        {
            "python/sglang/__init__.py": "",
            "python/sglang/kernels/__init__.py": "",
            "python/sglang/kernels/README.md": "Operator groups (all populated): `a` and `b`.\n",
            f"{ops}/__init__.py": 'import importlib\n\n_GROUPS = ("a", "b")\n\n'
            'for _g in _GROUPS:\n    importlib.import_module(f"{__name__}.{_g}")\n',
            f"{ops}/a/__init__.py": "X = 1\n",
            f"{ops}/b/__init__.py": "Y = 2\n",
            f"{ops}/b/impl.py": "def f():\n    return 1\n",
        }
    )
    plan = tmp_path / "plan.yaml"
    plan.write_text(
        "version: 1\nroots: [python]\nmoves:\n  - from: sglang.kernels.ops.b.impl\n"
        "    to: sglang.kernels.ops.a.impl\ndelete: [sglang.kernels.ops.b]\n"
    )
    base = git(repo, "rev-parse", "HEAD").strip()
    refused = cli("apply", str(plan), "--repo", str(repo))
    assert refused.exit_code == 2 and "KO102" in refused.output  # apply warns first
    forced = cli("apply", str(plan), "--repo", str(repo), "--allow-rule-errors")
    assert forced.exit_code == 0, forced.output
    res = cli("verify", f"{base}..HEAD", "--repo", str(repo), "--no-wheel")
    assert res.exit_code == 1, res.output
    assert f"{ops}/__init__.py:3: KO102 _GROUPS lists 'b' but ops/b/ does not exist" in res.output
    assert "FAIL check organization-rules" in res.output


def test_a_dangling_symlink_and_a_gitlink_without_gitmodules_fail(make_repo, tmp_path):
    repo = make_repo({**BASE_TREE, "pkg/old/data.json": "{}\n"}, git_init=False)
    os.symlink("old/data.json", repo / "pkg/data.json")  # follows the move: dangles at HEAD
    os.symlink("nowhere.txt", repo / "pkg/broken_before")
    from helpers import init_repo

    init_repo(repo)
    base = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "mv", "pkg/old", "pkg/new")
    sha = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "update-index", "--add", "--cacheinfo", f"160000,{sha},vendor/lib")
    git(repo, "commit", "-qm", "moved by hand, a submodule added without .gitmodules")
    plan = tmp_path / "plan.yaml"
    plan.write_text(MOVE)
    assert findings(repo, base, plan, "git-integrity") == {
        ("pkg/data.json", 0): "error",
        ("vendor/lib", 0): "error",
        ("pkg/broken_before", 0): "warning",
    }


def test_a_submodule_left_behind_in_a_moved_package_fails(make_repo, tmp_path):
    """gitlink and `.gitmodules` agree, both at the old path: consistent, and not moved."""
    repo = make_repo(BASE_TREE)
    sha = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "update-index", "--add", "--cacheinfo", f"160000,{sha},pkg/old/vendored")
    (repo / ".gitmodules").write_text('[submodule "v"]\n\tpath = pkg/old/vendored\n')
    git(repo, "add", ".gitmodules")
    git(repo, "commit", "-qm", "submodule")
    base = git(repo, "rev-parse", "HEAD").strip()
    (repo / "pkg/new").mkdir()
    for name in ("__init__.py", "mod.py", "sub"):
        git(repo, "mv", f"pkg/old/{name}", f"pkg/new/{name}")
    git(repo, "commit", "-qm", "moved by hand, the submodule forgotten")
    plan = tmp_path / "plan.yaml"
    plan.write_text(MOVE)
    assert findings(repo, base, plan, "git-integrity") == {("pkg/new/vendored", 0): "error"}


def test_a_moved_file_that_went_missing_fails_unless_the_plan_removes_it(make_repo, tmp_path):
    base_tree = {
        **BASE_TREE,
        "pkg/old/configs/a.json": "{}\n",
        "pkg/legacy/__init__.py": "",
    }
    head = {
        "pkg/new/__init__.py": "",
        "pkg/new/mod.py": BASE_TREE["pkg/old/mod.py"],
        "pkg/new/sub/__init__.py": "",
        "pkg/new/sub/deep.py": "K = 1\n",
    }
    plan = MOVE + "delete: [pkg.legacy]\n"
    repo, base, plan_file = hand_migration(
        make_repo, tmp_path, base_tree, head, plan, gone=["pkg/old", "pkg/legacy"]
    )
    assert findings(repo, base, plan_file, "no-lost-files") == {
        ("pkg/new/configs/a.json", 0): "error"
    }


def test_a_split_that_drops_a_test_case_fails(make_repo, tmp_path):
    base_tree = {
        **BASE_TREE,
        "tests/test_ab.py": "def test_a():\n    pass\n\n\ndef test_b():\n    pass\n",
    }
    plan = MOVE + (
        "splits:\n  - file: tests/test_ab.py\n    into:\n"
        "      - path: tests/test_a.py\n        take: [test_a]\n"
        "      - path: tests/test_b.py\n        take: [rest]\n"
    )
    head = {
        "pkg/new/__init__.py": "",
        "pkg/new/mod.py": BASE_TREE["pkg/old/mod.py"],
        "pkg/new/sub/__init__.py": "",
        "pkg/new/sub/deep.py": "K = 1\n",
        "tests/test_a.py": "def test_a():\n    pass\n",
        "tests/test_b.py": "import os\n",
    }
    repo, base, plan_file = hand_migration(
        make_repo, tmp_path, base_tree, head, plan, gone=["pkg/old", "tests/test_ab.py"]
    )
    found = findings(repo, base, plan_file, "tests-kept")
    assert found and all(sev == "error" for sev in found.values()), found
    result = verify(repo, f"{base}..HEAD", str(plan_file), wheel_check=False, allow_foreign=True)
    chk = next(c for c in result.static_checks if c.name == "tests-kept")
    assert any("test_b" in f.message for f in chk.findings), chk.findings


def test_a_del_of_a_submodule_name_the_package_no_longer_binds_fails(make_repo, tmp_path):
    """toolz's shape: `from .exceptions import merge` binds `exceptions` in the package
    `__init__`, which then does `del exceptions`. The module renamed and the import
    re-spelled by hand, but the `del` left: a NameError on import that verify passed.
    At BASE the implicit binding counts (no finding); at HEAD the `del` is an error."""
    init = "from .exceptions import merge\n\nX = merge\ndel exceptions\n"
    base_tree = {
        "pkg/__init__.py": "",
        "pkg/cur/__init__.py": init,
        "pkg/cur/exceptions.py": "def merge():\n    return 1\n",
    }
    head = {
        "pkg/cur/__init__.py": init.replace("from .exceptions", "from .dictops"),
        "pkg/cur/dictops.py": base_tree["pkg/cur/exceptions.py"],
    }
    plan = "version: 1\nmoves:\n  - from: pkg.cur.exceptions\n    to: pkg.cur.dictops\n"
    repo, base, plan_file = hand_migration(
        make_repo, tmp_path, base_tree, head, plan, gone=["pkg/cur/exceptions.py"]
    )
    assert findings(repo, base, plan_file, "import-time-names") == {
        ("pkg/cur/__init__.py", 4): "error"
    }
    assert unbound_at_import(ast.parse(init), "pkg.cur", True) == []
    assert unbound_at_import(ast.parse(init), "pkg.cur", False) == [(4, "exceptions")]


def test_names_read_later_that_nothing_binds():
    """Function bodies, lazy and string annotations; not a `Literal`'s strings, an
    `Annotated`'s metadata (also through an alias: SGLang's `A`) nor the strings of a
    call's arguments inside an annotation (`Arg(help=...)`); `global` and `:=` names
    count as bound."""
    src = (
        "from __future__ import annotations\n"  # 1
        "from typing import Annotated, Literal\n"  # 2
        "def f(x: Num, y: 'Pair') -> Literal['not_a_name']:\n"  # 3
        "    global G\n"  # 4
        "    G = [w for v in x if (w := v)]\n"  # 5
        "    return gone + G + w + len(x)\n"  # 6
        "def g(z: Annotated[int, 'meta data']) -> 'list[Later]':\n"  # 7
        "    return lambda: G + lost\n"  # 8
        "VALUE = f\n"  # 9
        "from typing import Annotated as A\n"  # 10
        "from elsewhere import Arg\n"  # 11
        "def h(a: A[int, 'meta'], b: Arg[str, Arg(help='verbose')]) -> 'Gone': ...\n"  # 12
    )
    tree = ast.parse(src)
    model = scope_model(tree, src, "pkg.mod", False)
    assert set(unbound_later(model, tree, src)) == {
        (3, "Num"),
        (3, "Pair"),
        (6, "gone"),
        (7, "Later"),
        (8, "lost"),
        (12, "Gone"),
    }
    assert unbound_at_import(tree) == []  # none of them runs on import


HUMANIZE = (
    "from __future__ import annotations\n\nfrom typing import TYPE_CHECKING\n\n"
    "if TYPE_CHECKING:\n    Num = int | float\n\n\n"
    "def intcomma(x: Num) -> str:\n    return str(x) + missing_before\n\n\n"
    "def keep(x: Num) -> Num:\n    return x\n"
)


def test_a_moved_def_whose_lazy_annotation_lost_its_alias_fails(make_repo, tmp_path):
    """Defect B as the old engine wrote it: `pkg/grouping.py` annotates with `Num`, which
    only the source's `if TYPE_CHECKING:` bound; it imports fine, and verify passed. A
    name the moved code read unbound at BASE already (`missing_before`) is a warning."""
    base_tree = {"pkg/__init__.py": "", "pkg/number.py": HUMANIZE}
    moved = "def intcomma(x: Num) -> str:\n    return str(x) + missing_before\n"
    head = {
        "pkg/number.py": HUMANIZE.replace(moved + "\n\n", ""),
        "pkg/grouping.py": "from __future__ import annotations\n\n\n" + moved,
    }
    plan = "version: 1\nmoves:\n  - from: pkg.number:intcomma\n    to: pkg.grouping\n"
    repo, base, plan_file = hand_migration(make_repo, tmp_path, base_tree, head, plan)
    assert findings(repo, base, plan_file, "deferred-names") == {
        ("pkg/grouping.py", 4): "error",  # Num: a type checker rejects it
        ("pkg/grouping.py", 5): "warning",  # missing_before: so at BASE
    }
    assert findings(repo, base, plan_file, "import-time-names") == {}


def test_a_star_import_gives_only_what_all_lists_to_attribute_chains(make_repo, tmp_path):
    """`pkg/__init__` does `from .core import *` and `core.__all__` lists only `a`: `pkg.b`
    does not exist (Python raises AttributeError), though `core` binds `b`. verify said it
    resolves: a public name the literal `__all__` leaves out was still looked up through
    the star (a PASS on a broken tree)."""
    base = {
        "pkg/__init__.py": "from .core import *\n",
        "pkg/core.py": "__all__ = ['a']\na = 1\nb = 2\n",
        "pkg/old/__init__.py": "",
        "pkg/use.py": "import pkg\n\nX = pkg.a\n",
    }
    head = {"pkg/new/__init__.py": "", "pkg/use.py": "import pkg\n\nX = pkg.a\nY = pkg.b\n"}
    repo, sha, plan = hand_migration(make_repo, tmp_path, base, head, gone=["pkg/old"])
    assert findings(repo, sha, plan, "attributes-resolve") == {("pkg/use.py", 4): "error"}
